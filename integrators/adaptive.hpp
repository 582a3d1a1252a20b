// Adaptive embedded-pair driver with dense output and event landing (dopri5,
// cash_karp54, fehlberg78, bulirsch_stoer, rosenbrock4; pairs in embedded.hpp).
//
// Boost.Odeint supplies the steppers (error estimate, FSAL, dense output); this
// driver adds what penalty contact needs and odeint's controllers lack:
//  - a per-component absolute tolerance (positions and speeds scale with the
//    model, so a 2 mm mouse gets the same relative accuracy as a giraffe);
//  - no step ever straddles a kink of the force law: when a switching function
//    (indentation, the no-pull clamp) changes sign inside a step, the root is
//    found on the dense output and the step is redone to end on it. In free
//    fall the error estimate is exactly zero and the step grows without bound;
//    without this the step jumps through the ground (Simbody's RKF does).
//  - outputs on a fixed grid from the dense output, never by stepping to them.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "dropsim/integrators/embedded.hpp"
#include "dropsim/integrators/system.hpp"

namespace dropsim::integrators {

struct AdaptiveSettings {
  double rtol = 1e-9;
  double initial_step = 0.0;  // 0: chosen from the scale of the problem
  double max_step = 0.0;      // 0: unbounded
};

// An observer that takes a step's samples at once:
//   std::size_t take_samples(const Dense& dense, const double* times, std::size_t count)
// evaluates dense(times[i], state) itself and returns how many samples it took
// (fewer than count stops the run at the first one not taken). Other observers
// are called once per sample, bool observer(state, t), through EachSample.
template <class Observer, class Dense>
concept takes_samples = requires(Observer& o, const Dense& d, const double* times) {
  { o.take_samples(d, times, std::size_t{}) } -> std::convertible_to<std::size_t>;
};

// A "dense output" that is one state, for samples that fall on it exactly.
template <class Vector>
struct AtState {
  const Vector& state;
  void operator()(double /*t*/, Vector& out) const { out = state; }
};

// A per-sample observer, bool observer(state, t), as one that takes samples.
template <class Observer, class Vector>
struct EachSample {
  Observer& observer;
  Vector state;
  template <class Dense>
  std::size_t take_samples(const Dense& dense, const double* times, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      dense(times[i], state);
      if (!observer(state, times[i])) return i;
    }
    return count;
  }
};

// Hands the grid samples [from, to), all inside one step, to the observer at
// once. Where it takes fewer, x is left at the first sample not taken, whose
// time is returned: the run stops there.
template <class Sampler, class Dense, class Vector>
std::optional<double> hand_samples(Sampler& observer, const Dense& dense, const std::vector<double>& grid,
                                   std::size_t from, std::size_t to, Vector& x, Vector& scratch) {
  const std::size_t taken = observer.take_samples(dense, grid.data() + from, to - from);
  if (taken == to - from) return std::nullopt;
  dense(grid[from + taken], scratch);
  x = scratch;
  return grid[from + taken];
}

// Pair: an embedded method (embedded.hpp) with order, error_order, do_step
// returning the new state, its derivative and an error estimate, calc_state
// and dense (dense output between two accepted states).
template <class System, class Pair>
class AdaptiveDriver {
 public:
  using Vector = typename System::Vector;
  static constexpr int order = Pair::order;

  // Integrates x from t0 to grid.back(); calls observer(x, t) at every grid
  // time (grid.front() == t0), or hands it each step's samples at once
  // (takes_samples). The observer returns false (or takes fewer) to stop the run.
  // atol holds one absolute tolerance per state component.
  // `watch.accepted(x, t, h, stats)` hears of every accepted step (NoStepWatch: nothing).
  template <class Observer, class Watch = NoStepWatch>
  IntegrationStats integrate(const System& system, Vector& x, const std::vector<double>& grid,
                             const AdaptiveSettings& settings, const Vector& atol, Observer&& observer,
                             Watch&& watch = {}) {
    using Dense = decltype(stepper_.dense(x, x, 0.0, x, x, 0.0));
    if constexpr (takes_samples<std::remove_reference_t<Observer>, Dense>) {
      return run(system, x, grid, settings, atol, observer, watch);
    } else {
      EachSample<std::remove_reference_t<Observer>, Vector> each{observer, x};
      return run(system, x, grid, settings, atol, each, watch);
    }
  }

 private:
  template <class Sampler, class Watch>
  IntegrationStats run(const System& system, Vector& x, const std::vector<double>& grid,
                       const AdaptiveSettings& settings, const Vector& atol, Sampler& observer, Watch& watch) {
    IntegrationStats stats;
    const CountingSystem<System> sys{&system, &stats.rhs_evaluations};
    double t = grid.front();
    const double t_end = grid.back();
    const int n_switch = system.num_switches();
    switch_old_.resize(n_switch);
    switch_new_.resize(n_switch);
    switch_mid_.resize(n_switch);
    switch_probe_.resize(n_switch);

    Vector dxdt = x, x_new = x, dxdt_new = x, x_err = x;
    sys(x, dxdt, t);
    system.switches(x, switch_old_.data());

    std::size_t next_output = 0;
    while (next_output < grid.size() && grid[next_output] <= t) ++next_output;
    if (observer.take_samples(AtState<Vector>{x}, grid.data(), next_output) < next_output)
      return stopped(stats, t, "stopped by observer");

    double h = settings.initial_step > 0.0 ? settings.initial_step : initial_step(x, dxdt, atol, settings.rtol, t_end - t);
    const double h_min = 1e-14 * std::max(1.0, std::abs(t_end));
    // A root closer than this to the step start counts as landed on.
    const double event_time_tolerance = 1e-12 * std::max(1.0, std::abs(t_end));
    bool landing = false;  // the current try was shortened to end on a root
    double h_after_landing = h;

    while (t < t_end) {
      if (settings.max_step > 0.0) h = std::min(h, settings.max_step);
      if (t + h >= t_end || t_end - (t + h) < h_min) h = t_end - t;
      stepper_.do_step(sys, x, dxdt, t, x_new, dxdt_new, h, x_err);

      const double err = error_norm(x, x_new, x_err, atol, settings.rtol);
      if (!(err <= 1.0)) {  // also catches NaN
        ++stats.rejected_steps;
        landing = false;
        h *= std::isfinite(err) ? std::clamp(0.9 * std::pow(err, exponent), 0.2, 1.0) : 0.1;
        if (h < h_min) return diverged(stats, t, "step size underflow (the solution is not smooth or blows up)");
        continue;
      }

      // Does a switching function change sign inside the step?
      if (n_switch > 0 && !landing) {
        const double t_root = first_root(system, x, dxdt, t, x_new, dxdt_new, t + h);
        if (t_root < t + h && t_root - t > event_time_tolerance) {
          h_after_landing = h;  // what the error control would have allowed
          h = t_root - t;       // redo the step so that it ends on the kink
          landing = true;
          continue;
        }
      }

      // Accepted: emit outputs inside (t, t + h] from the dense output.
      const double t_new = t + h;
      // All of the step's samples in one call: the observer's loop inlines
      // the interpolant (no call per sample). One at the step's end is x_new itself.
      const std::size_t inside = first_not_before(grid, next_output, t_new);
      if (inside > next_output) {
        const auto& dense = stepper_.dense(x, dxdt, t, x_new, dxdt_new, t_new);
        if (const auto stop = hand_samples(observer, dense, grid, next_output, inside, x, sample_))
          return stopped(stats, *stop, "stopped by observer");
        next_output = inside;
      }
      if (next_output < grid.size() && grid[next_output] == t_new) {
        if (observer.take_samples(AtState<Vector>{x_new}, grid.data() + next_output, 1) < 1) {
          x = x_new;
          return stopped(stats, t_new, "stopped by observer");
        }
        ++next_output;
      }
      ++stats.steps;
      if (landing) ++stats.events;
      watch.accepted(x_new, t_new, h, stats);
      x = x_new;
      dxdt = dxdt_new;
      t = t_new;
      system.project(x);
      if (!all_finite(x)) return diverged(stats, t, "non-finite state");
      system.switches(x, switch_old_.data());

      const double grow = err > 0.0 ? std::clamp(0.9 * std::pow(err, exponent), 0.2, 5.0) : 5.0;
      // After landing on a kink, resume at a tenth of the step the error
      // control chose before the kink shortened it: across the kink the
      // solution is not smooth (position ~ t^3.5 for Hertz), and there the
      // embedded error estimate undershoots the real error.
      h = landing ? 0.1 * h_after_landing : h * grow;
      landing = false;
    }
    stats.end_time = t;
    return stats;
  }

  // Step-size controller exponent -1/(q+1), q the order of the error estimate.
  static constexpr double exponent = -1.0 / (Pair::error_order + 1);

  static IntegrationStats diverged(const IntegrationStats& s, double t, const char* why) {
    return ended(s, Status::diverged, t, why);
  }
  static IntegrationStats stopped(const IntegrationStats& s, double t, const char* why) {
    return ended(s, Status::stopped, t, why);
  }

  static double error_norm(const Vector& x0, const Vector& x1, const Vector& err, const Vector& atol, double rtol) {
    double worst = 0.0;
    for (Eigen::Index i = 0; i < x0.size(); ++i) {
      const double scale = atol[i] + rtol * std::max(std::abs(x0[i]), std::abs(x1[i]));
      worst = std::max(worst, std::abs(err[i]) / scale);
      if (!std::isfinite(err[i]) || !std::isfinite(x1[i])) return std::numeric_limits<double>::infinity();
    }
    return worst;
  }

  // The first grid index from `from` on whose time is not before t. Galloping:
  // a step holds anywhere from no sample to thousands, and a scan one by one
  // cost as much as a tenth of the stepping.
  static std::size_t first_not_before(const std::vector<double>& grid, std::size_t from, double t) {
    const std::size_t n = grid.size();
    std::size_t lo = from, hi = from + 1, span = 1;  // grid[from, lo) < t
    while (hi < n && grid[hi - 1] < t) {
      lo = hi;
      span *= 2;
      hi = lo + span;
    }
    const double* begin = grid.data();
    return static_cast<std::size_t>(std::lower_bound(begin + lo, begin + std::min(hi, n), t) - begin);
  }

  // Hairer–Nørsett–Wanner's starting step, capped by the span.
  static double initial_step(const Vector& x, const Vector& dxdt, const Vector& atol, double rtol, double span) {
    double d0 = 0.0, d1 = 0.0;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      const double sc = atol[i] + rtol * std::abs(x[i]);
      d0 = std::max(d0, std::abs(x[i]) / sc);
      d1 = std::max(d1, std::abs(dxdt[i]) / sc);
    }
    double h = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 * span : 0.01 * d0 / d1;
    return std::min(h, 0.01 * span);
  }

  // Earliest root of any switching function in (t0, t1], on the dense output.
  // Returns t1 (or beyond) when no sign changes; checks the midpoint too so a
  // step cannot pass through a thin contact phase and out again.
  double first_root(const System& system, const Vector& x0, const Vector& d0, double t0, const Vector& x1,
                    const Vector& d1, double t1) {
    system.switches(x1, switch_new_.data());
    const double tm = 0.5 * (t0 + t1);
    stepper_.calc_state(tm, sample_, x0, d0, t0, x1, d1, t1);
    system.switches(sample_, switch_mid_.data());
    double earliest = std::numeric_limits<double>::infinity();
    const Bracket dense{x0, d0, t0, x1, d1, t1};
    for (std::size_t k = 0; k < switch_old_.size(); ++k) {
      if (sign_changed(switch_old_[k], switch_mid_[k]))
        earliest = std::min(earliest, locate(system, dense, k, {t0, switch_old_[k]}, {tm, switch_mid_[k]}));
      else if (sign_changed(switch_mid_[k], switch_new_[k]))
        earliest = std::min(earliest, locate(system, dense, k, {tm, switch_mid_[k]}, {t1, switch_new_[k]}));
    }
    return earliest;
  }

  static bool sign_changed(double a, double b) { return (a > 0.0) != (b > 0.0); }

  // One step's dense output, and a switch's value at a time on it.
  struct Bracket {
    const Vector &x0, &d0;
    double t0;
    const Vector &x1, &d1;
    double t1;
  };
  struct Point {
    double t, g;
  };

  // The time in (a, b] at which switch k's sign changes from its sign at a, on
  // the interpolant, to near machine precision: dense-output evaluations cost
  // no right-hand sides. False position with Anderson and Björck's weighting
  // (BIT 13, 1973; docs/integrators.md#the-adaptive-driver), a step
  // of one tolerance where its estimate meets an end (so that the bracket
  // closes from the other side too, as in Brent's method), and a bisection
  // where three steps did not halve the bracket. Some 10 evaluations of the
  // switches where bisection took 40: a run with many landings spent a tenth
  // of its time there.
  double locate(const System& system, const Bracket& dense, std::size_t k, Point a, Point b) {
    auto g = [&](double tt) {
      stepper_.calc_state(tt, sample_, dense.x0, dense.d0, dense.t0, dense.x1, dense.d1, dense.t1);
      system.switches(sample_, switch_probe_.data());
      return switch_probe_[k];
    };
    const bool positive_at_a = a.g > 0.0;
    int kept = 0;  // the end the last step kept: -1 a, +1 b
    constexpr double unknown = std::numeric_limits<double>::infinity();
    std::array<double, 3> widths{unknown, unknown, unknown};  // the bracket one, two and three steps ago
    for (int it = 0; it < 200; ++it) {
      const double width = b.t - a.t, tolerance = 4.0 * std::numeric_limits<double>::epsilon() * std::abs(b.t);
      if (!(width > tolerance)) break;
      double t = 0.5 * (a.t + b.t);
      if (width <= 0.5 * widths[2]) {
        t = b.t - b.g * (width / (b.g - a.g));
        const double least = std::min(tolerance, 0.5 * width);
        if (!(t - a.t >= least)) t = a.t + least;  // also a NaN estimate
        if (!(b.t - t >= least)) t = b.t - least;
      }
      widths = {width, widths[0], widths[1]};
      const Point m{t, g(t)};
      if ((m.g > 0.0) == positive_at_a) {
        if (kept == 1) b.g *= weight(m.g, a.g);  // b kept twice: its value weighed down
        a = m;
        kept = 1;
      } else {
        if (kept == -1) a.g *= weight(m.g, b.g);
        b = m;
        kept = -1;
      }
    }
    return b.t;  // the first time at which the sign has changed
  }
  // Anderson–Björck's factor for the end kept, from the new value and the one it replaced on the other side.
  static double weight(double g_new, double g_replaced) {
    const double f = 1.0 - g_new / g_replaced;
    return f > 0.0 ? f : 0.5;
  }

  Pair stepper_;
  Vector sample_;
  std::vector<double> switch_old_, switch_new_, switch_mid_, switch_probe_;
};

template <class System>
using Dopri5 = AdaptiveDriver<System, Dopri5Pair<typename System::Vector>>;

}  // namespace dropsim::integrators
