// Embedded pairs for the adaptive driver (adaptive.hpp), each also usable as a fixed-step method.
//
// A pair has order, error_order (of its error estimate), reset(), and
//   do_step(sys, x, dxdt, t, x_new, dxdt_new, h, x_err)   // dxdt_new = f(x_new)
//   calc_state(t, out, x0, d0, t0, x1, d1, t1)             // dense output
//   step(sys, x, t, h)                                     // the formula alone, no error control
// Pairs without their own dense output interpolate with the cubic Hermite
// polynomial through (x0, d0) and (x1, d1): third order, enough to find kinks
// and to sample the output grid (those methods are not the paper's default).
#pragma once

#include <Eigen/LU>
#include <array>

#include <boost/numeric/odeint/stepper/modified_midpoint.hpp>
#include <boost/numeric/odeint/stepper/rosenbrock4.hpp>

#include "integrators/odeint.hpp"
#include "integrators/system.hpp"

namespace dropsim::integrators {

namespace odeint = boost::numeric::odeint;

// Cubic Hermite interpolant through (t0, x0, d0) and (t1, x1, d1), third order.
template <class Vector>
void hermite_state(double t, Vector& out, const Vector& x0, const Vector& d0, double t0, const Vector& x1,
                   const Vector& d1, double t1) {
  const double h = t1 - t0, s = (t - t0) / h;
  const double h00 = (1 + 2 * s) * (1 - s) * (1 - s), h10 = s * (1 - s) * (1 - s);
  const double h01 = s * s * (3 - 2 * s), h11 = s * s * (s - 1);
  out = h00 * x0 + (h10 * h) * d0 + h01 * x1 + (h11 * h) * d1;
}

// What pairs share: the fixed-step form (one do_step, error ignored) and the
// Hermite dense output; a pair with its own dense output hides calc_state.
template <class Derived, class Vector>
class EmbeddedPairBase {
 public:
  void reset() {}
  void calc_state(double t, Vector& out, const Vector& x0, const Vector& d0, double t0, const Vector& x1,
                  const Vector& d1, double t1) {
    hermite_state(t, out, x0, d0, t0, x1, d1, t1);
  }
  template <class Sys>
  void step(const Sys& sys, Vector& x, double t, double h) {
    Vector d = x, out = x, dout = x, err = x;
    sys(x, d, t);
    static_cast<Derived*>(this)->do_step(sys, x, d, t, out, dout, h, err);
    x = out;
  }
};

// Dormand–Prince 5(4), Boost.Odeint's: FSAL, its own fourth-order dense output.
template <class Vector>
class Dopri5Pair : public EmbeddedPairBase<Dopri5Pair<Vector>, Vector> {
 public:
  static constexpr int order = 5, error_order = 4;
  void reset() { stepper_.reset(); }
  template <class Sys>
  void do_step(const Sys& sys, const Vector& x, const Vector& dxdt, double t, Vector& x_new, Vector& dxdt_new,
               double h, Vector& x_err) {
    stepper_.do_step(sys, x, dxdt, t, x_new, dxdt_new, h, x_err);
  }
  void calc_state(double t, Vector& out, const Vector& x0, const Vector& d0, double t0, const Vector& x1,
                  const Vector& d1, double t1) {
    stepper_.calc_state(t, out, x0, d0, t0, x1, d1, t1);
  }

 private:
  odeint::runge_kutta_dopri5<Vector, double, Vector, double, odeint::vector_space_algebra> stepper_;
};

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
    for (int j = 0; j < levels; ++j) {
      midpoint_.set_steps(sequence[j]);
      Vector row = x;
      midpoint_.do_step(sys, x, dxdt, t, row, h);
      // Aitken–Neville in h^2: T_{j,k} = T_{j,k-1} + (T_{j,k-1} - T_{j-1,k-1}) / ((n_j / n_{j-k})^2 - 1).
      for (int k = 1; k <= j; ++k) {
        const double ratio = static_cast<double>(sequence[j]) / sequence[j - k];
        Vector next = row + (row - table_[k - 1]) / (ratio * ratio - 1.0);
        table_[k - 1] = row;
        row = next;
      }
      if (j == levels - 1) previous_diagonal_ = table_[levels - 2];
      table_[j] = row;
    }
  }

  odeint::modified_midpoint<Vector, double, Vector, double, odeint::vector_space_algebra> midpoint_;
  std::array<Vector, levels> table_;
  Vector previous_diagonal_;
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
  template <class Sys>
  void do_step(const Sys& sys, const Vector& x, const Vector& dxdt, double t, Vector& x_new, Vector& dxdt_new,
               double h, Vector& x_err) {
    const auto& c = coef_;
    const auto n = x.size();
    matrix_of<Sys> jac(n, n);
    sys.system->jacobian(x, t, jac);
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(Eigen::MatrixXd::Identity(n, n) / (c.gamma * h) -
                                                  Eigen::MatrixXd(jac));
    Vector f = dxdt, xs = x;
    const Eigen::VectorXd g1 = lu.solve(Eigen::VectorXd(dxdt));
    xs = x + c.a21 * g1;
    sys(xs, f, t + c.c2 * h);
    const Eigen::VectorXd g2 = lu.solve(Eigen::VectorXd(f + (c.c21 / h) * g1));
    xs = x + c.a31 * g1 + c.a32 * g2;
    sys(xs, f, t + c.c3 * h);
    const Eigen::VectorXd g3 = lu.solve(Eigen::VectorXd(f + (c.c31 * g1 + c.c32 * g2) / h));
    xs = x + c.a41 * g1 + c.a42 * g2 + c.a43 * g3;
    sys(xs, f, t + c.c4 * h);
    const Eigen::VectorXd g4 = lu.solve(Eigen::VectorXd(f + (c.c41 * g1 + c.c42 * g2 + c.c43 * g3) / h));
    xs = x + c.a51 * g1 + c.a52 * g2 + c.a53 * g3 + c.a54 * g4;
    sys(xs, f, t + h);
    const Eigen::VectorXd g5 = lu.solve(Eigen::VectorXd(f + (c.c51 * g1 + c.c52 * g2 + c.c53 * g3 + c.c54 * g4) / h));
    xs += g5;
    sys(xs, f, t + h);
    x_err = lu.solve(Eigen::VectorXd(f + (c.c61 * g1 + c.c62 * g2 + c.c63 * g3 + c.c64 * g4 + c.c65 * g5) / h));
    x_new = xs + x_err;
    sys(x_new, dxdt_new, t + h);
  }

 private:
  odeint::default_rosenbrock_coefficients<double> coef_;
};

}  // namespace dropsim::integrators
