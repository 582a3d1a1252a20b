// Dormand–Prince 5(4), the paper's default pair (embedded.hpp lists the others).
#pragma once

#include <array>

#include "dropsim/integrators/embedded_base.hpp"

namespace dropsim::integrators {

// Dormand–Prince 5(4), Boost.Odeint's: FSAL, its fourth-order dense output.
//
// Both restated from odeint, which stays the reference they are tested against
// (tests/integrators/dopri5_test.cpp): the step to the bit, the dense output
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
  // order, so the same numbers to the bit (tests/integrators/dopri5_test.cpp
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

}  // namespace dropsim::integrators
