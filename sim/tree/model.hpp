// The body tree's immutable model: an ArticulatedModel's bodies, joints and
// contacts with the locked coordinates taken out of the state
// (docs/physics.md#the-body-tree). Shared by threads; scratch is TreeData.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "dropsim/sim/articulated.hpp"

namespace dropsim::tree {

using Vector6d = Eigen::Matrix<double, 6, 1>;
using Matrix6d = Eigen::Matrix<double, 6, 6>;

// A joint as the tree runs it: its child is body `child`, moved by X_FM(q)
// (ArticulatedJoint's rotations then translations); `speeds` are the state's
// indices of its coordinates that are not locked, `coordinates` the model's.
struct TreeJoint {
  int parent = ground_body, child = 0;
  Eigen::Isometry3d parent_frame = Eigen::Isometry3d::Identity();
  Eigen::Isometry3d child_frame_inverse = Eigen::Isometry3d::Identity();
  std::vector<TransformAxis> rotations, translations;
  std::vector<int> coordinates;  // model coordinates of the joint that are not locked
  std::vector<int> speeds;       // their state indices, same order
  // For each rotation and translation axis: the position of its coordinate in
  // `speeds`, or -1 (no coordinate, or a locked one).
  std::vector<int> rotation_speed, translation_speed;
};

// The state is x = [q; u] over the coordinates that are not locked, in the
// model's coordinate order; q holds OpenSim's coordinates (Euler angles for a
// Ball or Free joint), u their rates, so nq == nu today. A quaternion for
// Ball and Free joints would make nq > nu and change position_rate() alone.
class TreeModel {
 public:
  // Throws ModelError naming the element for a model the tree
  // cannot run: a joint whose axis moves with another joint's coordinate, a
  // joint before its parent, a body whose mass is negative or not finite or
  // a massless leaf, an inertia that is not symmetric positive semi-definite.
  explicit TreeModel(ArticulatedModel model);

  const ArticulatedModel& source() const { return source_; }
  int nq() const { return static_cast<int>(speed_coordinate_.size()); }
  int nu() const { return nq(); }
  int num_bodies() const { return static_cast<int>(source_.bodies.size()); }
  const std::vector<TreeJoint>& joints() const { return joints_; }
  // joint_of_body()[b]: the joint whose child b is.
  const std::vector<int>& joint_of_body() const { return joint_of_body_; }
  // Model coordinate of state index i, and the state index of a model coordinate (-1: locked).
  const std::vector<int>& speed_coordinate() const { return speed_coordinate_; }
  const std::vector<int>& coordinate_speed() const { return coordinate_speed_; }
  // Every model coordinate's value where the state does not set it: locked ones at their default.
  const Eigen::VectorXd& held_coordinates() const { return held_; }
  const Eigen::Vector3d& gravity() const { return source_.gravity; }
  double total_mass() const { return source_.total_mass(); }
  // A length for tolerances: the largest body or contact dimension (m), at least a contact radius.
  double characteristic_length() const { return length_; }

  // [q; u] from each coordinate's default_value and default_speed_value.
  Eigen::VectorXd default_state() const;
  // The model coordinates' values at state q (locked ones held).
  void full_coordinates(const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::VectorXd& out) const;
  std::vector<std::string> coordinate_names() const;  // of the state, in order
  std::vector<std::string> coordinate_units() const;  // "rad" or "m"

 private:
  ArticulatedModel source_;
  std::vector<TreeJoint> joints_;
  std::vector<int> joint_of_body_, speed_coordinate_, coordinate_speed_;
  Eigen::VectorXd held_;
  double length_ = 1.0;
};

}  // namespace dropsim::tree
