// Articulated kinematics against independent computations: the textbook double
// pendulum, kinetic energy from differenced poses, parallel axes by hand; and
// what articulation does to the contact modes.
#include "dropsim/sim/articulated.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "dropsim/sim/articulated_analysis.hpp"
#include "dropsim/sim/articulated_rigid.hpp"

namespace dropsim {
namespace {

TransformAxis axis(int coordinate, const Eigen::Vector3d& direction) {
  TransformAxis a;
  a.axis = direction.normalized();
  a.coordinate = coordinate;
  a.function = CoordinateFunction::linear(1.0, 0.0);
  return a;
}

Eigen::Isometry3d frame(const Eigen::Vector3d& translation, const Eigen::Vector3d& angles = Eigen::Vector3d::Zero()) {
  Eigen::Isometry3d x = Eigen::Isometry3d::Identity();
  x.linear() = body_fixed_xyz(angles);
  x.translation() = translation;
  return x;
}

int add_body(ArticulatedModel& m, const std::string& name, double mass, const Eigen::Vector3d& centre, const Eigen::Matrix3d& inertia) {
  m.bodies.push_back({name, mass, centre, inertia});
  return static_cast<int>(m.bodies.size()) - 1;
}

int add_coordinate(ArticulatedModel& m, const std::string& name, double value) {
  GeneralisedCoordinate c;
  c.name = name;
  c.joint = static_cast<int>(m.joints.size());
  c.default_value = value;
  m.coordinates.push_back(c);
  return static_cast<int>(m.coordinates.size()) - 1;
}

void add_pin(ArticulatedModel& m, int parent, int child, const Eigen::Isometry3d& in_parent, const Eigen::Isometry3d& in_child,
             double angle) {
  ArticulatedJoint j;
  j.name = "pin" + std::to_string(m.joints.size());
  j.type = "PinJoint";
  j.parent = parent;
  j.child = child;
  j.parent_frame = in_parent;
  j.child_frame = in_child;
  j.rotations.push_back(axis(add_coordinate(m, j.name, angle), Eigen::Vector3d::UnitZ()));
  m.joints.push_back(j);
}

void add_free(ArticulatedModel& m, int child, const Eigen::Matrix<double, 6, 1>& q) {
  ArticulatedJoint j;
  j.name = "free";
  j.type = "FreeJoint";
  j.child = child;
  for (int k = 0; k < 3; ++k) j.rotations.push_back(axis(add_coordinate(m, "r" + std::to_string(k), q[k]), Eigen::Vector3d::Unit(k)));
  for (int k = 0; k < 3; ++k)
    j.translations.push_back(axis(add_coordinate(m, "t" + std::to_string(k), q[3 + k]), Eigen::Vector3d::Unit(k)));
  m.joints.push_back(j);
}

Eigen::Matrix3d inertia(double xx, double yy, double zz, double xy = 0.0, double xz = 0.0, double yz = 0.0) {
  Eigen::Matrix3d i;
  i << xx, xy, xz, xy, yy, yz, xz, yz, zz;
  return i;
}

// A 3-D block on a Free joint carrying a two-link chain on Pins with rotated,
// offset frames, off-centre mass centres and full inertias.
ArticulatedModel block_and_chain() {
  ArticulatedModel m;
  const int block = add_body(m, "block", 20.0, {0.01, -0.02, 0.03}, inertia(0.6, 0.5, 0.55, 0.01, -0.02, 0.015));
  const int link1 = add_body(m, "link1", 5.0, {0.0, 0.25, 0.01}, inertia(0.104, 0.002, 0.1, 0.0, 0.001, 0.0));
  const int link2 = add_body(m, "link2", 4.0, {0.01, 0.2, 0.0}, inertia(0.06, 0.0015, 0.06, 0.001, 0.0, 0.0));
  Eigen::Matrix<double, 6, 1> q0;
  q0 << 0.2, -0.3, 0.5, 0.1, 0.4, -0.2;
  add_free(m, block, q0);
  add_pin(m, block, link1, frame({0.0, 0.2, 0.05}, {0.0, 0.3, 0.0}), frame({0.0, 0.0, 0.0}), 0.4);
  add_pin(m, link1, link2, frame({0.0, 0.5, 0.0}, {0.1, 0.0, 0.2}), frame({0.0, -0.02, 0.01}, {0.0, 0.0, 0.1}), -0.7);
  return m;
}

// Kinetic energy at coordinate rates qdot from poses differenced in time
// (fourth-order central differences): nothing of the Jacobian propagation.
double kinetic_energy(const ArticulatedModel& m, const Eigen::VectorXd& q, const Eigen::VectorXd& qdot) {
  const double h = 1e-3;
  std::vector<ArticulatedKinematics> at;
  for (const double s : {-2.0, -1.0, 1.0, 2.0}) at.push_back(articulated_kinematics(m, q + s * h * qdot));
  const ArticulatedKinematics now = articulated_kinematics(m, q);
  double t = 0.0;
  for (std::size_t b = 0; b < m.bodies.size(); ++b) {
    const auto rate = [&](auto value) {
      return ((value(at[0]) - 8.0 * value(at[1]) + 8.0 * value(at[2]) - value(at[3])) / (12.0 * h)).eval();
    };
    const Eigen::Vector3d centre_rate =
        rate([&](const ArticulatedKinematics& k) -> Eigen::Vector3d { return k.pose[b] * m.bodies[b].mass_centre; });
    const Eigen::Matrix3d rotation_rate = rate([&](const ArticulatedKinematics& k) -> Eigen::Matrix3d { return k.pose[b].linear(); });
    const Eigen::Matrix3d r = now.pose[b].linear();
    const Eigen::Matrix3d w_cross = rotation_rate * r.transpose();  // [w]x = Rdot R^T
    const Eigen::Vector3d w(w_cross(2, 1), w_cross(0, 2), w_cross(1, 0));
    t += 0.5 * m.bodies[b].mass * centre_rate.squaredNorm() + 0.5 * w.dot(r * m.bodies[b].inertia * r.transpose() * w);
  }
  return t;
}

TEST(Articulated, DoublePendulumMassMatrixIsTheTextbooks) {
  const double m1 = 2.0, m2 = 1.5, l1 = 0.8, lc1 = 0.35, lc2 = 0.45, i1 = 0.11, i2 = 0.07;
  ArticulatedModel m;
  const int a = add_body(m, "upper", m1, {0.0, -lc1, 0.0}, inertia(0.05, 0.01, i1));
  const int b = add_body(m, "lower", m2, {0.0, -lc2, 0.0}, inertia(0.04, 0.01, i2));
  add_pin(m, ground_body, a, frame({0.0, 1.0, 0.0}), frame({0.0, 0.0, 0.0}), 0.3);
  add_pin(m, a, b, frame({0.0, -l1, 0.0}), frame({0.0, 0.0, 0.0}), 0.9);
  const Eigen::VectorXd q = m.default_coordinates();
  const double c2 = std::cos(q[1]);
  Eigen::Matrix2d expected;
  expected(0, 0) = m1 * lc1 * lc1 + i1 + m2 * (l1 * l1 + lc2 * lc2 + 2.0 * l1 * lc2 * c2) + i2;
  expected(0, 1) = expected(1, 0) = m2 * (lc2 * lc2 + l1 * lc2 * c2) + i2;
  expected(1, 1) = m2 * lc2 * lc2 + i2;
  const Eigen::MatrixXd got = joint_space_mass_matrix(m, q);
  EXPECT_LT((got - expected).cwiseAbs().maxCoeff(), 1e-14 * expected.cwiseAbs().maxCoeff()) << got;
}

TEST(Articulated, FreeRootTwoPinChainMassMatrixMatchesKineticEnergyOfDifferencedPoses) {
  const ArticulatedModel m = block_and_chain();
  const Eigen::VectorXd q = m.default_coordinates();
  const auto n = q.size();
  const Eigen::MatrixXd got = joint_space_mass_matrix(m, q);
  Eigen::MatrixXd expected(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j <= i; ++j) {
      const Eigen::VectorXd ei = Eigen::VectorXd::Unit(n, i), ej = Eigen::VectorXd::Unit(n, j);
      // Polarisation: qdot^T M qdot = 2 T(qdot).
      expected(i, j) = expected(j, i) =
          i == j ? 2.0 * kinetic_energy(m, q, ei) : kinetic_energy(m, q, ei + ej) - kinetic_energy(m, q, ei) - kinetic_energy(m, q, ej);
    }
  EXPECT_LT((got - expected).cwiseAbs().maxCoeff(), 1e-10 * expected.cwiseAbs().maxCoeff()) << got << "\n\n" << expected;
}

TEST(Articulated, FrozenCompositeHasTheParallelAxisInertia) {
  ArticulatedModel m;
  const int a = add_body(m, "a", 2.0, Eigen::Vector3d::Zero(), inertia(1.0, 1.0, 1.0));
  const int b = add_body(m, "b", 1.0, Eigen::Vector3d::Zero(), inertia(0.5, 0.5, 0.5));
  add_free(m, a, Eigen::Matrix<double, 6, 1>::Zero());
  ArticulatedJoint weld;
  weld.name = "weld";
  weld.type = "WeldJoint";
  weld.parent = a;
  weld.child = b;
  weld.parent_frame = frame({1.0, 0.0, 0.0});
  m.joints.push_back(weld);
  m.spheres.push_back({"s", a, {0.0, -0.1, 0.0}, 0.1});
  m.half_spaces.push_back({"floor", ground_body, frame(Eigen::Vector3d::Zero(), {0.0, 0.0, -M_PI / 2})});
  ContactPair c;
  c.half_space = 0;
  c.name = "c";
  c.law.kind = ContactLawKind::hertz;
  c.law.effective_modulus = 1e6;
  c.law.radius = 0.1;
  m.contacts.push_back(c);
  const MultibodyModel frozen = frozen_model(m, m.default_coordinates());
  const Body& body = frozen.bodies.front();
  EXPECT_DOUBLE_EQ(body.mass, 3.0);
  EXPECT_NEAR((body.position - Eigen::Vector3d(1.0 / 3.0, 0.0, 0.0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR(body.inertia(0, 0), 1.5, 1e-14);
  EXPECT_NEAR(body.inertia(1, 1), 1.5 + 2.0 / 9.0 + 4.0 / 9.0, 1e-14);
  EXPECT_NEAR(body.inertia(2, 2), 1.5 + 2.0 / 9.0 + 4.0 / 9.0, 1e-14);
  EXPECT_NEAR(body.inertia(0, 1), 0.0, 1e-15);
  // The sphere sits where the pose puts it, relative to the composite centre; the half-space's normal is +y.
  EXPECT_NEAR((frozen.contacts.front().at[0] - Eigen::Vector3d(-1.0 / 3.0, -0.1, 0.0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((frozen.contacts.front().plane_normal - Eigen::Vector3d::UnitY()).norm(), 0.0, 1e-15);
}

TEST(Articulated, ACustomJointWithUnitSlopeIsAPin) {
  ArticulatedModel pin;
  const int a = add_body(pin, "a", 2.0, {0.1, -0.3, 0.0}, inertia(0.05, 0.02, 0.1));
  add_pin(pin, ground_body, a, frame({0.0, 0.0, 0.0}), frame({0.0, 0.1, 0.0}), 0.7);
  ArticulatedModel custom = pin;
  // The same motion as a spatial transform: the z rotation third, after two constant axes.
  auto& j = custom.joints.front();
  TransformAxis still;
  still.axis = Eigen::Vector3d::UnitX();
  j.rotations.insert(j.rotations.begin(), {still, still});
  j.rotations.back().function = CoordinateFunction::spline({-1.0, 0.0, 1.0, 2.0}, {-1.0, 0.0, 1.0, 2.0},
                                                            CoordinateFunction::SplineEnds::divided_differences);
  const Eigen::VectorXd q = pin.default_coordinates();
  EXPECT_LT((joint_space_mass_matrix(pin, q) - joint_space_mass_matrix(custom, q)).cwiseAbs().maxCoeff(), 1e-15);
}

// The block on four spheres with its chain, standing.
ArticulatedModel standing_block() {
  ArticulatedModel m = block_and_chain();
  for (auto& c : m.coordinates) c.default_value = 0.0;
  m.coordinates[4].default_value = 0.3;   // t1: the block's centre 0.3 m up
  m.coordinates[6].default_value = 0.3;   // pin 1
  m.coordinates[7].default_value = -0.6;  // pin 2
  m.half_spaces.push_back({"floor", ground_body, frame(Eigen::Vector3d::Zero(), {0.0, 0.0, -M_PI / 2})});
  int k = 0;
  for (const double x : {0.15, -0.15})
    for (const double z : {0.15, -0.15}) {
      m.spheres.push_back({"s" + std::to_string(k), 0, {x, -0.2, z}, 0.1});
      ContactPair c;
      c.half_space = 0;
      c.name = "c" + std::to_string(k);
      c.sphere = k++;
      c.law.kind = ContactLawKind::hunt_crossley;
      c.law.effective_modulus = 3.5e6;
      c.law.radius = 0.1;
      c.law.dissipation = 0.5;
      m.contacts.push_back(c);
    }
  return m;
}

TEST(Articulated, ArticulationRaisesTheContactFrequency) {
  const ArticulatedModel m = standing_block();
  const Eigen::VectorXd q = m.default_coordinates();
  const FrozenAnalysis frozen = analyse_frozen(m, q);
  ASSERT_TRUE(frozen.at_equilibrium) << frozen.no_equilibrium;
  const ModelModes modes = analyse_model_modes(m, q, frozen);
  ASSERT_EQ(modes.frozen.contacts.size(), 4u);
  ASSERT_EQ(modes.articulated.contacts.size(), 4u);
  // Fewer constraints, lighter effective masses: every contact alone and the fastest mode are faster.
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_LT(modes.articulated.contacts[i].effective_mass, modes.frozen.contacts[i].effective_mass);
  EXPECT_GT(modes.articulated.omega_max, modes.frozen.omega_max);
  // Same forces: the frozen equilibrium's, summing to the weight.
  double sum = 0.0;
  for (const auto& c : modes.articulated.contacts) sum += c.force;
  EXPECT_NEAR(sum, m.total_mass() * standard_gravity, 1e-6 * m.total_mass() * standard_gravity);
}

TEST(Articulated, OneFreeBodyFrozenOrArticulatedHasTheSameModes) {
  ArticulatedModel m = standing_block();
  m.joints.resize(1);
  m.bodies.resize(1);
  m.coordinates.resize(6);
  const Eigen::VectorXd q = m.default_coordinates();
  const FrozenAnalysis frozen = analyse_frozen(m, q);
  ASSERT_TRUE(frozen.at_equilibrium);
  const ModelModes modes = analyse_model_modes(m, q, frozen);
  ASSERT_EQ(modes.frozen.modes.size(), modes.articulated.modes.size());
  for (std::size_t k = 0; k < modes.frozen.modes.size(); ++k)
    EXPECT_NEAR(modes.articulated.modes[k].omega, modes.frozen.modes[k].omega, 1e-9 * modes.frozen.omega_max);
}

TEST(Articulated, LockedCoordinatesLeaveTheSpeeds) {
  ArticulatedModel m = standing_block();
  m.coordinates[7].locked = true;
  const Eigen::VectorXd q = m.default_coordinates();
  const FrozenAnalysis frozen = analyse_frozen(m, q);
  const ModelModes modes = analyse_model_modes(m, q, frozen);
  EXPECT_EQ(modes.articulated.lin.M.rows(), 7);
  EXPECT_EQ(modes.articulated_speeds.size(), 7u);
  // Locking a joint stiffens the chain: the articulated fastest mode slows towards the frozen one.
  m.coordinates[7].locked = false;
  const ModelModes unlocked = analyse_model_modes(m, q, frozen);
  EXPECT_LE(modes.articulated.omega_max, unlocked.articulated.omega_max * (1.0 + 1e-12));
  EXPECT_GE(modes.articulated.omega_max, modes.frozen.omega_max);
}

}  // namespace
}  // namespace dropsim
