// Small articulated models built in code for the body tree's tests.
#pragma once

#include <cmath>
#include <string>

#include "dropsim/sim/articulated.hpp"
#include "dropsim/sim/drop.hpp"

namespace dropsim::test {

inline Eigen::Isometry3d placed(const Eigen::Vector3d& at, const Eigen::Vector3d& xyz_angles = Eigen::Vector3d::Zero()) {
  Eigen::Isometry3d f = Eigen::Isometry3d::Identity();
  f.linear() = body_fixed_xyz(xyz_angles);
  f.translation() = at;
  return f;
}

inline TransformAxis axis_of(const Eigen::Vector3d& axis, int coordinate, CoordinateFunction f = CoordinateFunction::linear(1.0, 0.0)) {
  TransformAxis a;
  a.axis = axis.normalized();
  a.coordinate = coordinate;
  a.function = std::move(f);
  return a;
}

// A coordinate of joint `joint`, appended to m; returns its index.
inline int add_coordinate(ArticulatedModel& m, const std::string& name, int joint, double value, bool rotational = true,
                          double speed = 0.0) {
  GeneralisedCoordinate c;
  c.name = name;
  c.joint = joint;
  c.default_value = value;
  c.default_speed = speed;
  c.rotational = rotational;
  m.coordinates.push_back(c);
  return static_cast<int>(m.coordinates.size()) - 1;
}

// A uniform rod of `length` hanging from its body origin along -y.
inline ArticulatedBody rod(const std::string& name, double mass, double length) {
  ArticulatedBody b;
  b.name = name;
  b.mass = mass;
  b.mass_centre = Eigen::Vector3d(0.0, -0.5 * length, 0.0);
  const double across = mass * length * length / 12.0, along = 1e-3 * across;
  b.inertia = Eigen::Vector3d(across, along, across).asDiagonal();
  return b;
}

// A pin (about z of the frames) from parent's point `at` to the child's origin.
inline void add_pin(ArticulatedModel& m, const std::string& name, int parent, int child, const Eigen::Vector3d& at,
                    double angle, double speed = 0.0) {
  ArticulatedJoint j;
  j.name = name;
  j.type = "PinJoint";
  j.parent = parent;
  j.child = child;
  j.parent_frame = placed(at);
  const int joint = static_cast<int>(m.joints.size());
  j.rotations.push_back(axis_of(Eigen::Vector3d::UnitZ(), add_coordinate(m, name + "_angle", joint, angle, true, speed)));
  m.joints.push_back(j);
}

// The ground plane y = 0, its solid below (OpenSim's half-space turned by -90 deg about z).
inline void add_floor(ArticulatedModel& m) {
  m.half_spaces.push_back({"floor", ground_body, placed(Eigen::Vector3d::Zero(), {0.0, 0.0, -M_PI / 2})});
}

inline void add_sphere_on_floor(ArticulatedModel& m, int body, const Eigen::Vector3d& centre, double radius,
                                ContactLaw law) {
  m.spheres.push_back({"sphere" + std::to_string(m.spheres.size()), body, centre, radius});
  ContactPair c;
  c.name = "contact" + std::to_string(m.contacts.size());
  c.sphere = static_cast<int>(m.spheres.size()) - 1;
  c.half_space = 0;
  law.radius = radius;
  c.law = law;
  m.contacts.push_back(c);
}

// Two rods of `length` on pins, the first hung at height `pivot`, a sphere of
// radius r at the second's tip over the floor.
inline ArticulatedModel double_pendulum(const ContactLaw& law, double length, double pivot, double r, double q1,
                                        double q2) {
  ArticulatedModel m;
  m.name = "double_pendulum";
  m.bodies = {rod("upper", 1.0, length), rod("lower", 0.7, length)};
  add_pin(m, "shoulder", ground_body, 0, {0.0, pivot, 0.0}, q1);
  add_pin(m, "elbow", 0, 1, {0.0, -length, 0.0}, q2);
  add_floor(m);
  add_sphere_on_floor(m, 1, {0.0, -length, 0.0}, r, law);
  return m;
}

// The 1-DOF drop as a tree: one body on a slider along y, its sphere (at the
// body origin) over the floor, the coordinate the sphere centre's height.
inline ArticulatedModel slider_drop(const DropModel& drop) {
  ArticulatedModel m;
  m.name = "slider_drop";
  m.gravity = Eigen::Vector3d(0.0, -drop.gravity, 0.0);
  ArticulatedBody b;
  b.name = "block";
  b.mass = drop.mass;
  b.inertia = Eigen::Matrix3d::Identity();
  m.bodies.push_back(b);
  ArticulatedJoint j;
  j.name = "slider";
  j.type = "SliderJoint";
  j.child = 0;
  j.translations.push_back(
      axis_of(Eigen::Vector3d::UnitY(), add_coordinate(m, "height", 0, drop.initial_height + drop.law.radius, false,
                                                       drop.initial_velocity)));
  m.joints.push_back(j);
  add_floor(m);
  add_sphere_on_floor(m, 0, Eigen::Vector3d::Zero(), drop.law.radius, drop.law);
  return m;
}

}  // namespace dropsim::test
