// Was an adaptive run's step held by stability or by accuracy?
// (docs/integrators.md#stiffness-attribution)
//
// At each accepted step the system's Jacobian at the new state gives its local
// modes, eigenvalues lambda = omega (-zeta +- i sqrt(1 - zeta^2)). The method's
// stability boundary along each mode's direction gives the largest stable step
// r(zeta) / omega; the smallest over the modes is the local limit. A step of at
// least half that limit counts as stability-bound: a controller held by
// stability hovers at the limit, one held by accuracy stays well below it.
// A step held at the largest step allowed is counted apart. The boundary is
// the method's own: a one-step method's amplification, an ARKODE table's
// stability function, the fixed-order formula of each CVODE step.
#pragma once

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "dropsim/integrators/integrate.hpp"
#include "dropsim/integrators/multistep_stability.hpp"
#include "dropsim/integrators/stability.hpp"

namespace dropsim::integrators {

inline constexpr double stability_bound_fraction = 0.5;

// r(zeta): the largest stable h omega of a method on q'' + 2 zeta omega q' + omega^2 q = 0,
// tabulated at zeta = 0, 0.05, ..., 1 (zeta = 1: the negative real axis) and
// interpolated linearly in between.
class StabilityBoundary {
 public:
  static constexpr int points = 21;

  // radius_at(zeta): the largest stable h omega on the unit mode of damping ratio zeta.
  template <class RadiusAt>
    requires std::is_invocable_r_v<double, RadiusAt, double>
  explicit StabilityBoundary(RadiusAt&& radius_at) {
    unconditional_ = true;
    for (int i = 0; i < points; ++i) {
      const double r = radius_at(static_cast<double>(i) / (points - 1));
      radius_[static_cast<std::size_t>(i)] = r;
      unconditional_ = unconditional_ && std::isinf(r);
      smallest_radius_ = std::min(smallest_radius_, r);
    }
  }

  bool unconditional() const { return unconditional_; }
  // The smallest radius(zeta) over all zeta (interpolation never goes below the table).
  double smallest_radius() const { return smallest_radius_; }

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
  double smallest_radius_ = std::numeric_limits<double>::infinity();
};

// An upper bound on the spectral radius of J = [[J_qq, J_qu], [J_uq, J_uu]]
// (the nq position rows and columns first): rho(J) <= ||S^4||^(1/4) in the
// infinity norm, S = D^-1 J D with D = diag(1 for q, s for u). Every induced
// norm bounds |lambda|, powers keep that (rho(J)^4 = rho(J^4)), and the
// similarity keeps the eigenvalues. s = sqrt(|J_uq| / |J_qu|) balances the
// blocks: J_uq holds stiffness over mass (omega^2) where the eigenvalues are
// near omega. Squaring turns an oscillator's [[0, 1], [-w^2, 0]] into -w^2
// times the identity, so the root comes near w where ||S|| alone sums the
// blocks: on the box landing on its edge, 1.7-2.1 times rho against 5-13 for
// ||S||. Two 13 x 13 products: a tenth of the matrix's eigenvalues. The work
// matrices are kept between calls: a step allocates nothing.
template <class Matrix>
class SpectralRadiusBound {
 public:
  double operator()(const Matrix& j, Eigen::Index nq) {
    const Eigen::Index n = j.rows(), nu = n - nq;
    const double positions_by_speed =
        nq > 0 && nu > 0 ? j.topRightCorner(nq, nu).cwiseAbs().rowwise().sum().maxCoeff() : 0.0;
    const double speeds_by_position =
        nq > 0 && nu > 0 ? j.bottomLeftCorner(nu, nq).cwiseAbs().rowwise().sum().maxCoeff() : 0.0;
    const double s = positions_by_speed > 0.0 && speeds_by_position > 0.0
                         ? std::sqrt(speeds_by_position / positions_by_speed)
                         : 1.0;
    scaled_ = j;
    scaled_.topRightCorner(nq, nu) *= s;
    scaled_.bottomLeftCorner(nu, nq) /= s;
    squared_.noalias() = scaled_ * scaled_;
    fourth_.noalias() = squared_ * squared_;
    return std::sqrt(std::sqrt(fourth_.cwiseAbs().rowwise().sum().maxCoeff()));
  }

 private:
  Matrix scaled_, squared_, fourth_;
};

// The unit mode of damping ratio zeta: eigenvalues -zeta +- i sqrt(1 - zeta^2).
inline Eigen::VectorXcd unit_mode(double zeta) {
  const std::complex<double> lambda(-zeta, std::sqrt(std::max(0.0, 1.0 - zeta * zeta)));
  Eigen::VectorXcd both(2);
  both << lambda, std::conj(lambda);
  return both;
}

// A one-step method's boundary, from its amplification matrix on the unit oscillator.
inline StabilityBoundary one_step_boundary(Method method) {
  return StabilityBoundary([&](double zeta) { return step_limit(method, unit_oscillator(zeta)).step; });
}

// A Runge-Kutta method's boundary from its Butcher table (ARKODE's tables).
inline StabilityBoundary butcher_boundary(const ButcherTable& table) {
  return StabilityBoundary([&](double zeta) { return step_limit(table, unit_oscillator(zeta)).step; });
}

// A fixed-order multistep formula's boundary (CVODE's BDF and Adams orders).
inline StabilityBoundary multistep_boundary(const MultistepMethod& m) {
  return StabilityBoundary([&](double zeta) {
    const Eigen::VectorXcd lambda = unit_mode(zeta);
    auto stable = [&](double h) {
      const double radius = std::exp(default_growth_tolerance * h);  // as largest_root(m, h l) <= radius
      for (const std::complex<double> l : lambda)
        if (!roots_inside(m, h * l, radius)) return false;
      return true;
    };
    return find_step_limit(stable, 1.0, default_growth_tolerance).step;
  });
}

// Tabulated once per process: per one-step method, per CVODE order, per ARKODE table.
inline const StabilityBoundary& stability_boundary(Method method) {
  static std::array<std::once_flag, methods.size()> once;
  static std::array<const StabilityBoundary*, methods.size()> table{};
  const auto i = static_cast<std::size_t>(method);
  std::call_once(once[i], [&] { table[i] = new StabilityBoundary(one_step_boundary(method)); });  // lives for the process
  return *table[i];
}

inline constexpr int cvode_max_order = 12;  // Adams; BDF stops at 5

// Whether CVODE runs `order` in the family: BDF 1-5, Adams 1-12.
inline bool cvode_has_order(MultistepFamily family, int order) {
  return order >= 1 && order <= (family == MultistepFamily::bdf ? 5 : cvode_max_order);
}

inline const StabilityBoundary& cvode_order_boundary(MultistepFamily family, int order) {
  if (!cvode_has_order(family, order))
    throw std::out_of_range("CVODE has no order " + std::to_string(order) + " in this family");
  static std::array<std::once_flag, 2 * cvode_max_order> once;
  static std::array<const StabilityBoundary*, 2 * cvode_max_order> table{};
  const auto i = static_cast<std::size_t>((family == MultistepFamily::bdf ? 0 : cvode_max_order) + order - 1);
  std::call_once(once[i], [&] {
    table[i] = new StabilityBoundary(
        multistep_boundary(family == MultistepFamily::bdf ? bdf_method(order) : adams_moulton_method(order)));
  });
  return *table[i];
}

// ARKODE's table of a run: the one asked for, else the method's default.
inline const StabilityBoundary& arkode_table_boundary(Method method, int table_id) {
  static std::mutex mutex;
  // Never destroyed, like the tables above: a boundary handed out stays valid up to
  // the process's end, and leak checkers see the map from this pointer.
  static auto* tables = new std::map<std::pair<Method, int>, StabilityBoundary>;
  const std::lock_guard<std::mutex> lock(mutex);
  auto found = tables->find({method, table_id});
  if (found == tables->end())
    found = tables->emplace(std::pair{method, table_id}, butcher_boundary(butcher_table(method, table_id))).first;
  return found->second;
}

// Counts an adaptive run's stability-bound steps, and the others held at the
// largest step allowed (settings.max_step, 0: none), into its stats. Methods
// stable at every step are never held by stability: for them only the cap is
// checked. CVODE's steps are judged by the fixed-order formula of the order
// each was taken at; ARKODE's by the run's Butcher table. Fixed-step runs
// never call it, and it tabulates nothing for them; nor does a run that asks
// for no attribution (judge_stability false: sweeps, whose summary has none),
// which then counts only the cap.
template <class System>
class StiffnessMonitor {
 public:
  StiffnessMonitor(const System& system, const Settings& settings, bool judge_stability = true)
      : system_(system), max_step_(settings.max_step) {
    if (!judge_stability || !info(settings.method).adaptive || settings.fixed) return;
    if (settings.method == Method::cvode_bdf || settings.method == Method::cvode_adams) {
      family_ = settings.method == Method::cvode_bdf ? MultistepFamily::bdf : MultistepFamily::adams_moulton;
      by_order_ = true;
    } else {
      const StabilityBoundary& b = has_one_step_form(info(settings.method))
                                       ? stability_boundary(settings.method)
                                       : arkode_table_boundary(settings.method, settings.sundials.butcher_table);
      boundary_ = b.unconditional() ? nullptr : &b;
    }
    if constexpr (Matrix::RowsAtCompileTime == Eigen::Dynamic) jacobian_.resize(system.size(), system.size());
  }

  // order: the order of a variable-order method's step (CVODE), else 0.
  void accepted(const typename System::Vector& x, double t, double h, IntegrationStats& stats, int order = 0) {
    const StabilityBoundary* boundary = boundary_;
    if (by_order_ && cvode_has_order(family_, order)) {
      const StabilityBoundary& b = cvode_order_boundary(family_, order);
      if (!b.unconditional()) boundary = &b;
    }
    if (boundary) {
      system_.jacobian(x, t, jacobian_);
      if constexpr (Matrix::RowsAtCompileTime == Eigen::Dynamic) {
        // No mode can limit a step below fraction * r_min / rho(J): skip the
        // eigenvalues where even the bound on rho cannot make h stability-bound
        // (flight, and most accuracy-held steps). The margin covers rounding in the bound.
        const double radius = radius_bound_(jacobian_, system_.num_positions());
        if (h * radius * (1.0 + 1e-9) < stability_bound_fraction * boundary->smallest_radius()) {
          check_cap(h, stats);
          return;
        }
      }
      const double limit = boundary->limit(jacobian_);
      if (h >= stability_bound_fraction * limit) {
        ++stats.stability_bound_steps;
        stats.stability_bound_time += h;
        stats.step_over_limit_sum += h / limit;
        return;
      }
    }
    check_cap(h, stats);
  }

 private:
  using Matrix = typename System::Matrix;

  void check_cap(double h, IntegrationStats& stats) const {
    if (max_step_ > 0.0 && h >= (1.0 - 1e-9) * max_step_) {
      ++stats.cap_bound_steps;
      stats.cap_bound_time += h;
    }
  }

  const System& system_;
  const double max_step_;
  const StabilityBoundary* boundary_ = nullptr;
  bool by_order_ = false;
  MultistepFamily family_ = MultistepFamily::bdf;
  Matrix jacobian_;
  SpectralRadiusBound<Matrix> radius_bound_;
};

}  // namespace dropsim::integrators
