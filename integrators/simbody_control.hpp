// Simbody's error control around an embedded pair: what OpenSim's forward tool
// runs with RungeKuttaMerson (Simbody's AbstractIntegratorRep and IntegratorRep;
// docs/integrators.md#rk-merson). Unlike dropsim's own driver (adaptive.hpp) it
// lands on no kink and steps past the last output time, which it reaches by
// interpolation: the step counts are Simbody's.
//
//  - error norm: max of the RMS of the position errors, weighted through
//    N Wu N^+ (unit weights Wu), and the RMS of the speed errors, each scaled by
//    1 / max(|u_i|, 1) from the step's start: absolute in q, relative above
//    1 m/s (or rad/s) in u. No other scaling: an accuracy is in metres.
//  - step rule: h_new = 0.9 h (accuracy / err)^(1/p), never more than 5 h or
//    less than h / 10; no growth below 1.2 h; a step that met the accuracy is
//    kept (never shrunk), one that did not is retried at most 0.9 h.
//  - first step: a tenth of Simbody's default system time scale (0.1 s).
#pragma once

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "dropsim/integrators/adaptive.hpp"
#include "dropsim/integrators/embedded.hpp"
#include "dropsim/integrators/system.hpp"

namespace dropsim::integrators {

struct SimbodyControlSettings {
  double accuracy = 1e-3;     // Simbody's setAccuracy
  double initial_step = 0.0;  // 0: Simbody's default, 0.01 s
  double max_step = 0.0;      // 0: unbounded
};

template <class System, class Pair>
class SimbodyControlledDriver {
 public:
  using Vector = typename System::Vector;
  static constexpr double default_time_scale = 0.1;  // s, Simbody's System default

  // `watch.accepted(x, t, h, stats)` hears of every accepted step (NoStepWatch: nothing).
  template <class Observer, class Watch = NoStepWatch>
  IntegrationStats integrate(const System& system, Vector& x, const std::vector<double>& grid,
                             const SimbodyControlSettings& settings, Observer&& observer, Watch&& watch = {}) {
    using Dense = decltype(stepper_.dense(x, x, 0.0, x, x, 0.0));
    if constexpr (takes_samples<std::remove_reference_t<Observer>, Dense>) {
      return run(system, x, grid, settings, observer, watch);
    } else {
      EachSample<std::remove_reference_t<Observer>, Vector> each{observer, x};
      return run(system, x, grid, settings, each, watch);
    }
  }

  // Simbody's adjustStepSize: the next step, and whether this one is accepted.
  static bool adjust_step(double err, double accuracy, double max_step, double& h) {
    constexpr double safety = 0.9, min_shrink = 0.1, max_grow = 5.0, hysteresis_low = 0.9, hysteresis_high = 1.2;
    double next;
    if (!std::isfinite(err)) next = min_shrink * h;
    else if (err == 0.0) next = max_grow * h;
    else next = safety * h * std::pow(accuracy / err, 1.0 / Pair::error_order);
    if (next > h && next < hysteresis_high * h) next = h;
    if (next < h) next = err <= accuracy ? h : std::min(next, hysteresis_low * h);
    next = std::clamp(next, min_shrink * h, max_grow * h);
    if (max_step > 0.0) next = std::min(next, max_step);
    const bool accepted = next >= h;
    h = next;
    return accepted;
  }

 private:
  template <class Sampler, class Watch>
  IntegrationStats run(const System& system, Vector& x, const std::vector<double>& grid,
                       const SimbodyControlSettings& settings, Sampler& observer, Watch& watch) {
    IntegrationStats stats;
    const CountingSystem<System> sys{&system, &stats.rhs_evaluations};
    double t = grid.front();
    const double t_end = grid.back();
    Vector dxdt = x, x_new = x, dxdt_new = x, x_err = x;
    sys(x, dxdt, t);
    std::size_t next_output = 0;
    while (next_output < grid.size() && grid[next_output] <= t) ++next_output;
    if (observer.take_samples(AtState<Vector>{x}, grid.data(), next_output) < next_output)
      return stopped(stats, t, "stopped by observer");

    double h = settings.initial_step > 0.0 ? settings.initial_step : default_time_scale / 10.0;
    if (settings.max_step > 0.0) h = std::min(h, settings.max_step);
    const double h_min = 1e-14 * std::max(1.0, std::abs(t_end));
    while (next_output < grid.size()) {
      bool accepted = false;
      while (!accepted) {
        const double h_tried = h;
        stepper_.do_step(sys, x, dxdt, t, x_new, dxdt_new, h_tried, x_err);
        const double err = error_norm(system, x, x_err);
        accepted = adjust_step(err, settings.accuracy, settings.max_step, h);
        if (accepted) {
          h_taken_ = h_tried;
        } else {
          ++stats.rejected_steps;
          if (h < h_min) return diverged(stats, t, "step size underflow (the solution is not smooth or blows up)");
        }
      }
      const double t_new = t + h_taken_;
      if (!all_finite(x_new)) return diverged(stats, t, "non-finite state");
      // Outputs in (t, t_new] from the step's interpolant, as Simbody interpolates to a report time.
      std::size_t inside = next_output;
      while (inside < grid.size() && grid[inside] <= t_new) ++inside;
      if (inside > next_output) {
        const auto& dense = stepper_.dense(x, dxdt, t, x_new, dxdt_new, t_new);
        if (const auto stop = hand_samples(observer, dense, grid, next_output, inside, x, sample_))
          return stopped(stats, *stop, "stopped by observer");
        if (inside == grid.size() && t_new > t_end) {
          dense(t_end, sample_);  // the run ends at the last output, inside this step
          x_new = sample_;
        }
        next_output = inside;
      }
      ++stats.steps;
      watch.accepted(x_new, std::min(t_new, t_end), h_taken_, stats);
      x = x_new;
      dxdt = dxdt_new;
      t = std::min(t_new, t_end);
      system.project(x);
    }
    stats.end_time = t;
    return stats;
  }

  // max(|N Wu N^+ dq|_RMS, |uScale du|_RMS) with Wu = 1 (IntegratorRep::calcErrorNorm).
  double error_norm(const System& system, const Vector& x, const Vector& err) {
    const int n = static_cast<int>(x.size()), nq = system.num_positions(), nu = n - nq;
    for (int i = 0; i < n; ++i)
      if (!std::isfinite(err[i])) return std::numeric_limits<double>::infinity();
    double u_sum = 0.0;
    for (int i = 0; i < nu; ++i) {
      const double u = std::abs(x[nq + i]);
      const double scale = u > 1.0 ? 1.0 / u : 1.0;
      u_sum += (scale * err[nq + i]) * (scale * err[nq + i]);
    }
    dq_ = err.head(nq).cwiseAbs();
    if (!identity_kinematics(system, x)) {
      du_ = pinv_.solve(dq_);
      dq_.noalias() = n_matrix_ * du_;
    }
    const double q_norm = nq > 0 ? std::sqrt(dq_.squaredNorm() / nq) : 0.0;
    const double u_norm = nu > 0 ? std::sqrt(u_sum / nu) : 0.0;
    return std::max(q_norm, u_norm);
  }

  // Builds N (qdot = N u) at x from position_rate; true when it is the identity.
  bool identity_kinematics(const System& system, const Vector& x) {
    const int n = static_cast<int>(x.size()), nq = system.num_positions(), nu = n - nq;
    n_matrix_.resize(nq, nu);
    probe_ = x;
    rate_ = x;
    for (int j = 0; j < nu; ++j) {
      probe_.tail(nu).setZero();
      probe_[nq + j] = 1.0;
      system.position_rate(probe_, rate_);
      n_matrix_.col(j) = rate_.head(nq);
    }
    if (nq == nu && n_matrix_.isIdentity(0.0)) return true;
    pinv_.compute(n_matrix_);
    return false;
  }

  static IntegrationStats diverged(const IntegrationStats& s, double t, const char* why) {
    return ended(s, Status::diverged, t, why);
  }
  static IntegrationStats stopped(const IntegrationStats& s, double t, const char* why) {
    return ended(s, Status::stopped, t, why);
  }

  Pair stepper_;
  Vector sample_, probe_, rate_;
  Eigen::MatrixXd n_matrix_;
  Eigen::VectorXd dq_, du_;  // position error, weighted through N Wu N^+
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> pinv_;
  double h_taken_ = 0.0;
};

}  // namespace dropsim::integrators
