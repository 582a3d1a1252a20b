// Damped modes from the 2n first-order eigenproblem: roots, phase-aligned shapes.
#include "dropsim/sim/quadratic_modes.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

namespace dropsim {

Eigen::MatrixXd first_order_matrix(const Eigen::MatrixXd& M, const Eigen::MatrixXd& K, const Eigen::MatrixXd& D) {
  const auto nu = M.rows();
  const Eigen::LLT<Eigen::MatrixXd> llt(M);
  Eigen::MatrixXd z = Eigen::MatrixXd::Zero(2 * nu, 2 * nu);
  z.topRightCorner(nu, nu).setIdentity();
  z.bottomLeftCorner(nu, nu) = -llt.solve(K);
  z.bottomRightCorner(nu, nu) = -llt.solve(D);
  return z;
}

namespace {

// v e^(i phi) with phi maximising |Re|_M: with v = a + i b, Re = a cos phi - b sin phi,
// whose squared M-norm is extreme at tan 2 phi = -2 a.b / (a.a - b.b).
ComplexMode aligned(std::complex<double> s, const Eigen::VectorXcd& v, const Eigen::MatrixXd& M) {
  const Eigen::VectorXd a = v.real(), b = v.imag();
  const double ab = a.dot(M * b), aa = a.dot(M * a), bb = b.dot(M * b);
  const double phi = 0.5 * std::atan2(-2.0 * ab, aa - bb);
  Eigen::VectorXcd w = v * std::polar(1.0, phi);
  Eigen::Index i;
  w.real().cwiseAbs().maxCoeff(&i);
  w /= w.real()[i];  // a real scale: the phase stays
  return {s, w.real(), (s * w).real()};
}

}  // namespace

QuadraticModes quadratic_modes(const Eigen::MatrixXd& M, const Eigen::MatrixXd& K, const Eigen::MatrixXd& D,
                               double zero_fraction) {
  QuadraticModes out;
  const auto nu = M.rows();
  if (nu == 0) return out;
  const Eigen::EigenSolver<Eigen::MatrixXd> solver(first_order_matrix(M, K, D), true);
  const Eigen::VectorXcd& lambda = solver.eigenvalues();
  const double top = lambda.cwiseAbs().maxCoeff();
  for (Eigen::Index k = 0; k < lambda.size(); ++k) {
    const std::complex<double> s = lambda[k];
    if (std::abs(s) <= zero_fraction * top) {
      ++out.neutral;
    } else if (std::abs(s.imag()) <= 1e-9 * std::abs(s)) {
      out.decay_rates.push_back(-s.real());
    } else if (s.imag() > 0.0) {  // each pair once
      out.oscillating.push_back(aligned(s, solver.eigenvectors().col(k).head(nu), M));
    }
  }
  std::sort(out.decay_rates.begin(), out.decay_rates.end(), std::greater<>());
  std::sort(out.oscillating.begin(), out.oscillating.end(),
            [](const ComplexMode& p, const ComplexMode& q) { return p.s.imag() < q.s.imag(); });
  return out;
}

}  // namespace dropsim
