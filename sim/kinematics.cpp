// Multibody kinematics: body points, configuration increments, contact gaps and Jacobians.
#include "dropsim/sim/kinematics.hpp"

namespace dropsim {

Eigen::Vector3d body_point(const Body& b, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Vector3d& r) {
  return body_point(body_pose(b, q), r);
}

void advance_configuration(const MultibodyModel& model, Eigen::Ref<Eigen::VectorXd> q,
                           const Eigen::Ref<const Eigen::VectorXd>& du) {
  for (const auto& b : model.bodies) {
    const int o = b.q_offset, p = b.u_offset;
    if (b.joint != Joint::free) {
      q.segment(o, num_speeds(b.joint)) += du.segment(p, num_speeds(b.joint));
      continue;
    }
    q.segment<3>(o) += du.segment<3>(p);
    const Eigen::Vector3d turn = du.segment<3>(p + 3);
    const double angle = turn.norm();
    if (angle == 0.0) continue;
    const Eigen::Quaterniond r =
        (body_quaternion(q, o) * Eigen::Quaterniond(Eigen::AngleAxisd(angle, turn / angle))).normalized();
    q.segment<4>(o + 3) << r.w(), r.x(), r.y(), r.z();
  }
}

Eigen::VectorXd configuration_difference(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                                         const Eigen::Ref<const Eigen::VectorXd>& q0) {
  Eigen::VectorXd du(model.nu);
  for (const auto& b : model.bodies) {
    const int o = b.q_offset, p = b.u_offset;
    if (b.joint != Joint::free) {
      du.segment(p, num_speeds(b.joint)) = q.segment(o, num_speeds(b.joint)) - q0.segment(o, num_speeds(b.joint));
      continue;
    }
    du.segment<3>(p) = q.segment<3>(o) - q0.segment<3>(o);
    const Eigen::AngleAxisd turn(body_quaternion(q0, o).conjugate() * body_quaternion(q, o));
    du.segment<3>(p + 3) = turn.angle() * turn.axis();
  }
  return du;
}

ContactPosesAt::ContactPosesAt(const MultibodyModel& model, const Contact& c,
                               const Eigen::Ref<const Eigen::VectorXd>& q)
    : on_sphere_(c.type == ContactType::sphere_sphere) {
  for (int s = 0; s < 2 && c.body[s] >= 0; ++s) pose_[s] = body_pose(model.bodies[c.body[s]], q);
}

ContactKinematics contact_kinematics(const MultibodyModel& model, const Contact& c,
                                     const Eigen::Ref<const Eigen::VectorXd>& x) {
  const ContactPosesAt poses(model, c, x.head(model.nq));
  return contact_kinematics(model, c, poses.view(), x.size() > model.nq ? x.data() + model.nq : nullptr);
}

namespace {

using Matrix36 = Eigen::Matrix<double, 3, 6>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

// d(G^T n)/dxi of the body itself with n held fixed.
Matrix6 point_row_curvature(const Body& b, const BodyPose& pose, const Eigen::Vector3d& r, const Eigen::Vector3d& n) {
  Matrix6 h = Matrix6::Zero();
  switch (b.joint) {
    case Joint::vertical: break;
    case Joint::planar:
      // d/dangle of n . (z x R r) = -n . (R r) in the plane
      h(2, 2) = -n.head<2>().dot((pose.rotation * r).head<2>());
      break;
    case Joint::free:
      // r x R^T n, with R^T n turning to R^T n + (R^T n) x dtheta
      h.bottomRightCorner<3, 3>() = cross_matrix(r) * cross_matrix(pose.rotation.transpose() * n);
      break;
  }
  return h;
}

}  // namespace

Eigen::Matrix<double, 3, 6> point_velocity_jacobian(const Body& b, const BodyPose& pose, const Eigen::Vector3d& p) {
  Matrix36 g = Matrix36::Zero();
  const Eigen::Vector3d arm = p - pose.com;
  switch (b.joint) {
    case Joint::vertical: g(1, 0) = 1.0; break;
    case Joint::planar:
      g(0, 0) = g(1, 1) = 1.0;
      g(0, 2) = -arm.y();  // z x arm
      g(1, 2) = arm.x();
      break;
    case Joint::free:
      // v = v_c + (R w) x arm, w in the body frame
      g.leftCols<3>().setIdentity();
      g.rightCols<3>() = -(cross_matrix(arm) * pose.rotation);
      break;
  }
  return g;
}

RowDerivatives contact_row_derivatives(const MultibodyModel& model, const Contact& c, const ContactPoses& poses,
                                       const ContactKinematics& k) {
  RowDerivatives d;
  for (auto& row : d)
    for (auto& block : row) block.setZero();
  const std::array<double, 2> sign{contact_side(c, 0), contact_side(c, 1)};
  const int bodies = contact_bodies(c);
  std::array<Matrix36, 2> g{Matrix36::Zero(), Matrix36::Zero()};
  for (int s = 0; s < bodies; ++s) {
    const Body& body = model.bodies[c.body[s]];
    const BodyPose& pose = *poses[s];
    // G = dp/dxi of the sphere's centre: set_point_jacobian_row() is G^T n.
    g[s] = point_velocity_jacobian(body, pose, body_point(pose, c.at[s]));
    d[s][s] = sign[s] * point_row_curvature(body, pose, c.at[s], k.normal);
  }
  if (c.type == ContactType::sphere_sphere) {
    // The normal turns with the centres: dn = (I - n n^T) d(pB - pA) / |pB - pA|.
    const double distance = k.gap + c.radius[0] + c.radius[1];
    if (distance > 0.0) {
      const Eigen::Matrix3d turn = (Eigen::Matrix3d::Identity() - k.normal * k.normal.transpose()) / distance;
      for (int s = 0; s < 2; ++s)
        for (int t = 0; t < 2; ++t) d[s][t] += sign[s] * sign[t] * g[s].transpose() * turn * g[t];
    }
  }
  return d;
}

Eigen::Matrix<double, 3, 4> rotation_per_quaternion(const Eigen::Ref<const Eigen::VectorXd>& q, int offset) {
  const Eigen::Vector4d raw = q.segment<4>(offset + 3);
  const double norm = raw.norm();
  const double w = raw[0] / norm;
  const Eigen::Vector3d v = raw.tail<3>() / norm;
  // dtheta = 2 (w dv - v dw - v x dv) / |q|; a change along q itself turns nothing.
  Eigen::Matrix<double, 3, 4> m;
  m.col(0) = -2.0 / norm * v;
  m.rightCols<3>() = 2.0 / norm * (w * Eigen::Matrix3d::Identity() - cross_matrix(v));
  return m;
}

Eigen::MatrixXd contact_jacobian(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x) {
  Eigen::MatrixXd j = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(model.contacts.size()), model.nu);
  for (std::size_t i = 0; i < model.contacts.size(); ++i) {
    const Contact& c = model.contacts[i];
    const ContactKinematics k = contact_kinematics(model, c, x.head(model.nq));
    for (int s = 0; s < 2 && c.body[s] >= 0; ++s) {
      const Body& body = model.bodies[c.body[s]];
      const int n = num_speeds(body.joint);
      j.row(static_cast<Eigen::Index>(i)).segment(body.u_offset, n) += k.row[s].head(n).transpose();
    }
  }
  return j;
}

}  // namespace dropsim
