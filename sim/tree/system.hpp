// The body tree's ODE x = [q; u] in the integrators' System concept
// (integrators/system.hpp). It holds its own TreeData: one system per thread,
// the model shared.
#pragma once

#include <Eigen/Core>

#include "dropsim/sim/tree/data.hpp"
#include "dropsim/sim/tree/model.hpp"

namespace dropsim::tree {

class TreeSystem {
 public:
  using Vector = Eigen::VectorXd;
  using Matrix = Eigen::MatrixXd;

  explicit TreeSystem(const TreeModel& model);

  const TreeModel& model() const { return model_; }
  int size() const { return 2 * model_.nq(); }
  int num_positions() const { return model_.nq(); }

  // dx/dt; a mass matrix that is not positive definite gives NaN rates (the
  // integrators then stop the run as diverged).
  void operator()(const Vector& x, Vector& dxdt, double t) const;
  void position_rate(const Vector& x, Vector& dxdt) const;
  // d(dx/dt)/dx by central differences of operator() (implicit methods and
  // the stiffness watch), step cbrt(eps) scaled by each entry.
  void jacobian(const Vector& x, double t, Matrix& dfdx) const;
  int num_switches() const { return switch_count_; }
  void switches(const Vector& x, double* out) const;
  void project(Vector&) const {}

  Vector initial_state() const { return model_.default_state(); }
  // rtol L for lengths, rtol for angles, rtol sqrt(g L) and rtol sqrt(g / L) for their rates.
  Vector model_scaled_atol(double rtol) const;

  // The scratch of the last evaluation: evaluate() fills kinematics and contacts at x.
  const TreeData& evaluate(const Vector& x) const;

 private:
  const TreeModel& model_;
  int switch_count_ = 0;
  mutable TreeData data_;
  mutable Vector work_[3];  // jacobian()'s
};

}  // namespace dropsim::tree
