// Multibody kinematics: body points, configuration increments, contact gaps and Jacobians.
#include "dropsim/sim/kinematics.hpp"

namespace dropsim {

using Row6 = Eigen::Matrix<double, 6, 1>;

Eigen::Vector3d body_point(const Body& b, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Vector3d& r) {
  const int o = b.q_offset;
  switch (b.joint) {
    case Joint::vertical: return body_com(b, q) + r;
    case Joint::planar: {
      const double c = std::cos(q[o + 2]), s = std::sin(q[o + 2]);
      return body_com(b, q) + Eigen::Vector3d(c * r.x() - s * r.y(), s * r.x() + c * r.y(), r.z());
    }
    case Joint::free: return body_com(b, q) + body_quaternion(q, o) * r;
  }
  return Eigen::Vector3d::Zero();
}

Row6 point_jacobian_row(const Body& b, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Vector3d& r,
                        const Eigen::Vector3d& n) {
  Row6 row = Row6::Zero();
  const int o = b.q_offset;
  switch (b.joint) {
    case Joint::vertical: row[0] = n.y(); break;
    case Joint::planar: {
      // d/dt of the rotated arm is omega z x (R r).
      const double c = std::cos(q[o + 2]), s = std::sin(q[o + 2]);
      const double rx = c * r.x() - s * r.y(), ry = s * r.x() + c * r.y();
      row << n.x(), n.y(), rx * n.y() - ry * n.x(), 0.0, 0.0, 0.0;
      break;
    }
    case Joint::free:
      // n . (R (w_b x r)) = w_b . (r x R^T n)
      row.head<3>() = n;
      row.tail<3>() = r.cross(body_quaternion(q, o).conjugate() * n);
      break;
  }
  return row;
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

ContactKinematics contact_kinematics(const MultibodyModel& model, const Contact& c,
                                     const Eigen::Ref<const Eigen::VectorXd>& x) {
  ContactKinematics k;
  const auto q = x.head(model.nq);
  const Body& a = model.bodies[c.body[0]];
  const Eigen::Vector3d pa = body_point(a, q, c.at[0]);
  if (c.type == ContactType::sphere_plane) {
    k.normal = c.plane_normal;
    k.gap = k.normal.dot(pa - c.plane_point) - c.radius[0];
    k.row[0] = point_jacobian_row(a, q, c.at[0], k.normal);
  } else {
    const Body& b = model.bodies[c.body[1]];
    const Eigen::Vector3d d = body_point(b, q, c.at[1]) - pa;
    const double distance = d.norm();
    if (distance > 0.0) k.normal = d / distance;  // coincident centres: fall back to +y
    k.gap = distance - c.radius[0] - c.radius[1];
    k.row[0] = -point_jacobian_row(a, q, c.at[0], k.normal);
    k.row[1] = point_jacobian_row(b, q, c.at[1], k.normal);
  }
  if (x.size() > model.nq) {
    const auto u = x.tail(model.nu);
    for (int s = 0; s < 2 && c.body[s] >= 0; ++s) {
      const Body& body = model.bodies[c.body[s]];
      const int n = num_speeds(body.joint);
      k.gap_rate += k.row[s].head(n).dot(u.segment(body.u_offset, n));
    }
  }
  return k;
}

namespace {

using Matrix36 = Eigen::Matrix<double, 3, 6>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

// G = dp/dxi of the body point p = body_point(r): point_jacobian_row() is G^T n.
Matrix36 point_jacobian(const Body& b, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Vector3d& r) {
  return point_velocity_jacobian(b, q, body_point(b, q, r));
}

// d(G^T n)/dxi of the body itself with n held fixed.
Matrix6 point_row_curvature(const Body& b, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Vector3d& r,
                            const Eigen::Vector3d& n) {
  Matrix6 h = Matrix6::Zero();
  const int o = b.q_offset;
  switch (b.joint) {
    case Joint::vertical: break;
    case Joint::planar: {
      // d/dangle of n . (z x R r) = -n . (R r) in the plane
      const double c = std::cos(q[o + 2]), s = std::sin(q[o + 2]);
      h(2, 2) = -(n.x() * (c * r.x() - s * r.y()) + n.y() * (s * r.x() + c * r.y()));
      break;
    }
    case Joint::free: {
      // r x R^T n, with R^T n turning to R^T n + (R^T n) x dtheta
      const Eigen::Vector3d n_body = body_quaternion(q, o).conjugate() * n;
      h.bottomRightCorner<3, 3>() = cross_matrix(r) * cross_matrix(n_body);
      break;
    }
  }
  return h;
}

}  // namespace

Eigen::Matrix<double, 3, 6> point_velocity_jacobian(const Body& b, const Eigen::Ref<const Eigen::VectorXd>& q,
                                                    const Eigen::Vector3d& p) {
  Matrix36 g = Matrix36::Zero();
  const Eigen::Vector3d arm = p - body_com(b, q);
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
      g.rightCols<3>() = -(cross_matrix(arm) * body_quaternion(q, b.q_offset).toRotationMatrix());
      break;
  }
  return g;
}

Eigen::Vector3d contact_point(const MultibodyModel& model, const Contact& c, const Eigen::Ref<const Eigen::VectorXd>& q,
                              const ContactKinematics& k) {
  // From sphere A's centre along the normal: its radius less half the indentation.
  const Eigen::Vector3d centre = body_point(model.bodies[c.body[0]], q, c.at[0]);
  const double reach = c.radius[0] + 0.5 * k.gap;
  return c.type == ContactType::sphere_plane ? Eigen::Vector3d(centre - reach * k.normal)
                                             : Eigen::Vector3d(centre + reach * k.normal);
}

ContactSlip contact_slip(const MultibodyModel& model, const Contact& c, const Eigen::Ref<const Eigen::VectorXd>& x,
                         const ContactKinematics& k) {
  const auto q = x.head(model.nq);
  const auto u = x.tail(model.nu);
  const Eigen::Vector3d p = contact_point(model, c, q, k);
  ContactSlip slip;
  Eigen::Vector3d relative = Eigen::Vector3d::Zero();
  for (int s = 0; s < contact_bodies(c); ++s) {
    const Body& body = model.bodies[c.body[s]];
    const int n = num_speeds(body.joint);
    slip.g[s] = point_velocity_jacobian(body, q, p);
    relative += contact_side(c, s) * slip.g[s].leftCols(n) * u.segment(body.u_offset, n);
  }
  slip.tangential = relative - k.normal * k.normal.dot(relative);
  const double smoothing = c.law.kind == ContactLawKind::smooth_hunt_crossley ? c.law.cf : 0.0;
  slip.speed = std::sqrt(slip.tangential.squaredNorm() + smoothing);
  return slip;
}

RowDerivatives contact_row_derivatives(const MultibodyModel& model, const Contact& c,
                                       const Eigen::Ref<const Eigen::VectorXd>& q, const ContactKinematics& k) {
  RowDerivatives d;
  for (auto& row : d)
    for (auto& block : row) block.setZero();
  const std::array<double, 2> sign{contact_side(c, 0), contact_side(c, 1)};
  const int bodies = contact_bodies(c);
  std::array<Matrix36, 2> g{Matrix36::Zero(), Matrix36::Zero()};
  for (int s = 0; s < bodies; ++s) {
    const Body& body = model.bodies[c.body[s]];
    g[s] = point_jacobian(body, q, c.at[s]);
    d[s][s] = sign[s] * point_row_curvature(body, q, c.at[s], k.normal);
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
