// The body tree's contact pairs: each law's normal force and Simbody's
// friction at the contact point, as spatial forces on the two bodies.
#include <cmath>

#include "dropsim/sim/contact_laws.hpp"
#include "dropsim/sim/friction.hpp"
#include "dropsim/sim/tree/dynamics.hpp"

namespace dropsim::tree {

namespace {

Eigen::Isometry3d pose_of(const TreeData& data, int body) {
  return body == ground_body ? Eigen::Isometry3d::Identity() : data.pose[static_cast<std::size_t>(body)];
}

// Velocity of body's point at world point x.
Eigen::Vector3d point_velocity(const TreeData& data, int body, const Eigen::Vector3d& x) {
  if (body == ground_body) return Eigen::Vector3d::Zero();
  const Vector6d& v = data.velocity[static_cast<std::size_t>(body)];
  return v.tail<3>() + v.head<3>().cross(x);
}

void push(TreeData& data, int body, const Eigen::Vector3d& x, const Eigen::Vector3d& f) {
  if (body == ground_body) return;
  Vector6d& e = data.external[static_cast<std::size_t>(body)];
  e.head<3>() += x.cross(f);
  e.tail<3>() += f;
}

}  // namespace

void contact_forces(const TreeModel& model, TreeData& data) {
  const ArticulatedModel& m = model.source();
  for (Vector6d& e : data.external) e.setZero();
  for (std::size_t i = 0; i < m.contacts.size(); ++i) {
    const ContactPair& pair = m.contacts[i];
    const ContactSphereGeometry& sphere = m.spheres[static_cast<std::size_t>(pair.sphere)];
    TreeContact& out = data.contacts[i];
    // A: the half-space or the first sphere; B: the sphere on it or the
    // second sphere. The point: on the normal through B's centre, midway
    // through the overlap, as Simbody's contact trackers place it.
    int a = 0, b = 0;
    Eigen::Vector3d centre_b;
    double radius_b = 0.0;
    if (pair.between_spheres()) {
      const ContactSphereGeometry& other = m.spheres[static_cast<std::size_t>(pair.other_sphere)];
      a = sphere.body;
      b = other.body;
      const Eigen::Vector3d centre_a = pose_of(data, a) * sphere.centre;
      centre_b = pose_of(data, b) * other.centre;
      const double distance = (centre_b - centre_a).norm();
      out.normal = distance > 0.0 ? Eigen::Vector3d((centre_b - centre_a) / distance) : Eigen::Vector3d::UnitY();
      out.indentation = sphere.radius + other.radius - distance;
      radius_b = other.radius;
    } else {
      const ContactHalfSpaceGeometry& h = m.half_spaces[static_cast<std::size_t>(pair.half_space)];
      a = h.body;
      b = sphere.body;
      const Eigen::Isometry3d plane = pose_of(data, a) * h.frame;
      out.normal = (pose_of(data, a).linear() * h.outward_normal()).normalized();
      centre_b = pose_of(data, b) * sphere.centre;
      out.indentation = sphere.radius - out.normal.dot(centre_b - plane.translation());
      radius_b = sphere.radius;
    }
    out.point = centre_b - (radius_b - 0.5 * out.indentation) * out.normal;
    const Eigen::Vector3d relative = point_velocity(data, b, out.point) - point_velocity(data, a, out.point);
    out.indentation_rate = -out.normal.dot(relative);
    out.normal_force = contact_force(pair.law, out.indentation, out.indentation_rate);
    out.force_on_b = out.normal_force * out.normal;
    out.friction_force = 0.0;
    out.slip_speed = 0.0;
    if (pair.law.friction.acts() && out.normal_force != 0.0) {
      // Friction opposes B's slip on A in proportion to the normal force
      // (docs/physics.md#friction); the smoothed law adds cf under the root.
      const Eigen::Vector3d tangential = relative - out.normal * out.normal.dot(relative);
      const double smoothing = pair.law.kind == ContactLawKind::smooth_hunt_crossley ? pair.law.cf : 0.0;
      const double squared = tangential.squaredNorm() + smoothing;
      const FrictionSlope slope = friction_slope(pair.law.friction, std::sqrt(squared), squared);
      const Eigen::Vector3d friction = -(out.normal_force * slope.per_slip) * tangential;
      out.force_on_b += friction;
      out.slip_speed = tangential.norm();
      out.friction_force = friction.norm();
    }
    push(data, b, out.point, out.force_on_b);
    push(data, a, out.point, -out.force_on_b);
  }
}

}  // namespace dropsim::tree
