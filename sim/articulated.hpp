// An articulated model as OpenSim describes one: a tree of rigid bodies on
// joints whose transforms are functions of generalised coordinates, with
// contact spheres and half-spaces, and its kinematics — body poses, velocity
// Jacobians, the joint-space mass matrix M(q) — and the two views dropsim
// analyses: the frozen model (one rigid body) and the articulated
// linearisation (docs/physics.md#articulated-models).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <string>
#include <vector>

#include "dropsim/sim/contact_laws.hpp"
#include "dropsim/sim/coordinate_function.hpp"
#include "dropsim/sim/linearization.hpp"
#include "dropsim/sim/multibody_model.hpp"

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

// World poses and velocity Jacobians at q. jacobian[b] is 6 x nc: rows 0-2 the
// angular velocity, rows 3-5 the velocity of the body-fixed point at the world
// origin, per unit rate of each coordinate (so v(p) = v_o + w x p).
struct ArticulatedKinematics {
  std::vector<Eigen::Isometry3d> pose;          // body frame in world
  std::vector<Eigen::Matrix<double, 6, Eigen::Dynamic>> jacobian;
  Eigen::Isometry3d pose_of(int body) const {
    return body == ground_body ? Eigen::Isometry3d::Identity() : pose[static_cast<std::size_t>(body)];
  }
};
ArticulatedKinematics articulated_kinematics(const ArticulatedModel& model, const Eigen::VectorXd& q);

// M(q) = sum_b m_b Jc_b^T Jc_b + Jw_b^T I_b Jw_b over the coordinates, Jc the
// mass centre's Jacobian (docs/physics.md#articulated-models).
Eigen::MatrixXd joint_space_mass_matrix(const ArticulatedModel& model, const Eigen::VectorXd& q);
// The same from kinematics already computed at q.
Eigen::MatrixXd joint_space_mass_matrix(const ArticulatedModel& model, const ArticulatedKinematics& kin);

// The articulated linearisation at q: M(q) over the coordinates that are not
// locked, the contacts' gap Jacobians and friction's damping at rest, and
// each contact's stiffness and damping at the indentation `indentation[c]`
// (from the frozen equilibrium; a contact not compressed there is inactive).
Linearization articulated_linearization(const ArticulatedModel& model, const Eigen::VectorXd& q,
                                        const std::vector<double>& indentation);

// Indices of the coordinates that are not locked: the articulated analysis's speeds.
std::vector<int> free_coordinates(const ArticulatedModel& model);

// Sphere centre and half-space plane in world at q.
Eigen::Vector3d sphere_centre(const ArticulatedModel& model, const ArticulatedKinematics& kin, int sphere);
struct WorldPlane {
  Eigen::Vector3d point, normal;
};
WorldPlane half_space_plane(const ArticulatedModel& model, const ArticulatedKinematics& kin, int half_space);
// A contact's two sides at q: A (the half-space, or the first sphere) and B
// (the sphere on it, or the second sphere), the normal from A to B, and B's
// sphere, on whose surface along -normal the contact lies.
struct ContactSides {
  std::array<int, 2> body{ground_body, ground_body};
  Eigen::Vector3d normal = Eigen::Vector3d::UnitY();  // world, unit
  Eigen::Vector3d centre_b = Eigen::Vector3d::Zero();  // world
  double radius_b = 0.0;
  double indentation = 0.0;  // m, positive when the surfaces overlap
};
// Indentation of one contact (positive when the surfaces overlap).
ContactSides contact_sides(const ArticulatedModel& model, const ArticulatedKinematics& kin, int contact);
double contact_indentation(const ArticulatedModel& model, const ArticulatedKinematics& kin, int contact);

// Bodies that no unlocked coordinate moves: welded or locked to the ground all
// the way down, so they are part of it (a platform tilted by a locked joint).
std::vector<bool> ground_fixed_bodies(const ArticulatedModel& model);

// OpenSim's frame orientation: body-fixed x-y-z rotations by angles (a, b, c).
Eigen::Matrix3d body_fixed_xyz(const Eigen::Vector3d& angles);

}  // namespace dropsim
