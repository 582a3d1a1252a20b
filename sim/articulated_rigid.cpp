// The composite body of an articulated model's moving bodies, and its contacts
// with what stays fixed: the frozen and the vertical model.
#include "dropsim/sim/articulated_rigid.hpp"
#include "dropsim/sim/model_error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "dropsim/sim/kinematics.hpp"

namespace dropsim {

namespace {

std::string vec(const Eigen::Vector3d& v) {
  return "[" + std::to_string(v.x()) + ", " + std::to_string(v.y()) + ", " + std::to_string(v.z()) + "]";
}

// The moving bodies as one: world mass centre and inertia about it (world axes).
struct Composite {
  std::vector<bool> fixed;  // per body: part of the ground
  double mass = 0.0;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

Composite composite_of(const ArticulatedModel& model, const ArticulatedKinematics& kin) {
  const double g = model.gravity.norm();
  if (g > 0.0 && !model.gravity.normalized().isApprox(-Eigen::Vector3d::UnitY(), 1e-12))
    throw ModelError("gravity must point along -y, as dropsim's models assume (the model has " +
                                vec(model.gravity) + ")");
  Composite c;
  c.fixed = ground_fixed_bodies(model);
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    if (c.fixed[b]) continue;
    c.mass += model.bodies[b].mass;
    moment += model.bodies[b].mass * (kin.pose[b] * model.bodies[b].mass_centre);
  }
  if (!(c.mass > 0.0))
    throw ModelError(std::any_of(c.fixed.begin(), c.fixed.end(), [](bool f) { return !f; })
                                    ? "the model's moving bodies have no mass"
                                    : "every body is welded or locked to the ground: nothing moves");
  c.centre = moment / c.mass;
  // Parallel axes: each body's inertia about the composite mass centre, world axes.
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    if (c.fixed[b]) continue;
    const ArticulatedBody& body = model.bodies[b];
    const Eigen::Matrix3d r = kin.pose[b].linear();
    const Eigen::Vector3d d = kin.pose[b] * body.mass_centre - c.centre;
    c.inertia += r * body.inertia * r.transpose() + body.mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  }
  c.inertia = 0.5 * (c.inertia + c.inertia.transpose());
  return c;
}

// The composite as a body on `joint`, at rest where q puts it (a vertical body takes no inertia).
Body composite_body(const ArticulatedModel& model, const Composite& composite, Joint joint) {
  Body body;
  body.name = model.name.empty() ? "model" : model.name;
  body.joint = joint;
  body.mass = composite.mass;
  if (joint != Joint::vertical) body.inertia = composite.inertia;
  body.position = composite.centre;
  return body;
}

bool on_fixed(const Composite& c, int body) { return body == ground_body || c.fixed[static_cast<std::size_t>(body)]; }

// The model's pairs between the composite (body 0) and the fixed world.
std::vector<Contact> composite_contacts(const ArticulatedModel& model, const ArticulatedKinematics& kin,
                                        const Composite& composite) {
  std::vector<Contact> out;
  for (std::size_t i = 0; i < model.contacts.size(); ++i) {
    const ContactPair& pair = model.contacts[i];
    const ContactSphereGeometry& sphere = model.spheres[static_cast<std::size_t>(pair.sphere)];
    const bool sphere_fixed = on_fixed(composite, sphere.body);
    Contact c;
    c.name = pair.name;
    c.law = pair.law;
    c.body = {0, ground_index};
    if (pair.between_spheres()) {
      const ContactSphereGeometry& other = model.spheres[static_cast<std::size_t>(pair.other_sphere)];
      if (sphere_fixed == on_fixed(composite, other.body)) continue;  // both fixed, or both in the composite
      // A on the composite, B fixed in the world.
      const ContactSphereGeometry& moving = sphere_fixed ? other : sphere;
      const ContactSphereGeometry& held = sphere_fixed ? sphere : other;
      c.type = ContactType::sphere_sphere;
      c.at = {kin.pose_of(moving.body) * moving.centre - composite.centre, kin.pose_of(held.body) * held.centre};
      c.radius = {moving.radius, held.radius};
    } else {
      const ContactHalfSpaceGeometry& half_space = model.half_spaces[static_cast<std::size_t>(pair.half_space)];
      const bool plane_fixed = on_fixed(composite, half_space.body);
      if (sphere_fixed == plane_fixed) continue;
      if (sphere_fixed)
        throw ModelError("contact " + pair.name + ": half-space " + half_space.name +
                                    " moves with the model against sphere " + sphere.name +
                                    ", which is fixed; dropsim's rigid models take fixed half-spaces");
      const WorldPlane plane = half_space_plane(model, kin, pair.half_space);
      c.type = ContactType::sphere_plane;
      c.at[0] = sphere_centre(model, kin, pair.sphere) - composite.centre;
      c.radius = {sphere.radius, 0.0};
      c.plane_point = plane.point;
      c.plane_normal = plane.normal;
    }
    out.push_back(c);
  }
  return out;
}

double smallest_radius(const std::vector<Contact>& contacts) {
  double r = std::numeric_limits<double>::infinity();
  for (const Contact& c : contacts) r = std::min(r, c.law.radius);
  return std::isfinite(r) && r > 0.0 ? r : 1.0;
}

// How far the composite, at rest with its mass centre at `centre`, falls
// before contact c touches (negative: it overlaps by that much); +inf when a
// vertical motion never brings the surfaces together.
double fall_to_touch(const Contact& c, const Eigen::Vector3d& centre) {
  const Eigen::Vector3d p = centre + c.at[0];
  if (c.type == ContactType::sphere_plane) {
    if (!(c.plane_normal.y() > 1e-12)) return std::numeric_limits<double>::infinity();
    return (c.plane_normal.dot(p - c.plane_point) - c.radius[0]) / c.plane_normal.y();
  }
  const Eigen::Vector3d d = p - c.at[1];  // from the fixed centre
  const double reach = c.radius[0] + c.radius[1], across = std::hypot(d.x(), d.z());
  if (!(across < reach) || !(d.y() > 0.0)) return std::numeric_limits<double>::infinity();
  return d.y() - std::sqrt(reach * reach - across * across);
}

}  // namespace

MultibodyModel frozen_model(const ArticulatedModel& model, const Eigen::VectorXd& q) {
  const ArticulatedKinematics kin = articulated_kinematics(model, q);
  const Composite composite = composite_of(model, kin);
  Body body = composite_body(model, composite, Joint::free);
  // The root joints' default speeds move the composite rigidly (the joints
  // below them are locked): one motion, taken from the first moving root.
  Eigen::VectorXd u = Eigen::VectorXd::Zero(q.size());
  for (std::size_t i = 0; i < model.coordinates.size(); ++i) {
    const GeneralisedCoordinate& c = model.coordinates[i];
    const ArticulatedJoint& joint = model.joints[static_cast<std::size_t>(c.joint)];
    if (!c.locked && on_fixed(composite, joint.parent)) u[static_cast<Eigen::Index>(i)] = c.default_speed;
  }
  for (const ArticulatedJoint& joint : model.joints) {
    if (!on_fixed(composite, joint.parent) || composite.fixed[static_cast<std::size_t>(joint.child)]) continue;
    const auto& j = kin.jacobian[static_cast<std::size_t>(joint.child)];
    body.angular_velocity = j.topRows<3>() * u;
    body.velocity = j.bottomRows<3>() * u + body.angular_velocity.cross(composite.centre);
    break;
  }
  MultibodyModel out;
  out.gravity = model.gravity.norm();
  out.bodies.push_back(body);
  out.contacts = composite_contacts(model, kin, composite);
  out.characteristic_length = smallest_radius(out.contacts);
  out.finalize();
  return out;
}

MultibodyModel vertical_model(const ArticulatedModel& model, const Eigen::VectorXd& q, double height_over_radius) {
  const ArticulatedKinematics kin = articulated_kinematics(model, q);
  const Composite composite = composite_of(model, kin);
  Body body = composite_body(model, composite, Joint::vertical);
  MultibodyModel out;
  out.gravity = model.gravity.norm();
  double fall = std::numeric_limits<double>::infinity(), radius = 0.0;
  for (const Contact& c : composite_contacts(model, kin, composite)) {
    const double to_touch = fall_to_touch(c, composite.centre);
    if (!std::isfinite(to_touch)) continue;  // a vertical motion never brings it into contact
    if (to_touch < fall) {
      fall = to_touch;
      radius = c.radius[0];
    }
    out.contacts.push_back(c);
  }
  if (out.contacts.empty())
    throw ModelError("no contact sphere of the model can touch a surface under it by falling vertically");
  body.position.y() += height_over_radius * radius - fall;
  out.bodies.push_back(body);
  out.characteristic_length = radius;
  out.finalize();
  return out;
}

}  // namespace dropsim
