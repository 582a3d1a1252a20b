// Static equilibrium: Newton steps on the stiff subspace, gravity-driven steps on the free one.
#include "dropsim/sim/equilibrium.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "dropsim/sim/format.hpp"
#include "dropsim/sim/linearization.hpp"

namespace dropsim {

namespace {

constexpr int max_iterations = 500;
constexpr double residual_tolerance = 1e-11;  // force imbalance relative to the weight
constexpr double free_residual_tolerance = 1e-9;
constexpr double max_turn = 0.05;  // rad per Newton step
// The creep search settles the contacts at each trial speed; a held body needs
// some tens of Newton steps in all, so this bound only stops a search that wanders.
constexpr int max_creep_evaluations = 4000;

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

namespace {

// The force balance at one state, in mass-weighted coordinates, split into the
// part the compressed contacts' stiffness resists and the free part nothing
// resists (gravity or friction along a motion no contact's gap changes with).
class ForceBalance {
 public:
  explicit ForceBalance(const MultibodyModel& model)
      : model_(model),
        system_(model),
        m_inv_half_(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(mass_matrix(model)).operatorInverseSqrt()),
        force_scale_(model.gravity * std::sqrt(model.total_mass())),
        f_(model.nu) {}

  struct Split {
    Eigen::VectorXd f, f_tilde, stiff_step_tilde, free_tilde;
    Eigen::MatrixXd stiff_basis;  // mass-weighted directions the contacts' stiffness resists
    Linearization lin;
    double residual() const { return f_tilde.norm(); }
    double stiff_residual(const Eigen::VectorXd& any_f_tilde) const {
      return (stiff_basis.transpose() * any_f_tilde).norm();
    }
  };

  Split split(const Eigen::VectorXd& x) {
    system_.applied_forces(x, f_);
    Split out{f_, m_inv_half_ * f_, Eigen::VectorXd::Zero(model_.nu), Eigen::VectorXd::Zero(model_.nu), {},
              linearize(model_, x)};
    // Stiffness of the compressed contacts (frozen geometry), mass-weighted.
    const Linearization& lin = out.lin;
    const Eigen::MatrixXd h = m_inv_half_ * lin.J.transpose() * lin.K * lin.J * m_inv_half_;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (h + h.transpose()));
    const double threshold = 1e-10 * std::max(eig.eigenvalues().cwiseAbs().maxCoeff(), 0.0);
    std::vector<int> stiff;
    for (int k = 0; k < model_.nu; ++k) {
      const double mu = eig.eigenvalues()[k];
      const auto v = eig.eigenvectors().col(k);
      const double component = v.dot(out.f_tilde);
      if (std::abs(mu) > threshold && mu != 0.0) {
        out.stiff_step_tilde += v * (component / std::abs(mu));
        stiff.push_back(k);
      } else {
        out.free_tilde += v * component;
      }
    }
    out.stiff_basis = eig.eigenvectors()(Eigen::all, stiff);
    return out;
  }

  // A Newton step on the stiff subspace, backtracking on the potential energy.
  // Trust region: a contact may at most triple its indentation per step and a
  // body turn by at most max_turn, so a Hertz contact that has just touched
  // (nearly zero stiffness) loads up gradually instead of letting the body tip
  // into some far-away equilibrium (upside down, say). The speeds in x stay.
  void newton_step(const Split& s, Eigen::VectorXd& x) {
    const Linearization& lin = s.lin;
    Eigen::VectorXd step = m_inv_half_ * s.stiff_step_tilde;
    double limit = 1.0;
    for (Eigen::Index i = 0; i < lin.J.rows(); ++i) {
      const double change = std::abs(lin.J.row(i).dot(step));
      const double allowed = 2.0 * lin.indentation[i];
      if (change > allowed) limit = std::min(limit, allowed / change);
    }
    for (const auto& b : model_.bodies) {
      if (b.joint == Joint::vertical) continue;
      const double turn = b.joint == Joint::planar ? std::abs(step[b.u_offset + 2])
                                                   : step.segment<3>(b.u_offset + 3).norm();
      if (turn > max_turn) limit = std::min(limit, max_turn / turn);
    }
    step *= limit;
    const double v0 = potential_energy(model_, x);
    const double slope = -s.f.dot(step);  // dV/dt along the step; negative downhill
    double t = 1.0;
    Eigen::VectorXd trial = x;
    for (int ls = 0; ls < 60; ++ls, t *= 0.5) {
      trial = x;
      advance_configuration(model_, trial.head(model_.nq), t * step);
      if (potential_energy(model_, trial) <= v0 + 1e-4 * t * slope) break;
      // Near the solution V changes below rounding (and friction is not a
      // potential's force): accept a smaller imbalance instead.
      system_.applied_forces(trial, f_);
      if (s.stiff_residual(m_inv_half_ * f_) < (1.0 - 1e-4 * t) * s.stiff_residual(s.f_tilde)) break;
    }
    x = trial;
  }

  const MultibodyModel& model() const { return model_; }
  const MultibodySystem& system() const { return system_; }
  const Eigen::MatrixXd& m_inv_half() const { return m_inv_half_; }
  double force_scale() const { return force_scale_; }

 private:
  const MultibodyModel& model_;
  const MultibodySystem system_;
  const Eigen::MatrixXd m_inv_half_;
  const double force_scale_;
  Eigen::VectorXd f_;
};

// Regularised friction holds a body only by creeping: the steady state where
// friction at some slip speed balances gravity's pull along a motion no contact
// resists (a block on a slope). x holds the configuration; gravity's pull at
// rest there is `pull_tilde` (mass-weighted). Searches the creep speed along
// that motion, settling the contacts at each; the stick branch ends where a
// contact slips at its transition velocity (the law's peak, mu_s), and a pull
// friction cannot balance below that is a slide.
Equilibrium creeping_equilibrium(ForceBalance& balance, Eigen::VectorXd x, const Eigen::VectorXd& pull_tilde) {
  const MultibodyModel& model = balance.model();
  const int nu = model.nu;
  const std::size_t nc = model.contacts.size();
  const Eigen::VectorXd along_tilde = pull_tilde.normalized();
  Eigen::VectorXd direction = balance.m_inv_half() * along_tilde;
  std::vector<double> slip(nc), normal(nc);
  Eigen::VectorXd f(nu);
  // Scaled so that its speed is the largest contact slip speed.
  x.tail(nu) = direction;
  balance.system().applied_forces(x, f, normal.data(), nullptr, slip.data());
  double unit_slip = 0.0;
  for (std::size_t c = 0; c < nc; ++c)
    if (model.contacts[c].law.friction.acts() && normal[c] > 0.0) unit_slip = std::max(unit_slip, slip[c]);
  const std::string motion = describe_motion(model, direction);
  if (!(unit_slip > 0.0))
    throw EquilibriumError("no static equilibrium: gravity drives a motion no contact resists (" + motion +
                           ") and no loaded contact with friction slips along it: the body falls or tips over");
  direction /= unit_slip;

  Equilibrium result;
  struct Sample { double speed, pull, stick; };  // pull along the motion; stick: largest slip / v_t
  int evaluations = 0;
  auto settle_at = [&](double speed) {
    x.tail(nu) = speed * direction;
    double residual = 0.0;
    for (int it = 0; it < max_iterations; ++it, ++result.iterations) {
      if (++evaluations > max_creep_evaluations)
        throw EquilibriumError("no static equilibrium found: the creep speed search did not converge in " +
                               std::to_string(max_creep_evaluations) + " force evaluations");
      const ForceBalance::Split s = balance.split(x);
      const double stiff = s.stiff_residual(s.f_tilde) / balance.force_scale();
      residual = s.residual() / balance.force_scale();
      if (stiff < residual_tolerance) {
        balance.system().applied_forces(x, f, normal.data(), nullptr, slip.data());
        double stick = 0.0;
        for (std::size_t c = 0; c < nc; ++c) {
          const Friction& fr = model.contacts[c].law.friction;
          if (fr.acts() && normal[c] > 0.0) stick = std::max(stick, slip[c] / fr.transition_velocity);
        }
        result.residual = residual;
        return Sample{speed, along_tilde.dot(s.free_tilde) / balance.force_scale(), stick};
      }
      balance.newton_step(s, x);
    }
    throw EquilibriumError("no static equilibrium found: the contacts did not settle under a creeping body");
  };

  // Bracket the creep speed on the stick branch, then regula falsi (Illinois).
  Sample lo = settle_at(0.0), hi = lo;
  const double rest_pull = lo.pull;
  for (double speed = 1e-6 * model.slowest_transition_velocity(); hi.pull > 0.0;) {
    lo = hi;
    hi = settle_at(speed);
    if (hi.pull <= 0.0) break;
    if (hi.stick >= 1.0 - 1e-9)
      throw EquilibriumError(
          "no static equilibrium: friction cannot hold the body against gravity along " + motion +
          ": at its peak (a contact slipping at its transition velocity, the static coefficient) it resists " +
          significant(100.0 * (1.0 - hi.pull / rest_pull), 3) +
          " % of gravity's pull, so the body slides (on a slope steeper than the friction angle) or tips over");
    // Doubling, but stopping at the law's peak (slip speeds grow with the speed).
    speed = std::min(2.0 * speed, hi.stick > 0.0 ? speed / hi.stick : 2.0 * speed);
  }
  Sample root = hi;
  for (int side = 0, it = 0; it < 200 && std::abs(root.pull) > residual_tolerance; ++it) {
    // Illinois: an end kept twice running has its pull halved, so it moves too.
    double weight_lo = 1.0, weight_hi = 1.0;
    if (side > 1) weight_hi = 0.5;   // lo moved twice, hi kept
    if (side < -1) weight_lo = 0.5;  // hi moved twice, lo kept
    const double speed = (lo.speed * hi.pull * weight_hi - hi.speed * lo.pull * weight_lo) /
                         (hi.pull * weight_hi - lo.pull * weight_lo);
    root = settle_at(speed);
    if (root.pull > 0.0) {
      lo = root;
      side = side > 0 ? side + 1 : 1;
    } else {
      hi = root;
      side = side < 0 ? side - 1 : -1;
    }
    if (hi.speed - lo.speed <= 1e-14 * hi.speed) break;
  }
  if (!(std::abs(root.pull) <= 1e3 * residual_tolerance))
    throw EquilibriumError("no static equilibrium found: the creep speed did not converge (friction's pull " +
                           significant(root.pull, 3) + " of the weight left)");
  // Friction along the other free motions (a turn about the normal, say) must
  // balance too, or the body does not creep steadily.
  const ForceBalance::Split s = balance.split(x);
  const double unbalanced = (s.free_tilde - along_tilde * along_tilde.dot(s.free_tilde)).norm() / balance.force_scale();
  if (unbalanced > 1e3 * residual_tolerance)
    throw EquilibriumError("no static equilibrium: the body creeps along " + motion +
                           " but friction does not hold it from turning or drifting sideways");
  result.x = x;
  result.creep_speed = root.speed;
  return result;
}

}  // namespace

Equilibrium static_equilibrium(const MultibodyModel& model, const Eigen::VectorXd& x0) {
  if (!(model.gravity > 0.0))
    throw EquilibriumError("no static equilibrium: with gravity 0 nothing presses the bodies into their contacts, "
                           "which push them apart; analyse the given configuration instead (modes_at \"initial\")");
  const int nq = model.nq, nu = model.nu;
  ForceBalance balance(model);
  Equilibrium result;
  Eigen::VectorXd x = x0;
  x.tail(nu).setZero();

  for (int it = 0; it < max_iterations; ++it) {
    const ForceBalance::Split s = balance.split(x);
    result.residual = s.residual() / balance.force_scale();
    result.iterations = it;
    if (result.residual < residual_tolerance) {
      result.x = x;
      return result;
    }
    if (s.free_tilde.norm() / balance.force_scale() <= free_residual_tolerance) {
      balance.newton_step(s, x);
      continue;
    }
    // Gravity drives a motion nothing resists: follow it to the first contact it closes.
    const Eigen::VectorXd d = balance.m_inv_half() * s.free_tilde;
    const Eigen::MatrixXd j = contact_jacobian(model, x);
    double closing = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < model.contacts.size(); ++i) {
      const double gap = contact_kinematics(model, model.contacts[i], x.head(nq)).gap;
      const double rate = j.row(static_cast<Eigen::Index>(i)).dot(d);
      const double scale = j.row(static_cast<Eigen::Index>(i)).cwiseAbs().dot(d.cwiseAbs());
      if (gap >= 0.0 && rate < -1e-12 * scale) closing = std::min(closing, gap / -rate);
    }
    if (std::isfinite(closing)) {
      // Overshoot a hair so the contact is compressed and enters the stiff set.
      advance_configuration(model, x.head(nq), d * (closing * (1.0 + 1e-6) + 1e-12 / d.cwiseAbs().maxCoeff()));
      continue;
    }
    if (model.has_friction()) {
      Equilibrium creeping = creeping_equilibrium(balance, x, s.free_tilde);
      creeping.iterations += it;
      return creeping;
    }
    throw EquilibriumError("no static equilibrium: gravity drives a motion that no contact resists or will ever resist (" +
                           describe_motion(model, d) +
                           "): the body falls or tips over (a planar body on a single off-centre contact does)");
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
