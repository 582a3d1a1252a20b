// The multibody model: joints, coordinate layout, initial state, column names.
#include "dropsim/sim/multibody_model.hpp"

#include <algorithm>
#include <limits>

#include "dropsim/sim/drop.hpp"

namespace dropsim {

int num_positions(Joint joint) { return joint == Joint::vertical ? 1 : joint == Joint::planar ? 3 : 7; }
int num_speeds(Joint joint) { return joint == Joint::vertical ? 1 : joint == Joint::planar ? 3 : 6; }

void MultibodyModel::finalize() {
  nq = nu = 0;
  for (auto& b : bodies) {
    b.q_offset = nq;
    b.u_offset = nu;
    nq += num_positions(b.joint);
    nu += num_speeds(b.joint);
  }
}

double MultibodyModel::total_mass() const {
  double m = 0.0;
  for (const auto& b : bodies) m += b.mass;
  return m;
}

bool MultibodyModel::has_friction() const {
  return std::any_of(contacts.begin(), contacts.end(), [](const Contact& c) { return c.law.friction.acts(); });
}

double MultibodyModel::slowest_transition_velocity() const {
  double slowest = std::numeric_limits<double>::infinity();
  for (const Contact& c : contacts)
    if (c.law.friction.acts()) slowest = std::min(slowest, c.law.friction.transition_velocity);
  return slowest;
}

Eigen::VectorXd MultibodyModel::initial_state() const {
  Eigen::VectorXd x(nq + nu);
  for (const auto& b : bodies) {
    const int o = b.q_offset, p = nq + b.u_offset;
    switch (b.joint) {
      case Joint::vertical:
        x[o] = b.position.y();
        x[p] = b.velocity.y();
        break;
      case Joint::planar:
        x.segment<2>(o) = b.position.head<2>();
        x[o + 2] = b.angle;
        x.segment<2>(p) = b.velocity.head<2>();
        x[p + 2] = b.angular_velocity.z();
        break;
      case Joint::free: {
        const Eigen::Quaterniond r = b.orientation.normalized();
        x.segment<3>(o) = b.position;
        x.segment<4>(o + 3) << r.w(), r.x(), r.y(), r.z();
        x.segment<3>(p) = b.velocity;
        x.segment<3>(p + 3) = r.toRotationMatrix().transpose() * b.angular_velocity;  // to the body frame
        break;
      }
    }
  }
  return x;
}

namespace {

// The columns of q or u, "<body>.<coordinate>" and its unit, per joint.
struct ColumnSpec {
  const char* coordinate;
  const char* unit;
};
using JointColumns = std::vector<ColumnSpec>;
const JointColumns& joint_columns(Joint joint, bool speeds) {
  static const JointColumns vertical_q{{"y", "m"}}, vertical_u{{"y", "m/s"}};
  static const JointColumns planar_q{{"x", "m"}, {"y", "m"}, {"angle", "rad"}},
      planar_u{{"x", "m/s"}, {"y", "m/s"}, {"angle", "rad/s"}};
  // A free body's q holds a unit quaternion, its u the body-frame angular velocity.
  static const JointColumns free_q{{"x", "m"}, {"y", "m"}, {"z", "m"}, {"qw", "1"}, {"qx", "1"}, {"qy", "1"}, {"qz", "1"}},
      free_u{{"x", "m/s"}, {"y", "m/s"}, {"z", "m/s"}, {"wx", "rad/s"}, {"wy", "rad/s"}, {"wz", "rad/s"}};
  switch (joint) {
    case Joint::vertical: return speeds ? vertical_u : vertical_q;
    case Joint::planar: return speeds ? planar_u : planar_q;
    case Joint::free: break;
  }
  return speeds ? free_u : free_q;
}

std::vector<std::string> columns(const std::vector<Body>& bodies, bool speeds, bool units) {
  std::vector<std::string> out;
  for (const auto& b : bodies)
    for (const ColumnSpec& c : joint_columns(b.joint, speeds)) out.push_back(units ? c.unit : b.name + "." + c.coordinate);
  return out;
}

}  // namespace

std::vector<std::string> MultibodyModel::speed_names() const { return columns(bodies, true, false); }
std::vector<std::string> MultibodyModel::position_names() const { return columns(bodies, false, false); }
std::vector<std::string> MultibodyModel::speed_units() const { return columns(bodies, true, true); }
std::vector<std::string> MultibodyModel::position_units() const { return columns(bodies, false, true); }

MultibodyModel multibody_from_drop(const DropModel& drop) {
  MultibodyModel m;
  m.gravity = drop.gravity;
  m.characteristic_length = drop.characteristic_length;
  Body b;
  b.name = "body";
  b.joint = Joint::vertical;
  b.mass = drop.mass;
  b.position.y() = drop.initial_height + drop.law.radius;
  b.velocity.y() = drop.initial_velocity;
  m.bodies.push_back(b);
  Contact c;
  c.name = "spheres";
  c.body[0] = 0;
  c.radius[0] = drop.law.radius;
  c.count = drop.spheres;
  c.law = drop.law;
  m.contacts.push_back(c);
  m.finalize();
  return m;
}

}  // namespace dropsim
