// Dormand-Prince 5(4) as dropsim restates it (integrators/dopri5.hpp): odeint's
// step and dense output to the bit, its output bounds, and the driver landing on an event.
#include "dropsim/integrators/integrate.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <utility>

namespace dropsim::integrators {
namespace {

// A nonlinear system whose every stage is distinct: what the dense-output tests step.
struct DrivenPendulum {
  void operator()(const Eigen::Vector2d& x, Eigen::Vector2d& dxdt, double t) const {
    dxdt = Eigen::Vector2d(x[1], -9.81 * std::sin(x[0]) + 0.3 * std::cos(2.0 * t));
  }
};

// The same pendulum on a dynamic-size state: the path the multibody system's steps take.
struct DrivenPendulumDynamic {
  void operator()(const Eigen::VectorXd& x, Eigen::VectorXd& dxdt, double t) const {
    Eigen::Vector2d fixed;
    DrivenPendulum{}(Eigen::Vector2d(x[0], x[1]), fixed, t);
    dxdt = fixed;
  }
};

// Dopri5Pair restates odeint's step (its right-hand sides inlined, its stages
// kept); it must be odeint's step to the bit, new state, derivative and error
// estimate alike, on fixed-size and dynamic states, and so keep every trace
// dropsim has written.
template <class Vector, class System>
void expect_odeints_step_to_the_bit(const System& system) {
  Dopri5Pair<Vector> ours, odeints;
  for (double h : {0.4, 1e-3, 3e-7}) {
    Vector x0 = Vector::Zero(2), d0 = x0;
    x0 << 1.2, -0.7;
    const double t0 = 0.25;
    system(x0, d0, t0);
    Vector x1 = d0, d1 = d0, err = d0, ref_x1 = d0, ref_d1 = d0, ref_err = d0;
    ours.do_step(system, x0, d0, t0, x1, d1, h, err);
    odeints.do_step_odeint(system, x0, d0, t0, ref_x1, ref_d1, h, ref_err);
    for (int i = 0; i < 2; ++i) {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(x1[i]), std::bit_cast<std::uint64_t>(ref_x1[i])) << "h " << h;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(d1[i]), std::bit_cast<std::uint64_t>(ref_d1[i])) << "h " << h;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(err[i]), std::bit_cast<std::uint64_t>(ref_err[i])) << "h " << h;
    }
    EXPECT_GT((x1 - x0).cwiseAbs().maxCoeff(), 1e-8) << "the step must move the state for the test to mean anything";
    EXPECT_GT(err.cwiseAbs().maxCoeff(), 0.0) << "an error estimate of zero would compare nothing";
  }
}

TEST(Dopri5Step, EqualsOdeintsStepToTheBit) {
  expect_odeints_step_to_the_bit<Eigen::Vector2d>(DrivenPendulum{});
  expect_odeints_step_to_the_bit<Eigen::VectorXd>(DrivenPendulumDynamic{});
}

// Free fall from h onto a linear spring floor, q'' = -g + k max(0, -q), its
// switch q counted: touchdown at t_c = sqrt(2 h / g), then
// q = -g/k + A cos(w (t - t_c)) + B sin(w (t - t_c)).
struct CountedSpringFloor {
  using Vector = Eigen::Vector2d;
  double g = 9.81, k = 1e4;
  mutable long switch_evaluations = 0;
  int size() const { return 2; }
  int num_positions() const { return 1; }
  void operator()(const Vector& x, Vector& dxdt, double) const { dxdt = Vector(x[1], -g + k * std::max(0.0, -x[0])); }
  void position_rate(const Vector& x, Vector& dxdt) const { dxdt[0] = x[1]; }
  int num_switches() const { return 1; }
  void switches(const Vector& x, double* s) const {
    ++switch_evaluations;
    s[0] = x[0];
  }
  void project(Vector&) const {}
};

// The driver lands a step on touchdown to near machine precision and finds
// that root in a few evaluations of the switch: bisecting the step (some 1e-3 s)
// down to 4 eps t took 45.
TEST(Dopri5Events, LandsOnTouchdownInAFewSwitchEvaluations) {
  const CountedSpringFloor floor;
  const double h = 0.1, t_c = std::sqrt(2.0 * h / floor.g), v_c = -floor.g * t_c, w = std::sqrt(floor.k);
  const double after = 0.01, t_end = t_c + after;  // inside the first contact (half a period is 0.031 s)
  const double a = floor.g / floor.k, b = v_c / w;
  const Eigen::Vector2d exact(-a + a * std::cos(w * after) + b * std::sin(w * after),
                              -a * w * std::sin(w * after) + b * w * std::cos(w * after));
  Dopri5<CountedSpringFloor> driver;
  AdaptiveSettings settings;
  settings.rtol = 1e-10;
  Eigen::Vector2d x(h, 0.0);
  const auto stats = driver.integrate(floor, x, {0.0, t_end}, settings,
                                      Eigen::Vector2d(1e-10 * h, 1e-10 * std::abs(v_c)),
                                      [](const Eigen::Vector2d&, double) { return true; });
  ASSERT_EQ(stats.status, Status::ok) << stats.reason;
  ASSERT_EQ(stats.events, 1);
  EXPECT_LT(std::abs(x[0] - exact[0]), 1e-9);
  EXPECT_LT(std::abs(x[1] - exact[1]) / std::abs(v_c), 1e-8);
  // One evaluation at the start; three per accepted step: its end and midpoint
  // (for the landed step, those of the try that found the root) and the state
  // it ends on. The rest located the root.
  const long locating = floor.switch_evaluations - 1 - 3 * stats.steps;
  EXPECT_GT(locating, 2);
  EXPECT_LE(locating, 15);
}

// Dopri5Pair folds odeint's continuous extension once per step; on a
// nonlinear system (a pendulum, every stage distinct) it must give odeint's
// calc_state to rounding at every point of the step, with both step sizes the
// driver uses (a long flight step, a short contact step).
TEST(Dopri5DenseOutput, EqualsOdeintsCalcState) {
  const DrivenPendulum pendulum;
  Dopri5Pair<Eigen::Vector2d> pair;
  for (double h : {0.4, 1e-3}) {
    const Eigen::Vector2d x0(1.2, -0.7);
    const double t0 = 0.25, t1 = t0 + h;
    Eigen::Vector2d d0, x1, d1, err;
    pendulum(x0, d0, t0);
    pair.do_step(pendulum, x0, d0, t0, x1, d1, h, err);
    Eigen::Vector2d odeint_x1, odeint_d1, odeint_err;  // odeint's calc_state reads the stages of its own step
    pair.do_step_odeint(pendulum, x0, d0, t0, odeint_x1, odeint_d1, h, odeint_err);
    Eigen::Vector2d ours, odeints;
    double worst = 0.0, largest_change = 0.0;
    for (int i = 0; i <= 20; ++i) {
      const double t = t0 + h * i / 20.0;
      pair.calc_state(t, ours, x0, d0, t0, x1, d1, t1);
      pair.calc_state_odeint(t, odeints, x0, d0, t0, x1, d1, t1);
      worst = std::max(worst, (ours - odeints).cwiseAbs().maxCoeff());
      largest_change = std::max(largest_change, (odeints - x0).cwiseAbs().maxCoeff());
    }
    EXPECT_LT(worst, 1e-14 * (x0.cwiseAbs().maxCoeff() + largest_change)) << h;
    EXPECT_GT(largest_change, 1e-4) << "the step must move the state for the test to mean anything";
    // The interpolant ends on the step's endpoints.
    pair.calc_state(t1, ours, x0, d0, t0, x1, d1, t1);
    EXPECT_LT((ours - x1).cwiseAbs().maxCoeff(), 1e-14) << h;
  }
}

// Dense::bounds lets summary-only runs pass over a step's samples unevaluated:
// every sample must lie within them, interior turning points included, and
// they must be tight enough to be worth having (Bernstein's hull of a short
// step's quintic is within a few per cent of its range).
TEST(Dopri5DenseOutput, BoundsHoldEverySampleAndAreTight) {
  const DrivenPendulum pendulum;
  Dopri5Pair<Eigen::Vector2d> pair;
  // (1.2, 2.0) over 0.4 s: the angle turns inside the step.
  for (const auto& [x0, h] : {std::pair{Eigen::Vector2d(1.2, 2.0), 0.4}, std::pair{Eigen::Vector2d(1.2, -0.7), 0.05},
                              std::pair{Eigen::Vector2d(-0.3, 1e-3), 1e-3}}) {
    const double t0 = 0.25, t1 = t0 + h;
    Eigen::Vector2d d0, x1, d1, err;
    pendulum(x0, d0, t0);
    pair.do_step(pendulum, x0, d0, t0, x1, d1, h, err);
    const auto& dense = pair.dense(x0, d0, t0, x1, d1, t1);
    Eigen::Vector2d low, high, sample;
    ASSERT_TRUE(dense.bounds(t0, t1, low, high));
    Eigen::Vector2d seen_low = x0, seen_high = x0;
    for (int i = 0; i <= 10000; ++i) {
      dense(t0 + h * i / 10000.0, sample);
      ASSERT_TRUE((sample.array() >= low.array()).all() && (sample.array() <= high.array()).all())
          << "h " << h << ", sample " << i << ": " << sample.transpose();
      seen_low = seen_low.cwiseMin(sample);
      seen_high = seen_high.cwiseMax(sample);
    }
    // A step that turns the angle: a fifth wider than the range; a short one: a hundredth.
    const bool turning = h == 0.4;
    const Eigen::Vector2d width = high - low, range = seen_high - seen_low;
    EXPECT_TRUE((width.array() <= (turning ? 1.25 : 1.01) * range.array() + 1e-12).all())
        << "h " << h << ": bounds " << width.transpose() << " against a range of " << range.transpose();
    if (turning) {
      EXPECT_GT(seen_high[0], std::max(x0[0], x1[0]) + 1e-3) << "the angle must turn inside the step";
    }
    EXPECT_FALSE(dense.bounds(t0, t1 + 0.01 * h, low, high)) << "a time beyond the step";
  }
}

}  // namespace
}  // namespace dropsim::integrators
