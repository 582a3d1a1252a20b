// Small models the engine's tests share: bodies, contacts and laws built in a line each.
#pragma once

#include <string>

#include "dropsim/sim/drop.hpp"
#include "dropsim/sim/multibody.hpp"
#include "dropsim/sim/simulate.hpp"

namespace dropsim::test {

inline Body free_body(const std::string& name, double mass, const Eigen::Vector3d& principal,
                      const Eigen::Vector3d& position) {
  Body b;
  b.name = name;
  b.joint = Joint::free;
  b.mass = mass;
  b.inertia = principal.asDiagonal();
  b.position = position;
  return b;
}

inline Body planar_body(const std::string& name, double mass, double inertia_z, const Eigen::Vector3d& position,
                        double angle) {
  Body b;
  b.name = name;
  b.joint = Joint::planar;
  b.mass = mass;
  b.inertia(2, 2) = inertia_z;
  b.position = position;
  b.angle = angle;
  return b;
}

inline ContactLaw hertz(double modulus) {
  ContactLaw law;
  law.kind = ContactLawKind::hertz;
  law.effective_modulus = modulus;
  return law;
}

inline Contact sphere_on_ground(int body, const Eigen::Vector3d& at, double radius, const ContactLaw& law) {
  Contact c;
  c.type = ContactType::sphere_plane;
  c.body[0] = body;
  c.at[0] = at;
  c.radius[0] = radius;
  c.law = law;
  c.law.radius = radius;
  return c;
}

inline Contact sphere_on_sphere(int a, const Eigen::Vector3d& at_a, double radius_a, int b,
                                const Eigen::Vector3d& at_b, double radius_b, const ContactLaw& law) {
  Contact c;
  c.type = ContactType::sphere_sphere;
  c.body = {a, b};
  c.at = {at_a, at_b};
  c.radius = {radius_a, radius_b};
  c.law = law;
  c.law.radius = radius_a * radius_b / (radius_a + radius_b);
  return c;
}

// dopri5 (the default method) for `duration` s, a sample every `interval` s, at rtol.
inline RunSettings adaptive_run(double duration, double interval, double rtol) {
  RunSettings run;
  run.duration = duration;
  run.output_interval = interval;
  run.integrator.rtol = rtol;
  return run;
}

// A 62 kg human on `spheres` Hunt–Crossley spheres of 3.2 cm (alpha 2 s/m), 8 mm up.
inline DropModel human_drop(double effective_modulus, int spheres) {
  DropModel m;
  m.mass = 62.0;
  m.spheres = spheres;
  m.characteristic_length = 0.032;
  m.initial_height = 0.008;
  m.law.kind = ContactLawKind::hunt_crossley;
  m.law.effective_modulus = effective_modulus;
  m.law.radius = 0.032;
  m.law.dissipation = 2.0;
  return m;
}

// The bar of docs/physics.md's coupled-mode example, tilted so both modes ring.
inline MultibodyModel bar_on_two_supports() {
  MultibodyModel m;
  m.bodies.push_back(planar_body("bar", 2.0, 0.005, {0.0, 0.002, 0.0}, 0.02));
  for (const double x : {-0.1, 0.1}) {
    Contact c;
    c.body[0] = 0;
    c.at[0] = {x, 0.0, 0.0};
    c.law.kind = ContactLawKind::linear;
    c.law.stiffness = 1e5;
    m.contacts.push_back(c);
  }
  m.characteristic_length = 0.1;
  m.finalize();
  return m;
}

// Every joint and both contact types: a turned free box and a planar bar on the
// ground, a vertical slider, and sphere-sphere contacts box-bar and slider-box.
inline MultibodyModel every_joint_and_contact(const ContactLaw& law) {
  MultibodyModel m;
  m.bodies.push_back(free_body("box", 3.0, {0.1, 0.2, 0.3}, {0.1, 0.3, -0.2}));
  m.bodies[0].orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()));
  m.bodies.push_back(planar_body("bar", 1.0, 0.01, {0.3, 0.5, 0.0}, 0.4));
  Body slider;
  slider.name = "slider";
  slider.joint = Joint::vertical;
  slider.mass = 1.0;
  slider.position = {-0.2, 0.2, 0.1};
  m.bodies.push_back(slider);
  m.finalize();
  m.contacts.push_back(sphere_on_ground(0, {0.05, -0.1, 0.07}, 0.02, law));
  m.contacts.push_back(sphere_on_ground(1, {-0.2, 0.05, 0.0}, 0.01, law));
  m.contacts.push_back(sphere_on_sphere(0, {0.1, 0.05, -0.02}, 0.02, 1, {0.1, -0.03, 0.0}, 0.03, law));
  m.contacts.push_back(sphere_on_sphere(2, {0.0, 0.1, 0.0}, 0.02, 0, {-0.1, 0.0, 0.05}, 0.03, law));
  return m;
}

}  // namespace dropsim::test
