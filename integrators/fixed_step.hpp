// Fixed-step integration: one driver, any one-step method.
//
// A FixedStepper has: static constexpr int order; void reset(); and
//   void step(const CountingSystem<System>& sys, Vector& x, double t, double h)
// advancing x from t to t + h. The driver splits every output interval into
// equal steps no larger than the requested h, so samples land on steps and
// need no interpolation; the step actually taken is reported.
#pragma once

#include <cmath>
#include <vector>

#include "dropsim/integrators/odeint.hpp"
#include "dropsim/integrators/system.hpp"

namespace dropsim::integrators {

// Largest step no larger than h that divides [a, b] into whole steps.
inline long steps_in(double a, double b, double h) {
  return std::max(1L, static_cast<long>(std::ceil((b - a) / h * (1.0 - 1e-12))));
}

// The Newton failures a stepper has counted so far (0 for methods without Newton).
template <class Stepper>
long newton_failures_of(const Stepper& stepper) {
  if constexpr (requires { stepper.newton_failures(); }) return stepper.newton_failures();
  else return 0;
}

template <class System, class Stepper, class Observer>
void run_fixed(Stepper& stepper, const System& system, typename System::Vector& x, const std::vector<double>& grid,
               double h, Observer&& observer, IntegrationStats& stats);

template <class System, class Stepper, class Observer>
IntegrationStats integrate_fixed(Stepper& stepper, const System& system, typename System::Vector& x,
                                 const std::vector<double>& grid, double h, Observer&& observer) {
  IntegrationStats stats;
  const long failures_before = newton_failures_of(stepper);
  run_fixed(stepper, system, x, grid, h, observer, stats);
  stats.newton_failures = newton_failures_of(stepper) - failures_before;
  return stats;
}

template <class System, class Stepper, class Observer>
void run_fixed(Stepper& stepper, const System& system, typename System::Vector& x, const std::vector<double>& grid,
               double h, Observer&& observer, IntegrationStats& stats) {
  const CountingSystem<System> sys{&system, &stats.rhs_evaluations};
  stepper.reset();
  double t = grid.front();
  if (!observer(x, t)) {
    stats.status = Status::stopped;
    stats.reason = "stopped by observer";
    return;
  }
  for (std::size_t k = 1; k < grid.size(); ++k) {
    const long n = steps_in(grid[k - 1], grid[k], h);
    const double h_eff = (grid[k] - grid[k - 1]) / static_cast<double>(n);
    for (long i = 0; i < n; ++i) {
      stepper.step(sys, x, t, h_eff);
      system.project(x);
      t = grid[k - 1] + static_cast<double>(i + 1) * h_eff;
      ++stats.steps;
      if (!all_finite(x)) {
        stats.status = Status::diverged;
        stats.end_time = t;
        stats.reason = "non-finite state";
        return;
      }
    }
    t = grid[k];
    if (!observer(x, t)) {
      stats.status = Status::stopped;
      stats.end_time = t;
      stats.reason = "stopped by observer";
      return;
    }
  }
  stats.end_time = t;
}

// Any Boost.Odeint explicit stepper as a FixedStepper.
template <class Vector, class OdeintStepper, int Order>
class OdeintFixed {
 public:
  static constexpr int order = Order;
  void reset() {}
  template <class Sys>
  void step(const Sys& sys, Vector& x, double t, double h) {
    stepper_.do_step(sys, x, t, h);
  }

 private:
  OdeintStepper stepper_;
};

// Forward Euler: unstable on an undamped oscillator at every h > 0.
template <class Vector>
using ForwardEuler = OdeintFixed<
    Vector,
    boost::numeric::odeint::euler<Vector, double, Vector, double, boost::numeric::odeint::vector_space_algebra>, 1>;

// Classical Runge–Kutta 4.
template <class Vector>
using RungeKutta4 = OdeintFixed<Vector,
                                boost::numeric::odeint::runge_kutta4<Vector, double, Vector, double,
                                                                     boost::numeric::odeint::vector_space_algebra>,
                                4>;

// Explicit central difference as explicit dynamics codes run it (leapfrog):
//   u[n+1/2] = u[n-1/2] + h a(q[n], u[n-1/2]),   q[n+1] = q[n] + h qdot(q[n], u[n+1/2]),
// starting with a half step u[1/2] = u[0] + h/2 a[0]. Velocity-dependent
// forces see the speed half a step late. The state it reports is
// [q[n]; u[n-1/2] + h/2 a[n]]; one right-hand side per step. The state it
// carries is [q[n]; u[n-1/2]]: leapfrog() is its one-step map on that state,
// which the stability analysis applies.
template <class Vector>
class CentralDifference {
 public:
  static constexpr int order = 1;  // 2 without velocity-dependent forces
  void reset() { started_ = false; }

  template <class Sys>
  void step(const Sys& sys, Vector& x, double t, double h) {
    const auto nq = sys.system->num_positions();
    const auto nu = x.size() - nq;
    if (!started_) {
      u_half_ = x.tail(nu);
      f_ = x;
      sys(x, f_, t);  // a[0]
      first_ = true;
      started_ = true;
    }
    // Kick: to u[n+1/2] (half a kick on the first step).
    u_half_ += (first_ ? 0.5 * h : h) * f_.tail(nu);
    first_ = false;
    // Drift: positions with the mid-step speed.
    work_ = x;
    work_.tail(nu) = u_half_;
    sys.system->position_rate(work_, f_);
    work_.head(nq) += h * f_.head(nq);
    // Force at the new positions with the lagged speed, kept for the next kick.
    sys(work_, f_, t + h);
    x.head(nq) = work_.head(nq);
    x.tail(nu) = u_half_ + 0.5 * h * f_.tail(nu);
  }

  // One leapfrog step on the carried state x = [q[n]; u[n-1/2]] -> [q[n+1]; u[n+1/2]].
  template <class Sys>
  static void leapfrog(const Sys& sys, Vector& x, double t, double h) {
    const auto nq = sys.system->num_positions();
    const auto nu = x.size() - nq;
    Vector f = x;
    sys(x, f, t);
    x.tail(nu) += h * f.tail(nu);
    sys.system->position_rate(x, f);
    x.head(nq) += h * f.head(nq);
  }

 private:
  bool started_ = false, first_ = true;
  Eigen::VectorXd u_half_;
  Vector f_, work_;
};

}  // namespace dropsim::integrators
