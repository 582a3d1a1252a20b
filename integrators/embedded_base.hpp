// What the embedded pairs (embedded.hpp, dopri5.hpp) share: the fixed-step
// form (one do_step, error ignored) and the cubic Hermite dense output through
// (x0, d0) and (x1, d1), for pairs without their own.
#pragma once

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

}  // namespace dropsim::integrators
