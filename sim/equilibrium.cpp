// Static equilibrium: Newton steps on the stiff subspace, gravity-driven steps on the free one.
#include "dropsim/sim/equilibrium.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "dropsim/sim/format.hpp"
#include "dropsim/sim/linearization.hpp"

namespace dropsim {

namespace {

constexpr int max_iterations = 500;
constexpr double residual_tolerance = 1e-11;  // force imbalance relative to the weight
constexpr double free_residual_tolerance = 1e-9;
constexpr double max_turn = 0.05;  // rad per Newton step

double potential_energy(const MultibodyModel& model, const Eigen::VectorXd& x) {
  const MultibodyEnergies e = multibody_energies(model, x);
  return e.potential + e.elastic;
}

}  // namespace

std::string describe_motion(const MultibodyModel& model, const Eigen::VectorXd& du) {
  const auto names = model.speed_names();
  const double largest = du.cwiseAbs().maxCoeff();
  std::string out;
  for (Eigen::Index i = 0; i < du.size(); ++i) {
    const double v = largest > 0.0 ? du[i] / largest : 0.0;
    if (std::abs(v) < 1e-6) continue;
    out += (out.empty() ? "" : ", ") + names[static_cast<std::size_t>(i)] + " " + significant(v, 4);
  }
  return out;
}

Equilibrium static_equilibrium(const MultibodyModel& model, const Eigen::VectorXd& x0) {
  if (!(model.gravity > 0.0))
    throw EquilibriumError("no static equilibrium: with gravity 0 nothing presses the bodies into their contacts, "
                           "which push them apart; analyse the given configuration instead (modes_at \"initial\")");
  const MultibodySystem system(model);
  const int nq = model.nq, nu = model.nu;
  Equilibrium result;
  Eigen::VectorXd x = x0;
  x.tail(nu).setZero();

  // Mass-weighted coordinates make translations and rotations comparable.
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> mass(mass_matrix(model));
  const Eigen::MatrixXd m_inv_half = mass.operatorInverseSqrt();
  const double g = model.gravity;
  const double force_scale = g * std::sqrt(model.total_mass());
  Eigen::VectorXd f(nu);

  for (int it = 0; it < max_iterations; ++it) {
    system.applied_forces(x, f);
    const Eigen::VectorXd f_tilde = m_inv_half * f;
    result.residual = f_tilde.norm() / force_scale;
    result.iterations = it;
    if (result.residual < residual_tolerance) {
      result.x = x;
      return result;
    }

    // Stiffness of the compressed contacts (frozen geometry), mass-weighted.
    const Linearization lin = linearize(model, x);
    const Eigen::MatrixXd h = m_inv_half * lin.J.transpose() * lin.K * lin.J * m_inv_half;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (h + h.transpose()));
    const double threshold = 1e-10 * std::max(eig.eigenvalues().cwiseAbs().maxCoeff(), 0.0);
    Eigen::VectorXd step_tilde = Eigen::VectorXd::Zero(nu), free_tilde = Eigen::VectorXd::Zero(nu);
    for (int k = 0; k < nu; ++k) {
      const double mu = eig.eigenvalues()[k];
      const auto v = eig.eigenvectors().col(k);
      const double component = v.dot(f_tilde);
      if (std::abs(mu) > threshold && mu != 0.0) step_tilde += v * (component / std::abs(mu));
      else free_tilde += v * component;
    }

    if (free_tilde.norm() / force_scale > free_residual_tolerance) {
      // Gravity drives a motion nothing resists: follow it to the first contact it closes.
      const Eigen::VectorXd d = m_inv_half * free_tilde;
      const Eigen::MatrixXd j = contact_jacobian(model, x);
      double s = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < model.contacts.size(); ++i) {
        const double gap = contact_kinematics(model, model.contacts[i], x.head(nq)).gap;
        const double rate = j.row(static_cast<Eigen::Index>(i)).dot(d);
        const double scale = j.row(static_cast<Eigen::Index>(i)).cwiseAbs().dot(d.cwiseAbs());
        if (gap >= 0.0 && rate < -1e-12 * scale) s = std::min(s, gap / -rate);
      }
      if (!std::isfinite(s)) {
        const bool friction = std::any_of(model.contacts.begin(), model.contacts.end(),
                                          [](const Contact& each) { return each.law.friction.acts(); });
        throw EquilibriumError(
            "no static equilibrium: gravity drives a motion that no contact resists or will ever resist (" +
            describe_motion(model, d) + "): the body falls or tips over (a planar body on a single off-centre "
            "contact does)" +
            (friction ? std::string("; friction, regularised, resists only while slipping, so a body it holds "
                                    "creeps rather than rests (run the scenario to see it)")
                      : std::string()));
      }
      // Overshoot a hair so the contact is compressed and enters the stiff set.
      advance_configuration(model, x.head(nq), d * (s * (1.0 + 1e-6) + 1e-12 / d.cwiseAbs().maxCoeff()));
      continue;
    }

    // Newton step on the stiff subspace, backtracking on the potential energy.
    // Trust region: a contact may at most triple its indentation per step and a
    // body turn by at most max_turn, so a Hertz contact that has just touched
    // (nearly zero stiffness) loads up gradually instead of letting the body tip
    // into some far-away equilibrium (upside down, say).
    Eigen::VectorXd step = m_inv_half * step_tilde;
    double limit = 1.0;
    for (Eigen::Index i = 0; i < lin.J.rows(); ++i) {
      const double change = std::abs(lin.J.row(i).dot(step));
      const double allowed = 2.0 * lin.indentation[i];
      if (change > allowed) limit = std::min(limit, allowed / change);
    }
    for (const auto& b : model.bodies) {
      if (b.joint == Joint::vertical) continue;
      const double turn = b.joint == Joint::planar ? std::abs(step[b.u_offset + 2])
                                                   : step.segment<3>(b.u_offset + 3).norm();
      if (turn > max_turn) limit = std::min(limit, max_turn / turn);
    }
    step *= limit;
    const double v0 = potential_energy(model, x);
    const double slope = -f.dot(step);  // dV/dt along the step; negative downhill
    double t = 1.0;
    Eigen::VectorXd trial = x;
    for (int ls = 0; ls < 60; ++ls, t *= 0.5) {
      trial = x;
      advance_configuration(model, trial.head(nq), t * step);
      if (potential_energy(model, trial) <= v0 + 1e-4 * t * slope) break;
      // Near the solution V changes below rounding: accept a smaller imbalance instead.
      system.applied_forces(trial, f);
      if ((m_inv_half * f).norm() < (1.0 - 1e-4 * t) * f_tilde.norm()) break;
    }
    x = trial;
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "no static equilibrium found in %d Newton iterations (force imbalance %.3g of the weight)",
                max_iterations, result.residual);
  throw EquilibriumError(buf);
}

double equilibrium_indentation(const DropModel& model) {
  const double per_sphere = model.mass * model.gravity / model.spheres;
  auto force = [&](double x) { return contact_force(model.law, x, 0.0); };
  double lo = 0.0, hi = model.law.radius > 0.0 ? 1e-3 * model.law.radius : 1e-6;
  for (int doublings = 0; force(hi) < per_sphere; ++doublings) {
    if (doublings == 70)
      throw EquilibriumError("no static equilibrium: the contacts carry less than the weight at any indentation");
    lo = hi;
    hi *= 2.0;
  }
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (force(mid) < per_sphere ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace dropsim
