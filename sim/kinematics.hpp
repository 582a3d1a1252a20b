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
inline BodyPose body_pose(const Body& body, const Eigen::Ref<const Eigen::VectorXd>& q);
// Every body's pose, in model.bodies' order (out is resized; its buffer kept).
inline void body_poses(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                       std::vector<BodyPose>& out);

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

// A body's motion at one state, in the world: the velocity of its centre of
// mass and its angular velocity (zero for a vertical slider). A right-hand
// side computes it once per body and every contact point on the body reads it.
struct BodyMotion {
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero(), angular = Eigen::Vector3d::Zero();
  // The velocity of the body point at `arm` (world) from the centre of mass.
  Eigen::Vector3d at(const Eigen::Vector3d& arm) const { return velocity + angular.cross(arm); }
};
inline BodyMotion body_motion(const Body& body, const BodyPose& pose, const double* u);
// The velocity of the world point p moving with the body.
inline Eigen::Vector3d point_velocity(const BodyPose& pose, const BodyMotion& motion, const Eigen::Vector3d& p) {
  return motion.at(p - pose.com);
}
// f (the body's nu-block of generalised forces) += the generalised force of a
// world force through the centre of mass and a world moment about it.
inline void add_body_wrench(const Body& body, const BodyPose& pose, const Eigen::Vector3d& force,
                            const Eigen::Vector3d& moment, double* f);

// One contact at one instant: gap (m, indentation = -gap), its rate, the
// normal, and the arms from the bodies' centres of mass to the sphere centres.
struct ContactGap {
  double gap = 0.0, gap_rate = 0.0;
  Eigen::Vector3d normal = Eigen::Vector3d::UnitY();  // world, A -> B (plane -> body)
  std::array<Eigen::Vector3d, 2> arm{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};  // world; second unused on a plane
};
// With the Jacobian rows of the (up to two) bodies it touches. A right-hand
// side reads the gap alone: the rows would be twelve more values to clear.
struct ContactKinematics : ContactGap {
  std::array<Eigen::Matrix<double, 6, 1>, 2> row{Eigen::Matrix<double, 6, 1>::Zero(), Eigen::Matrix<double, 6, 1>::Zero()};
};
// The bodies a contact touches (1 for sphere_plane and a sphere on a fixed one) and the sign each takes in
// its rows: row[s] = side * G_s^T n, the gap opening as B moves along n from A.
inline int contact_bodies(const Contact& c) { return c.body[1] >= 0 ? 2 : 1; }
inline double contact_side(const Contact& c, int s) { return c.type == ContactType::sphere_plane || s == 1 ? 1.0 : -1.0; }

// The world's pose and motion, which a sphere fixed in the world has; B's
// entry of a per-body list: its body's, the world's, or none on a plane.
inline const BodyPose world_pose{};
inline const BodyMotion world_motion{};
template <class T> const T* side_b(const Contact& c, const std::vector<T>& per_body, const T& world) {
  if (c.body[1] >= 0) return &per_body[static_cast<std::size_t>(c.body[1])];
  return c.type == ContactType::sphere_sphere ? &world : nullptr;
}

// The poses of the bodies a contact touches, by side.
using ContactPoses = std::array<const BodyPose*, 2>;
inline ContactPoses contact_poses(const Contact& c, const std::vector<BodyPose>& poses) {
  return {&poses[static_cast<std::size_t>(c.body[0])], side_b(c, poses, world_pose)};
}

// Contact c's bodies' poses at q, held by value: for code that visits one
// contact at a time (a right-hand side computes every pose once instead).
class ContactPosesAt {
 public:
  ContactPosesAt(const MultibodyModel& model, const Contact& c, const Eigen::Ref<const Eigen::VectorXd>& q);
  ContactPoses view() const { return {&pose_[0], on_sphere_ ? &pose_[1] : nullptr}; }

 private:
  std::array<BodyPose, 2> pose_;  // the second the world's where B is fixed in it
  bool on_sphere_;
};

// x is q, or [q; u] for the gap rate too.
ContactKinematics contact_kinematics(const MultibodyModel& model, const Contact& contact,
                                     const Eigen::Ref<const Eigen::VectorXd>& x);
// From the bodies' poses; u (nu speeds) null for the gap alone.
inline ContactKinematics contact_kinematics(const MultibodyModel& model, const Contact& contact,
                                            const ContactPoses& poses, const double* u);
// contact_kinematics() in two parts: the normal, the gap and the arms (gap
// rate 0), then the rows and the gap rate (u null: the rows alone).
inline ContactGap contact_separation(const Contact& contact, const ContactPoses& poses);
// The motions of the bodies a contact touches, by side.
using ContactMotions = std::array<const BodyMotion*, 2>;
inline ContactMotions contact_motions(const Contact& c, const std::vector<BodyMotion>& motions) {
  return {&motions[static_cast<std::size_t>(c.body[0])], side_b(c, motions, world_motion)};
}
// The gap rate from the bodies' motions and k's normal and arms, without the rows.
inline double contact_gap_rate(const Contact& contact, const ContactMotions& motions, const ContactGap& k);
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
inline Eigen::Vector3d contact_point(const Contact& contact, const ContactPoses& poses, const ContactGap& k);

// The slip at a contact: the velocity of B relative to A (plane: of the body)
// at contact_point(), its part tangent to the contact, and the slip speed the
// friction law sees (the smoothed law adds cf under the root, as Simbody's
// SmoothSphereHalfSpaceForce does).
struct ContactSlip {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();       // world, contact_point()
  Eigen::Vector3d tangential = Eigen::Vector3d::Zero();  // m/s
  double speed = 0.0;                                    // m/s
  double speed_squared = 0.0;                            // speed^2 before the root: friction_slope()'s stick branch
};
inline ContactSlip contact_slip(const MultibodyModel& model, const Contact& contact, const ContactPoses& poses,
                                const double* u, const ContactKinematics& k);
// The same from the bodies' motions.
inline ContactSlip contact_slip(const Contact& contact, const ContactPoses& poses, const ContactMotions& motions,
                                const ContactGap& k);

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
// Those marked always_inline GCC declined to inline on its own, and the
// multibody runs were 20 % slower for it (docs/performance.md).

inline BodyPose body_pose(const Body& b, const Eigen::Ref<const Eigen::VectorXd>& q) {
  BodyPose pose;
  pose.com = body_com(b, q);
  const int o = b.q_offset;
  switch (b.joint) {
    case Joint::vertical: break;
    case Joint::planar: {
      const double c = std::cos(q[o + 2]), s = std::sin(q[o + 2]);
      pose.rotation << c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0;
      break;
    }
    case Joint::free: {
      // The rotation of the normalised quaternion, with 2 / |q|^2 in its
      // products: normalising first (a root and a division) sat on every
      // right-hand side's path.
      const double w = q[o + 3], x = q[o + 4], y = q[o + 5], z = q[o + 6];
      const double s = 2.0 / (w * w + x * x + y * y + z * z);
      const double xs = x * s, ys = y * s, zs = z * s;
      const double wx = w * xs, wy = w * ys, wz = w * zs, xx = x * xs, xy = x * ys, xz = x * zs;
      const double yy = y * ys, yz = y * zs, zz = z * zs;
      pose.rotation << 1.0 - (yy + zz), xy - wz, xz + wy,  //
          xy + wz, 1.0 - (xx + zz), yz - wx,               //
          xz - wy, yz + wx, 1.0 - (xx + yy);
      break;
    }
  }
  return pose;
}

inline void body_poses(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                       std::vector<BodyPose>& out) {
  out.resize(model.bodies.size());
  for (std::size_t i = 0; i < model.bodies.size(); ++i) out[i] = body_pose(model.bodies[i], q);
}

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

[[gnu::always_inline]] inline BodyMotion body_motion(const Body& b, const BodyPose& pose, const double* u) {
  const double* ub = u + b.u_offset;
  BodyMotion m;
  switch (b.joint) {
    case Joint::vertical: m.velocity.y() = ub[0]; break;
    case Joint::planar:
      m.velocity.head<2>() << ub[0], ub[1];
      m.angular.z() = ub[2];
      break;
    case Joint::free:
      m.velocity = Eigen::Map<const Eigen::Vector3d>(ub);
      m.angular = pose.rotation * Eigen::Map<const Eigen::Vector3d>(ub + 3);  // u holds the body-frame w
      break;
  }
  return m;
}

inline void add_body_wrench(const Body& b, const BodyPose& pose, const Eigen::Vector3d& force,
                            const Eigen::Vector3d& moment, double* f) {
  switch (b.joint) {
    case Joint::vertical: f[0] += force.y(); break;
    case Joint::planar:
      f[0] += force.x();
      f[1] += force.y();
      f[2] += moment.z();
      break;
    case Joint::free:
      Eigen::Map<Eigen::Vector3d>(f) += force;
      Eigen::Map<Eigen::Vector3d>(f + 3) += pose.rotation.transpose() * moment;  // u holds the body-frame w
      break;
  }
}

[[gnu::always_inline]] inline ContactGap contact_separation(const Contact& c, const ContactPoses& poses) {
  ContactGap k;
  k.arm[0] = poses[0]->rotation * c.at[0];
  const Eigen::Vector3d pa = poses[0]->com + k.arm[0];
  if (c.type == ContactType::sphere_plane) {
    k.normal = c.plane_normal;
    k.gap = k.normal.dot(pa - c.plane_point) - c.radius[0];
  } else {
    k.arm[1] = poses[1]->rotation * c.at[1];
    const Eigen::Vector3d d = poses[1]->com + k.arm[1] - pa;
    const double distance = d.norm();
    if (distance > 0.0) k.normal = d / distance;  // coincident centres: fall back to +y
    k.gap = distance - (c.radius[0] + c.radius[1]);  // as Simbody rounds it: r1 + r2 - |d|
  }
  return k;
}

inline void add_contact_rows(const MultibodyModel& model, const Contact& c, const ContactPoses& poses,
                             const double* u, ContactKinematics& k) {
  const Body& a = model.bodies[c.body[0]];
  if (c.type == ContactType::sphere_plane) {
    k.gap_rate = set_point_jacobian_row(a, *poses[0], c.at[0], k.normal, 1.0, u, k.row[0]);
  } else {
    k.gap_rate = set_point_jacobian_row(a, *poses[0], c.at[0], k.normal, -1.0, u, k.row[0]);
    if (c.body[1] >= 0)  // else a sphere fixed in the world: no row, no rate
      k.gap_rate += set_point_jacobian_row(model.bodies[c.body[1]], *poses[1], c.at[1], k.normal, 1.0, u, k.row[1]);
  }
}

inline ContactKinematics contact_kinematics(const MultibodyModel& model, const Contact& c, const ContactPoses& poses,
                                            const double* u) {
  ContactKinematics k{contact_separation(c, poses)};
  add_contact_rows(model, c, poses, u, k);
  return k;
}

[[gnu::always_inline]] inline double contact_gap_rate(const Contact& c, const ContactMotions& motions, const ContactGap& k) {
  // The sphere centres' relative velocity along the normal: the normal's own turning is perpendicular to it.
  Eigen::Vector3d relative = motions[0]->at(k.arm[0]);
  if (c.type == ContactType::sphere_sphere) relative = motions[1]->at(k.arm[1]) - relative;
  return k.normal.dot(relative);
}

inline Eigen::Vector3d point_velocity(const Body& b, const BodyPose& pose, const double* u,
                                      const Eigen::Vector3d& p) {
  return point_velocity(pose, body_motion(b, pose, u), p);
}

inline void add_point_force(const Body& b, const BodyPose& pose, const Eigen::Vector3d& p,
                            const Eigen::Vector3d& force, double* f) {
  add_body_wrench(b, pose, force, (p - pose.com).cross(force), f);
}

[[gnu::always_inline]] inline Eigen::Vector3d contact_point(const Contact& c, const ContactPoses& poses, const ContactGap& k) {
  // From sphere A's centre along the normal: its radius less half the indentation.
  const Eigen::Vector3d centre = poses[0]->com + k.arm[0];
  const double reach = c.radius[0] + 0.5 * k.gap;
  return c.type == ContactType::sphere_plane ? Eigen::Vector3d(centre - reach * k.normal)
                                             : Eigen::Vector3d(centre + reach * k.normal);
}

[[gnu::always_inline]] inline ContactSlip contact_slip(const Contact& c, const ContactPoses& poses, const ContactMotions& motions,
                                const ContactGap& k) {
  ContactSlip slip;
  slip.point = contact_point(c, poses, k);
  Eigen::Vector3d relative = point_velocity(*poses[0], *motions[0], slip.point);
  if (c.type == ContactType::sphere_sphere) relative = point_velocity(*poses[1], *motions[1], slip.point) - relative;
  slip.tangential = relative - k.normal * k.normal.dot(relative);
  const double smoothing = c.law.kind == ContactLawKind::smooth_hunt_crossley ? c.law.cf : 0.0;
  slip.speed_squared = slip.tangential.squaredNorm() + smoothing;
  slip.speed = std::sqrt(slip.speed_squared);
  return slip;
}

inline ContactSlip contact_slip(const MultibodyModel& model, const Contact& c, const ContactPoses& poses,
                                const double* u, const ContactKinematics& k) {
  std::array<BodyMotion, 2> motion;
  for (int s = 0; s < contact_bodies(c); ++s) motion[s] = body_motion(model.bodies[c.body[s]], *poses[s], u);
  return contact_slip(c, poses, {&motion[0], &motion[1]}, k);
}

}  // namespace dropsim
