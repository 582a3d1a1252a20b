// Modes: effective masses, K^1/2 A K^1/2 eigenproblem, damped state matrix, free motions.
#include "sim/modes.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

namespace dropsim {

namespace {

// Zero eigenvalues relative to the largest one.
constexpr double zero_eigenvalue = 1e-9;

}  // namespace

ModesAnalysis analyse_modes(const MultibodyModel& model, const Eigen::VectorXd& x) {
  ModesAnalysis out;
  out.x = x;
  out.lin = linearize(model, x);
  const Linearization& lin = out.lin;
  const Eigen::Index nc = lin.J.rows();
  const int nu = model.nu;
  const Eigen::LLT<Eigen::MatrixXd> m_llt(lin.M);
  const Eigen::MatrixXd m_inv_jt = m_llt.solve(lin.J.transpose());  // M^-1 J^T
  out.A = lin.J * m_inv_jt;
  out.free_motions = null_space_basis(lin.J, nu);

  for (Eigen::Index i = 0; i < nc; ++i) {
    ContactMode c;
    c.contact = lin.contacts[static_cast<std::size_t>(i)];
    c.indentation = lin.indentation[i];
    c.force = lin.force[i];
    c.stiffness = lin.K(i, i);
    c.damping = lin.C(i, i);
    c.effective_mass = 1.0 / out.A(i, i);
    c.omega_single = std::sqrt(c.stiffness / c.effective_mass);
    out.contacts.push_back(c);
  }
  if (nc == 0) return out;

  // xi'' + A K xi = 0 is similar to the symmetric K^1/2 A K^1/2 [M].
  const Eigen::VectorXd k_half = lin.K.diagonal().cwiseSqrt();
  const Eigen::MatrixXd s = k_half.asDiagonal() * out.A * k_half.asDiagonal();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (s + s.transpose()));
  const double largest = eig.eigenvalues().maxCoeff();

  // Damped modes: eigenvalues of [[0, I], [-M^-1 J^T K J, -M^-1 J^T C J]].
  Eigen::MatrixXd z = Eigen::MatrixXd::Zero(2 * nu, 2 * nu);
  z.topRightCorner(nu, nu).setIdentity();
  z.bottomLeftCorner(nu, nu) = -m_inv_jt * lin.K * lin.J;
  z.bottomRightCorner(nu, nu) = -m_inv_jt * lin.C * lin.J;
  const Eigen::EigenSolver<Eigen::MatrixXd> damped(z, false);
  std::vector<std::complex<double>> oscillating;  // upper half plane, not zero
  for (const auto& l : damped.eigenvalues())
    if (l.imag() > 1e-9 * std::abs(l) && std::abs(l) > 1e-6 * std::sqrt(largest)) oscillating.push_back(l);
  std::vector<bool> used(oscillating.size(), false);

  for (Eigen::Index k = 0; k < nc; ++k) {
    const double w2 = eig.eigenvalues()[k];
    if (w2 <= zero_eigenvalue * largest) {
      ++out.redundant;
      continue;
    }
    Mode m;
    m.omega = std::sqrt(w2);
    const Eigen::VectorXd zk = eig.eigenvectors().col(k);
    // M q'' = -J^T K J q has q = M^-1 J^T K^1/2 z for each eigenvector z.
    m.shape = m_inv_jt * k_half.asDiagonal() * zk;
    const double scale = m.shape.cwiseAbs().maxCoeff();
    const Eigen::Index big = [&] {
      Eigen::Index i;
      m.shape.cwiseAbs().maxCoeff(&i);
      return i;
    }();
    m.shape /= (m.shape[big] < 0.0 ? -scale : scale);  // largest component +1
    m.gap_shape = lin.J * m.shape;
    m.modal_row = (k_half.asDiagonal() * zk).transpose();

    // Match the damped eigenvalue whose modulus is nearest omega.
    std::size_t best = oscillating.size();
    double best_gap = 0.5;  // relative: beyond this, no oscillating partner (overdamped)
    for (std::size_t j = 0; j < oscillating.size(); ++j) {
      const double gap = std::abs(std::abs(oscillating[j]) - m.omega) / m.omega;
      if (!used[j] && gap < best_gap) best = j, best_gap = gap;
    }
    if (best < oscillating.size()) {
      used[best] = true;
      m.damped_omega = oscillating[best].imag();
      m.damping_ratio = std::max(0.0, -oscillating[best].real() / std::abs(oscillating[best]));
    } else {
      // Modal estimate: c_n / (2 omega m_n) with the mode's own mass and damping.
      const Eigen::VectorXd g = lin.J * m.shape;
      m.overdamped = true;
      m.damping_ratio = g.dot(lin.C * g) / (2.0 * m.omega * m.shape.dot(lin.M * m.shape));
    }
    out.modes.push_back(m);
  }
  std::sort(out.modes.begin(), out.modes.end(), [](const Mode& a, const Mode& b) { return a.omega < b.omega; });
  if (!out.modes.empty()) {
    out.omega_max = out.modes.back().omega;
    out.t_c = 1.0 / out.omega_max;
    out.period = 2.0 * std::numbers::pi * out.t_c;
    out.step_20 = out.period / 20.0;
  }
  return out;
}

}  // namespace dropsim
