// Tests of sim/friction.hpp and friction in the multibody engine: Simbody's law, Coulomb's stopping
// distance, a ball that starts rolling, the tangential damper at zero slip, and the exact Jacobian.
#include "dropsim/sim/friction.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "dropsim/sim/equilibrium.hpp"
#include "dropsim/integrators/integrate.hpp"
#include "dropsim/sim/modes.hpp"
#include "dropsim/sim/steplimit.hpp"
#include "dropsim/sim/multibody_simulate.hpp"
#include "tests/support/models.hpp"

namespace dropsim {
namespace {

// Simbody's HuntCrossleyForce::calcForce, written out as it reads there:
// the friction force per unit normal force at slip speed vslip.
double simbody_friction_per_normal(const Friction& f, double vslip) {
  const double vrel = vslip / f.transition_velocity;
  const double us = f.static_coefficient, ud = f.dynamic_coefficient, uv = f.viscous_coefficient;
  return std::min(vrel, 1.0) * (ud + 2 * (us - ud) / (1 + vrel * vrel)) + uv * vslip;
}

TEST(FrictionLaw, IsSimbodysStribeckCurveWithItsSlope) {
  const Friction f{0.8, 0.5, 0.05, 0.2};
  for (double s : {0.0, 1e-6, 0.01, 0.1, 0.199, 0.2, 0.201, 0.5, 3.0}) {
    const FrictionSlope slope = friction_slope(f, s);
    EXPECT_NEAR(slope.per_slip * s, simbody_friction_per_normal(f, s), 1e-15) << s;
    if (s < 1e-3 || std::abs(s - 0.2) < 2e-3) continue;  // the slope of the kink at v_t is one-sided
    const double h = 1e-6 * s;
    const double differences = (friction_slope(f, s + h).per_slip - friction_slope(f, s - h).per_slip) / (2 * h);
    EXPECT_NEAR(slope.change_per_slip * s, differences, 1e-6 * std::abs(differences) + 1e-9) << s;
  }
  // At zero slip friction is a damper of F_n ((2 mu_s - mu_d) / v_t + mu_v) per unit slip.
  EXPECT_DOUBLE_EQ(friction_slope(f, 0.0).per_slip, (2 * 0.8 - 0.5) / 0.2 + 0.05);
}

// A box on four Hunt–Crossley spheres, resting, pushed along x.
MultibodyModel box_on_four_spheres(const Friction& friction) {
  MultibodyModel m;
  m.characteristic_length = 0.01;
  m.bodies.push_back(test::free_body("box", 2.0, {0.004, 0.006, 0.004}, {0.0, 0.0, 0.0}));
  m.finalize();
  ContactLaw law = test::hertz(2e7);
  law.kind = ContactLawKind::hunt_crossley;
  law.dissipation = 5.0;
  law.friction = friction;
  for (double x : {-0.05, 0.05})
    for (double z : {-0.05, 0.05}) m.contacts.push_back(test::sphere_on_ground(0, {x, -0.02, z}, 0.01, law));
  return m;
}

Eigen::VectorXd at_rest_moving(const MultibodyModel& m, const Eigen::Vector3d& velocity) {
  Eigen::VectorXd x = m.initial_state();
  x[1] = 0.0205;  // near the rest height; the equilibrium solver finds it exactly
  x = static_equilibrium(m, x).x;
  x.segment<3>(m.nq) = velocity;
  return x;
}

// Coulomb: a block sliding at v0 with mu_s = mu_d stops after v0^2 / (2 mu g).
TEST(Friction, SlidingBlockStopsAtCoulombsDistance) {
  const MultibodyModel m = box_on_four_spheres({0.5, 0.5, 0.0, 1e-4});
  const Trace t = simulate_from(m, test::adaptive_run(0.3, 1e-3, 1e-8), at_rest_moving(m, {1.0, 0.0, 0.0}));
  ASSERT_EQ(t.stats.status, integrators::Status::ok) << t.stats.reason;
  const double expected = 1.0 / (2 * 0.5 * m.gravity);
  const double travelled = t.q[(t.samples() - 1) * m.nq] - t.q[0];
  std::printf("[measured] sliding block: stopped after %.6f m, Coulomb %.6f m\n", travelled, expected);
  EXPECT_NEAR(travelled, expected, 0.005 * expected);
  EXPECT_LT(std::abs(t.u[(t.samples() - 1) * m.nu]), 1e-3);  // at rest
  // The energy it lost is the kinetic energy it had, through the friction work.
  const double lost = t.dissipated.back() - t.dissipated.front();
  EXPECT_NEAR(lost, 0.5 * 2.0 * 1.0, 0.01);
}

// A solid ball (I = 2/5 m r^2) launched at v0 without spin ends rolling at
// 5/7 v0 about its contact point, and then barely slips.
TEST(Friction, LaunchedBallEndsRollingAtFiveSevenths) {
  MultibodyModel m;
  const double r = 0.05, mass = 1.0;
  m.characteristic_length = r;
  const double inertia = 0.4 * mass * r * r;
  m.bodies.push_back(test::free_body("ball", mass, {inertia, inertia, inertia}, {0.0, r, 0.0}));
  m.finalize();
  ContactLaw law = test::hertz(1e8);
  law.kind = ContactLawKind::hunt_crossley;
  law.dissipation = 5.0;
  law.friction = {0.5, 0.5, 0.0, 1e-3};
  m.contacts.push_back(test::sphere_on_ground(0, {0.0, 0.0, 0.0}, r, law));
  Eigen::VectorXd x = static_equilibrium(m, m.initial_state()).x;
  x[m.nq] = 2.0;
  const Trace t = simulate_from(m, test::adaptive_run(0.5, 1e-3, 1e-8), x);
  ASSERT_EQ(t.stats.status, integrators::Status::ok) << t.stats.reason;
  const std::size_t last = t.samples() - 1;
  const double speed = t.u[last * m.nu];
  std::printf("[measured] rolling ball: %.6f m/s, 5/7 v0 = %.6f m/s, slip %.3g m/s\n", speed, 2.0 * 5 / 7,
              t.slip_speed[last]);
  EXPECT_NEAR(speed, 2.0 * 5.0 / 7.0, 0.005 * 2.0 * 5.0 / 7.0);
  EXPECT_LT(t.slip_speed[last], 10 * 1e-3);
  ASSERT_EQ(t.friction_force.size(), t.samples());  // one contact: a column per sample
}

// The box of box_on_four_spheres resting on a plane tilted by theta about z,
// its bottom parallel to the plane; friction mu_s = mu_d = mu, v_t = 1 cm/s.
struct Slope {
  MultibodyModel model;
  Eigen::Vector3d downhill;
};
Slope box_on_slope(double theta, const Friction& friction) {
  Slope s{box_on_four_spheres(friction), {}};
  const Eigen::Vector3d normal(-std::sin(theta), std::cos(theta), 0.0);
  s.downhill = -Eigen::Vector3d(std::cos(theta), std::sin(theta), 0.0);
  for (Contact& c : s.model.contacts) c.plane_normal = normal;
  Body& box = s.model.bodies[0];
  box.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(theta, Eigen::Vector3d::UnitZ()));
  box.position = (0.03 - 1e-4) * normal;  // the spheres 0.1 mm into the plane
  return s;
}

double speed_along(const Trace& t, const MultibodyModel& m, std::size_t k, const Eigen::Vector3d& direction) {
  return Eigen::Vector3d(t.u[k * m.nu], t.u[k * m.nu + 1], t.u[k * m.nu + 2]).dot(direction);
}

// Below the friction angle the regularised law cannot hold a block still: it
// creeps where F_n mu(v) balances the slope, v = v_t tan(theta) / mu for
// mu_s = mu_d. Above it, the block slides at g (sin theta - mu_d cos theta).
TEST(Friction, SlopeHoldsBelowTheFrictionAngleAndSlidesAbove) {
  const double mu = 0.5, friction_angle = std::atan(mu);
  {
    const double theta = 0.8 * friction_angle;
    const Slope s = box_on_slope(theta, {mu, mu, 0.0, 0.01});
    const Trace t = simulate(s.model, test::adaptive_run(0.4, 1e-3, 1e-9));
    ASSERT_EQ(t.stats.status, integrators::Status::ok) << t.stats.reason;
    const double creep = speed_along(t, s.model, t.samples() - 1, s.downhill);
    const double predicted = 0.01 * std::tan(theta) / mu;
    std::printf("[measured] slope at 0.8 x the friction angle: creeps at %.6g m/s, predicted %.6g m/s\n", creep,
                predicted);
    EXPECT_NEAR(creep, predicted, 0.02 * predicted);
  }
  {
    const double theta = 1.2 * friction_angle;
    const Slope s = box_on_slope(theta, {mu, mu, 0.0, 0.01});
    const Trace t = simulate(s.model, test::adaptive_run(0.4, 1e-3, 1e-9));
    ASSERT_EQ(t.stats.status, integrators::Status::ok) << t.stats.reason;
    const std::size_t a = t.samples() / 2, b = t.samples() - 1;  // past the settling of the landing
    const double acceleration =
        (speed_along(t, s.model, b, s.downhill) - speed_along(t, s.model, a, s.downhill)) / (t.time[b] - t.time[a]);
    const double predicted = s.model.gravity * (std::sin(theta) - mu * std::cos(theta));
    std::printf("[measured] slope at 1.2 x the friction angle: slides at %.6g m/s^2, predicted %.6g m/s^2\n",
                acceleration, predicted);
    EXPECT_NEAR(acceleration, predicted, 0.01 * predicted);
  }
}

// The static equilibrium on a slope is the steady creep at which the law's
// coefficient equals tan(theta): mu(v) = tan(theta) solved here by bisection on
// Simbody's curve (mu_s 0.8 > mu_d 0.5, so its Stribeck hump matters). Past the
// friction angle of mu_s the solver says the block slides.
TEST(Friction, EquilibriumOnASlopeIsTheCreepTheLawPredicts) {
  const Friction friction{0.8, 0.5, 0.0, 0.01};
  const double friction_angle = std::atan(friction.static_coefficient);
  for (double fraction : {0.3, 0.8, 0.99}) {
    const double theta = fraction * friction_angle;
    const Slope s = box_on_slope(theta, friction);
    double lo = 0.0, hi = friction.transition_velocity;
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      (simbody_friction_per_normal(friction, mid) < std::tan(theta) ? lo : hi) = mid;
    }
    const Equilibrium eq = static_equilibrium(s.model, s.model.initial_state());
    const Eigen::Vector3d velocity = eq.x.segment<3>(s.model.nq);
    std::printf("[measured] equilibrium at %.2f x the friction angle: creeps at %.9g m/s, the law %.9g m/s\n",
                fraction, eq.creep_speed, lo);
    EXPECT_NEAR(eq.creep_speed, lo, 1e-6 * lo);
    EXPECT_NEAR(velocity.dot(s.downhill), lo, 1e-6 * lo);           // downhill,
    EXPECT_LT(eq.x.segment<3>(s.model.nq + 3).norm(), 1e-9);       // without turning
    EXPECT_LT(eq.residual, 1e-9);
  }
  const Slope steep = box_on_slope(1.05 * friction_angle, friction);
  try {
    static_equilibrium(steep.model, steep.model.initial_state());
    ADD_FAILURE() << "a slope past the friction angle held";
  } catch (const EquilibriumError& e) {
    EXPECT_NE(std::string(e.what()).find("slides"), std::string::npos) << e.what();
  }
}

// A 2 kg box at rest on four Hertz spheres whose contact points sit level with
// its centre of mass (so sliding does not pitch it), mu 0.8, v_t = 1 cm/s.
MultibodyModel resting_box_level_contacts(double modulus) {
  MultibodyModel m = box_on_four_spheres({0.8, 0.8, 0.0, 0.01});
  for (Contact& c : m.contacts) {
    c.law.kind = ContactLawKind::hertz;
    c.law.effective_modulus = modulus;
    c.at[0].y() = c.radius[0];
  }
  Eigen::VectorXd x = m.initial_state();
  x[1] = 0.0;
  const double indentation = -contact_kinematics(m, m.contacts[0], static_equilibrium(m, x).x).gap;
  for (Contact& c : m.contacts) c.at[0].y() = c.radius[0] - 0.5 * indentation;  // the contact point's height
  m.bodies[0].position = static_equilibrium(m, x).x.head<3>();
  return m;
}

// At rest each tangential direction is a damper F_n (2 mu_s - mu_d) / v_t: the
// box's sliding decays at g (2 mu_s - mu_d) / v_t, a real eigenvalue.
TEST(FrictionModes, RestingBoxDecaysAtTheFrictionRate) {
  const MultibodyModel m = resting_box_level_contacts(1e6);
  const ModesAnalysis a = analyse_modes(m, static_equilibrium(m, m.initial_state()).x);
  const double expected = m.gravity * (2 * 0.8 - 0.8) / 0.01;
  ASSERT_FALSE(a.decay_rates.empty());
  const auto nearest = *std::min_element(a.decay_rates.begin(), a.decay_rates.end(), [&](double p, double q) {
    return std::abs(p - expected) < std::abs(q - expected);
  });
  std::printf("[measured] resting box: sliding decays at %.9g 1/s, F_n (2 mu_s - mu_d) / (v_t m) = %.9g\n", nearest,
              expected);
  EXPECT_NEAR(nearest, expected, 1e-6 * expected);
}

// Friction's rate above the normal modes sets the explicit methods' step on
// the real axis: rk4 at 2.785 / rate, dopri5 near 3.3 / rate (the project's
// own amplification analysis); the kicked nonlinear run agrees within 2 %.
TEST(FrictionModes, FrictionSetsTheExplicitStepLimit) {
  const MultibodyModel m = resting_box_level_contacts(1e5);
  const ModesAnalysis a = analyse_modes(m, static_equilibrium(m, m.initial_state()).x);
  ASSERT_FALSE(a.decay_rates.empty());
  const double rate = a.decay_rates.front();
  ASSERT_GT(rate, a.omega_max);  // friction is the stiffest
  RunSettings run = test::adaptive_run(0.05, 1e-3, 1e-8);
  for (const auto& [method, real_axis] : {std::pair{integrators::Method::rk4, 2.785293563},
                                          std::pair{integrators::Method::dopri5, 3.3066}}) {
    const StepLimitReport r = multibody_step_limit(m, run, method);
    std::printf("[measured] %s on the resting box: predicted %.6g s (real axis %.6g s), measured %.6g s\n",
                std::string(integrators::info(method).name).c_str(), r.predicted_step, real_axis / rate,
                r.measured_step);
    EXPECT_TRUE(r.limited_by_friction);
    EXPECT_NEAR(r.predicted_step, real_axis / rate, 0.01 * real_axis / rate);
    EXPECT_NEAR(r.measured_step, r.predicted_step, 0.02 * r.predicted_step);
  }
}

// The multibody system with one more state: the work friction has done,
// integrated from its power -sum F_t |v_t| (the force opposes the slip). An
// account kept apart from the energies the trace derives `dissipated` from.
class WithFrictionWork {
 public:
  using Vector = Eigen::VectorXd;
  explicit WithFrictionWork(const MultibodyModel& m) : system_(m), n_(system_.size()) {}
  int size() const { return n_ + 1; }
  int num_positions() const { return system_.num_positions(); }
  void operator()(const Vector& x, Vector& dxdt, double t) const {
    const Vector state = x.head(n_);
    Vector rate(n_), generalised(system_.model().nu);
    system_(state, rate, t);
    dxdt.head(n_) = rate;
    const std::size_t nc = system_.model().contacts.size();
    std::vector<double> normal(nc), friction(nc), slip(nc);
    system_.applied_forces(state, generalised, normal.data(), friction.data(), slip.data());
    double power = 0.0;
    for (std::size_t i = 0; i < nc; ++i) power -= system_.model().contacts[i].count * friction[i] * slip[i];
    dxdt[n_] = power;
  }
  void position_rate(const Vector& x, Vector& dxdt) const {
    Vector rate(n_);
    system_.position_rate(x.head(n_), rate);
    dxdt.head(system_.num_positions()) = rate.head(system_.num_positions());
  }
  int num_switches() const { return system_.num_switches(); }
  void switches(const Vector& x, double* out) const { system_.switches(x.head(n_), out); }
  void project(Vector& x) const {
    Vector state = x.head(n_);
    system_.project(state);
    x.head(n_) = state;
  }

 private:
  MultibodySystem system_;
  int n_;
};

// Elastic (Hertz) contact, so friction is the only loss: the energy the
// trace's balance says is gone equals the friction work integrated alongside.
TEST(Friction, EnergyBalanceClosesOnTheFrictionWork) {
  MultibodyModel m = box_on_four_spheres({0.6, 0.4, 0.02, 0.01});
  for (Contact& c : m.contacts) c.law.kind = ContactLawKind::hertz;
  const Eigen::VectorXd start = at_rest_moving(m, {0.8, 0.0, -0.3});
  const WithFrictionWork system(m);
  Eigen::VectorXd x(system.size());
  x << start, 0.0;
  integrators::Settings settings;
  settings.rtol = 1e-11;
  Eigen::VectorXd atol = Eigen::VectorXd::Constant(system.size(), 1e-13);
  const auto stats = integrators::integrate(settings, system, x, std::vector<double>{0.0, 0.2}, atol,
                                            [](const Eigen::VectorXd&, double) { return true; });
  ASSERT_EQ(stats.status, integrators::Status::ok) << stats.reason;
  const double lost = multibody_energies(m, start).mechanical() - multibody_energies(m, x.head(m.nq + m.nu)).mechanical();
  const double initial_kinetic = multibody_energies(m, start).kinetic;
  std::printf("[measured] friction-only loss: energies say %.12g J, friction work %.12g J\n", lost, -x[m.nq + m.nu]);
  EXPECT_GT(lost, 0.5 * initial_kinetic);  // friction did most of the stopping
  EXPECT_NEAR(lost, -x[m.nq + m.nu], 1e-8 * initial_kinetic);
}

// Every coefficient zero is no friction at all: the trace is the frictionless one, bit for bit.
TEST(Friction, ZeroCoefficientsChangeNothing) {
  const MultibodyModel with = box_on_four_spheres({0.0, 0.0, 0.0, 0.05});
  MultibodyModel without = with;
  for (Contact& c : without.contacts) c.law.friction = Friction{};
  const Eigen::VectorXd x = at_rest_moving(with, {1.0, -0.1, 0.2});
  const Trace a = simulate_from(with, test::adaptive_run(0.05, 1e-3, 1e-8), x);
  const Trace b = simulate_from(without, test::adaptive_run(0.05, 1e-3, 1e-8), x);
  EXPECT_EQ(a.q, b.q);
  EXPECT_EQ(a.u, b.u);
  EXPECT_TRUE(a.friction_force.empty());
}

}  // namespace
}  // namespace dropsim
