// The body tree's model: state layout, held coordinates, spatial inertias, checks.
#include "dropsim/sim/tree/model.hpp"

#include <algorithm>
#include <cmath>

#include "dropsim/sim/model_error.hpp"
#include "dropsim/sim/rigid_inertia.hpp"

namespace dropsim::tree {

namespace {

void check_body(const ArticulatedBody& b) {
  if (!(b.mass >= 0.0) || !std::isfinite(b.mass))
    throw ModelError("body " + b.name + ": mass " + std::to_string(b.mass) + " kg; the tree needs a finite mass, at least 0");
  if (!b.inertia.allFinite()) throw ModelError("body " + b.name + ": inertia is not finite");
  if (const std::string defect = inertia_defect(b.inertia); !defect.empty())
    throw ModelError("body " + b.name + ": the inertia cannot be simulated: " + defect);
}

}  // namespace

TreeModel::TreeModel(ArticulatedModel model) : source_(std::move(model)) {
  const ArticulatedModel& m = source_;
  for (const ArticulatedBody& b : m.bodies) check_body(b);
  coordinate_speed_.assign(m.coordinates.size(), -1);
  for (std::size_t c = 0; c < m.coordinates.size(); ++c) {
    if (m.coordinates[c].locked) continue;
    coordinate_speed_[c] = static_cast<int>(speed_coordinate_.size());
    speed_coordinate_.push_back(static_cast<int>(c));
  }
  held_ = m.default_coordinates();
  joint_of_body_.assign(m.bodies.size(), -1);
  for (std::size_t j = 0; j < m.joints.size(); ++j) {
    const ArticulatedJoint& a = m.joints[j];
    if (a.child < 0 || a.child >= static_cast<int>(m.bodies.size()) || joint_of_body_[static_cast<std::size_t>(a.child)] >= 0)
      throw ModelError("joint " + a.name + ": its child is not a body, or has a joint already");
    if (a.parent != ground_body && joint_of_body_[static_cast<std::size_t>(a.parent)] < 0)
      throw ModelError("joint " + a.name + ": comes before the joint of its parent");
    joint_of_body_[static_cast<std::size_t>(a.child)] = static_cast<int>(j);
    TreeJoint t;
    t.parent = a.parent;
    t.child = a.child;
    t.parent_frame = a.parent_frame;
    t.child_frame_inverse = a.child_frame.inverse();
    t.rotations = a.rotations;
    t.translations = a.translations;
    const auto position_of = [&](const TransformAxis& axis) {
      if (axis.coordinate < 0) return -1;
      if (m.coordinates[static_cast<std::size_t>(axis.coordinate)].joint != static_cast<int>(j))
        throw ModelError("joint " + a.name + ": an axis moves with coordinate " +
                                    m.coordinates[static_cast<std::size_t>(axis.coordinate)].name +
                                    " of another joint (a coupling the tree does not run)");
      const int speed = coordinate_speed_[static_cast<std::size_t>(axis.coordinate)];
      if (speed < 0) return -1;
      const auto it = std::find(t.speeds.begin(), t.speeds.end(), speed);
      if (it != t.speeds.end()) return static_cast<int>(it - t.speeds.begin());
      t.speeds.push_back(speed);
      t.coordinates.push_back(axis.coordinate);
      return static_cast<int>(t.speeds.size()) - 1;
    };
    for (const TransformAxis& axis : t.rotations) t.rotation_speed.push_back(position_of(axis));
    for (const TransformAxis& axis : t.translations) t.translation_speed.push_back(position_of(axis));
    joints_.push_back(std::move(t));
  }
  std::vector<bool> parent(m.bodies.size(), false);
  for (const ArticulatedJoint& a : m.joints)
    if (a.parent != ground_body) parent[static_cast<std::size_t>(a.parent)] = true;
  for (std::size_t b = 0; b < m.bodies.size(); ++b) {
    if (m.bodies[b].mass == 0.0 && !parent[b])
      throw ModelError("body " + m.bodies[b].name + ": massless and carrying no body (a singular mass matrix)");
    if (joint_of_body_[b] < 0) throw ModelError("body " + m.bodies[b].name + ": no joint holds it");
  }
  double smallest = 0.0;
  for (const ContactPair& c : m.contacts)
    if (c.law.radius > 0.0 && (smallest == 0.0 || c.law.radius < smallest)) smallest = c.law.radius;
  length_ = smallest > 0.0 ? smallest : 1.0;
}

Eigen::VectorXd TreeModel::default_state() const {
  const int n = nq();
  Eigen::VectorXd x(2 * n);
  for (int i = 0; i < n; ++i) {
    const GeneralisedCoordinate& c = source_.coordinates[static_cast<std::size_t>(speed_coordinate_[static_cast<std::size_t>(i)])];
    x[i] = c.default_value;
    x[n + i] = c.default_speed;
  }
  return x;
}

void TreeModel::full_coordinates(const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::VectorXd& out) const {
  out = held_;  // same size: no allocation
  for (std::size_t i = 0; i < speed_coordinate_.size(); ++i) out[speed_coordinate_[i]] = q[static_cast<Eigen::Index>(i)];
}

std::vector<std::string> TreeModel::coordinate_names() const {
  std::vector<std::string> out;
  for (const int c : speed_coordinate_) out.push_back(source_.coordinates[static_cast<std::size_t>(c)].name);
  return out;
}

std::vector<std::string> TreeModel::coordinate_units() const {
  std::vector<std::string> out;
  for (const int c : speed_coordinate_) out.push_back(source_.coordinates[static_cast<std::size_t>(c)].rotational ? "rad" : "m");
  return out;
}

}  // namespace dropsim::tree
