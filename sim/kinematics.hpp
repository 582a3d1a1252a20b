// Multibody kinematics: body points, contact gaps and their Jacobians (docs/physics.md#coupled-contact-modes).
// A contact's gap g has rate gdot = J u and its force lambda acts as J^T lambda.
#pragma once

#include <array>
#include <cmath>
#include <vector>

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

// A body's placement at one configuration: its centre of mass and the
// rotation from its frame to the world (identity for vertical bodies, about z
// for planar ones). A right-hand side computes each body's pose once and every
// contact on the body reads it: normalising the quaternion per contact point
// was most of the kinematics' cost.
struct BodyPose {
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
};
BodyPose body_pose(const Body& body, const Eigen::Ref<const Eigen::VectorXd>& q);
// Every body's pose, in model.bodies' order (out is resized; its buffer kept).
void body_poses(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& q, std::vector<BodyPose>& out);

// World position of body point r (body frame).
inline Eigen::Vector3d body_point(const BodyPose& pose, const Eigen::Vector3d& r) {
  return pose.com + pose.rotation * r;
}
Eigen::Vector3d body_point(const Body& body, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Vector3d& r);

// row <- side * d(n . p)/du for the body point p = body_point(r): the body's
// block of a contact Jacobian (first num_speeds(joint) entries used, the rest
// zero). Returns row . u for the body's speeds u (0 when u is null).
inline double set_point_jacobian_row(const Body& body, const BodyPose& pose, const Eigen::Vector3d& r,
                                     const Eigen::Vector3d& n, double side, const double* u,
                                     Eigen::Matrix<double, 6, 1>& row);

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

// The poses of the bodies a contact touches, by side (second null for sphere_plane).
using ContactPoses = std::array<const BodyPose*, 2>;
inline ContactPoses contact_poses(const Contact& c, const std::vector<BodyPose>& poses) {
  return {&poses[static_cast<std::size_t>(c.body[0])],
          c.body[1] >= 0 ? &poses[static_cast<std::size_t>(c.body[1])] : nullptr};
}

// Contact c's bodies' poses at q, held by value: for code that visits one
// contact at a time (a right-hand side computes every pose once instead).
class ContactPosesAt {
 public:
  ContactPosesAt(const MultibodyModel& model, const Contact& c, const Eigen::Ref<const Eigen::VectorXd>& q);
  ContactPoses view() const { return {&pose_[0], two_bodies_ ? &pose_[1] : nullptr}; }

 private:
  std::array<BodyPose, 2> pose_;
  bool two_bodies_;
};

// x is q, or [q; u] for the gap rate too.
ContactKinematics contact_kinematics(const MultibodyModel& model, const Contact& contact,
                                     const Eigen::Ref<const Eigen::VectorXd>& x);
// From the bodies' poses; u (nu speeds) null for the gap alone.
inline ContactKinematics contact_kinematics(const MultibodyModel& model, const Contact& contact,
                                            const ContactPoses& poses, const double* u);
// contact_kinematics() in two parts: the normal and the gap (rows zero, gap
// rate 0), then the rows and the gap rate (u null: the rows alone).
inline ContactKinematics contact_separation(const Contact& contact, const ContactPoses& poses);
inline void add_contact_rows(const MultibodyModel& model, const Contact& contact, const ContactPoses& poses,
                             const double* u, ContactKinematics& k);

// G with v = G u for the velocity of the world point p moving with the body
// (3 x num_speeds(joint), leading columns used); a world force F at p acts as G^T F.
Eigen::Matrix<double, 3, 6> point_velocity_jacobian(const Body& body, const BodyPose& pose, const Eigen::Vector3d& p);
// G u and G^T F of the same point, without forming G.
inline Eigen::Vector3d point_velocity(const Body& body, const BodyPose& pose, const double* u,
                                      const Eigen::Vector3d& p);
// f (the body's nu-block of generalised forces) += G^T F.
inline void add_point_force(const Body& body, const BodyPose& pose, const Eigen::Vector3d& p,
                            const Eigen::Vector3d& force, double* f);

// Where friction acts (docs/physics.md#friction): midway through the overlap on
// the line of centres, as Simbody's contact trackers place the point.
inline Eigen::Vector3d contact_point(const Contact& contact, const ContactPoses& poses, const ContactKinematics& k);

// The slip at a contact: the velocity of B relative to A (plane: of the body)
// at contact_point(), its part tangent to the contact, and the slip speed the
// friction law sees (the smoothed law adds cf under the root, as Simbody's
// SmoothSphereHalfSpaceForce does).
struct ContactSlip {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();       // world, contact_point()
  Eigen::Vector3d tangential = Eigen::Vector3d::Zero();  // m/s
  double speed = 0.0;                                    // m/s
};
inline ContactSlip contact_slip(const MultibodyModel& model, const Contact& contact, const ContactPoses& poses,
                                const double* u, const ContactKinematics& k);

// Second-order contact kinematics, for the exact Jacobian of the equations of
// motion: block [s][t] is d(row[s])/d(xi_t), where xi_t is body t's
// configuration increment in speed coordinates (q (+) xi, as in
// advance_configuration). Blocks of bodies the contact does not touch are zero.
using RowDerivatives = std::array<std::array<Eigen::Matrix<double, 6, 6>, 2>, 2>;
RowDerivatives contact_row_derivatives(const MultibodyModel& model, const Contact& contact,
                                       const ContactPoses& poses, const ContactKinematics& k);

// d(theta)/d(quaternion) of a free body whose q block starts at offset: the
// body-frame rotation increment 2 vec(conj(q^) (x) dq^) of the normalised
// quaternion q^ per change of the four stored components. (Every other
// coordinate's increment is the coordinate's change itself.)
Eigen::Matrix<double, 3, 4> rotation_per_quaternion(const Eigen::Ref<const Eigen::VectorXd>& q, int offset);

// Dense contact Jacobian (contacts x nu) at state x (only q is used).
Eigen::MatrixXd contact_jacobian(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x);

// Defined here so that a right-hand side inlines them: it calls them for every
// contact, and a call returning a 6-vector through memory cost more than its arithmetic.

inline double set_point_jacobian_row(const Body& b, const BodyPose& pose, const Eigen::Vector3d& r,
                                     const Eigen::Vector3d& n, double side, const double* u,
                                     Eigen::Matrix<double, 6, 1>& row) {
  // Written entry by entry and dotted with u in registers: a 6-vector built on
  // the stack and copied out stalled on store forwarding, a quarter of the cost.
  const double* ub = u ? u + b.u_offset : nullptr;
  switch (b.joint) {
    case Joint::vertical: {
      const double ny = side * n.y();
      row << ny, 0.0, 0.0, 0.0, 0.0, 0.0;
      return ub ? ny * ub[0] : 0.0;
    }
    case Joint::planar: {
      // d/dt of the rotated arm is omega z x (R r).
      const Eigen::Vector3d turned = pose.rotation * r;
      const double nx = side * n.x(), ny = side * n.y(), turn = turned.x() * ny - turned.y() * nx;
      row << nx, ny, turn, 0.0, 0.0, 0.0;
      return ub ? nx * ub[0] + ny * ub[1] + turn * ub[2] : 0.0;
    }
    case Joint::free: {
      // n . (R (w_b x r)) = w_b . (r x R^T n)
      const Eigen::Vector3d along = side * n;
      const Eigen::Vector3d turn = r.cross(pose.rotation.transpose() * along);
      row << along, turn;
      return ub ? along.dot(Eigen::Map<const Eigen::Vector3d>(ub)) + turn.dot(Eigen::Map<const Eigen::Vector3d>(ub + 3))
                : 0.0;
    }
  }
  return 0.0;
}

inline ContactKinematics contact_separation(const Contact& c, const ContactPoses& poses) {
  ContactKinematics k;
  const Eigen::Vector3d pa = body_point(*poses[0], c.at[0]);
  if (c.type == ContactType::sphere_plane) {
    k.normal = c.plane_normal;
    k.gap = k.normal.dot(pa - c.plane_point) - c.radius[0];
  } else {
    const Eigen::Vector3d d = body_point(*poses[1], c.at[1]) - pa;
    const double distance = d.norm();
    if (distance > 0.0) k.normal = d / distance;  // coincident centres: fall back to +y
    k.gap = distance - c.radius[0] - c.radius[1];
  }
  return k;
}

inline void add_contact_rows(const MultibodyModel& model, const Contact& c, const ContactPoses& poses,
                             const double* u, ContactKinematics& k) {
  const Body& a = model.bodies[c.body[0]];
  if (c.type == ContactType::sphere_plane) {
    k.gap_rate = set_point_jacobian_row(a, *poses[0], c.at[0], k.normal, 1.0, u, k.row[0]);
  } else {
    const Body& b = model.bodies[c.body[1]];
    k.gap_rate = set_point_jacobian_row(a, *poses[0], c.at[0], k.normal, -1.0, u, k.row[0]);
    k.gap_rate += set_point_jacobian_row(b, *poses[1], c.at[1], k.normal, 1.0, u, k.row[1]);
  }
}

inline ContactKinematics contact_kinematics(const MultibodyModel& model, const Contact& c, const ContactPoses& poses,
                                            const double* u) {
  ContactKinematics k = contact_separation(c, poses);
  add_contact_rows(model, c, poses, u, k);
  return k;
}

inline Eigen::Vector3d point_velocity(const Body& b, const BodyPose& pose, const double* u,
                                      const Eigen::Vector3d& p) {
  const double* ub = u + b.u_offset;
  const Eigen::Vector3d arm = p - pose.com;
  switch (b.joint) {
    case Joint::vertical: return {0.0, ub[0], 0.0};
    case Joint::planar: return {ub[0] - ub[2] * arm.y(), ub[1] + ub[2] * arm.x(), 0.0};
    case Joint::free:
      return Eigen::Map<const Eigen::Vector3d>(ub) +
             (pose.rotation * Eigen::Map<const Eigen::Vector3d>(ub + 3)).cross(arm);
  }
  return Eigen::Vector3d::Zero();
}

inline void add_point_force(const Body& b, const BodyPose& pose, const Eigen::Vector3d& p,
                            const Eigen::Vector3d& force, double* f) {
  const Eigen::Vector3d arm = p - pose.com;
  switch (b.joint) {
    case Joint::vertical: f[0] += force.y(); break;
    case Joint::planar:
      f[0] += force.x();
      f[1] += force.y();
      f[2] += arm.x() * force.y() - arm.y() * force.x();
      break;
    case Joint::free:
      // G^T F: the force, and the moment arm x F in the body frame.
      Eigen::Map<Eigen::Vector3d>(f) += force;
      Eigen::Map<Eigen::Vector3d>(f + 3) += pose.rotation.transpose() * arm.cross(force);
      break;
  }
}

inline Eigen::Vector3d contact_point(const Contact& c, const ContactPoses& poses, const ContactKinematics& k) {
  // From sphere A's centre along the normal: its radius less half the indentation.
  const Eigen::Vector3d centre = body_point(*poses[0], c.at[0]);
  const double reach = c.radius[0] + 0.5 * k.gap;
  return c.type == ContactType::sphere_plane ? Eigen::Vector3d(centre - reach * k.normal)
                                             : Eigen::Vector3d(centre + reach * k.normal);
}

inline ContactSlip contact_slip(const MultibodyModel& model, const Contact& c, const ContactPoses& poses,
                                const double* u, const ContactKinematics& k) {
  ContactSlip slip;
  slip.point = contact_point(c, poses, k);
  Eigen::Vector3d relative = Eigen::Vector3d::Zero();
  for (int s = 0; s < contact_bodies(c); ++s)
    relative += contact_side(c, s) * point_velocity(model.bodies[c.body[s]], *poses[s], u, slip.point);
  slip.tangential = relative - k.normal * k.normal.dot(relative);
  const double smoothing = c.law.kind == ContactLawKind::smooth_hunt_crossley ? c.law.cf : 0.0;
  slip.speed = std::sqrt(slip.tangential.squaredNorm() + smoothing);
  return slip;
}

}  // namespace dropsim
