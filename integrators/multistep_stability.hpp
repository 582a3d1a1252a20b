// Linear stability of linear multistep methods at fixed order: the orders a
// variable-order code (CVODE's BDF 1-5 and Adams 1-12) moves between.
//
// A k-step method  sum_j rho_j x[n+j] = h sum_j sigma_j f[n+j]  applied to
// x' = lambda x recurs with the characteristic polynomial
// rho(zeta) - h lambda sigma(zeta); it is stable at h when no root grows
// faster than the growth tolerance allows (the criterion of one-step methods,
// stability.hpp). On a system x' = A x every eigenvalue of A must pass
// (docs/physics.md#multistep-methods).
#pragma once

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "dropsim/integrators/stability.hpp"

namespace dropsim::integrators {

enum class MultistepFamily { bdf, adams_moulton };

struct MultistepMethod {
  MultistepFamily family = MultistepFamily::bdf;
  int order = 1;
  Eigen::VectorXd rho, sigma;  // coefficients of zeta^0 .. zeta^k
  std::string name() const {
    return (family == MultistepFamily::bdf ? "bdf" : "adams") + std::to_string(order);
  }
};

// sum_j c_j zeta^(k-j) (zeta - 1)^j, coefficients ascending: the backward
// difference nabla^j of the newest value is zeta^(k-j) (zeta - 1)^j.
inline Eigen::VectorXd backward_difference_polynomial(const std::vector<double>& c, int k) {
  Eigen::VectorXd p = Eigen::VectorXd::Zero(k + 1);
  for (int j = 0; j < static_cast<int>(c.size()); ++j) {
    double binomial = 1.0;  // C(j, i)
    for (int i = 0; i <= j; ++i) {
      p(k - j + i) += c[j] * binomial * ((j - i) % 2 ? -1.0 : 1.0);
      binomial = binomial * (j - i) / (i + 1);
    }
  }
  return p;
}

// BDF of order q: sum_{j=1..q} (1/j) nabla^j x[n+1] = h f[n+1]
// (Hairer and Wanner, Solving ODEs II, eq. V.1.22'). A-stable for q <= 2,
// zero-unstable beyond 6.
inline MultistepMethod bdf_method(int q) {
  if (q < 1 || q > 6) throw std::invalid_argument("BDF orders run from 1 to 6");
  std::vector<double> c(static_cast<std::size_t>(q) + 1, 0.0);
  for (int j = 1; j <= q; ++j) c[static_cast<std::size_t>(j)] = 1.0 / j;
  MultistepMethod m{MultistepFamily::bdf, q, backward_difference_polynomial(c, q), Eigen::VectorXd::Zero(q + 1)};
  m.sigma(q) = 1.0;
  return m;
}

// Adams-Moulton of order q: x[n+1] - x[n] = h sum_{j<q} g_j nabla^j f[n+1],
// g_0 = 1 and sum_{i=0..m} g_i / (m + 1 - i) = 0 for m >= 1 (Hairer, Norsett
// and Wanner, Solving ODEs I, III.1). Order 1 is backward Euler and 2 the
// trapezoidal rule, as in CVODE's Adams family; order q >= 2 takes q - 1 steps.
inline MultistepMethod adams_moulton_method(int q) {
  if (q < 1 || q > 12) throw std::invalid_argument("Adams-Moulton orders run from 1 to 12");
  std::vector<double> g{1.0};
  for (int m = 1; m < q; ++m) {
    double sum = 0.0;
    for (int i = 0; i < m; ++i) sum += g[static_cast<std::size_t>(i)] / (m + 1 - i);
    g.push_back(-sum);
  }
  const int k = std::max(1, q - 1);
  MultistepMethod m{MultistepFamily::adams_moulton, q, Eigen::VectorXd::Zero(k + 1),
                    backward_difference_polynomial(g, k)};
  m.rho(k) = 1.0;
  m.rho(k - 1) = -1.0;
  return m;
}

// Largest |zeta| among the roots of rho(zeta) - z sigma(zeta) (companion matrix).
inline double largest_root(const MultistepMethod& m, std::complex<double> z) {
  const Eigen::VectorXcd c = m.rho.cast<std::complex<double>>() - z * m.sigma.cast<std::complex<double>>();
  const Eigen::Index k = c.size() - 1;
  if (std::abs(c(k)) == 0.0) return std::numeric_limits<double>::infinity();  // a root at infinity
  Eigen::MatrixXcd companion = Eigen::MatrixXcd::Zero(k, k);
  companion.bottomRows(k - 1).leftCols(k - 1).setIdentity();
  companion.row(0) = -c.head(k).reverse().transpose() / c(k);
  return Eigen::ComplexEigenSolver<Eigen::MatrixXcd>(companion, false).eigenvalues().cwiseAbs().maxCoeff();
}

// Whether every root of rho(zeta) - z sigma(zeta) lies strictly inside the
// circle |zeta| = radius: the Schur-Cohn test on the polynomial scaled to the
// unit circle (Henrici, Applied and Computational Complex Analysis I, 6.8),
// O(k^2) against largest_root's eigenvalues, for tabulating boundaries.
inline bool roots_inside(const MultistepMethod& m, std::complex<double> z, double radius) {
  constexpr Eigen::Index most = 16;
  const Eigen::Index size = m.rho.size();
  if (size > most) throw std::invalid_argument(m.name() + ": more steps than roots_inside handles");
  std::array<std::complex<double>, most> c{}, reduced{};
  double scale = 1.0;
  for (Eigen::Index i = 0; i < size; ++i, scale *= radius) c[static_cast<std::size_t>(i)] = (m.rho(i) - z * m.sigma(i)) * scale;
  // p stable iff |c_k| > |c_0| and (conj(c_k) p - c_0 p*) / z is, p* the reversed conjugate.
  for (auto k = static_cast<std::size_t>(size - 1); k > 0; --k) {
    if (!(std::abs(c[k]) > std::abs(c[0]))) return false;
    double largest = 0.0;
    for (std::size_t i = 1; i <= k; ++i) {
      reduced[i - 1] = std::conj(c[k]) * c[i] - c[0] * std::conj(c[k - i]);
      largest = std::max(largest, std::abs(reduced[i - 1]));
    }
    for (std::size_t i = 0; i < k; ++i) c[i] = reduced[i] / largest;  // scaled: the products square each stage
  }
  return true;
}

struct MultistepStability {
  std::vector<StepBand> unstable;  // in increasing order, within [1e-3, 1e4] / rate
  double tolerance = 0.0;
  bool unconditional() const { return unstable.empty(); }
  // Largest step below which every step is stable (0 if unstable from the start).
  double limit() const { return unstable.empty() ? std::numeric_limits<double>::infinity() : unstable.front().from; }
};

// On x' = A x with eigenvalues `lambda`: stable at h when
// ln(largest root over h lambda) <= tolerance * h * max |lambda|.
inline MultistepStability multistep_stability(const MultistepMethod& m, const Eigen::VectorXcd& lambda,
                                              double tolerance = default_growth_tolerance) {
  const double rate = lambda.size() ? lambda.cwiseAbs().maxCoeff() : 0.0;
  auto stable = [&](double h) {
    for (const std::complex<double> l : lambda)
      if (std::log(largest_root(m, h * l)) > tolerance * h * rate) return false;
    return true;
  };
  return {unstable_bands(stable, rate), tolerance};
}

inline MultistepStability multistep_stability(const MultistepMethod& m, const LinearSystem& system,
                                              double tolerance = default_growth_tolerance) {
  return multistep_stability(m, system.matrix().eigenvalues(), tolerance);
}

// In h omega on the undamped unit oscillator q'' = -q (eigenvalues +-i).
inline MultistepStability undamped_multistep_stability(const MultistepMethod& m,
                                                       double tolerance = default_growth_tolerance) {
  Eigen::VectorXcd lambda(2);
  lambda << std::complex<double>(0.0, 1.0), std::complex<double>(0.0, -1.0);
  return multistep_stability(m, lambda, tolerance);
}

// The orders CVODE runs: BDF 1-5, then Adams 1-12.
inline std::vector<MultistepMethod> cvode_orders() {
  std::vector<MultistepMethod> all;
  for (int q = 1; q <= 5; ++q) all.push_back(bdf_method(q));
  for (int q = 1; q <= 12; ++q) all.push_back(adams_moulton_method(q));
  return all;
}

}  // namespace dropsim::integrators
