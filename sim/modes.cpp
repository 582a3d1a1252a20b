// Modes: effective masses, K^1/2 A K^1/2 eigenproblem, damped state matrix, free motions.
#include "dropsim/sim/modes.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "dropsim/sim/quadratic_modes.hpp"

namespace dropsim {

namespace {

// Zero eigenvalues relative to the largest one.
constexpr double zero_eigenvalue = 1e-9;

// Largest component +1.
Eigen::VectorXd normalised(const Eigen::VectorXd& v) {
  Eigen::Index i;
  v.cwiseAbs().maxCoeff(&i);
  return v / v[i];
}

// Eigenvalues of [[0, I], [-M^-1 K, -M^-1 C]], handed out to modes by nearest modulus.
class DampedModes {
 public:
  DampedModes(const Eigen::MatrixXd& m, const Eigen::MatrixXd& k, const Eigen::MatrixXd& c, double omega_scale) {
    const Eigen::EigenSolver<Eigen::MatrixXd> solver(first_order_matrix(m, k, c), false);
    for (const auto& l : solver.eigenvalues())
      if (l.imag() > 1e-9 * std::abs(l) && std::abs(l) > 1e-6 * omega_scale) oscillating_.push_back(l);
    used_.assign(oscillating_.size(), false);
  }

  void assign(Mode& mode, const Eigen::MatrixXd& m, const Eigen::MatrixXd& c) {
    std::size_t best = oscillating_.size();
    double best_gap = 0.5;  // relative: beyond this, no oscillating partner (overdamped)
    for (std::size_t j = 0; j < oscillating_.size(); ++j) {
      const double gap = std::abs(std::abs(oscillating_[j]) - mode.omega) / mode.omega;
      if (!used_[j] && gap < best_gap) best = j, best_gap = gap;
    }
    if (best < oscillating_.size()) {
      used_[best] = true;
      mode.damped_omega = oscillating_[best].imag();
      mode.damping_ratio = std::max(0.0, -oscillating_[best].real() / std::abs(oscillating_[best]));
    } else {
      // Modal estimate c_n / (2 omega m_n) with the mode's own mass and damping.
      mode.overdamped = true;
      mode.damping_ratio = mode.shape.dot(c * mode.shape) / (2.0 * mode.omega * mode.shape.dot(m * mode.shape));
    }
  }

 private:
  std::vector<std::complex<double>> oscillating_;  // upper half plane, not zero
  std::vector<bool> used_;
};

// The friction modes: each complex pair of the damped problem as a Mode.
void set_friction_modes(ModesAnalysis& out, Eigen::MatrixXd stiffness, Eigen::MatrixXd damping) {
  const Linearization& lin = out.lin;
  out.friction_stiffness = std::move(stiffness);
  out.friction_damping = std::move(damping);
  const QuadraticModes q = quadratic_modes(lin.M, out.friction_stiffness, out.friction_damping);
  for (const ComplexMode& c : q.oscillating) {
    Mode m;
    m.omega = std::abs(c.s);
    m.damped_omega = c.s.imag();
    m.damping_ratio = -c.s.real() / m.omega + 0.0;  // + 0: no -0
    m.shape = c.shape;
    m.rate_shape = c.rate_shape;
    m.gap_shape = lin.J * m.shape;
    out.friction_modes.push_back(m);
    out.friction_fastest = std::max(out.friction_fastest, m.omega);
  }
  for (const double r : q.decay_rates) {
    (r > 0.0 ? out.friction_decay_rates : out.friction_growth_rates).push_back(std::abs(r));
    out.friction_fastest = std::max(out.friction_fastest, std::abs(r));
  }
  std::sort(out.friction_growth_rates.begin(), out.friction_growth_rates.end(), std::greater<>());
}

}  // namespace

integrators::LinearSystem friction_system(const ModesAnalysis& a) {
  return {a.lin.M, a.friction_stiffness, a.friction_damping};
}

std::vector<double> real_decay_rates(const Linearization& lin) {
  std::vector<double> rates;
  if (lin.friction_damping.size() == 0) return rates;
  const Eigen::VectorXcd lambda = Eigen::EigenSolver<Eigen::MatrixXd>(lin.linear_system().matrix(), false).eigenvalues();
  const double top = lambda.cwiseAbs().maxCoeff();
  for (const auto& l : lambda)
    if (std::abs(l.imag()) <= 1e-9 * top && l.real() < -zero_eigenvalue * top) rates.push_back(-l.real());
  std::sort(rates.begin(), rates.end(), std::greater<>());
  return rates;
}

Eigen::MatrixXd tangent_stiffness(const MultibodyModel& model, const Eigen::VectorXd& x) {
  Eigen::VectorXd at_rest = x;
  at_rest.tail(model.nu).setZero();
  Eigen::MatrixXd by_increment, by_speed;
  MultibodySystem(model).force_derivatives(at_rest, by_increment, by_speed);
  return -by_increment;
}

ModesAnalysis contact_modes(Linearization linearization) {
  ModesAnalysis out;
  out.lin = std::move(linearization);
  const Linearization& lin = out.lin;
  const Eigen::Index nc = lin.J.rows();
  const auto nu = static_cast<int>(lin.M.rows());
  out.free_motions = null_space_basis(lin.J, nu);
  // No compressed contact: no contact modes, every motion free. (Eigen's
  // triangular solve of an empty right-hand side reads through a null pointer.)
  if (nc == 0) {
    out.A.resize(0, 0);
    return out;
  }
  const Eigen::LLT<Eigen::MatrixXd> m_llt(lin.M);
  const Eigen::MatrixXd m_inv_jt = m_llt.solve(lin.J.transpose());  // M^-1 J^T
  out.A = lin.J * m_inv_jt;

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

  // xi'' + A K xi = 0 is similar to the symmetric K^1/2 A K^1/2 docs/physics.md#coupled-contact-modes.
  const Eigen::VectorXd k_half = lin.K.diagonal().cwiseSqrt();
  const Eigen::MatrixXd s = k_half.asDiagonal() * out.A * k_half.asDiagonal();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (s + s.transpose()));
  const double largest = eig.eigenvalues().maxCoeff();
  const Eigen::MatrixXd damping = lin.J.transpose() * lin.C * lin.J;
  DampedModes damped(lin.M, lin.J.transpose() * lin.K * lin.J, damping, std::sqrt(largest));

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
    m.shape = normalised(m_inv_jt * k_half.asDiagonal() * zk);
    m.gap_shape = lin.J * m.shape;
    damped.assign(m, lin.M, damping);
    out.modes.push_back(m);
  }

  std::sort(out.modes.begin(), out.modes.end(), [](const Mode& a, const Mode& b) { return a.omega < b.omega; });
  if (!out.modes.empty()) {
    out.omega_max = out.modes.back().omega;
    out.t_c = 1.0 / out.omega_max;
    out.period = 2.0 * std::numbers::pi * out.t_c;
    out.step_20 = out.period / 20.0;
  }
  out.decay_rates = real_decay_rates(lin);
  out.friction_stiffest = !out.decay_rates.empty() && out.decay_rates.front() > lin.normal_system().fastest_rate();
  return out;
}

void add_frozen_geometry_friction_modes(ModesAnalysis& analysis) {
  const Linearization& lin = analysis.lin;
  if (lin.J.rows() == 0 || lin.friction_damping.size() == 0) return;
  set_friction_modes(analysis, lin.J.transpose() * lin.K * lin.J, lin.J.transpose() * lin.C * lin.J + lin.friction_damping);
}

ModesAnalysis analyse_modes(const MultibodyModel& model, const Eigen::VectorXd& x) {
  ModesAnalysis out = contact_modes(linearize(model, x));
  out.x = x;
  if (out.lin.J.rows() == 0) return out;
  const Linearization& lin = out.lin;
  const Eigen::MatrixXd damping = lin.J.transpose() * lin.C * lin.J;
  // The full tangent: contact laws plus load (geometric) stiffness.
  out.tangent = tangent_stiffness(model, x);
  const Eigen::MatrixXd& kt = out.tangent;
  const Eigen::MatrixXd kt_sym = 0.5 * (kt + kt.transpose());
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> loaded(kt_sym, lin.M);
  const double top = loaded.eigenvalues().cwiseAbs().maxCoeff();
  DampedModes damped_loaded(lin.M, kt_sym, damping, std::sqrt(top));
  for (Eigen::Index i = 0; i < loaded.eigenvalues().size(); ++i) {
    const double w2 = loaded.eigenvalues()[i];
    if (w2 < -zero_eigenvalue * top) ++out.unstable_loaded;
    if (w2 <= zero_eigenvalue * top) continue;
    Mode m;
    m.omega = std::sqrt(w2);
    m.shape = normalised(loaded.eigenvectors().col(i));
    m.gap_shape = lin.J * m.shape;
    damped_loaded.assign(m, lin.M, damping);
    out.loaded_modes.push_back(m);
  }
  // The unsymmetrised tangent: the damped problem is general anyway.
  if (lin.friction_damping.size() != 0) {
    if (x.tail(model.nu).isZero()) {
      set_friction_modes(out, kt, damping + lin.friction_damping);
    } else {
      // A steady motion (the creep regularised friction allows on a slope):
      // the exact linearisation at its speeds, where friction's force, and
      // so its share of every normal force's change, is not zero.
      Eigen::MatrixXd by_increment, by_speed;
      MultibodySystem(model).force_derivatives(x, by_increment, by_speed);
      set_friction_modes(out, -by_increment, -by_speed);
    }
  }
  return out;
}

}  // namespace dropsim
