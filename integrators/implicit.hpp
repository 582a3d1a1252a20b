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

#include "integrators/system.hpp"

namespace dropsim::integrators {

// Newton stops when every update is below this fraction of the component's scale.
inline constexpr double newton_tolerance = 1e-13;
inline constexpr int newton_max_iterations = 25;

// Backward Euler: x[n+1] = x[n] + h f(x[n+1]). First order, L-stable.
template <class Vector>
class ImplicitEuler {
 public:
  static constexpr int order = 1;
  void reset() {}
  template <class Sys>
  void step(const Sys& sys, Vector& x, double t, double h) {
    const auto n = x.size();
    x0_ = x;
    f_ = x;
    matrix_of<Sys> jac(n, n);
    sys(x, f_, t + h);
    x = x0_ + h * f_;  // explicit predictor
    for (int it = 0; it < newton_max_iterations; ++it) {
      sys(x, f_, t + h);
      sys.system->jacobian(x, t + h, jac);
      const Eigen::VectorXd r = x - x0_ - h * f_;
      const Eigen::MatrixXd drdx = Eigen::MatrixXd::Identity(n, n) - h * Eigen::MatrixXd(jac);
      const Eigen::VectorXd dx = drdx.partialPivLu().solve(r);
      x -= dx;
      if (converged(dx, x0_, x)) break;
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
  void reset() { have_a_ = false; }
  template <class Sys>
  void step(const Sys& sys, Vector& x, double t, double h) {
    const auto n = x.size();
    const auto nq = sys.system->num_positions();
    const auto nu = n - nq;
    f_ = x;
    if (!have_a_) {
      sys(x, f_, t);
      a0_ = f_.tail(nu);
      have_a_ = true;
    }
    x0_ = x;
    Eigen::VectorXd a1 = a0_;  // predictor: constant acceleration
    matrix_of<Sys> jac(n, n);
    for (int it = 0; it < newton_max_iterations; ++it) {
      place(sys, x, a1, h);
      sys(x, f_, t + h);
      const Eigen::VectorXd r = a1 - f_.tail(nu);
      sys.system->jacobian(x, t + h, jac);
      // dr/da1 = I - da/dq (h^2/4) N - da/du (h/2), N = dqdot/du.
      const Eigen::MatrixXd drda = Eigen::MatrixXd::Identity(nu, nu) -
                                   (0.25 * h * h) * jac.bottomLeftCorner(nu, nq) * jac.topRightCorner(nq, nu) -
                                   (0.5 * h) * jac.bottomRightCorner(nu, nu);
      const Eigen::VectorXd da = drda.partialPivLu().solve(r);
      a1 -= da;
      double scale = 0.0;
      for (Eigen::Index i = 0; i < nu; ++i) scale = std::max({scale, std::abs(a1[i]), std::abs(a0_[i])});
      if (!(da.cwiseAbs().maxCoeff() > newton_tolerance * scale)) break;
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
};

}  // namespace dropsim::integrators
