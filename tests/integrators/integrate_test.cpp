// Typed suites over the registered integrators, each over the methods it applies
// to: order, energy, step limit, error control, dispatch.
#include "dropsim/integrators/integrate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "dropsim/integrators/stability.hpp"

namespace dropsim::integrators {
namespace {

template <Method M>
struct MethodTag {
  static constexpr Method method = M;
};

// Built from the registry itself (registry.hpp asserts methods[i].method == Method(i)):
// a method added there is in each suite it applies to without anyone editing a list.
using Applies = bool (*)(const MethodInfo&);
template <Applies applies>
constexpr auto methods_where() {
  constexpr auto n = static_cast<std::size_t>(std::ranges::count_if(methods, applies));
  std::array<Method, n> out{};
  std::size_t k = 0;
  for (const auto& m : methods)
    if (applies(m)) out[k++] = m.method;
  return out;
}
template <Applies applies, std::size_t... I>
::testing::Types<MethodTag<methods_where<applies>()[I]>...> method_types(std::index_sequence<I...>);
template <Applies applies>
using MethodsWhere = decltype(method_types<applies>(std::make_index_sequence<methods_where<applies>().size()>{}));

constexpr bool any_method(const MethodInfo&) { return true; }
constexpr bool error_controlled(const MethodInfo& m) { return m.adaptive; }
// Symplectic, and Newmark's average acceleration, which conserves a quadratic energy.
constexpr bool conserves_energy(const MethodInfo& m) {
  return m.method == Method::symplectic_euler || m.method == Method::central_difference ||
         m.method == Method::velocity_verlet || m.method == Method::mclachlan_sb3a || m.method == Method::newmark;
}

struct MethodName {
  template <class T>
  static std::string GetName(int) {
    return std::string(info(T::method).name);
  }
};

// Observers and runs shared by every method's instantiation of the suite: a
// lambda inside a typed test is a new type per method, and each instantiated
// integrate() for all eighteen methods again (minutes of compiling).
struct KeepGoing {
  bool operator()(const Eigen::VectorXd&, double) const { return true; }
};

// Fixed steps of size T / n from x0 on the system; returns the final state.
// SUNDIALS methods: the library's own fixed-step mode, where it has one.
Eigen::VectorXd run_fixed(Method method, const LinearSystem& system, Eigen::VectorXd x, double duration, long n) {
  if (!has_one_step_form(info(method))) {
    Settings settings;
    settings.method = method;
    settings.fixed = true;
    settings.step = duration / static_cast<double>(n);
    integrate(settings, system, x, {0.0, duration}, Eigen::VectorXd::Constant(x.size(), 1.0), KeepGoing{});
    return x;
  }
  return visit_one_step<Eigen::VectorXd>(method, [&](auto& stepper) {
    integrate_fixed(stepper, system, x, {0.0, duration}, duration / static_cast<double>(n), KeepGoing{});
    return x;
  });
}

// What every suite's test reads: the method, its registry entry, fixed-step runs.
// A method this build lacks (SUNDIALS') skips, naming the package that brings it.
template <class T>
class IntegratorSuite : public ::testing::Test {
 protected:
  static constexpr Method method = T::method;
  static const MethodInfo& meta() { return info(method); }

  void SetUp() override {
    if (!available(meta())) GTEST_SKIP() << unavailable_message(meta().name);
  }

  static Eigen::VectorXd run(const LinearSystem& system, Eigen::VectorXd x, double duration, long n) {
    return run_fixed(method, system, std::move(x), duration, n);
  }
};
// Every registered method.
template <class T>
class EveryIntegrator : public IntegratorSuite<T> {};
TYPED_TEST_SUITE(EveryIntegrator, MethodsWhere<any_method>, MethodName);
// Those that run at a fixed step (all but CVODE, whose step is its own).
template <class T>
class FixedStepIntegrator : public IntegratorSuite<T> {};
TYPED_TEST_SUITE(FixedStepIntegrator, MethodsWhere<has_fixed_step_limit>, MethodName);
// Those dropsim steps itself, whose step map the stability analysis reads.
template <class T>
class OneStepIntegrator : public IntegratorSuite<T> {};
TYPED_TEST_SUITE(OneStepIntegrator, MethodsWhere<has_one_step_form>, MethodName);
template <class T>
class EnergyConservingIntegrator : public IntegratorSuite<T> {};
TYPED_TEST_SUITE(EnergyConservingIntegrator, MethodsWhere<conserves_energy>, MethodName);
template <class T>
class AdaptiveIntegrator : public IntegratorSuite<T> {};
TYPED_TEST_SUITE(AdaptiveIntegrator, MethodsWhere<error_controlled>, MethodName);

const Eigen::MatrixXd one = Eigen::MatrixXd::Identity(1, 1);

// q'' + 2 zeta q' + q = 0, q(0) = 1, q'(0) = 0, exactly.
Eigen::VectorXd damped_exact(double zeta, double t) {
  const double wd = std::sqrt(1.0 - zeta * zeta), decay = std::exp(-zeta * t);
  return Eigen::Vector2d(decay * (std::cos(wd * t) + zeta / wd * std::sin(wd * t)), -decay / wd * std::sin(wd * t));
}

// Observed order = log2 of the error ratio when the step halves, on a damped
// oscillator (zeta = 0.1), with steps chosen so that error >> rounding.
// (central_difference declares 1: damping lagged half a step costs an order;
// it is second order without damping, checked below.)
// (CVODE has no fixed step: SundialsCvode.ErrorFollowsTheTolerance instead.)
TYPED_TEST(FixedStepIntegrator, ConvergenceOrderMatchesDeclared) {
  const double zeta = 0.1, duration = 4.0;
  const LinearSystem system(one, one, 2.0 * zeta * one);
  const int order = this->meta().order;
  const long n = order <= 1 ? 4000 : order == 2 ? 400 : order <= 5 ? 40 : 8;
  const Eigen::VectorXd x0 = Eigen::Vector2d(1.0, 0.0), exact = damped_exact(zeta, duration);
  const double e1 = (this->run(system, x0, duration, n) - exact).cwiseAbs().maxCoeff();
  const double e2 = (this->run(system, x0, duration, 2 * n) - exact).cwiseAbs().maxCoeff();
  ASSERT_GT(e2, 1e-13) << "error at rounding level: the slope says nothing";
  EXPECT_NEAR(std::log2(e1 / e2), order, 0.2) << "errors " << e1 << " " << e2;
}

TEST(CentralDifference, SecondOrderWithoutDamping) {
  const LinearSystem system(one, one, Eigen::MatrixXd::Zero(1, 1));
  auto error = [&](long n) {
    Eigen::VectorXd x = Eigen::Vector2d(1.0, 0.0);
    CentralDifference<Eigen::VectorXd> cd;
    integrate_fixed(cd, system, x, {0.0, 4.0}, 4.0 / static_cast<double>(n), KeepGoing{});
    return (x - damped_exact(0.0, 4.0)).cwiseAbs().maxCoeff();
  };
  EXPECT_NEAR(std::log2(error(400) / error(800)), 2.0, 0.2);
}

// The largest energy error on the undamped unit oscillator at h = 0.1 over
// the first and the last 1000 of 1e5 steps.
std::pair<double, double> energy_error_early_and_late(Method method) {
  const LinearSystem system(one, one, Eigen::MatrixXd::Zero(1, 1));
  const double h = 0.1;
  Eigen::VectorXd x = Eigen::Vector2d(1.0, 0.0);
  double early = 0.0, late = 0.0;
  const long steps = 100000;
  visit_one_step<Eigen::VectorXd>(method, [&](auto& stepper) {
    long count = 0;
    const CountingSystem<LinearSystem> sys{&system, &count};
    stepper.reset();
    for (long k = 1; k <= steps; ++k) {
      stepper.step(sys, x, static_cast<double>(k - 1) * h, h);
      const double err = std::abs(0.5 * x.squaredNorm() - 0.5);
      if (k <= 1000) early = std::max(early, err);
      if (k > steps - 1000) late = std::max(late, err);
    }
  });
  return {early, late};
}

// Symplectic (and Newmark's energy-conserving) methods: on the undamped
// oscillator the energy error stays bounded over 1e5 steps, no secular drift.
TYPED_TEST(EnergyConservingIntegrator, SymplecticEnergyBounded) {
  const auto [early, late] = energy_error_early_and_late(this->method);
  EXPECT_LT(late, 0.1);                   // O(h) for first order methods
  EXPECT_LE(late, 1.05 * early + 1e-12);  // the last 1000 steps no worse than the first
}

// The spectral radius of a one-step method's step map at step h.
double amplification_radius(Method method, const LinearSystem& system, double h) {
  return visit_one_step<Eigen::VectorXd>(method,
                                         [&](auto& s) { return spectral_radius(amplification_matrix(s, system, h)); });
}

// The predicted undamped limit is what a long run sees: bounded just below,
// and growing just above wherever the growth there is more than weak.
TYPED_TEST(OneStepIntegrator, PredictedLimitHoldsInARun) {
  const LinearSystem system(one, one, Eigen::MatrixXd::Zero(1, 1));
  const StepLimit limit = step_limit(this->method, system);
  if (limit.step == 0.0 || limit.unconditional()) {
    const Eigen::VectorXd x = this->run(system, Eigen::Vector2d(1.0, 0.0), 1e3, 100000);
    if (limit.step == 0.0) EXPECT_GT(x.norm(), 1.0);   // euler: grows at h = 0.01
    else EXPECT_LE(x.norm(), 1.0 + 1e-9);              // implicit: never grows, even at h = 0.01
    return;
  }
  const long steps = 10000;
  const double below = 0.95 * limit.step;
  const Eigen::VectorXd x = this->run(system, Eigen::Vector2d(1.0, 0.0), below * steps, steps);
  // Near the limit the invariant ellipse is long and thin (symplectic Euler:
  // axis ratio sqrt((2 + h)/(2 - h)) = 6.2 at h = 1.9): bounded, not small.
  EXPECT_LT(x.norm(), 20.0) << "at 0.95 of the predicted limit";
  const double above = 1.2 * limit.step;
  const double rho = amplification_radius(this->method, system, above);
  if (std::pow(rho, steps) > 1e6) {
    const Eigen::VectorXd y = this->run(system, Eigen::Vector2d(1.0, 0.0), above * steps, steps);
    EXPECT_FALSE(y.norm() < 1e3) << "at 1.2 times the predicted limit";
  }
}

TYPED_TEST(EveryIntegrator, RegisteredByName) {
  const MethodInfo* found = find_method(this->meta().name);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->method, this->method);
  EXPECT_GE(found->order, 1);
}

// Adaptive methods run under error control land on tight tolerances too.
TYPED_TEST(AdaptiveIntegrator, AdaptiveMeetsTolerance) {
  const double zeta = 0.1, duration = 4.0;
  const LinearSystem system(one, one, 2.0 * zeta * one);
  Eigen::VectorXd x = Eigen::Vector2d(1.0, 0.0);
  Settings settings;
  settings.method = this->method;
  settings.rtol = 1e-8;
  const auto stats =
      integrate(settings, system, x, output_grid(0.0, duration, 0.5), Eigen::VectorXd::Constant(2, 1e-10), KeepGoing{});
  EXPECT_EQ(stats.status, Status::ok);
  EXPECT_LT((x - damped_exact(zeta, duration)).cwiseAbs().maxCoeff(), 1e-6);
}

struct Sample {
  double t;
  Eigen::VectorXd x;
};
// Takes samples one at a time; takes none beyond stop_after.
struct PerSampleRecorder {
  std::vector<Sample>* out;
  std::size_t stop_after;
  bool operator()(const Eigen::VectorXd& s, double t) {
    if (out->size() == stop_after) return false;
    out->push_back({t, s});
    return true;
  }
};
// Takes each step's samples at once; takes none beyond stop_after.
struct StepwiseRecorder {
  std::vector<Sample>* out;
  std::size_t stop_after;
  int calls = 0;
  bool operator()(const Eigen::VectorXd& s, double t) { return take_samples(AtState<Eigen::VectorXd>{s}, &t, 1) == 1; }
  template <class Dense>
  std::size_t take_samples(const Dense& dense, const double* times, std::size_t count) {
    ++calls;
    for (std::size_t i = 0; i < count; ++i) {
      if (out->size() == stop_after) return i;
      Eigen::VectorXd s(2);
      dense(times[i], s);
      out->push_back({times[i], s});
    }
    return count;
  }
};

// An observer that takes each step's samples at once (takes_samples) must see
// exactly what a per-sample observer sees, bitwise, for every method's pair,
// and stopping after k samples must leave the same state and end time.
TYPED_TEST(AdaptiveIntegrator, StepwiseObserverSeesThePerSampleSamples) {
  const LinearSystem system(one, one, 0.2 * one);
  const auto grid = output_grid(0.0, 3.0, 0.01);
  Settings settings;
  settings.method = this->method;
  settings.rtol = 1e-6;
  const Eigen::VectorXd atol = Eigen::VectorXd::Constant(2, 1e-9);
  for (const std::size_t stop_after : {grid.size(), std::size_t{137}}) {
    std::vector<Sample> per_sample, stepwise;
    Eigen::VectorXd x_per_sample = Eigen::Vector2d(1.0, 0.0), x_stepwise = x_per_sample;
    const auto a = integrate(settings, system, x_per_sample, grid, atol, PerSampleRecorder{&per_sample, stop_after});

    StepwiseRecorder observer{&stepwise, stop_after};
    const auto b = integrate(settings, system, x_stepwise, grid, atol, observer);
    ASSERT_EQ(per_sample.size(), stepwise.size());
    for (std::size_t i = 0; i < per_sample.size(); ++i) {
      ASSERT_EQ(per_sample[i].t, stepwise[i].t) << i;
      ASSERT_EQ(per_sample[i].x, stepwise[i].x) << i << " at t = " << per_sample[i].t;
    }
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.end_time, b.end_time);
    EXPECT_EQ(a.steps, b.steps);
    EXPECT_EQ(x_per_sample, x_stepwise);
    EXPECT_LT(observer.calls, static_cast<int>(stepwise.size())) << "samples must arrive a step at a time";
    if (stop_after < grid.size()) {
      EXPECT_EQ(b.status, Status::stopped);
      EXPECT_EQ(b.end_time, grid[stop_after]);
    }
  }
}

// A System whose jacobian() lies (it returns zero): Newton degenerates to a
// fixed-point iteration, which diverges for h omega > 1. Every implicit solve
// then stops at its cap, and the run says so instead of passing silently.
struct ZeroJacobianOscillator : LinearSystem {
  ZeroJacobianOscillator() : LinearSystem(one, one, 0.1 * one) {}
  void jacobian(const Vector& x, double, Matrix& dfdx) const { dfdx.setZero(x.size(), x.size()); }
};

TEST(NewtonFailures, CountedWhenTheSolveCannotConverge) {
  const ZeroJacobianOscillator system;
  const KeepGoing observe;
  for (const Method method : {Method::implicit_euler, Method::newmark, Method::symplectic_euler}) {
    Settings settings;
    settings.method = method;
    settings.step = 3.0;  // h omega = 3: the fixed-point iteration diverges
    Eigen::VectorXd x = Eigen::VectorXd::Ones(2);
    const IntegrationStats stats = integrate(settings, system, x, {0.0, 30.0}, Eigen::VectorXd::Ones(2), observe);
    EXPECT_GT(stats.newton_failures, 0) << info(method).name;
  }
  // With the true Jacobian the same runs converge at every step.
  const LinearSystem honest(one, one, 0.1 * one);
  for (const Method method : {Method::implicit_euler, Method::newmark, Method::symplectic_euler}) {
    Settings settings;
    settings.method = method;
    settings.step = 3.0;
    Eigen::VectorXd x = Eigen::VectorXd::Ones(2);
    const IntegrationStats stats = integrate(settings, honest, x, {0.0, 30.0}, Eigen::VectorXd::Ones(2), observe);
    EXPECT_EQ(stats.newton_failures, 0) << info(method).name;
  }
}

// A System with no jacobian() (a user's own, say) runs every method that does
// not solve with one; those that do refuse it with a sentence.
struct OscillatorWithoutJacobian {
  using Vector = Eigen::Vector2d;
  int size() const { return 2; }
  int num_positions() const { return 1; }
  void operator()(const Vector& x, Vector& dxdt, double) const { dxdt = Vector(x[1], -x[0]); }
  void position_rate(const Vector& x, Vector& dxdt) const { dxdt[0] = x[1]; }
  int num_switches() const { return 0; }
  void switches(const Vector&, double*) const {}
  void project(Vector&) const {}
};

TEST(Dispatch, SystemWithoutJacobianRunsTheMethodsThatNeedNone) {
  const OscillatorWithoutJacobian system;
  const auto observe = [](const Eigen::Vector2d&, double) { return true; };
  for (const auto& m : methods) {
    if (!available(m)) continue;
    Settings settings;
    settings.method = m.method;
    settings.rtol = 1e-8;
    settings.step = 1e-3;
    Eigen::Vector2d x(1.0, 0.0);
    if (m.implicit || m.method == Method::symplectic_euler || m.method == Method::velocity_verlet) {
      EXPECT_THROW(integrate(settings, system, x, {0.0, 1.0}, Eigen::Vector2d::Constant(1e-10), observe),
                   std::invalid_argument)
          << m.name;
    } else {
      integrate(settings, system, x, {0.0, 1.0}, Eigen::Vector2d::Constant(1e-10), observe);
      EXPECT_NEAR(x[0], std::cos(1.0), m.method == Method::euler ? 1e-3 : 1e-5) << m.name;
    }
  }
}

// A method value no registry entry names (an unchecked cast) is an error, never a stand-in method.
TEST(Dispatch, UnknownMethodThrows) {
  const auto unknown = static_cast<Method>(methods.size() + 7);
  EXPECT_THROW(info(unknown), std::invalid_argument);
  const LinearSystem system{one, one, one};
  Eigen::VectorXd x = Eigen::VectorXd::Ones(2);
  const KeepGoing observe;
  for (const bool adaptive : {false, true}) {
    Settings settings;
    settings.method = unknown;
    settings.step = 1e-3;
    settings.fixed = !adaptive;
    EXPECT_THROW(integrate(settings, system, x, {0.0, 1.0}, Eigen::VectorXd::Constant(2, 1e-9), observe),
                 std::invalid_argument);
  }
  // A fixed-step method has no error-controlled form: asking for one throws too.
  EXPECT_THROW(visit_pair<Eigen::VectorXd>(Method::rk4, [](auto&) { return 0; }), std::invalid_argument);
}

}  // namespace
}  // namespace dropsim::integrators
