// The paper's drop test: one vertical degree of freedom on n identical coplanar spheres.
#pragma once

#include <Eigen/Core>

#include "dropsim/sim/contact_laws.hpp"
#include "dropsim/sim/conventions.hpp"
#ifdef DROPSIM_INJECT_RHS_COST
#include "dropsim/sim/injected_cost.hpp"
#endif

namespace dropsim {

// Constant after construction; a parameter sweep builds a new one per point.
struct DropModel {
  double mass = 0.0;                  // kg, total
  int spheres = 1;                    // n identical spheres in contact together
  double gravity = standard_gravity;  // m/s^2, along -y
  double characteristic_length = 0;   // m, L in tau = t sqrt(g/L)
  double initial_height = 0.0;        // m, lowest sphere point above the ground
  double initial_velocity = 0.0;      // m/s, upward positive
  ContactLaw law;                     // per sphere
};

// The ODE of the drop. State x = [y, v]: y is the height of the lowest sphere
// point above the ground (q), v = dy/dt (u). Indentation x = -y.
class DropSystem {
 public:
  using Vector = Eigen::Vector2d;
  using Matrix = Eigen::Matrix2d;
  static constexpr int num_contacts = 1;  // one contact column: n spheres act alike

  explicit DropSystem(const DropModel& model)
      : m_(model), switch_count_(contact_switch_count(model.law)), spheres_per_mass_(model.spheres / model.mass) {}

  const DropModel& model() const { return m_; }
  int size() const { return 2; }
  int num_positions() const { return 1; }

  void operator()(const Vector& s, Vector& dsdt, double /*t*/) const {
    double f = contact_force(m_.law, -s[0], -s[1]);
#ifdef DROPSIM_INJECT_RHS_COST
    f += injected_rhs_cost(f);
#endif
    // n F / M by a multiplication: a division in every stage sat on the step's critical path.
    dsdt = Vector(s[1], f * spheres_per_mass_ - m_.gravity);
  }
  void position_rate(const Vector& s, Vector& dsdt) const { dsdt[0] = s[1]; }
  // Analytic Jacobian from the contact law's tangents (indentation x = -y, so
  // dF/dy = -stiffness and dF/dv = -damping); zero force slope where the law is clamped or open.
  void jacobian(const Vector& s, double /*t*/, Matrix& dfdx) const {
    const ContactResponse c = contact_response(m_.law, -s[0], -s[1]);
    dfdx << 0.0, 1.0, -spheres_per_mass_ * c.stiffness, -spheres_per_mass_ * c.damping;
  }
  int num_switches() const { return switch_count_; }
  void switches(const Vector& s, double* out) const { contact_switches(m_.law, -s[0], -s[1], out); }
  void project(Vector&) const {}

  Vector initial_state() const { return {m_.initial_height, m_.initial_velocity}; }

  // Absolute tolerance per component: rtol L for position, rtol sqrt(g L) for speed.
  Vector model_scaled_atol(double rtol) const {
    const double length = m_.characteristic_length;
    return {rtol * length, rtol * std::sqrt(m_.gravity * length)};
  }

 private:
  DropModel m_;
  int switch_count_;
  double spheres_per_mass_;  // n / M
};

}  // namespace dropsim
