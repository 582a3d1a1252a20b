// Trace bookkeeping and summary metrics.
#include "dropsim/sim/trace.hpp"

#include <algorithm>
#include <limits>

namespace dropsim {

void Trace::reserve(std::size_t n) {
  for (auto* v : {&time, &tau, &force, &force_normalized, &kinetic, &potential, &elastic, &dissipated}) v->reserve(n);
  for (auto* v : {&contact_force, &indentation, &indentation_relative}) v->reserve(n * contacts);
  if (has_friction)
    for (auto* v : {&friction_force, &slip_speed}) v->reserve(n * contacts);
  q.reserve(n * nq);
  u.reserve(n * nu);
}

void Trace::clear() {
  for (auto* v : {&time, &tau, &force, &force_normalized, &contact_force, &indentation, &indentation_relative,
                  &friction_force, &slip_speed, &q, &u, &kinetic, &potential, &elastic, &dissipated, &contact_radius})
    v->clear();
  for (auto* v : {&q_names, &u_names, &q_units, &u_units}) v->clear();
  nq = nu = contacts = 0;
  has_friction = false;
  gravity = characteristic_length = total_mass = 0.0;
  integrator.clear();
  step = 0.0;
  stats = {};
  stiffness_attributed = false;
  wall_time = 0.0;
  summary = {};
}

bool Trace::columns_complete() const {
  const std::size_t n = samples(), per_contact = n * static_cast<std::size_t>(contacts);
  for (const auto* v : {&tau, &force, &force_normalized, &kinetic, &potential, &elastic, &dissipated})
    if (v->size() != n) return false;
  for (const auto* v : {&contact_force, &indentation, &indentation_relative})
    if (v->size() != per_contact) return false;
  if (has_friction && (friction_force.size() != per_contact || slip_speed.size() != per_contact)) return false;
  return q.size() == n * static_cast<std::size_t>(nq) && u.size() == n * static_cast<std::size_t>(nu);
}

double Trace::final_indentation_relative() const {
  if (time.empty() || contacts == 0) return 0.0;
  if (indentation_relative.size() != samples() * static_cast<std::size_t>(contacts))
    return std::numeric_limits<double>::quiet_NaN();  // a trace of states whose columns are not derived
  double sum = 0.0;
  const std::size_t row = (samples() - 1) * contacts;
  for (int c = 0; c < contacts; ++c) sum += indentation_relative[row + c];
  return sum / contacts;
}

std::size_t Trace::peak_index() const {
  if (force_normalized.empty()) return 0;
  return static_cast<std::size_t>(std::max_element(force_normalized.begin(), force_normalized.end()) -
                                  force_normalized.begin());
}

double Trace::peak_friction_ratio() const {
  double peak = 0.0;
  for (std::size_t i = 0; i < friction_force.size(); ++i)
    if (contact_force[i] > 0.0) peak = std::max(peak, friction_force[i] / contact_force[i]);
  return peak;
}

double Trace::final_slip_speed() const {
  if (slip_speed.empty()) return 0.0;
  double fastest = 0.0;
  const std::size_t row = (samples() - 1) * static_cast<std::size_t>(contacts);
  for (int c = 0; c < contacts; ++c)
    if (contact_force[row + c] > 0.0) fastest = std::max(fastest, slip_speed[row + c]);
  return fastest;
}

}  // namespace dropsim
