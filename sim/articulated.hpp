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

#include "dropsim/sim/articulated_model.hpp"
#include "dropsim/sim/linearization.hpp"
#include "dropsim/sim/multibody_model.hpp"

namespace dropsim {

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
