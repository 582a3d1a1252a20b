// Multibody kinematics: body points, contact gaps and their Jacobians (docs/physics.md#coupled-contact-modes).
// A contact's gap g has rate gdot = J u and its force lambda acts as J^T lambda.
#pragma once

#include "dropsim/sim/multibody_model.hpp"

namespace dropsim {

// Index of the vertical coordinate (y) within a body's q and u blocks.
inline int vertical_index(Joint joint) { return joint == Joint::vertical ? 0 : 1; }

// [v]x: cross_matrix(v) * a == v.cross(a).
inline Eigen::Matrix3d cross_matrix(const Eigen::Vector3d& v) {
  Eigen::Matrix3d m;
  m << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
  return m;
}

// A free body's orientation from its q block (normalised).
inline Eigen::Quaterniond body_quaternion(const Eigen::Ref<const Eigen::VectorXd>& q, int offset) {
  return Eigen::Quaterniond(q[offset + 3], q[offset + 4], q[offset + 5], q[offset + 6]).normalized();
}

// Centre of mass (world) at configuration q.
inline Eigen::Vector3d body_com(const Body& b, const Eigen::Ref<const Eigen::VectorXd>& q) {
  const int o = b.q_offset;
  switch (b.joint) {
    case Joint::vertical: return {b.position.x(), q[o], b.position.z()};
    case Joint::planar: return {q[o], q[o + 1], b.position.z()};
    case Joint::free: return q.segment<3>(o);
  }
  return Eigen::Vector3d::Zero();
}

// Velocity of the centre of mass (world) from the speeds u.
inline Eigen::Vector3d body_velocity(const Body& b, const Eigen::Ref<const Eigen::VectorXd>& u) {
  const int o = b.u_offset;
  switch (b.joint) {
    case Joint::vertical: return {0.0, u[o], 0.0};
    case Joint::planar: return {u[o], u[o + 1], 0.0};
    case Joint::free: return u.segment<3>(o);
  }
  return Eigen::Vector3d::Zero();
}

// World position of body point r (body frame) at configuration q.
Eigen::Vector3d body_point(const Body& body, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Vector3d& r);

// Row of d(n . p)/du for the body point p = body_point(r): the body's block of a
// contact Jacobian (first num_speeds(joint) entries used).
Eigen::Matrix<double, 6, 1> point_jacobian_row(const Body& body, const Eigen::Ref<const Eigen::VectorXd>& q,
                                               const Eigen::Vector3d& r, const Eigen::Vector3d& n);

// q <- q (+) du: translations and planar angles add, free orientations turn by
// the body-frame rotation vector du_w (exact exponential map).
void advance_configuration(const MultibodyModel& model, Eigen::Ref<Eigen::VectorXd> q,
                           const Eigen::Ref<const Eigen::VectorXd>& du);

// The inverse of advance_configuration: du with q0 (+) du = q (rotation vectors
// for free orientations, body frame).
Eigen::VectorXd configuration_difference(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                                         const Eigen::Ref<const Eigen::VectorXd>& q0);

// One contact at one instant: gap (m, indentation = -gap), its rate, and the
// Jacobian rows of the (up to two) bodies it touches.
struct ContactKinematics {
  double gap = 0.0, gap_rate = 0.0;
  std::array<Eigen::Matrix<double, 6, 1>, 2> row{Eigen::Matrix<double, 6, 1>::Zero(),
                                                 Eigen::Matrix<double, 6, 1>::Zero()};
  Eigen::Vector3d normal = Eigen::Vector3d::UnitY();  // world, A -> B (plane -> body)
};
// The bodies a contact touches (1 for sphere_plane) and the sign each takes in
// its rows: row[s] = side * G_s^T n, the gap opening as B moves along n from A.
inline int contact_bodies(const Contact& c) { return c.type == ContactType::sphere_plane ? 1 : 2; }
inline double contact_side(const Contact& c, int s) { return c.type == ContactType::sphere_plane || s == 1 ? 1.0 : -1.0; }

ContactKinematics contact_kinematics(const MultibodyModel& model, const Contact& contact,
                                     const Eigen::Ref<const Eigen::VectorXd>& x);

// G with v = G u for the velocity of the world point p moving with the body
// (3 x num_speeds(joint), leading columns used); a world force F at p acts as G^T F.
Eigen::Matrix<double, 3, 6> point_velocity_jacobian(const Body& body, const Eigen::Ref<const Eigen::VectorXd>& q,
                                                    const Eigen::Vector3d& p);

// Where friction acts (docs/physics.md#friction): midway through the overlap on
// the line of centres, as Simbody's contact trackers place the point.
Eigen::Vector3d contact_point(const MultibodyModel& model, const Contact& contact,
                              const Eigen::Ref<const Eigen::VectorXd>& q, const ContactKinematics& k);

// The slip at a contact: the velocity of B relative to A (plane: of the body)
// at contact_point(), its part tangent to the contact, and the slip speed the
// friction law sees (the smoothed law adds cf under the root, as Simbody's
// SmoothSphereHalfSpaceForce does).
struct ContactSlip {
  std::array<Eigen::Matrix<double, 3, 6>, 2> g{Eigen::Matrix<double, 3, 6>::Zero(),
                                              Eigen::Matrix<double, 3, 6>::Zero()};  // per body, at the point
  Eigen::Vector3d tangential = Eigen::Vector3d::Zero();  // m/s
  double speed = 0.0;                                    // m/s
};
ContactSlip contact_slip(const MultibodyModel& model, const Contact& contact, const Eigen::Ref<const Eigen::VectorXd>& x,
                         const ContactKinematics& k);

// Second-order contact kinematics, for the exact Jacobian of the equations of
// motion: block [s][t] is d(row[s])/d(xi_t), where xi_t is body t's
// configuration increment in speed coordinates (q (+) xi, as in
// advance_configuration). Blocks of bodies the contact does not touch are zero.
using RowDerivatives = std::array<std::array<Eigen::Matrix<double, 6, 6>, 2>, 2>;
RowDerivatives contact_row_derivatives(const MultibodyModel& model, const Contact& contact,
                                       const Eigen::Ref<const Eigen::VectorXd>& q, const ContactKinematics& k);

// d(theta)/d(quaternion) of a free body whose q block starts at offset: the
// body-frame rotation increment 2 vec(conj(q^) (x) dq^) of the normalised
// quaternion q^ per change of the four stored components. (Every other
// coordinate's increment is the coordinate's change itself.)
Eigen::Matrix<double, 3, 4> rotation_per_quaternion(const Eigen::Ref<const Eigen::VectorXd>& q, int offset);

// Dense contact Jacobian (contacts x nu) at state x (only q is used).
Eigen::MatrixXd contact_jacobian(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x);

}  // namespace dropsim
