// The body tree's per-run scratch (Pinocchio's Data, MuJoCo's mjData): sized
// once from a TreeModel, so that an evaluation of the dynamics allocates
// nothing. One TreeData per thread; the model they share stays const.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

#include "dropsim/sim/tree/model.hpp"

namespace dropsim::tree {

// One contact pair at the state last evaluated (docs/physics.md#the-body-tree).
struct TreeContact {
  double indentation = 0.0;       // m, positive when the surfaces overlap
  double indentation_rate = 0.0;  // m/s
  double normal_force = 0.0;      // N, the law's force on B along the normal
  double friction_force = 0.0;    // N, magnitude of friction on B
  double slip_speed = 0.0;        // m/s, tangential speed of B on A at the point
  Eigen::Vector3d normal = Eigen::Vector3d::UnitY();  // world, A to B
  Eigen::Vector3d point = Eigen::Vector3d::Zero();    // world, where both forces act
  Eigen::Vector3d force_on_b = Eigen::Vector3d::Zero();  // world, normal plus friction
};

// Spatial vectors are in world axes about the world origin (Featherstone's
// fixed spatial coordinates): motion (angular velocity; velocity of the body
// point at the origin), force (moment about the origin; force).
struct TreeData {
  explicit TreeData(const TreeModel& model);

  Eigen::VectorXd coordinates;                 // every model coordinate, locked ones held
  std::vector<Eigen::Isometry3d> pose;         // per body, body frame in world
  std::vector<Vector6d> velocity;              // per body
  std::vector<Vector6d> bias;                  // per body: its acceleration at qdd = 0, gravity left out
  std::vector<Matrix6d> inertia;               // per body, world spatial inertia; composite after the mass matrix
  std::vector<Vector6d> force;                 // per body: inertial force at qdd = 0, then summed up the tree
  std::vector<Vector6d> external;              // per body: contacts' spatial force
  std::vector<Eigen::Matrix<double, 6, Eigen::Dynamic>> motion;  // per joint: S, 6 x its speeds
  std::vector<Eigen::Matrix<double, 6, Eigen::Dynamic>> carried;  // per joint: composite inertia times S
  std::vector<TreeContact> contacts;           // per contact pair
  Eigen::MatrixXd mass;                        // M(q), nu x nu
  Eigen::VectorXd tau;                         // generalised force: M qdd = tau
  Eigen::LLT<Eigen::MatrixXd> cholesky;        // of mass
};

}  // namespace dropsim::tree
