// The data of an articulated model as OpenSim describes one: bodies, joints
// whose transforms are functions of generalised coordinates, coordinates,
// contact geometry and contact pairs (docs/physics.md#articulated-models).
// Plain data, C++17 (the Simbody peer reads it); the kinematics and analyses
// are sim/articulated.hpp's.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <string>
#include <vector>

#include "dropsim/sim/contact_laws.hpp"
#include "dropsim/sim/conventions.hpp"
#include "dropsim/sim/coordinate_function.hpp"

namespace dropsim {

inline constexpr int ground_body = -1;

struct ArticulatedBody {
  std::string name;
  double mass = 0.0;                                   // kg
  Eigen::Vector3d mass_centre = Eigen::Vector3d::Zero();  // body frame
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();      // about the mass centre, body axes
};

// One axis of a joint's spatial transform: a rotation about, or a translation
// along, `axis` by function(q[coordinate]) (no coordinate: a constant).
struct TransformAxis {
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();  // unit
  int coordinate = -1;                              // model coordinate index, -1 for none
  CoordinateFunction function = CoordinateFunction::constant(0.0);
};

// X_FM(q): rotations applied in order, each about its axis in the frame the
// previous ones produced (body-fixed), then a translation sum f_i a_i in F,
// as Simbody's function-based mobilizer does. Built-in OpenSim joints are this
// form with unit slopes (Pin: rotation about z; Free: x, y, z rotations then
// x, y, z translations; ...).
struct ArticulatedJoint {
  std::string name, type;  // type: OpenSim's class name, for reports
  int parent = ground_body, child = 0;
  Eigen::Isometry3d parent_frame = Eigen::Isometry3d::Identity();  // F in the parent body's frame
  Eigen::Isometry3d child_frame = Eigen::Isometry3d::Identity();   // M in the child body's frame
  std::vector<TransformAxis> rotations, translations;
};

struct GeneralisedCoordinate {
  std::string name;
  int joint = 0;
  double default_value = 0.0, default_speed = 0.0;
  bool locked = false;
  bool rotational = true;
};

struct ContactSphereGeometry {
  std::string name;
  int body = ground_body;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();  // body frame
  double radius = 0.0;                               // m
};

// The solid occupies x > 0 of its frame (Simbody's half-space): the outward
// normal is the frame's -x axis.
struct ContactHalfSpaceGeometry {
  std::string name;
  int body = ground_body;
  Eigen::Isometry3d frame = Eigen::Isometry3d::Identity();  // in the body frame
  Eigen::Vector3d outward_normal() const { return -frame.linear().col(0); }  // body frame
};

// A pair of surfaces that OpenSim's contact forces make act on each other
// (docs/physics.md#opensim-contact-pairs): a sphere pressed against a
// half-space, or two spheres on different bodies, with the law both surfaces
// combine to.
struct ContactPair {
  std::string name;      // the force's name, and the geometry's where the force makes several pairs
  int sphere = 0;        // the (first) sphere
  int half_space = -1;   // a sphere on a half-space: the half-space; else -1
  int other_sphere = -1;  // two spheres: the second; else -1
  ContactLaw law;        // law.radius: the sphere's radius, or R1 R2 / (R1 + R2) for two spheres
  bool between_spheres() const { return other_sphere >= 0; }
};

struct ArticulatedModel {
  std::string name;
  Eigen::Vector3d gravity{0.0, -standard_gravity, 0.0};  // m/s^2, ground frame
  std::vector<ArticulatedBody> bodies;
  std::vector<ArticulatedJoint> joints;  // each body is the child of one joint; parents come first
  std::vector<GeneralisedCoordinate> coordinates;
  std::vector<ContactSphereGeometry> spheres;
  std::vector<ContactHalfSpaceGeometry> half_spaces;
  std::vector<ContactPair> contacts;

  double total_mass() const;
  Eigen::VectorXd default_coordinates() const;
};

}  // namespace dropsim
