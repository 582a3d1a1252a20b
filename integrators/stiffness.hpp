// Was an adaptive run's step held by stability or by accuracy?
// (docs/integrators.md#stiffness-attribution)
//
// At each accepted step the system's Jacobian at the new state gives its local
// modes, eigenvalues lambda = omega (-zeta +- i sqrt(1 - zeta^2)). The method's
// stability boundary along each mode's direction gives the largest stable step
// r(zeta) / omega; the smallest over the modes is the local limit. A step of at
// least half that limit counts as stability-bound: a controller held by
// stability hovers at the limit, one held by accuracy stays well below it.
// A step held at the largest step allowed is counted apart.
#pragma once

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <mutex>

#include "dropsim/integrators/integrate.hpp"
#include "dropsim/integrators/stability.hpp"

namespace dropsim::integrators {

inline constexpr double stability_bound_fraction = 0.5;

// r(zeta): the largest stable h omega of a method on q'' + 2 zeta omega q' + omega^2 q = 0,
// tabulated at zeta = 0, 0.05, ..., 1 (zeta = 1: the negative real axis) and
// interpolated linearly in between.
class StabilityBoundary {
 public:
  static constexpr int points = 21;

  explicit StabilityBoundary(Method method) {
    const Eigen::MatrixXd one = Eigen::MatrixXd::Identity(1, 1);
    unconditional_ = true;
    for (int i = 0; i < points; ++i) {
      const double zeta = static_cast<double>(i) / (points - 1);
      radius_[static_cast<std::size_t>(i)] =
          step_limit(method, LinearSystem(one, one, Eigen::MatrixXd::Constant(1, 1, 2.0 * zeta))).step;
      unconditional_ = unconditional_ && std::isinf(radius_[static_cast<std::size_t>(i)]);
    }
  }

  bool unconditional() const { return unconditional_; }

  // Largest stable h omega for a mode of damping ratio zeta (clamped to [0, 1]).
  double radius(double zeta) const {
    const double at = std::clamp(zeta, 0.0, 1.0) * (points - 1);
    const auto i = std::min(static_cast<std::size_t>(at), static_cast<std::size_t>(points - 2));
    const double a = radius_[i], b = radius_[i + 1];
    if (std::isinf(a) || std::isinf(b)) return std::isinf(a) && std::isinf(b) ? a : std::min(a, b);
    return a + (at - static_cast<double>(i)) * (b - a);
  }

  // Largest stable step on the modes of a Jacobian (+inf where none limits it).
  template <class Matrix>
  double limit(const Matrix& jacobian) const {
    double limit = std::numeric_limits<double>::infinity();
    // A mode of rate omega = |lambda| decaying at -Re(lambda): damping ratio decay / omega.
    auto mode = [&](double omega, double decay) {
      if (omega > 0.0) limit = std::min(limit, radius(decay / omega) / omega);
    };
    if constexpr (Matrix::RowsAtCompileTime == 2) {
      // The drop: roots of lambda^2 - trace lambda + det in real arithmetic (a
      // step's worth of attribution cost a tenth of a dopri5 step in complex).
      const double trace = jacobian.trace(), det = jacobian.determinant();
      const double discriminant = 0.25 * trace * trace - det;
      if (discriminant < 0.0) {
        mode(std::sqrt(det), -0.5 * trace);  // a damped oscillation: omega^2 = det
      } else {
        const double root = std::sqrt(discriminant);
        for (const double lambda : {0.5 * trace + root, 0.5 * trace - root}) mode(std::abs(lambda), -lambda);
      }
    } else {
      for (const std::complex<double> lambda : jacobian.eigenvalues()) mode(std::abs(lambda), -lambda.real());
    }
    return limit;
  }

 private:
  std::array<double, points> radius_{};
  bool unconditional_ = false;
};

// Tabulated once per method per process.
inline const StabilityBoundary& stability_boundary(Method method) {
  static std::array<std::once_flag, methods.size()> once;
  static std::array<const StabilityBoundary*, methods.size()> table{};
  const auto i = static_cast<std::size_t>(method);
  std::call_once(once[i], [&] { table[i] = new StabilityBoundary(method); });  // lives for the process
  return *table[i];
}

// Counts an adaptive run's stability-bound steps, and the others held at the
// largest step allowed (settings.max_step, 0: none), into its stats. Methods
// stable at every step are never held by stability: for them only the cap is
// checked. Fixed-step runs never call it, and it tabulates nothing for them.
template <class System>
class StiffnessMonitor {
 public:
  StiffnessMonitor(const System& system, const Settings& settings) : system_(system), max_step_(settings.max_step) {
    // SUNDIALS methods change order and formula as they go: no one boundary
    // holds them, so only the cap is checked for them.
    if (!info(settings.method).adaptive || settings.fixed || !has_one_step_form(info(settings.method))) return;
    const StabilityBoundary& b = stability_boundary(settings.method);
    boundary_ = b.unconditional() ? nullptr : &b;
    if constexpr (Matrix::RowsAtCompileTime == Eigen::Dynamic) jacobian_.resize(system.size(), system.size());
  }

  void accepted(const typename System::Vector& x, double t, double h, IntegrationStats& stats) {
    if (boundary_) {
      system_.jacobian(x, t, jacobian_);
      const double limit = boundary_->limit(jacobian_);
      if (h >= stability_bound_fraction * limit) {
        ++stats.stability_bound_steps;
        stats.stability_bound_time += h;
        stats.step_over_limit_sum += h / limit;
        return;
      }
    }
    if (max_step_ > 0.0 && h >= (1.0 - 1e-9) * max_step_) {
      ++stats.cap_bound_steps;
      stats.cap_bound_time += h;
    }
  }

 private:
  using Matrix = typename System::Matrix;
  const System& system_;
  const double max_step_;
  const StabilityBoundary* boundary_ = nullptr;
  Matrix jacobian_;
};

}  // namespace dropsim::integrators
