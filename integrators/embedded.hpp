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

#include "dropsim/integrators/odeint.hpp"
#include "dropsim/integrators/system.hpp"

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

// The cubic Hermite interpolant of one step as an evaluator: dense(t, out).
template <class Vector>
struct HermiteDense {
  const Vector &x0, &d0, &x1, &d1;
  double t0, t1;
  void operator()(double t, Vector& out) const { hermite_state(t, out, x0, d0, t0, x1, d1, t1); }
};

// What pairs share: the fixed-step form (one do_step, error ignored) and the
// Hermite dense output; a pair with its own dense output hides calc_state and dense.
template <class Derived, class Vector>
class EmbeddedPairBase {
 public:
  void reset() {}
  void calc_state(double t, Vector& out, const Vector& x0, const Vector& d0, double t0, const Vector& x1,
                  const Vector& d1, double t1) {
    hermite_state(t, out, x0, d0, t0, x1, d1, t1);
  }
  HermiteDense<Vector> dense(const Vector& x0, const Vector& d0, double t0, const Vector& x1, const Vector& d1,
                             double t1) {
    return {x0, d0, x1, d1, t0, t1};
  }
  template <class Sys>
  void step(const Sys& sys, Vector& x, double t, double h) {
    Vector &d = step_work_[0], &out = step_work_[1], &dout = step_work_[2], &err = step_work_[3];
    d = out = dout = err = x;  // sized by the first step only
    sys(x, d, t);
    static_cast<Derived*>(this)->do_step(sys, x, d, t, out, dout, h, err);
    x = out;
  }

 private:
  std::array<Vector, 4> step_work_;  // the fixed-step form's derivative, result, its derivative, error
};

// Dormand–Prince 5(4), Boost.Odeint's: FSAL, its fourth-order dense output.
//
// Both restated from odeint, which stays the reference they are tested against
// (tests/integrators/integrate_test.cpp): the step to the bit, the dense output
// to rounding. odeint's calc_state rebuilds the interpolant's weights on every
// call (six divisions, eight vectors); with ~29 output samples per step in the
// paper's runs that was a third of a run. Here the step keeps its stages, the
// same polynomial is folded once per step into three vectors, and each sample
// costs a handful of multiply-adds.
template <class Vector>
class Dopri5Pair : public EmbeddedPairBase<Dopri5Pair<Vector>, Vector> {
 public:
  static constexpr int order = 5, error_order = 4;
  void reset() { stepper_.reset(); }
  // odeint's runge_kutta_dopri5::do_step_impl restated, sum for sum in its
  // order, so the same numbers to the bit (tests/integrators/integrate_test.cpp
  // holds it to odeint's do_step), with the stages kept for the dense output.
  // Through odeint a fixed-size state's stages went through member vectors and
  // a call per right-hand side, in memory between every stage; here they are
  // locals and the right-hand sides are inlined: 5-17 % of a 1-DOF drop by family.
  template <class Sys>
  void do_step(const Sys& sys, const Vector& x, const Vector& k1, double t, Vector& x_new, Vector& k7, double h,
               Vector& x_err) {
    if constexpr (fixed_size) stages_inlined(sys, x, k1, t, x_new, k7, h, x_err);
    else stages(sys, x, k1, t, x_new, k7, h, x_err);  // a large system's right-hand side, once in the code
    folded_ = false;
  }
  // odeint's own step, kept as the reference the test compares against.
  template <class Sys>
  void do_step_odeint(const Sys& sys, const Vector& x, const Vector& dxdt, double t, Vector& x_new,
                      Vector& dxdt_new, double h, Vector& x_err) {
    stepper_.do_step(sys, x, dxdt, t, x_new, dxdt_new, h, x_err);
  }
  // x(theta) = x0 + h [A(theta) S + B(theta) k7 + D(theta) k1 + C(theta) (P - theta Q)],
  // theta = (t - t0) / h: odeint's continuous extension, regrouped, with
  // everything that does not depend on theta folded once per step.
  struct Dense {
    Vector x0, sum, p, q, k1, k7;  // h times the theta-independent parts, but x0
    double t0 = 0.0, inv_h = 0.0;
    // Inlined into the recorder's sample loop: as a call it was a fifth of a summary-only sample.
    [[gnu::always_inline]] void operator()(double t, Vector& out) const {
      const double theta = (t - t0) * inv_h, m = theta - 1.0, sq = theta * theta;
      const double a = sq * (3.0 - 2.0 * theta), b = sq * m, c = sq * m * m, d = theta * m * m;
      out = x0 + a * sum + b * k7 + d * k1 + c * (p - theta * q);
    }
    // Bounds on every component of the samples at times in [t_first, t_last],
    // without evaluating them: over the step the interpolant is a quintic in
    // theta, and a polynomial lies within the hull of its Bernstein coefficients
    // on [0, 1]. Widened by far more than the rounding of either evaluation
    // (sample or coefficients). False where that cannot hold: a non-finite
    // coefficient, or times outside the step.
    bool bounds(double t_first, double t_last, Vector& low, Vector& high) const {
      if (!((t_first - t0) * inv_h >= -1e-9 && (t_last - t0) * inv_h <= 1.0 + 1e-9)) return false;
      // Monomial coefficients of theta^1..theta^5 (theta^0: x0), from a, b, c, d above.
      const Vector m2 = 3.0 * sum - k7 - 2.0 * k1 + p, m3 = -2.0 * sum + k7 + k1 - 2.0 * p - q, m4 = p + 2.0 * q;
      // Bernstein coefficients of degree 5: beta_i = sum_j C(i,j)/C(5,j) m_j.
      const Vector b1 = x0 + 0.2 * k1, b2 = x0 + 0.4 * k1 + 0.1 * m2, b3 = x0 + 0.6 * k1 + 0.3 * m2 + 0.1 * m3,
                   b4 = x0 + 0.8 * k1 + 0.6 * m2 + 0.4 * m3 + 0.2 * m4, b5 = x0 + k1 + m2 + m3 + m4 - q;
      const Vector slack =
          1e-12 * (x0.cwiseAbs() + sum.cwiseAbs() + k7.cwiseAbs() + k1.cwiseAbs() + p.cwiseAbs() + q.cwiseAbs());
      low = x0.cwiseMin(b1).cwiseMin(b2).cwiseMin(b3).cwiseMin(b4).cwiseMin(b5) - slack;
      high = x0.cwiseMax(b1).cwiseMax(b2).cwiseMax(b3).cwiseMax(b4).cwiseMax(b5) + slack;
      return (low + high).allFinite();  // min and max may pass NaN over: the sum does not
    }
  };
  const Dense& dense(const Vector& x0, const Vector& d0, double t0, const Vector& /*x1*/, const Vector& d1,
                     double t1) {
    if (!folded_ || t0 != dense_.t0 || t1 != folded_t1_ || x0 != dense_.x0) fold(x0, d0, t0, d1, t1);
    return dense_;
  }
  void calc_state(double t, Vector& out, const Vector& x0, const Vector& d0, double t0, const Vector& x1,
                  const Vector& d1, double t1) {
    dense(x0, d0, t0, x1, d1, t1)(t, out);
  }
  // odeint's own dense output, kept as the reference the test compares against:
  // it reads the stages of the last do_step_odeint.
  void calc_state_odeint(double t, Vector& out, const Vector& x0, const Vector& d0, double t0, const Vector& x1,
                         const Vector& d1, double t1) const {
    stepper_.calc_state(t, out, x0, d0, t0, x1, d1, t1);
  }

 private:
  static constexpr bool fixed_size = Vector::SizeAtCompileTime != Eigen::Dynamic;
  using Stages = std::array<Vector, 6>;  // k2..k6 and the stage state; k1 and k7 are the step's derivatives
  template <class Sys>
  [[gnu::flatten]] void stages_inlined(const Sys& sys, const Vector& x, const Vector& k1, double t, Vector& x_new,
                                       Vector& k7, double h, Vector& x_err) {
    stages(sys, x, k1, t, x_new, k7, h, x_err);
  }
  template <class Sys>
  void stages(const Sys& sys, const Vector& x, const Vector& k1, double t, Vector& x_new, Vector& k7, double h,
              Vector& x_err) {
    [[maybe_unused]] Stages local;
    Stages& k = [&]() -> Stages& {
      if constexpr (fixed_size) return local;
      else return stages_;
    }();
    Vector &k2 = k[0], &k3 = k[1], &k4 = k[2], &k5 = k[3], &k6 = k[4], &tmp = k[5];
    if constexpr (!fixed_size)
      for (Vector& v : k) v.resizeLike(x);  // the system writes into sized vectors; allocates on the first step only
    tmp = 1.0 * x + (h * b21) * k1;
    sys(tmp, k2, t + h * c2);
    tmp = 1.0 * x + (h * b31) * k1 + (h * b32) * k2;
    sys(tmp, k3, t + h * c3);
    tmp = 1.0 * x + (h * b41) * k1 + (h * b42) * k2 + (h * b43) * k3;
    sys(tmp, k4, t + h * c4);
    tmp = 1.0 * x + (h * b51) * k1 + (h * b52) * k2 + (h * b53) * k3 + (h * b54) * k4;
    sys(tmp, k5, t + h * c5);
    tmp = 1.0 * x + (h * b61) * k1 + (h * b62) * k2 + (h * b63) * k3 + (h * b64) * k4 + (h * b65) * k5;
    sys(tmp, k6, t + h);
    x_new = 1.0 * x + (h * w1) * k1 + (h * w3) * k3 + (h * w4) * k4 + (h * w5) * k5 + (h * w6) * k6;
    sys(x_new, k7, t + h);
    x_err = (h * e1) * k1 + (h * e3) * k3 + (h * e4) * k4 + (h * e5) * k5 + (h * e6) * k6 + (h * e7) * k7;
    if constexpr (fixed_size) stages_ = local;
  }

  // The tableau as odeint computes it (Hairer, Nørsett & Wanner I, table 5.2):
  // the same quotients, rounded the same.
  static constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
  static constexpr double b21 = 1.0 / 5, b31 = 3.0 / 40, b32 = 9.0 / 40, b41 = 44.0 / 45, b42 = -56.0 / 15,
                          b43 = 32.0 / 9, b51 = 19372.0 / 6561, b52 = -25360.0 / 2187, b53 = 64448.0 / 6561,
                          b54 = -212.0 / 729, b61 = 9017.0 / 3168, b62 = -355.0 / 33, b63 = 46732.0 / 5247,
                          b64 = 49.0 / 176, b65 = -5103.0 / 18656;
  static constexpr double w1 = 35.0 / 384, w3 = 500.0 / 1113, w4 = 125.0 / 192, w5 = -2187.0 / 6784,
                          w6 = 11.0 / 84;
  static constexpr double e1 = w1 - 5179.0 / 57600, e3 = w3 - 7571.0 / 16695, e4 = w4 - 393.0 / 640,
                          e5 = w5 - -92097.0 / 339200, e6 = w6 - 187.0 / 2100, e7 = -1.0 / 40;

  void fold(const Vector& x0, const Vector& k1, double t0, const Vector& k7, double t1) {
    // The 5th-order weights w and odeint's X_i = alpha_i - beta_i theta, with the signs
    // calc_state gives them (1: -C X1, 3: +C X3, 4: -C X4, 5: +C X5, 6: -C X6, 7: +C X7).
    constexpr double a1 = 5.0 * 2558722523.0 / 11282082432.0, g1 = 5.0 * 31403016.0 / 11282082432.0;
    constexpr double a3 = 100.0 * 882725551.0 / 32700410799.0, g3 = 100.0 * 15701508.0 / 32700410799.0;
    constexpr double a4 = 25.0 * 443332067.0 / 1880347072.0, g4 = 25.0 * 31403016.0 / 1880347072.0;
    constexpr double a5 = 32805.0 * 23143187.0 / 199316789632.0, g5 = 32805.0 * 3489224.0 / 199316789632.0;
    constexpr double a6 = 55.0 * 29972135.0 / 822651844.0, g6 = 55.0 * 7076736.0 / 822651844.0;
    constexpr double a7 = 10.0 * 7414447.0 / 29380423.0, g7 = 10.0 * 829305.0 / 29380423.0;
    const Vector &k3 = stages_[1], &k4 = stages_[2], &k5 = stages_[3], &k6 = stages_[4];
    // Everything that does not depend on theta, times h: a sample is then a
    // handful of multiply-adds and no division.
    const double h = t1 - t0;
    Dense& d = dense_;
    d.x0 = x0;
    d.t0 = t0;
    d.inv_h = 1.0 / h;
    d.sum = h * (w1 * k1 + w3 * k3 + w4 * k4 + w5 * k5 + w6 * k6);
    d.p = h * (-a1 * k1 + a3 * k3 - a4 * k4 + a5 * k5 - a6 * k6 + a7 * k7);
    d.q = h * (-g1 * k1 + g3 * k3 - g4 * k4 + g5 * k5 - g6 * k6 + g7 * k7);
    d.k1 = h * k1;
    d.k7 = h * k7;
    folded_ = true;
    folded_t1_ = t1;
  }

  odeint::runge_kutta_dopri5<Vector, double, Vector, double, odeint::vector_space_algebra> stepper_;
  Stages stages_;  // of the last step taken
  Dense dense_;  // of the last step asked for
  bool folded_ = false;
  double folded_t1_ = 0.0;
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
