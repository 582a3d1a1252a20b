// Symplectic (kick–drift) methods that take velocity-dependent forces: symplectic
// Euler, velocity Verlet and McLachlan's SB3A, for penalty contact with damping.
//
// Why not Boost.Odeint's: its symplectic steppers (symplectic_euler,
// symplectic_rkn_sb3a_mclachlan) take the force as a function of the positions
// only (momentum_func(q, dpdt)), so Hunt–Crossley damping cannot be expressed;
// its velocity_verlet calls a(q[n+1], v[n]) with the old speed, so damping lags
// a whole step and the undamped limit h*omega = 2 falls to sqrt(2) with any
// damping (tests/stability_test.cpp measures both on odeint's own stepper).
// Here a kick solves u = u0 + c a(q, u) exactly (Newton on the analytic
// speed Jacobian, one iteration for forces linear in u), so damping is taken at
// the new speed and the limit stays 2; SB3A's kicks integrate u' = a(q, u)
// with q frozen by a classical RK4 substep (exact when a ignores u), which
// keeps its fourth order on damped systems.
#pragma once

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>

#include "dropsim/integrators/implicit.hpp"
#include "dropsim/integrators/system.hpp"

namespace dropsim::integrators {

// Newton updates of a kick before it counts as unconverged.
inline constexpr int kick_max_iterations = 20;

// Velocity-implicit kick: with q = x.head(nq) fixed, replaces x.tail(nu) by the
// u solving u = u0 + c a(q, u). On return f = f(x) at the solution (so f.tail is
// a(q, u), reusable by the caller). `w` is the stepper's Newton workspace.
template <class Sys, class Vector, class Matrix>
void implicit_kick(const Sys& sys, Vector& x, const Eigen::VectorXd& u0, double c, double t, Vector& f,
                   NewtonWorkspace<Matrix>& w) {
  const auto nq = sys.system->num_positions();
  const auto nu = x.size() - nq;
  w.resize(x.size(), nu);
  sys(x, f, t);
  for (int it = 0;; ++it) {
    w.residual = x.tail(nu) - u0 - c * f.tail(nu);
    double scale = 0.0;
    for (Eigen::Index i = 0; i < nu; ++i) scale = std::max(scale, std::abs(u0[i]) + std::abs(c * f[nq + i]));
    if (!(w.residual.cwiseAbs().maxCoeff() > 1e-14 * scale)) break;  // converged (or non-finite: let the driver see it)
    if (it == kick_max_iterations) {
      ++w.failures;
      break;
    }
    sys.system->jacobian(x, t, w.jacobian);
    w.lhs = Eigen::MatrixXd::Identity(nu, nu) - c * w.jacobian.bottomRightCorner(nu, nu);
    w.solve();
    x.tail(nu) -= w.update;
    sys(x, f, t);
  }
}

// Symplectic Euler, kick then drift: u[n+1] = u[n] + h a(q[n], u[n+1]),
// q[n+1] = q[n] + h qdot(q[n], u[n+1]). First order; undamped limit 2.
template <class Vector>
class SymplecticEuler {
 public:
  static constexpr int order = 1;
  static constexpr bool uses_jacobian = true;  // the velocity-implicit kick
  void reset() {}
  template <class Sys>
  void step(const Sys& sys, Vector& x, double t, double h) {
    const auto nq = sys.system->num_positions();
    f_ = x;
    u0_ = x.tail(x.size() - nq);
    implicit_kick(sys, x, u0_, h, t, f_, work_);
    sys.system->position_rate(x, f_);
    x.head(nq) += h * f_.head(nq);
  }
  long newton_failures() const { return work_.failures; }

 private:
  Vector f_;
  Eigen::VectorXd u0_;
  NewtonWorkspace<square_matrix_of<Vector>> work_;
};

// Velocity Verlet (Newmark beta = 0, gamma = 1/2) with the damping at the new speed:
//   u* = u[n] + h/2 a[n],  q[n+1] = q[n] + h qdot(q[n], u*),  u[n+1] = u* + h/2 a(q[n+1], u[n+1]).
// Second order; undamped limit 2, not reduced by damping.
template <class Vector>
class VelocityVerlet {
 public:
  static constexpr int order = 2;
  static constexpr bool uses_jacobian = true;  // the velocity-implicit kick
  void reset() { have_a_ = false; }
  template <class Sys>
  void step(const Sys& sys, Vector& x, double t, double h) {
    const auto nq = sys.system->num_positions();
    const auto nu = x.size() - nq;
    if (!have_a_) {
      f_ = x;
      sys(x, f_, t);
      have_a_ = true;
    }
    // f_ holds f(q[n], u[n]) from the previous step's final kick.
    x.tail(nu) += 0.5 * h * f_.tail(nu);
    sys.system->position_rate(x, f_);
    x.head(nq) += h * f_.head(nq);
    u_star_ = x.tail(nu);
    implicit_kick(sys, x, u_star_, 0.5 * h, t + h, f_, work_);
  }
  long newton_failures() const { return work_.failures; }

 private:
  bool have_a_ = false;
  Vector f_;
  Eigen::VectorXd u_star_;
  NewtonWorkspace<square_matrix_of<Vector>> work_;
};

// McLachlan's symmetric 6-stage RKN method SB3A, fourth order (coefficients as
// in Boost.Odeint's symplectic_rkn_sb3a_mclachlan): drifts a_l h, kicks b_l h.
template <class Vector>
class McLachlanSB3A {
 public:
  static constexpr int order = 4;
  void reset() {}
  template <class Sys>
  void step(const Sys& sys, Vector& x, double t, double h) {
    const auto nq = sys.system->num_positions();
    const auto nu = x.size() - nq;
    f_ = x;
    double tt = t;
    for (std::size_t l = 0; l < 6; ++l) {
      sys.system->position_rate(x, f_);
      x.head(nq) += (a_[l] * h) * f_.head(nq);
      tt += a_[l] * h;
      if (b_[l] == 0.0) continue;
      // RK4 on u' = a(q, u), q frozen, over c = b_l h.
      const double c = b_[l] * h;
      Eigen::VectorXd &u0 = u0_, &sum = sum_;  // members: a step allocates nothing
      u0 = x.tail(nu);
      sys(x, f_, tt);
      sum = f_.tail(nu);
      x.tail(nu) = u0 + 0.5 * c * f_.tail(nu);
      sys(x, f_, tt);
      sum += 2.0 * f_.tail(nu);
      x.tail(nu) = u0 + 0.5 * c * f_.tail(nu);
      sys(x, f_, tt);
      sum += 2.0 * f_.tail(nu);
      x.tail(nu) = u0 + c * f_.tail(nu);
      sys(x, f_, tt);
      sum += f_.tail(nu);
      x.tail(nu) = u0 + (c / 6.0) * sum;
    }
  }

 private:
  static constexpr double a0 = 0.40518861839525227722, a1 = -0.28714404081652408900, a2 = 0.5 - (a0 + a1);
  static constexpr double b0 = -3.0 / 73.0, b1 = 17.0 / 59.0, b2 = 1.0 - 2.0 * (b0 + b1);
  static constexpr std::array<double, 6> a_{a0, a1, a2, a2, a1, a0};
  static constexpr std::array<double, 6> b_{b0, b1, b2, b1, b0, 0.0};
  Vector f_;
  Eigen::VectorXd u0_, sum_;
};

}  // namespace dropsim::integrators
