// The multibody system's derivatives: the Jacobian the implicit methods solve
// with (force_derivatives, jacobian) and friction's damping by speed.
#include "dropsim/sim/multibody_system.hpp"

#include <algorithm>
#include <cmath>

namespace dropsim {

FrictionSlope MultibodySystem::friction_by_speed(const Contact& c, const ContactPoses& poses,
                                                 const ContactSlip& slip, const ContactKinematics& k,
                                                 const ContactResponse& response, Matrix& by_speed) const {
  std::array<Eigen::Matrix<double, 3, 6>, 2> g;  // per body, at the contact point
  for (int s = 0; s < contact_bodies(c); ++s)
    g[s] = point_velocity_jacobian(m_.bodies[c.body[s]], *poses[s], slip.point);
  const FrictionSlope slope = friction_slope(c.law.friction, slip.speed, slip.speed_squared);
  const double lambda = c.count * response.force, per_gap_rate = c.count * response.damping;
  const Eigen::Vector3d& vt = slip.tangential;
  const Eigen::Matrix3d tangent_plane = Eigen::Matrix3d::Identity() - k.normal * k.normal.transpose();
  // By speed, exact: F = -lambda (mu/s) v_t, with v_t = P sum_t side_t G_t u_t
  // and lambda's own rate term (the normal damping).
  for (int t = 0; t < contact_bodies(c); ++t) {
    const Body& bt = m_.bodies[c.body[t]];
    const int nt = num_speeds(bt.joint);
    const Eigen::Matrix<double, 3, 6> slip_per_speed = contact_side(c, t) * tangent_plane * g[t];
    Eigen::Matrix<double, 3, 6> force_per_speed =
        -lambda * (slope.per_slip * slip_per_speed + slope.change_per_slip * vt * (vt.transpose() * slip_per_speed));
    force_per_speed.leftCols(nt) += (per_gap_rate * slope.per_slip) * vt * k.row[t].head(nt).transpose();
    for (int s = 0; s < contact_bodies(c); ++s) {
      const Body& bs = m_.bodies[c.body[s]];
      const int ns = num_speeds(bs.joint);
      by_speed.block(bs.u_offset, bt.u_offset, ns, nt).noalias() +=
          contact_side(c, s) * g[s].leftCols(ns).transpose() * force_per_speed.leftCols(nt);
    }
  }
  return slope;
}

Eigen::MatrixXd MultibodySystem::friction_damping(const Vector& x) const {
  Matrix by_speed = Matrix::Zero(m_.nu, m_.nu);
  body_poses(m_, x.head(m_.nq), poses_);
  const double* u = x.data() + m_.nq;
  for (const Contact& c : m_.contacts) {
    if (!c.law.friction.acts()) continue;
    const ContactPoses poses = contact_poses(c, poses_);
    const ContactKinematics k = acting_kinematics(c, poses, u);
    const ContactResponse response = contact_response(c.law, -k.gap, -k.gap_rate);
    if (response.force != 0.0) friction_by_speed(c, poses, contact_slip(m_, c, poses, u, k), k, response, by_speed);
  }
  return -by_speed;
}

namespace {

// Speed coordinate j of a body as a configuration increment: the centre's
// displacement and the world rotation vector (every body point X moves by
// centre + turn x (X - com)), as advance_configuration applies it.
struct BodyIncrement {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero(), turn = Eigen::Vector3d::Zero();
};
BodyIncrement body_increment(const Body& b, const BodyPose& pose, int j) {
  BodyIncrement d;
  switch (b.joint) {
    case Joint::vertical: d.centre.y() = 1.0; break;
    case Joint::planar:
      if (j < 2) d.centre[j] = 1.0;
      else d.turn.z() = 1.0;
      break;
    case Joint::free:
      if (j < 3) d.centre[j] = 1.0;
      else d.turn = pose.rotation.col(j - 3);  // body-frame increments
      break;
  }
  return d;
}

}  // namespace

void MultibodySystem::friction_derivatives(const Contact& c, const double* u, const ContactPoses& poses,
                                           const ContactKinematics& k, const ContactResponse& response,
                                           const std::array<Eigen::Matrix<double, 1, 6>, 2>& normal_slope,
                                           Matrix& by_increment, Matrix& by_speed) const {
  const ContactSlip slip = contact_slip(m_, c, poses, u, k);
  const FrictionSlope slope = friction_by_speed(c, poses, slip, k, response, by_speed);
  // By configuration, exact (docs/physics.md#the-exact-multibody-jacobian):
  // F = -lambda (mu/s) v_t at the contact point p, acting as side_s G_s(p)^T F
  // on body s. Moving a body changes lambda (normal_slope is -d(lambda)/d(xi)),
  // the sphere centres, so the gap, the normal (between spheres) and p, the
  // velocities of the bodies' points at p, and the arms of G^T.
  const int bodies = contact_bodies(c);
  const bool between_spheres = c.type == ContactType::sphere_sphere;
  const double lambda = c.count * response.force;
  const Eigen::Vector3d& n = k.normal;
  const Eigen::Vector3d& p = slip.point;
  const Eigen::Vector3d& vt = slip.tangential;
  const Eigen::Vector3d force = -(lambda * slope.per_slip) * vt;
  std::array<Eigen::Vector3d, 2> centre, omega, arm;  // sphere centres, world angular velocities, p - com
  for (int s = 0; s < bodies; ++s) {
    centre[s] = body_point(*poses[s], c.at[s]);
    omega[s] = body_motion(m_.bodies[c.body[s]], *poses[s], u).angular;
    arm[s] = p - poses[s]->com;
  }
  const double reach = c.radius[0] + 0.5 * k.gap, distance = k.gap + c.radius[0] + c.radius[1];
  for (int t = 0; t < bodies; ++t) {
    const Body& bt = m_.bodies[c.body[t]];
    for (int j = 0; j < num_speeds(bt.joint); ++j) {
      const BodyIncrement d = body_increment(bt, *poses[t], j);
      // The centres, the gap, the normal and the contact point.
      const Eigen::Vector3d moved = d.centre + d.turn.cross(centre[t] - poses[t]->com);
      const Eigen::Vector3d apart = contact_side(c, t) * moved;  // d(centre B - centre A), or d(centre A) on a plane
      const double gap_change = n.dot(apart);
      const Eigen::Vector3d normal_change = between_spheres && distance > 0.0
                                                ? Eigen::Vector3d((apart - n * gap_change) / distance)
                                                : Eigen::Vector3d::Zero();
      const Eigen::Vector3d centre_a = t == 0 ? moved : Eigen::Vector3d::Zero();
      const Eigen::Vector3d point_change =
          between_spheres ? Eigen::Vector3d(centre_a + 0.5 * gap_change * n + reach * normal_change)
                          : Eigen::Vector3d(centre_a - 0.5 * gap_change * n);
      // The slip velocity: each body's velocity at the moving point, the moved body's turned spin.
      Eigen::Vector3d slip_change = Eigen::Vector3d::Zero();
      std::array<Eigen::Vector3d, 2> arm_change;
      for (int s = 0; s < bodies; ++s) {
        arm_change[s] = s == t ? Eigen::Vector3d(point_change - d.centre) : point_change;
        Eigen::Vector3d v = omega[s].cross(arm_change[s]);
        if (s == t) v += d.turn.cross(omega[s]).cross(arm[s]);
        slip_change += contact_side(c, s) * v;
      }
      // v_t = v - n (n . v), v the relative velocity at p. Its normal part n . v is the gap rate (p lies on
      // the line of the centres, so the spins add nothing along n), and the normal turns perpendicular to
      // n, so normal_change . v = normal_change . v_t.
      const Eigen::Vector3d tangential_change = slip_change - normal_change * k.gap_rate -
                                                n * (normal_change.dot(vt) + n.dot(slip_change));
      const double lambda_change = -normal_slope[t][j];
      const Eigen::Vector3d force_change =
          -(lambda_change * slope.per_slip) * vt -
          lambda * (slope.per_slip * tangential_change + slope.change_per_slip * vt.dot(tangential_change) * vt);
      // side_s G_s^T F: the force's change, and the arms' (and, turning, the frame's) change.
      for (int s = 0; s < bodies; ++s) {
        const Body& bs = m_.bodies[c.body[s]];
        const double side = contact_side(c, s);
        double* column = &by_increment(bs.u_offset, bt.u_offset + j);
        add_point_force(bs, *poses[s], p, side * force_change, column);
        if (bs.joint == Joint::planar) {
          column[2] += side * (arm_change[s].x() * force.y() - arm_change[s].y() * force.x());
        } else if (bs.joint == Joint::free) {
          Eigen::Vector3d moment_change = arm_change[s].cross(force);
          if (s == t) moment_change -= d.turn.cross(arm[s].cross(force));  // R^T turns with the body
          Eigen::Map<Eigen::Vector3d>(column + 3) += side * (poses[s]->rotation.transpose() * moment_change);
        }
      }
    }
  }
}

void MultibodySystem::force_derivatives(const Vector& x, Matrix& by_increment, Matrix& by_speed) const {
  const int nq = m_.nq, nu = m_.nu;
  const auto q = x.head(nq);
  const auto u = x.tail(nu);
  by_increment.setZero(nu, nu);
  by_speed.setZero(nu, nu);

  // Contacts: lambda = count F(-gap, -gap_rate) acts along row[s] on body s.
  body_poses(m_, q, poses_);
  for (const Contact& c : m_.contacts) {
    const ContactPoses poses = contact_poses(c, poses_);
    const ContactKinematics k = acting_kinematics(c, poses, x.data() + nq);
    const ContactResponse response = contact_response(c.law, -k.gap, -k.gap_rate);
    if (response.force == 0.0 && response.stiffness == 0.0 && response.damping == 0.0) continue;
    const double lambda = c.count * response.force;
    const double per_gap = c.count * response.stiffness, per_gap_rate = c.count * response.damping;
    const RowDerivatives d = contact_row_derivatives(m_, c, poses, k);
    const int bodies = contact_bodies(c);
    // -d(lambda)/d(xi_t): the gap's and the gap rate's change.
    std::array<Eigen::Matrix<double, 1, 6>, 2> normal_slope;
    for (int t = 0; t < bodies; ++t) {
      const int nt = num_speeds(m_.bodies[c.body[t]].joint);
      normal_slope[t] = per_gap * k.row[t].transpose();
      for (int s = 0; s < bodies; ++s) {
        const Body& bs = m_.bodies[c.body[s]];
        const int ns = num_speeds(bs.joint);
        normal_slope[t].head(nt).noalias() +=
            (per_gap_rate * u.segment(bs.u_offset, ns).transpose()) * d[s][t].topLeftCorner(ns, nt);
      }
    }
    if (c.law.friction.acts() && response.force != 0.0)
      friction_derivatives(c, x.data() + nq, poses, k, response, normal_slope, by_increment, by_speed);
    for (int t = 0; t < bodies; ++t) {
      const Body& bt = m_.bodies[c.body[t]];
      const int nt = num_speeds(bt.joint);
      const auto slope = normal_slope[t].head(nt);
      for (int s = 0; s < bodies; ++s) {
        const Body& bs = m_.bodies[c.body[s]];
        const int ns = num_speeds(bs.joint);
        const auto row = k.row[s].head(ns);
        by_increment.block(bs.u_offset, bt.u_offset, ns, nt) += lambda * d[s][t].topLeftCorner(ns, nt);
        by_increment.block(bs.u_offset, bt.u_offset, ns, nt).noalias() -= row * slope;
        by_speed.block(bs.u_offset, bt.u_offset, ns, nt).noalias() -=
            (per_gap_rate * row) * k.row[t].head(nt).transpose();
      }
    }
  }

  // Euler's gyroscopic term -w x I w.
  for (const Body& b : m_.bodies) {
    if (b.joint != Joint::free) continue;
    const Eigen::Vector3d om = u.segment<3>(b.u_offset + 3);
    by_speed.block<3, 3>(b.u_offset + 3, b.u_offset + 3) += cross_matrix(b.inertia * om) - cross_matrix(om) * b.inertia;
  }
}

void MultibodySystem::jacobian(const Vector& x, double /*t*/, Matrix& dfdx) const {
  const int nq = m_.nq, nu = m_.nu;
  const auto q = x.head(nq);
  const auto u = x.tail(nu);
  dfdx.setZero(nq + nu, nq + nu);
  Matrix& by_increment = jacobian_work_[0];
  Matrix& by_speed = jacobian_work_[1];
  force_derivatives(x, by_increment, by_speed);

  for (std::size_t i = 0; i < m_.bodies.size(); ++i) {
    const Body& b = m_.bodies[i];
    const int o = b.q_offset, p = b.u_offset, n = num_speeds(b.joint);
    // Position rates: identity blocks, and the quaternion kinematics of position_rate().
    const int translations = b.joint == Joint::free ? 3 : n;
    dfdx.block(o, nq + p, translations, translations).setIdentity();
    if (b.joint == Joint::free) {
      const double w = x[o + 3];
      const Eigen::Vector3d v = x.segment<3>(o + 4), om = u.segment<3>(p + 3);
      dfdx.block<1, 3>(o + 3, nq + p + 3) = -0.5 * v.transpose();
      dfdx.block<3, 3>(o + 4, nq + p + 3) = 0.5 * (w * Eigen::Matrix3d::Identity() + cross_matrix(v));
      dfdx.block<1, 3>(o + 3, o + 4) = -0.5 * om.transpose();
      dfdx.block<3, 1>(o + 4, o + 3) = 0.5 * om;
      dfdx.block<3, 3>(o + 4, o + 4) = -0.5 * cross_matrix(om);
    }
    // Accelerations: the body's inverse mass applied to its rows, as operator() does.
    apply_inverse_mass(i, by_increment.middleRows(p, n));
    apply_inverse_mass(i, by_speed.middleRows(p, n));
    dfdx.block(nq + p, nq, n, nu) = by_speed.middleRows(p, n);
  }
  // Configuration increments mapped to the coordinates q (quaternions: kinematics.hpp).
  for (const Body& b : m_.bodies) {
    const int o = b.q_offset, p = b.u_offset;
    if (b.joint != Joint::free) {
      dfdx.block(nq, o, nu, num_speeds(b.joint)) = by_increment.middleCols(p, num_speeds(b.joint));
      continue;
    }
    dfdx.block(nq, o, nu, 3) = by_increment.middleCols(p, 3);
    dfdx.block(nq, o + 3, nu, 4).noalias() = by_increment.middleCols(p + 3, 3) * rotation_per_quaternion(q, o);
  }
}

}  // namespace dropsim
