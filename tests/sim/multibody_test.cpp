// Tests of sim/multibody.* and sim/multibody_simulate.*: Jacobians, invariants, one physics through two engines.
#include "dropsim/sim/multibody.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "dropsim/sim/multibody_simulate.hpp"
#include "dropsim/sim/recorder.hpp"
#include "dropsim/sim/simulate.hpp"
#include "tests/support/models.hpp"

namespace dropsim {
namespace {

using test::free_body;
using test::hertz;
using test::sphere_on_ground;

double gap_at(const MultibodyModel& m, const Contact& c, const Eigen::VectorXd& q) {
  return contact_kinematics(m, c, q).gap;
}

// J u must equal the derivative of the gap along u, for every joint type and
// both contact types: an independent finite-difference check.
TEST(ContactKinematics, JacobianIsTheDerivativeOfTheGap) {
  const MultibodyModel m = test::every_joint_and_contact(hertz(1e6));
  const Eigen::VectorXd x = m.initial_state();
  const Eigen::VectorXd q = x.head(m.nq);
  const Eigen::MatrixXd j = contact_jacobian(m, x);
  const Eigen::VectorXd u = Eigen::VectorXd::LinSpaced(m.nu, -1.0, 1.3);
  const double eps = 1e-6;
  for (std::size_t i = 0; i < m.contacts.size(); ++i) {
    Eigen::VectorXd qp = q, qm = q;
    advance_configuration(m, qp, eps * u);
    advance_configuration(m, qm, -eps * u);
    const double fd = (gap_at(m, m.contacts[i], qp) - gap_at(m, m.contacts[i], qm)) / (2 * eps);
    EXPECT_NEAR(j.row(static_cast<Eigen::Index>(i)).dot(u), fd, 1e-8) << "contact " << i;
  }
}

// configuration_difference undoes advance_configuration (quaternion exponential map and its log).
TEST(ContactKinematics, ConfigurationDifferenceInvertsAdvance) {
  MultibodyModel m;
  m.bodies.push_back(free_body("box", 1.0, {1, 1, 1}, {0.1, 0.2, 0.3}));
  m.bodies[0].orientation = Eigen::Quaterniond(0.9, 0.1, -0.3, 0.2).normalized();
  m.finalize();
  const Eigen::VectorXd q0 = m.initial_state().head(m.nq);
  Eigen::VectorXd du(6);
  du << 0.01, -0.02, 0.03, 0.4, -0.2, 0.1;
  Eigen::VectorXd q = q0;
  advance_configuration(m, q, du);
  EXPECT_LT((configuration_difference(m, q, q0) - du).norm(), 1e-13);
}

// The paper's 1-DOF drop and a free body on the same spheres (coplanar, symmetric)
// are one physics: the traces must agree in F/(Mg) to 1e-10.
TEST(MultibodySimulate, FreeBodyDropMatchesOneDofEngine) {
  const DropModel drop = test::human_drop(5.5e5, 4);

  MultibodyModel m;
  m.characteristic_length = drop.characteristic_length;
  // Centre of mass level with the sphere bottoms, so y is the same number in
  // both models and the error control sees the same state.
  m.bodies.push_back(free_body("trunk", drop.mass, {2.0, 3.0, 4.0}, {0.0, drop.initial_height, 0.0}));
  m.finalize();
  for (double sx : {-0.2, 0.2})
    for (double sz : {-0.1, 0.1}) m.contacts.push_back(sphere_on_ground(0, {sx, 0.032, sz}, 0.032, drop.law));

  // rtol tight enough that both solutions are accurate well below 1e-10: the
  // two paths take different step sequences (the free body's unit quaternion
  // enters dopri5's choice of the first step).
  const RunSettings run = test::adaptive_run(1.0, 5e-4, 1e-12);
  const Trace a = simulate(drop, run);
  const Trace b = simulate(m, run);
  ASSERT_EQ(a.samples(), b.samples());
  double worst = 0.0, peak = 0.0;
  for (std::size_t k = 0; k < a.samples(); ++k) {
    worst = std::max(worst, std::abs(a.force_normalized[k] - b.force_normalized[k]));
    peak = std::max(peak, a.force_normalized[k]);
  }
  EXPECT_GT(peak, 1.5);  // it did hit the ground
  EXPECT_LT(worst, 1e-10);
}

// Tilted, spinning box dropped on Hertz spheres without damping: mechanical energy is conserved.
TEST(MultibodySimulate, FreeBodyHertzDropConservesEnergy) {
  MultibodyModel m;
  m.characteristic_length = 0.02;
  m.bodies.push_back(free_body("box", 2.0, {0.01, 0.02, 0.015}, {0.0, 0.08, 0.0}));
  m.bodies[0].orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.2, Eigen::Vector3d(1, 0, 1).normalized()));
  m.bodies[0].angular_velocity = {0.5, 2.0, -1.0};
  m.bodies[0].velocity = {0.1, -0.2, 0.0};
  m.finalize();
  for (double sx : {-0.1, 0.1})
    for (double sz : {-0.07, 0.07}) m.contacts.push_back(sphere_on_ground(0, {sx, -0.05, sz}, 0.02, hertz(2e6)));

  const RunSettings run = test::adaptive_run(0.4, 1e-3, 1e-10);
  const Trace t = simulate(m, run);
  ASSERT_EQ(t.stats.status, integrators::Status::ok);
  const double e0 = t.kinetic[0] + t.potential[0] + t.elastic[0];
  double worst = 0.0, elastic = 0.0;
  for (std::size_t k = 0; k < t.samples(); ++k) {
    worst = std::max(worst, std::abs(t.kinetic[k] + t.potential[k] + t.elastic[k] - e0));
    elastic = std::max(elastic, t.elastic[k]);
  }
  EXPECT_GT(elastic, 0.01 * e0);  // contacts took part
  EXPECT_LT(worst / e0, 1e-8);
}

// Zero gravity, asymmetric body spinning near its intermediate axis (it tumbles):
// angular momentum is conserved in the world frame, and the gyroscopic term is what does it.
TEST(MultibodySimulate, ZeroGravityTumblingConservesAngularMomentum) {
  MultibodyModel m;
  m.gravity = 0.0;
  m.characteristic_length = 0.1;
  m.bodies.push_back(free_body("tumbler", 1.5, {0.01, 0.02, 0.03}, {0.2, 1.0, -0.1}));
  m.bodies[0].velocity = {0.3, 0.1, -0.2};
  m.bodies[0].angular_velocity = {0.05, 8.0, 0.05};
  m.finalize();
  m.contacts.push_back(sphere_on_ground(0, {0.0, 0.0, 0.0}, 0.01, hertz(1e6)));  // never touches

  const RunSettings run = test::adaptive_run(3.0, 1e-2, 1e-12);
  const Trace t = simulate(m, run);
  ASSERT_EQ(t.stats.status, integrators::Status::ok);
  const Eigen::Vector3d h0 = angular_momentum(m, m.initial_state());
  double worst = 0.0, tumble = 0.0;
  Eigen::VectorXd x(m.nq + m.nu);
  for (std::size_t k = 0; k < t.samples(); ++k) {
    for (int i = 0; i < m.nq; ++i) x[i] = t.q[k * m.nq + i];
    for (int i = 0; i < m.nu; ++i) x[m.nq + i] = t.u[k * m.nu + i];
    worst = std::max(worst, (angular_momentum(m, x) - h0).norm() / h0.norm());
    tumble = std::max(tumble, std::abs(x[m.nq + 3]));  // body wx grows when it tumbles
    EXPECT_NEAR(x.segment<4>(3).norm(), 1.0, 1e-12);  // samples come from the dense output, unprojected
  }
  EXPECT_GT(tumble, 1.0);
  EXPECT_LT(worst, 1e-10);
}

// Two free particles colliding head-on in zero gravity: linear momentum conserved, equal masses swap speeds.
TEST(MultibodySimulate, SphereSphereCollisionConservesMomentum) {
  MultibodyModel m;
  m.gravity = 0.0;
  m.characteristic_length = 0.01;
  m.bodies.push_back(free_body("a", 1.0, {1e-4, 1e-4, 1e-4}, {0.0, 1.0, 0.0}));
  m.bodies.push_back(free_body("b", 1.0, {1e-4, 1e-4, 1e-4}, {0.03, 1.0, 0.0}));
  m.bodies[0].velocity = {0.5, 0.0, 0.0};
  m.finalize();
  m.contacts.push_back(test::sphere_on_sphere(0, Eigen::Vector3d::Zero(), 0.01, 1, Eigen::Vector3d::Zero(), 0.01,
                                              hertz(1e7)));
  const RunSettings run = test::adaptive_run(0.2, 1e-3, 1e-10);
  const Trace t = simulate(m, run);
  const std::size_t last = t.samples() - 1;
  EXPECT_NEAR(t.u[last * m.nu + 0], 0.0, 1e-8);
  EXPECT_NEAR(t.u[last * m.nu + 6], 0.5, 1e-8);
}

// A blow-up is a result, by the one rule of every system: central difference at
// ten times the bar's stable step stops as diverged at the first sample whose
// energy leaves the bound, and the trace ends before it, every value finite.
TEST(MultibodySimulate, BlowUpStopsAsDivergedWithTheTraceUpToIt) {
  const MultibodyModel m = test::bar_on_two_supports();
  RunSettings run;
  run.duration = 1.0;
  run.output_interval = 0.01;
  run.integrator.method = integrators::Method::central_difference;
  run.integrator.step = 0.01;  // h omega about 6 for the bar's faster mode (limit 2)
  const Trace t = simulate(m, run);
  ASSERT_EQ(t.stats.status, integrators::Status::diverged);
  EXPECT_EQ(t.stats.reason, "energy grew beyond bound");
  ASSERT_GT(t.samples(), 0u);
  EXPECT_LT(t.time.back(), t.stats.end_time);
  EXPECT_LT(t.stats.end_time, run.duration);
  const double e0 = t.kinetic[0] + t.potential[0] + t.elastic[0];
  const double bound = divergence_energy_bound(e0, m.total_mass() * m.gravity, m.characteristic_length);
  for (std::size_t k = 0; k < t.samples(); ++k) {
    const double e = t.kinetic[k] + t.potential[k] + t.elastic[k];
    ASSERT_TRUE(std::isfinite(e) && std::isfinite(t.force_normalized[k])) << k;
    EXPECT_LE(e, bound) << k;
  }
}

}  // namespace
}  // namespace dropsim
