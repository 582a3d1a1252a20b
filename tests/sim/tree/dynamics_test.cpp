// The body tree's dynamics against independent computations: M(q) against the
// articulated model's Jacobians, the velocity-product terms against finite
// differences of M(q) (Lagrange's equations), gravity against differences of
// the potential, and the state layout of a model with a locked coordinate.
#include <gtest/gtest.h>

#include <thread>

#include "dropsim/sim/tree/dynamics.hpp"
#include "tests/support/tree_models.hpp"

namespace dropsim::tree {
namespace {

Eigen::Matrix3d some_inertia(double scale) {
  Eigen::Matrix3d i;
  i << 2.0, 0.3, -0.2, 0.3, 1.5, 0.1, -0.2, 0.1, 1.0;
  return scale * i;
}

// Three bodies on function-based joints: a custom joint with a spline, a
// polynomial, a constant rotation and a coupled translation; a pin on a
// tilted axis moved by a polynomial; and three rotations, the middle one locked.
ArticulatedModel function_based_chain() {
  using test::axis_of;
  ArticulatedModel m;
  for (int b = 0; b < 3; ++b) {
    ArticulatedBody body;
    body.name = "body" + std::to_string(b);
    body.mass = 1.0 + 0.5 * b;
    body.mass_centre = Eigen::Vector3d(0.1, -0.2 - 0.05 * b, 0.03);
    body.inertia = some_inertia(0.05 * (b + 1));
    m.bodies.push_back(body);
  }
  ArticulatedJoint custom;
  custom.name = "custom";
  custom.child = 0;
  custom.parent_frame = test::placed({0.1, 1.0, -0.2}, {0.1, 0.2, 0.3});
  custom.child_frame = test::placed({0.0, 0.05, 0.0}, {-0.2, 0.0, 0.1});
  const int a = test::add_coordinate(m, "a", 0, 0.3, true, 0.7);
  const int b = test::add_coordinate(m, "b", 0, -0.2, true, -1.1);
  custom.rotations = {
      axis_of({0, 0, 1}, a, CoordinateFunction::spline({-1.0, -0.3, 0.4, 1.2}, {-0.8, -0.2, 0.5, 0.9},
                                                       CoordinateFunction::SplineEnds::natural)),
      axis_of({1, 0, 0}, b, CoordinateFunction::linear(0.7, 0.1)), axis_of({0, 1, 0}, -1, CoordinateFunction::constant(0.2))};
  custom.translations = {axis_of({1, 0, 0}, a, CoordinateFunction::polynomial({0.3, -0.2, 0.1})),
                         axis_of({0, 1, 0}, b, CoordinateFunction::linear(1.0, 0.0)),
                         axis_of({0, 0, 1}, -1, CoordinateFunction::constant(0.05))};
  m.joints.push_back(custom);
  ArticulatedJoint pin;
  pin.name = "pin";
  pin.parent = 0;
  pin.child = 1;
  pin.parent_frame = test::placed({0.0, -0.4, 0.1}, {0.3, -0.1, 0.0});
  pin.child_frame = test::placed({0.02, 0.0, 0.0});
  const int c = test::add_coordinate(m, "c", 1, 0.4, true, 1.3);
  pin.rotations = {axis_of({1, 1, 0}, c, CoordinateFunction::polynomial({0.2, 1.0, 0.0}))};
  m.joints.push_back(pin);
  ArticulatedJoint ball;
  ball.name = "ball";
  ball.parent = 1;
  ball.child = 2;
  ball.parent_frame = test::placed({0.0, -0.5, 0.0});
  const int d = test::add_coordinate(m, "d", 2, 0.2, true, 0.9);
  const int e = test::add_coordinate(m, "e", 2, 0.3, true, 0.0);
  const int f = test::add_coordinate(m, "f", 2, -0.6, true, -0.4);
  m.coordinates[static_cast<std::size_t>(e)].locked = true;
  ball.rotations = {axis_of({1, 0, 0}, d), axis_of({0, 1, 0}, e), axis_of({0, 0, 1}, f)};
  m.joints.push_back(ball);
  return m;
}

// M(q) over the free coordinates, by the articulated model's Jacobians.
Eigen::MatrixXd jacobian_mass(const TreeModel& model, const Eigen::VectorXd& q) {
  Eigen::VectorXd full;
  model.full_coordinates(q, full);
  const Eigen::MatrixXd all = joint_space_mass_matrix(model.source(), full);
  const auto& speeds = model.speed_coordinate();
  const auto n = static_cast<Eigen::Index>(speeds.size());
  Eigen::MatrixXd out(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) out(i, j) = all(speeds[static_cast<std::size_t>(i)], speeds[static_cast<std::size_t>(j)]);
  return out;
}

Eigen::VectorXd tree_force(const TreeModel& model, TreeData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
  forward_kinematics(model, q, u, data);
  contact_forces(model, data);
  mass_and_force(model, data);
  return data.tau;
}

TEST(TreeModel, LockedCoordinatesLeaveTheState) {
  const TreeModel model(function_based_chain());
  EXPECT_EQ(model.nq(), 5);
  EXPECT_EQ(model.coordinate_names(), (std::vector<std::string>{"a", "b", "c", "d", "f"}));
  const Eigen::VectorXd x = model.default_state();
  EXPECT_DOUBLE_EQ(x[4], -0.6);      // f's default_value
  EXPECT_DOUBLE_EQ(x[5 + 2], 1.3);   // c's default_speed_value
  Eigen::VectorXd full;
  model.full_coordinates(x.head(5), full);
  EXPECT_DOUBLE_EQ(full[4], 0.3);  // e held at its default
}

TEST(TreeModel, RefusesAMasslessLeafAndACoupledAxis) {
  ArticulatedModel m = function_based_chain();
  m.bodies[2].mass = 0.0;
  EXPECT_THROW(TreeModel{m}, std::invalid_argument);
  m = function_based_chain();
  m.joints[1].rotations[0].coordinate = 0;  // the pin moved by the custom joint's coordinate
  EXPECT_THROW(TreeModel{m}, std::invalid_argument);
}

TEST(TreeDynamics, MassMatrixAndVelocitiesAreTheJacobians) {
  const TreeModel model(function_based_chain());
  TreeData data(model);
  const Eigen::VectorXd x = model.default_state();
  tree_force(model, data, x.head(5), x.tail(5));
  const Eigen::MatrixXd expected = jacobian_mass(model, x.head(5));
  EXPECT_LT((data.mass - expected).norm(), 1e-12 * expected.norm()) << data.mass << "\n\n" << expected;
  // Body velocities: J_b u over the free coordinates.
  Eigen::VectorXd full, rates = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(model.source().coordinates.size()));
  model.full_coordinates(x.head(5), full);
  for (int i = 0; i < 5; ++i) rates[model.speed_coordinate()[static_cast<std::size_t>(i)]] = x[5 + i];
  const ArticulatedKinematics kin = articulated_kinematics(model.source(), full);
  for (std::size_t b = 0; b < 3; ++b) {
    EXPECT_LT((data.velocity[b] - kin.jacobian[b] * rates).norm(), 1e-13) << "body " << b;
    EXPECT_LT((data.pose[b].matrix() - kin.pose[b].matrix()).norm(), 1e-14) << "body " << b;
  }
}

// Lagrange: with no potential, M qdd = -(M-dot u - 1/2 d(u^T M u)/dq); M-dot
// and the gradient by central differences of the Jacobians' M(q).
TEST(TreeDynamics, VelocityProductTermsAreLagrangesByDifferences) {
  ArticulatedModel m = function_based_chain();
  m.gravity.setZero();
  const TreeModel model(m);
  TreeData data(model);
  const Eigen::VectorXd x = model.default_state();
  const Eigen::VectorXd q = x.head(5), u = x.tail(5);
  const double h = 1e-5;
  Eigen::MatrixXd m_dot = Eigen::MatrixXd::Zero(5, 5);
  Eigen::VectorXd gradient(5);
  for (Eigen::Index k = 0; k < 5; ++k) {
    Eigen::VectorXd plus = q, minus = q;
    plus[k] += h;
    minus[k] -= h;
    const Eigen::MatrixXd dm = (jacobian_mass(model, plus) - jacobian_mass(model, minus)) / (2.0 * h);
    m_dot += dm * u[k];
    gradient[k] = 0.5 * u.dot(dm * u);
  }
  const Eigen::VectorXd expected = -(m_dot * u - gradient);
  const Eigen::VectorXd tau = tree_force(model, data, q, u);
  EXPECT_LT((tau - expected).norm(), 1e-8 * expected.norm()) << tau.transpose() << "\n" << expected.transpose();
  EXPECT_GT(expected.norm(), 0.1);  // the terms are there to get wrong
  // Speeds reversed: the terms are quadratic in u.
  EXPECT_LT((tree_force(model, data, q, -u) - tau).norm(), 1e-12 * tau.norm());
}

// At rest, the generalised force is gravity's, -dV/dq with V = -sum m g . c.
TEST(TreeDynamics, GravityIsTheGradientOfThePotential) {
  ArticulatedModel m = function_based_chain();
  m.gravity = Eigen::Vector3d(0.3, -9.81, 0.2);
  const TreeModel model(m);
  TreeData data(model);
  const Eigen::VectorXd q = model.default_state().head(5), rest = Eigen::VectorXd::Zero(5);
  const auto potential = [&](const Eigen::VectorXd& at) {
    forward_kinematics(model, at, rest, data);
    double v = 0.0;
    for (std::size_t b = 0; b < 3; ++b) v -= m.bodies[b].mass * m.gravity.dot(data.pose[b] * m.bodies[b].mass_centre);
    return v;
  };
  Eigen::VectorXd expected(5);
  const double h = 1e-6;
  for (Eigen::Index k = 0; k < 5; ++k) {
    Eigen::VectorXd plus = q, minus = q;
    plus[k] += h;
    minus[k] -= h;
    expected[k] = -(potential(plus) - potential(minus)) / (2.0 * h);
  }
  const Eigen::VectorXd tau = tree_force(model, data, q, rest);
  EXPECT_LT((tau - expected).norm(), 1e-8 * expected.norm()) << tau.transpose() << "\n" << expected.transpose();
}

// One model, one TreeData per thread: the same accelerations.
TEST(TreeDynamics, OneModelSharedByThreads) {
  const TreeModel model(function_based_chain());
  const Eigen::VectorXd x = model.default_state();
  std::vector<Eigen::VectorXd> results(4, Eigen::VectorXd::Zero(5));
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < results.size(); ++t)
    threads.emplace_back([&, t] {
      TreeData data(model);
      for (int repeat = 0; repeat < 200; ++repeat) forward_dynamics(model, x.head(5), x.tail(5), data, results[t]);
    });
  for (std::thread& t : threads) t.join();
  TreeData data(model);
  Eigen::VectorXd qdd(5);
  ASSERT_TRUE(forward_dynamics(model, x.head(5), x.tail(5), data, qdd));
  for (const Eigen::VectorXd& r : results) EXPECT_EQ(r, qdd);
}

}  // namespace
}  // namespace dropsim::tree
