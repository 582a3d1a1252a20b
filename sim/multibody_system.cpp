// The multibody equations of motion: generalised forces, Newton–Euler, and the Jacobian.
#include "dropsim/sim/multibody_system.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dropsim {

Eigen::MatrixXd mass_matrix(const MultibodyModel& model) {
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(model.nu, model.nu);
  for (const auto& b : model.bodies) {
    const int p = b.u_offset;
    switch (b.joint) {
      case Joint::vertical: m(p, p) = b.mass; break;
      case Joint::planar:
        m(p, p) = m(p + 1, p + 1) = b.mass;
        m(p + 2, p + 2) = b.inertia(2, 2);
        break;
      case Joint::free:
        m.block<3, 3>(p, p) = b.mass * Eigen::Matrix3d::Identity();
        m.block<3, 3>(p + 3, p + 3) = b.inertia;
        break;
    }
  }
  return m;
}

MultibodySystem::MultibodySystem(const MultibodyModel& model) : m_(model) {
  for (const auto& b : m_.bodies) {
    if (!(b.mass > 0.0)) throw std::invalid_argument("body " + b.name + ": mass must be > 0");
    inverse_inertia_.push_back(b.joint == Joint::free ? Eigen::Matrix3d(b.inertia.inverse()) : Eigen::Matrix3d::Zero());
  }
  for (const auto& c : m_.contacts) switch_count_ += contact_switch_count(c.law);
  // Sized once: a right-hand side allocates nothing.
  poses_.resize(m_.bodies.size());
  motions_.resize(m_.bodies.size());
  wrenches_.resize(m_.bodies.size());
}

void MultibodySystem::position_rate(const Vector& x, Vector& dxdt) const {
  const int nq = m_.nq;
  for (const auto& b : m_.bodies) {
    const int o = b.q_offset, p = nq + b.u_offset;
    if (b.joint != Joint::free) {
      dxdt.segment(o, num_speeds(b.joint)) = x.segment(p, num_speeds(b.joint));
      continue;
    }
    dxdt.segment<3>(o) = x.segment<3>(p);
    // Quaternion kinematics with body-frame w: qdot = 1/2 q (x) (0, w).
    const double w = x[o + 3];
    const Eigen::Vector3d v = x.segment<3>(o + 4), om = x.segment<3>(p + 3);
    dxdt[o + 3] = -0.5 * v.dot(om);
    dxdt.segment<3>(o + 4) = 0.5 * (w * om + v.cross(om));
  }
}

namespace {

// Whether contact c's law reads the gap rate (and so the rows) at k's gap:
// apart, a law that pushes only in contact does not. A NaN gap reads them.
bool law_reads_rate(const Contact& c, const ContactGap& k) {
  return !(k.gap >= 0.0) || !pushes_only_in_contact(c.law);
}

}  // namespace

ContactKinematics MultibodySystem::acting_kinematics(const Contact& c, const ContactPoses& poses,
                                                     const double* u) const {
  ContactKinematics k{contact_separation(c, poses)};
  if (law_reads_rate(c, k)) add_contact_rows(m_, c, poses, u, k);
  return k;
}

void MultibodySystem::place_bodies(const Eigen::Ref<const Vector>& x) const {
  body_poses(m_, x.head(m_.nq), poses_);
  const double* u = x.data() + m_.nq;
  for (std::size_t i = 0; i < m_.bodies.size(); ++i) motions_[i] = body_motion(m_.bodies[i], poses_[i], u);
}

// Inlined into both callers, as the per-contact kinematics it calls (sim/kinematics.hpp).
[[gnu::always_inline]] inline ContactGap MultibodySystem::acting_gap(const Contact& c) const {
  ContactGap k = contact_separation(c, contact_poses(c, poses_));
  if (law_reads_rate(c, k)) k.gap_rate = contact_gap_rate(c, contact_motions(c, motions_), k);
  return k;
}

void MultibodySystem::applied_forces(const Eigen::Ref<const Vector>& x, Eigen::Ref<Vector> f, double* forces,
                                     double* tangential, double* slip_speeds, double* vertical,
                                     double* indentations) const {
  contact_forces<true>(x, f.data(), forces, tangential, slip_speeds, vertical, indentations);
}

void MultibodySystem::contact_columns(const Eigen::Ref<const Vector>& x, double* forces, double* tangential,
                                      double* slip_speeds, double* vertical, double* indentations) const {
  contact_forces<false>(x, nullptr, forces, tangential, slip_speeds, vertical, indentations);
}

template <bool generalised>
void MultibodySystem::contact_forces(const Eigen::Ref<const Vector>& x, double* f, double* forces, double* tangential,
                                     double* slip_speeds, double* vertical, double* indentations) const {
  place_bodies(x);
  // Each body's contact forces are summed as one world force and moment about
  // its centre of mass and turned into generalised forces once: per contact,
  // turning every force into the body's frame cost a rotation more.
  if constexpr (generalised)
    for (std::size_t b = 0; b < m_.bodies.size(); ++b)
      wrenches_[b] = {Eigen::Vector3d(0.0, -m_.bodies[b].mass * m_.gravity, 0.0), Eigen::Vector3d::Zero()};
  for (std::size_t i = 0; i < m_.contacts.size(); ++i) {
    const Contact& c = m_.contacts[i];
    const ContactGap k = acting_gap(c);
    const double per_sphere = contact_force(c.law, -k.gap, -k.gap_rate);
    if (forces) forces[i] = per_sphere;
    if (tangential) tangential[i] = 0.0;
    if (slip_speeds) slip_speeds[i] = 0.0;
    if (vertical) vertical[i] = per_sphere * k.normal.y();
    if (indentations) indentations[i] = -k.gap;
    if (per_sphere == 0.0) continue;
    const double lambda = c.count * per_sphere;  // along +gap: pushes the bodies apart
    const ContactPoses poses = contact_poses(c, poses_);
    if constexpr (generalised) {
      const Eigen::Vector3d push = lambda * k.normal;  // on B, through the sphere centres
      for (int s = 0; s < contact_bodies(c); ++s) {
        Wrench& w = wrenches_[static_cast<std::size_t>(c.body[s])];
        const double side = contact_side(c, s);
        w.force += side * push;
        w.moment += k.arm[s].cross(side * push);
      }
    }
    if (!c.law.friction.acts()) continue;
    // Friction opposes B's slip on A at the contact point, in proportion to the
    // normal force as the law computes it (docs/physics.md#friction).
    const ContactSlip slip = contact_slip(c, poses, contact_motions(c, motions_), k);
    const double per_slip = friction_slope(c.law.friction, slip.speed, slip.speed_squared).per_slip;
    if constexpr (generalised) {
      const Eigen::Vector3d friction = -(lambda * per_slip) * slip.tangential;
      for (int s = 0; s < contact_bodies(c); ++s) {
        Wrench& w = wrenches_[static_cast<std::size_t>(c.body[s])];
        const Eigen::Vector3d on_body = contact_side(c, s) * friction;
        w.force += on_body;
        w.moment += (slip.point - poses[s]->com).cross(on_body);
      }
    }
    // Per sphere, F_n mu/s v_t: the friction over the count, without dividing by it.
    const double slip_speed = tangential || slip_speeds ? slip.tangential.norm() : 0.0;
    if (tangential) tangential[i] = per_sphere * std::abs(per_slip) * slip_speed;
    if (slip_speeds) slip_speeds[i] = slip_speed;
    if (vertical) vertical[i] -= per_sphere * per_slip * slip.tangential.y();
  }
  if constexpr (generalised) {
    for (int j = 0; j < m_.nu; ++j) f[j] = 0.0;
    for (std::size_t b = 0; b < m_.bodies.size(); ++b) {
      const Body& body = m_.bodies[b];
      add_body_wrench(body, poses_[b], wrenches_[b].force, wrenches_[b].moment, f + body.u_offset);
    }
  }
}

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

void MultibodySystem::operator()(const Vector& x, Vector& dxdt, double /*t*/) const {
  position_rate(x, dxdt);
  auto a = dxdt.tail(m_.nu);
  applied_forces(x, a);
  for (std::size_t i = 0; i < m_.bodies.size(); ++i) {
    const Body& b = m_.bodies[i];
    const int p = b.u_offset;
    if (b.joint == Joint::free) {
      // Euler's equations in the body frame: I wdot = tau - w x I w.
      const Eigen::Vector3d om = x.segment<3>(m_.nq + p + 3);
      a.segment<3>(p + 3) -= om.cross(b.inertia * om);
    }
    apply_inverse_mass(i, a.segment(p, num_speeds(b.joint)));
  }
}

template <class Rows>
void MultibodySystem::apply_inverse_mass(std::size_t i, Rows&& rows) const {
  const Body& b = m_.bodies[i];
  switch (b.joint) {
    case Joint::vertical: rows /= b.mass; break;
    case Joint::planar:
      rows.topRows(2) /= b.mass;
      rows.row(2) /= b.inertia(2, 2);
      break;
    case Joint::free:
      rows.topRows(3) /= b.mass;
      for (Eigen::Index j = 0; j < rows.cols(); ++j) {  // column by column: no temporary
        const Eigen::Vector3d turned = inverse_inertia_[i] * rows.col(j).template tail<3>();
        rows.col(j).template tail<3>() = turned;
      }
      break;
  }
}

void MultibodySystem::switches(const Vector& x, double* out) const {
  place_bodies(x);
  for (const auto& c : m_.contacts) {
    const ContactGap k = acting_gap(c);
    contact_switches(c.law, -k.gap, -k.gap_rate, out);
    out += contact_switch_count(c.law);
  }
}

void MultibodySystem::project(Vector& x) const {
  for (const auto& b : m_.bodies)
    if (b.joint == Joint::free) x.segment<4>(b.q_offset + 3).normalize();
}

MultibodySystem::Vector MultibodySystem::model_scaled_atol(double rtol) const {
  const double length = m_.characteristic_length;
  // Zero gravity still needs a speed scale: take standard gravity's.
  const double g = m_.gravity > 0.0 ? m_.gravity : standard_gravity;
  const double speed = std::sqrt(g * length), rate = std::sqrt(g / length);
  Vector atol(size());
  for (const auto& b : m_.bodies) {
    const int o = b.q_offset, p = m_.nq + b.u_offset;
    switch (b.joint) {
      case Joint::vertical:
        atol[o] = length;
        atol[p] = speed;
        break;
      case Joint::planar:
        atol.segment<3>(o) << length, length, 1.0;
        atol.segment<3>(p) << speed, speed, rate;
        break;
      case Joint::free:
        atol.segment<3>(o).setConstant(length);
        atol.segment<4>(o + 3).setConstant(1.0);
        atol.segment<3>(p).setConstant(speed);
        atol.segment<3>(p + 3).setConstant(rate);
        break;
    }
  }
  return rtol * atol;
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
