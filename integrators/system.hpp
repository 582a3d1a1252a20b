// The system concept every integrator works on, and the result of an integration.
//
// A System (Boost.Odeint style, plus what penalty contact needs):
//   using Vector = Eigen::Matrix<double, N, 1>;   // N fixed or Eigen::Dynamic
//   int size() const;                      // state x = [q; u], length nq + nu
//   int num_positions() const;             // nq
//   void operator()(const Vector& x, Vector& dxdt, double t) const;   // dx/dt
//   void position_rate(const Vector& x, Vector& dxdt) const;  // head(nq) of dx/dt only
//   int num_switches() const;              // piecewise-smooth boundaries
//   void switches(const Vector& x, double* s) const;          // smooth where no s changes sign
//   void project(Vector& x) const;         // back onto the state manifold (unit quaternions)
// Implicit methods (implicit_euler, newmark, rosenbrock4) and the velocity-implicit
// kicks of symplectic_euler / velocity_verlet / mclachlan_sb3a also need
//   using Matrix = Eigen::Matrix<double, N, N>;
//   void jacobian(const Vector& x, double t, Matrix& dfdx) const;    // d(dx/dt)/dx
// (analytic for every system dropsim has: the drop, linear systems and the
// multibody system, docs/physics.md#the-exact-multibody-jacobian, where only
// friction's configuration terms are differences)
// position_rate must be linear in the speeds u (qdot = N(q) u); its top-right
// block of dfdx is N. Integrators know nothing else of the physics.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace dropsim::integrators {

enum class Status { ok, diverged, stopped };

struct IntegrationStats {
  Status status = Status::ok;
  long steps = 0;            // accepted steps
  long rejected_steps = 0;
  long rhs_evaluations = 0;
  long events = 0;           // steps landed on a switching-function root
  long newton_failures = 0;  // implicit solves stopped at their iteration cap, unconverged
  double end_time = 0.0;     // where integration stopped
  std::string reason;        // why it stopped early, if it did
  // Adaptive methods with a step watch (stiffness.hpp): accepted steps of at
  // least half the local stability limit, the time they cover (s), and the
  // sum of step / limit over them; then the other steps the largest step
  // allowed (max_step) held, and their time.
  long stability_bound_steps = 0;
  double stability_bound_time = 0.0;
  double step_over_limit_sum = 0.0;
  long cap_bound_steps = 0;
  double cap_bound_time = 0.0;
  // Variable-order methods (cvode_bdf, cvode_adams): accepted steps at each
  // order (index 1-12), and the orders CVODE's stability-limit detector took back.
  std::array<long, 13> steps_by_order{};
  long order_reductions = 0;
};

// What an adaptive driver tells about each accepted step: nothing, by default.
struct NoStepWatch {
  template <class Vector>
  void accepted(const Vector& /*x*/, double /*t*/, double /*h*/, IntegrationStats& /*stats*/, int /*order*/ = 0) {}
};

// A run that ended before its last output: diverged, or stopped by its observer.
inline IntegrationStats ended(IntegrationStats s, Status status, double t, const char* why) {
  s.status = status;
  s.end_time = t;
  s.reason = why;
  return s;
}

// Counts right-hand-side evaluations; passed by value to odeint steppers.
template <class System>
struct CountingSystem {
  const System* system;
  long* count;
  template <class X, class DX>
  void operator()(const X& x, DX& dxdt, double t) const {
    ++*count;
    (*system)(x, dxdt, t);
  }
};

// The Jacobian type of the System behind a CountingSystem (or of a System).
template <class S>
struct matrix_of_impl {
  using type = typename S::Matrix;
};
template <class S>
struct matrix_of_impl<CountingSystem<S>> {
  using type = typename S::Matrix;
};
template <class S>
using matrix_of = typename matrix_of_impl<S>::type;

// Whether a stepper calls the System's jacobian(), and whether the System has one.
template <class Stepper>
constexpr bool uses_jacobian() {
  if constexpr (requires { Stepper::uses_jacobian; }) return Stepper::uses_jacobian;
  else return false;
}
template <class System>
concept HasJacobian = requires(const System& s, const typename System::Vector& x, typename System::Matrix& m) {
  s.jacobian(x, 0.0, m);
};

// The n x n matrix of a state vector type (fixed size where the state is).
template <class Vector>
using square_matrix_of = Eigen::Matrix<double, Vector::RowsAtCompileTime, Vector::RowsAtCompileTime>;

// The output grid: t0, t0 + interval, ..., always ending exactly at t1.
inline std::vector<double> output_grid(double t0, double t1, double interval) {
  std::vector<double> grid;
  const auto n = static_cast<long>(std::floor((t1 - t0) / interval * (1.0 + 1e-12)));
  if (n >= std::numeric_limits<int>::max()) throw std::length_error("output grid of more than 2^31 points");
  grid.reserve(static_cast<std::size_t>(n) + 2);
  grid.resize(static_cast<std::size_t>(n) + 1);
  // Indexed stores with an int index: GCC vectorises int -> double (not size_t -> double,
  // a branchy conversion without AVX-512). Then a tenth of a nanosecond a point.
  double* times = grid.data();
  for (int k = 0; k <= static_cast<int>(n); ++k) times[k] = t0 + static_cast<double>(k) * interval;
  if (t1 - grid.back() > 1e-9 * interval) grid.push_back(t1);
  else grid.back() = t1;
  return grid;
}

template <class Vector>
bool all_finite(const Vector& x) {
  return x.allFinite();
}

}  // namespace dropsim::integrators
