// Embedded pairs for the adaptive driver (adaptive.hpp), each also usable as a fixed-step method.
//
// A pair has order, error_order (of its error estimate), reset(), and
//   do_step(sys, x, dxdt, t, x_new, dxdt_new, h, x_err)   // dxdt_new = f(x_new)
//   calc_state(t, out, x0, d0, t0, x1, d1, t1)             // dense output
//   dense(x0, d0, t0, x1, d1, t1)                          // the same as an evaluator, dense(t, out)
//   step(sys, x, t, h)                                     // the formula alone, no error control
// Pairs without their own dense output interpolate with the cubic Hermite
// polynomial through (x0, d0) and (x1, d1): third order, enough to find kinks
// and to sample the output grid (those methods are not the paper's default).
#pragma once

#include <Eigen/LU>
#include <array>

#include <boost/numeric/odeint/stepper/modified_midpoint.hpp>
#include <boost/numeric/odeint/stepper/rosenbrock4.hpp>

#include "dropsim/integrators/dopri5.hpp"
#include "dropsim/integrators/embedded_base.hpp"

namespace dropsim::integrators {

// Any odeint explicit error stepper (Cash–Karp 5(4), Fehlberg 7(8)) with Hermite dense output.
template <class Vector, class OdeintStepper, int Order, int ErrorOrder>
class ExplicitErrorPair
    : public EmbeddedPairBase<ExplicitErrorPair<Vector, OdeintStepper, Order, ErrorOrder>, Vector> {
 public:
  static constexpr int order = Order, error_order = ErrorOrder;
  template <class Sys>
  void do_step(const Sys& sys, const Vector& x, const Vector& dxdt, double t, Vector& x_new, Vector& dxdt_new,
               double h, Vector& x_err) {
    stepper_.do_step(sys, x, dxdt, t, x_new, h, x_err);
    sys(x_new, dxdt_new, t + h);  // the next step's first stage, and the interpolant's slope
  }
  template <class Sys>
  void step(const Sys& sys, Vector& x, double t, double h) {
    stepper_.do_step(sys, x, t, h);  // without the error estimate: no extra stage
  }

 private:
  OdeintStepper stepper_;
};

template <class Vector>
using CashKarp54Pair = ExplicitErrorPair<
    Vector, odeint::runge_kutta_cash_karp54<Vector, double, Vector, double, odeint::vector_space_algebra>, 5, 4>;
template <class Vector>
using Fehlberg78Pair = ExplicitErrorPair<
    Vector, odeint::runge_kutta_fehlberg78<Vector, double, Vector, double, odeint::vector_space_algebra>, 8, 7>;

// Merson's 4th-order five-stage method as Simbody's RungeKuttaMersonIntegrator
// takes it (Hairer, Nørsett & Wanner I, table 4.1; docs/integrators.md#rk-merson):
//   k1 = f(y0 + h/3 f0),  k2 = f(y0 + h/6 (f0 + k1)),  k3 = f(y0 + h/8 (f0 + 3 k2)),
//   z  = y0 + h/2 (f0 - 3 k2 + 4 k3),  k4 = f(z),
//   y1 = y0 + h/6 (f0 + 4 k3 + k4)     (propagated, order 4)
// and the error of the embedded third-order solution, |y1hat - y1| = |y1 - z| / 5,
// which Simbody's controller treats as of order 4 (local extrapolation).
template <class Vector>
class MersonPair : public EmbeddedPairBase<MersonPair<Vector>, Vector> {
 public:
  static constexpr int order = 4, error_order = 4;
  template <class Sys>
  void do_step(const Sys& sys, const Vector& x, const Vector& dxdt, double t, Vector& x_new, Vector& dxdt_new,
               double h, Vector& x_err) {
    Vector &y = work_[0], &k_a = work_[1], &k_b = work_[2], &z = work_[3];
    k_a.resizeLike(x);  // the system writes into sized vectors; allocates on the first step only
    k_b.resizeLike(x);
    y = x + (h / 3.0) * dxdt;
    sys(y, k_a, t + h / 3.0);                      // k1
    y = x + (h / 6.0) * (dxdt + k_a);
    sys(y, k_a, t + h / 3.0);                      // k2
    y = x + (h / 8.0) * (dxdt + 3.0 * k_a);
    sys(y, k_b, t + h / 2.0);                      // k3
    z = x + (h / 2.0) * (dxdt - 3.0 * k_a + 4.0 * k_b);
    sys(z, k_a, t + h);                            // k4
    x_new = x + (h / 6.0) * (dxdt + 4.0 * k_b + k_a);
    x_err = 0.2 * (x_new - z);
    sys(x_new, dxdt_new, t + h);                   // the next step's f0
  }

 private:
  std::array<Vector, 4> work_;
};

// Gragg–Bulirsch–Stoer extrapolation with the fixed sequence 2, 4, 6, 8 of
// odeint's modified midpoint steps: order 8, error estimate of order 6 (the
// last two diagonal entries of the Aitken–Neville table in h^2). odeint's own
// bulirsch_stoer varies order and step together in one controller that knows
// neither per-component tolerances nor kinks; a fixed sequence gives an
// embedded pair the driver can land on events with, and a one-step map the
// stability analysis can apply.
template <class Vector>
class BulirschStoerPair : public EmbeddedPairBase<BulirschStoerPair<Vector>, Vector> {
 public:
  static constexpr int order = 8, error_order = 6;
  template <class Sys>
  void do_step(const Sys& sys, const Vector& x, const Vector& dxdt, double t, Vector& x_new, Vector& dxdt_new,
               double h, Vector& x_err) {
    extrapolate(sys, x, dxdt, t, h);
    x_new = table_[levels - 1];
    x_err = table_[levels - 1] - previous_diagonal_;
    sys(x_new, dxdt_new, t + h);
  }

 private:
  static constexpr int levels = 4;
  static constexpr std::array<unsigned short, levels> sequence{2, 4, 6, 8};

  // Fills table_[k] with the diagonal T_{levels-1,k}; keeps T_{levels-1,levels-2}... as previous_diagonal_.
  template <class Sys>
  void extrapolate(const Sys& sys, const Vector& x, const Vector& dxdt, double t, double h) {
    Vector &row = row_, &next = next_;  // members: a step allocates nothing
    for (int j = 0; j < levels; ++j) {
      midpoint_.set_steps(sequence[j]);
      row = x;
      midpoint_.do_step(sys, x, dxdt, t, row, h);
      // Aitken–Neville in h^2: T_{j,k} = T_{j,k-1} + (T_{j,k-1} - T_{j-1,k-1}) / ((n_j / n_{j-k})^2 - 1).
      for (int k = 1; k <= j; ++k) {
        const double ratio = static_cast<double>(sequence[j]) / sequence[j - k];
        next = row + (row - table_[k - 1]) / (ratio * ratio - 1.0);
        table_[k - 1] = row;
        row = next;
      }
      if (j == levels - 1) previous_diagonal_ = table_[levels - 2];
      table_[j] = row;
    }
  }

  odeint::modified_midpoint<Vector, double, Vector, double, odeint::vector_space_algebra> midpoint_;
  std::array<Vector, levels> table_;
  Vector previous_diagonal_, row_, next_;
};

// Rosenbrock 4(3) (Shampine's), Boost.Odeint's algorithm and coefficients on
// Eigen. odeint's rosenbrock4 itself is ublas-only, and Boost 1.74's ublas does
// not compile as C++20 (std::allocator::construct was removed), so the six
// stages are restated here. The Jacobian is the System's analytic one;
// autonomous systems only (df/dt = 0), as every dropsim system is.
template <class Vector>
class Rosenbrock4Pair : public EmbeddedPairBase<Rosenbrock4Pair<Vector>, Vector> {
 public:
  static constexpr int order = 4, error_order = 3;
  static constexpr bool uses_jacobian = true;
  template <class Sys>
  void do_step(const Sys& sys, const Vector& x, const Vector& dxdt, double t, Vector& x_new, Vector& dxdt_new,
               double h, Vector& x_err) {
    const auto& c = coef_;
    const auto n = x.size();
    // Members, sized by the first step: a step allocates nothing.
    auto& jac = jacobian_;
    auto &f = f_, &xs = xs_;
    auto &g1 = g_[0], &g2 = g_[1], &g3 = g_[2], &g4 = g_[3], &g5 = g_[4], &rhs = rhs_;
    jac.resize(n, n);
    sys.system->jacobian(x, t, jac);
    lhs_ = Eigen::MatrixXd::Identity(n, n) / (c.gamma * h) - jac;
    lu_.compute(lhs_);
    f = dxdt;
    xs = x;
    rhs = dxdt;
    g1 = lu_.solve(rhs);
    xs = x + c.a21 * g1;
    sys(xs, f, t + c.c2 * h);
    rhs = f + (c.c21 / h) * g1;
    g2 = lu_.solve(rhs);
    xs = x + c.a31 * g1 + c.a32 * g2;
    sys(xs, f, t + c.c3 * h);
    rhs = f + (c.c31 * g1 + c.c32 * g2) / h;
    g3 = lu_.solve(rhs);
    xs = x + c.a41 * g1 + c.a42 * g2 + c.a43 * g3;
    sys(xs, f, t + c.c4 * h);
    rhs = f + (c.c41 * g1 + c.c42 * g2 + c.c43 * g3) / h;
    g4 = lu_.solve(rhs);
    xs = x + c.a51 * g1 + c.a52 * g2 + c.a53 * g3 + c.a54 * g4;
    sys(xs, f, t + h);
    rhs = f + (c.c51 * g1 + c.c52 * g2 + c.c53 * g3 + c.c54 * g4) / h;
    g5 = lu_.solve(rhs);
    xs += g5;
    sys(xs, f, t + h);
    rhs = f + (c.c61 * g1 + c.c62 * g2 + c.c63 * g3 + c.c64 * g4 + c.c65 * g5) / h;
    x_err = lu_.solve(rhs);
    x_new = xs + x_err;
    sys(x_new, dxdt_new, t + h);
  }

 private:
  square_matrix_of<Vector> jacobian_;
  Eigen::MatrixXd lhs_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
  Vector f_, xs_;
  std::array<Eigen::VectorXd, 5> g_;
  Eigen::VectorXd rhs_;
  odeint::default_rosenbrock_coefficients<double> coef_;
};

}  // namespace dropsim::integrators
