// Implicit one-step methods solved by Newton with the System's analytic Jacobian:
// backward Euler and Newmark's average-acceleration rule.
//
// Boost.Odeint's implicit_euler works on ublas vectors only and takes the
// Jacobian as a separate functor; these take the dropsim System (Eigen state,
// jacobian()) directly. Both are unconditionally stable on linear damped
// oscillators; on penalty contact they still must not step over a kink
// blindly, so drivers keep the step bounded (fixed-step runs) as for any method.
#pragma once

#include <Eigen/LU>
#include <algorithm>
#include <cmath>

#include "dropsim/integrators/system.hpp"

namespace dropsim::integrators {

// Newton stops when every update is below this fraction of the component's scale.
inline constexpr double newton_tolerance = 1e-13;
inline constexpr int newton_max_iterations = 25;

// Scratch space of a stepper's Newton solves: sized by the first step, reused
// by every later one, so that a step allocates nothing. `failures` counts the
// solves that reached their iteration cap unconverged (IntegrationStats reports it).
template <class Matrix>
struct NewtonWorkspace {
  Matrix jacobian;
  Eigen::MatrixXd lhs;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
  Eigen::VectorXd residual, update, guess;
  long failures = 0;

  // n: state size, m: unknowns of the solve.
  void resize(Eigen::Index n, Eigen::Index m) {
    if (residual.size() == m && jacobian.rows() == n) return;
    jacobian.resize(n, n);
    lhs.resize(m, m);
    residual.resize(m);
    update.resize(m);
    guess.resize(m);
  }
  // update <- lhs^-1 residual
  void solve() {
    lu.compute(lhs);
    update = lu.solve(residual);
  }
};

// Backward Euler: x[n+1] = x[n] + h f(x[n+1]). First order, L-stable.
template <class Vector>
class ImplicitEuler {
 public:
  static constexpr int order = 1;
  static constexpr bool uses_jacobian = true;
  void reset() {}
  long newton_failures() const { return work_.failures; }
  template <class Sys>
  void step(const Sys& sys, Vector& x, double t, double h) {
    const auto n = x.size();
    auto& w = work_;
    w.resize(n, n);
    x0_ = x;
    f_ = x;
    sys(x, f_, t + h);
    x = x0_ + h * f_;  // explicit predictor
    for (int it = 0;; ++it) {
      sys(x, f_, t + h);
      sys.system->jacobian(x, t + h, w.jacobian);
      w.residual = x - x0_ - h * f_;
      w.lhs = Eigen::MatrixXd::Identity(n, n) - h * w.jacobian;
      w.solve();
      x -= w.update;
      if (converged(w.update, x0_, x)) break;
      if (it + 1 == newton_max_iterations) {
        ++w.failures;
        break;
      }
    }
  }

 private:
  static bool converged(const Eigen::VectorXd& dx, const Vector& x0, const Vector& x) {
    for (Eigen::Index i = 0; i < dx.size(); ++i) {
      const double scale = std::max(std::abs(x0[i]), std::abs(x[i]));
      if (!(std::abs(dx[i]) <= newton_tolerance * scale) && dx[i] != 0.0) return false;
    }
    return true;
  }
  Vector x0_, f_;
  NewtonWorkspace<square_matrix_of<Vector>> work_;
};

// Newmark, average acceleration (beta = 1/4, gamma = 1/2), unknown a[n+1]:
//   u[n+1] = u[n] + h/2 (a[n] + a[n+1]),
//   q[n+1] = q[n] + h qdot(q[n], u[n] + h/4 (a[n] + a[n+1]))   (= q + h u + h^2/4 (a + a') for qdot = u),
//   a[n+1] = a(q[n+1], u[n+1]).
// Second order, unconditionally stable, no numerical damping.
template <class Vector>
class Newmark {
 public:
  static constexpr int order = 2;
  static constexpr bool uses_jacobian = true;
  void reset() { have_a_ = false; }
  long newton_failures() const { return work_.failures; }
  template <class Sys>
  void step(const Sys& sys, Vector& x, double t, double h) {
    const auto n = x.size();
    const auto nq = sys.system->num_positions();
    const auto nu = n - nq;
    auto& w = work_;
    w.resize(n, nu);
    f_ = x;
    if (!have_a_) {
      sys(x, f_, t);
      a0_ = f_.tail(nu);
      have_a_ = true;
    }
    x0_ = x;
    Eigen::VectorXd& a1 = w.guess;
    a1 = a0_;  // predictor: constant acceleration
    for (int it = 0;; ++it) {
      place(sys, x, a1, h);
      sys(x, f_, t + h);
      w.residual = a1 - f_.tail(nu);
      sys.system->jacobian(x, t + h, w.jacobian);
      // dr/da1 = I - da/dq (h^2/4) N - da/du (h/2), N = dqdot/du.
      const auto& jac = w.jacobian;
      w.lhs.noalias() = (0.25 * h * h) * jac.bottomLeftCorner(nu, nq) * jac.topRightCorner(nq, nu);
      w.lhs = Eigen::MatrixXd::Identity(nu, nu) - w.lhs - (0.5 * h) * jac.bottomRightCorner(nu, nu);
      w.solve();
      a1 -= w.update;
      double scale = 0.0;
      for (Eigen::Index i = 0; i < nu; ++i) scale = std::max({scale, std::abs(a1[i]), std::abs(a0_[i])});
      if (!(w.update.cwiseAbs().maxCoeff() > newton_tolerance * scale)) break;
      if (it + 1 == newton_max_iterations) {
        ++w.failures;
        break;
      }
    }
    place(sys, x, a1, h);
    a0_ = a1;
  }

 private:
  // x <- the Newmark state for the acceleration guess a1, from x0_ and a0_.
  template <class Sys>
  void place(const Sys& sys, Vector& x, const Eigen::VectorXd& a1, double h) {
    const auto nq = sys.system->num_positions();
    const auto nu = x.size() - nq;
    x = x0_;
    x.tail(nu) = x0_.tail(nu) + (0.25 * h) * (a0_ + a1);
    sys.system->position_rate(x, f_);
    x.head(nq) = x0_.head(nq) + h * f_.head(nq);
    x.tail(nu) = x0_.tail(nu) + (0.5 * h) * (a0_ + a1);
  }

  bool have_a_ = false;
  Vector x0_, f_;
  Eigen::VectorXd a0_;
  NewtonWorkspace<square_matrix_of<Vector>> work_;
};

}  // namespace dropsim::integrators
