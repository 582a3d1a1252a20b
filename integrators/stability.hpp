// Linear stability of any one-step method: amplification matrix by stepping the
// basis states of a linear damped system, spectral radius, and the step limit.
//
// The linear system is M q'' + C q' + K q = 0, built from mass, stiffness and
// damping matrices, or from contact matrices (K = J^T Kc J, C = J^T Cc J, the
// shape of a linearised multi-contact model, docs/physics.md#coupled-contact-modes). Applying one
// step of a method to each basis state of x = [q; u] gives the columns of its
// one-step map G(h); the method is stable at h when the spectral radius of G
// is at most 1 (docs/physics.md#step-limits). Works for library steppers and our own.
#pragma once

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>
#include <vector>

#include "dropsim/integrators/fixed_step.hpp"
#include "dropsim/integrators/check.hpp"
#include "dropsim/integrators/integrate.hpp"
#include "dropsim/integrators/system.hpp"

namespace dropsim::integrators {

// x' = A x with A = [[0, I], [-M^-1 K, -M^-1 C]]: a System for every integrator.
class LinearSystem {
 public:
  using Vector = Eigen::VectorXd;
  using Matrix = Eigen::MatrixXd;

  LinearSystem(const Matrix& mass, const Matrix& stiffness, const Matrix& damping) {
    const auto n = mass.rows();
    const Eigen::PartialPivLU<Matrix> m(mass);
    a_ = Matrix::Zero(2 * n, 2 * n);
    a_.topRightCorner(n, n).setIdentity();
    a_.bottomLeftCorner(n, n) = -m.solve(stiffness);
    a_.bottomRightCorner(n, n) = -m.solve(damping);
    nq_ = static_cast<int>(n);
  }
  // From contact-space stiffness Kc and damping Cc with gap Jacobian J (gaps = J q).
  static LinearSystem from_contacts(const Matrix& mass, const Matrix& jacobian, const Matrix& contact_stiffness,
                                    const Matrix& contact_damping) {
    return {mass, jacobian.transpose() * contact_stiffness * jacobian,
            jacobian.transpose() * contact_damping * jacobian};
  }

  int size() const { return 2 * nq_; }
  int num_positions() const { return nq_; }
  void operator()(const Vector& x, Vector& dxdt, double) const { dxdt.noalias() = a_ * x; }
  void position_rate(const Vector& x, Vector& dxdt) const { dxdt.head(nq_) = x.tail(nq_); }
  int num_switches() const { return 0; }
  void switches(const Vector&, double*) const {}
  void project(Vector&) const {}
  void jacobian(const Vector&, double, Matrix& dfdx) const { dfdx = a_; }

  const Matrix& matrix() const { return a_; }
  // Largest |eigenvalue| of A: the fastest rate, the scale of h.
  double fastest_rate() const { return a_.eigenvalues().cwiseAbs().maxCoeff(); }

 private:
  Matrix a_;
  int nq_ = 0;
};

// The one-step map a method applies to the state it carries. For most methods
// that is x = [q; u], started afresh (reset) from each basis state; central
// difference carries [q; u[n-1/2]] instead, so its map is the leapfrog step.
template <class Stepper>
struct OneStepMap {
  template <class Sys>
  static void apply(Stepper& s, const Sys& sys, Eigen::VectorXd& x, double h) {
    s.reset();
    s.step(sys, x, 0.0, h);
  }
};
template <class Vector>
struct OneStepMap<CentralDifference<Vector>> {
  template <class Sys>
  static void apply(CentralDifference<Vector>&, const Sys& sys, Eigen::VectorXd& x, double h) {
    CentralDifference<Vector>::leapfrog(sys, x, 0.0, h);
  }
};

// Columns: the map applied to each basis vector. map(x) advances x in place.
template <class Map>
Eigen::MatrixXd amplification_matrix(Map&& map, Eigen::Index n) {
  Eigen::MatrixXd g(n, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    Eigen::VectorXd x = Eigen::VectorXd::Unit(n, k);
    map(x);
    g.col(k) = x;
  }
  return g;
}

template <class Stepper>
Eigen::MatrixXd amplification_matrix(Stepper& stepper, const LinearSystem& system, double h) {
  long count = 0;
  const CountingSystem<LinearSystem> sys{&system, &count};
  return amplification_matrix([&](Eigen::VectorXd& x) { OneStepMap<Stepper>::apply(stepper, sys, x, h); },
                              system.size());
}

inline double spectral_radius(const Eigen::MatrixXd& g) {
  if (!g.allFinite()) return std::numeric_limits<double>::infinity();
  return g.eigenvalues().cwiseAbs().maxCoeff();
}

struct StepLimit {
  // Largest stable step (s). 0: unstable at every step; +inf: unconditionally stable.
  double step = 0.0;
  // Growth allowed per radian of the fastest rate: stable means
  // ln(rho(h)) <= tolerance * h * fastest_rate. Methods of order p >= 5 grow
  // weakly (~(h omega)^(p+1)) on an undamped oscillator; below this they count as stable.
  double tolerance = 0.0;
  bool unconditional() const { return std::isinf(step); }
};

inline constexpr double default_growth_tolerance = 1e-6;

// Steps (s) where a method is unstable; `to` is +inf when it stays unstable.
struct StepBand {
  double from = 0.0, to = 0.0;
};

// Scans `stable(h)` upward from 1e-3 / rate (below that, a method unstable at
// every h gets a band from 0) in steps of 2 %, up to 1e4 / rate, and bisects
// every change of verdict to 1e-12 relative; `first_only` stops at the first
// band's start.
template <class Stable>
std::vector<StepBand> unstable_bands(Stable&& stable, double rate, bool first_only = false) {
  std::vector<StepBand> bands;
  if (!(rate > 0.0)) return bands;
  auto change = [&](double lo, double hi, bool at_lo) {  // stable(lo) == at_lo != stable(hi): the boundary
    while (hi - lo > 1e-12 * hi) {
      const double mid = 0.5 * (lo + hi);
      (stable(mid) == at_lo ? lo : hi) = mid;
    }
    return at_lo ? lo : hi;  // the last stable step, or the first stable one
  };
  double h = 1e-3 / rate;
  bool was_stable = stable(h);
  if (!was_stable) bands.push_back({0.0, std::numeric_limits<double>::infinity()});
  if (first_only && !bands.empty()) return bands;
  for (double next = h * 1.02; next <= 1e4 / rate; h = next, next *= 1.02) {
    const bool is_stable = stable(next);
    if (is_stable == was_stable) continue;
    if (is_stable) bands.back().to = change(h, next, was_stable);
    else bands.push_back({change(h, next, was_stable), std::numeric_limits<double>::infinity()});
    if (first_only && !bands.empty()) return bands;
    was_stable = is_stable;
  }
  return bands;
}

// The largest stable step: the first unstable band's start (beyond 1e4 / rate: unconditional).
template <class Stable>
StepLimit find_step_limit(Stable&& stable, double rate, double tolerance) {
  const std::vector<StepBand> bands = unstable_bands(stable, rate, true);
  return {bands.empty() ? std::numeric_limits<double>::infinity() : bands.front().from, tolerance};
}

template <class Stepper>
StepLimit step_limit(Stepper& stepper, const LinearSystem& system, double tolerance = default_growth_tolerance) {
  const double rate = system.fastest_rate();
  return find_step_limit(
      [&](double h) { return std::log(spectral_radius(amplification_matrix(stepper, system, h))) <= tolerance * h * rate; },
      rate, tolerance);
}

// A Runge-Kutta method's stability function from its Butcher table,
// R(z) = 1 + z b^T (I - z A)^-1 1, for lower-triangular A (explicit and
// diagonally implicit tables: ARKODE's).
class ButcherStability {
 public:
  explicit ButcherStability(const ButcherTable& table)
      : a_(Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
               checked(table).a.data(), table.stages, table.stages)
               .cast<std::complex<double>>()),
        b_(Eigen::Map<const Eigen::VectorXd>(table.b.data(), table.stages).cast<std::complex<double>>()) {
    DROPSIM_CHECK(a_.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().isZero(0.0),
                  table.name + ": not a lower-triangular Butcher table");
  }
  // |R(z)|; +inf where not finite, so that no NaN passes for stable.
  double growth(std::complex<double> z) const {
    const Eigen::Index n = b_.size();
    const Eigen::MatrixXcd m = Eigen::MatrixXcd::Identity(n, n) - z * a_;
    const double r = std::abs(1.0 + z * b_.dot(m.triangularView<Eigen::Lower>().solve(Eigen::VectorXcd::Ones(n))));
    return std::isfinite(r) ? r : std::numeric_limits<double>::infinity();
  }

 private:
  static const ButcherTable& checked(const ButcherTable& table) {
    const auto n = static_cast<std::size_t>(std::max(table.stages, 0));
    DROPSIM_CHECK(n != 0 && table.a.size() == n * n && table.b.size() == n,
                  table.name + ": a Butcher table without its coefficients");
    return table;
  }

  Eigen::MatrixXcd a_;
  Eigen::VectorXcd b_;
};

// On x' = A x, by the criterion of one-step methods: ln(max |R(h lambda)|) <= tolerance * h * rate.
inline StepLimit step_limit(const ButcherTable& table, const LinearSystem& system,
                            double tolerance = default_growth_tolerance) {
  const ButcherStability r(table);
  const Eigen::VectorXcd lambda = system.matrix().eigenvalues();
  const double rate = system.fastest_rate();
  auto stable = [&](double h) {
    for (const std::complex<double> l : lambda)
      if (std::log(r.growth(h * l)) > tolerance * h * rate) return false;
    return true;
  };
  return find_step_limit(stable, rate, tolerance);
}

// butcher_table: ARKODE's table number for arkode_erk and arkode_dirk (-1: their default).
inline StepLimit step_limit(Method method, const LinearSystem& system, double tolerance = default_growth_tolerance,
                            int butcher_table_id = -1) {
  if (method == Method::arkode_erk || method == Method::arkode_dirk)
    return step_limit(butcher_table(method, butcher_table_id), system, tolerance);
  return visit_one_step<Eigen::VectorXd>(method, [&](auto& stepper) { return step_limit(stepper, system, tolerance); });
}

// The unit oscillator q'' + 2 zeta q' + q = 0: step limits on it are in h * omega.
inline LinearSystem unit_oscillator(double zeta = 0.0) {
  const Eigen::MatrixXd one = Eigen::MatrixXd::Identity(1, 1);
  return LinearSystem(one, one, Eigen::MatrixXd::Constant(1, 1, 2.0 * zeta));
}

// h * omega limit on the undamped unit oscillator q'' = -q.
inline StepLimit undamped_limit(Method method, double tolerance = default_growth_tolerance) {
  return step_limit(method, unit_oscillator(), tolerance);
}

}  // namespace dropsim::integrators
