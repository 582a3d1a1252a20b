// Step-count and memory estimates of a run, from its fastest contact mode.
#include "dropsim/sim/run_estimate.hpp"

#include <cmath>
#include <numbers>

#include "dropsim/sim/equilibrium.hpp"
#include "dropsim/sim/modes.hpp"

namespace dropsim {

namespace {

double contact_period(const DropModel& model) {
  try {
    const double x_eq = equilibrium_indentation(model);
    const double k = model.spheres * contact_response(model.law, x_eq, 0.0).stiffness;
    return k > 0.0 ? 2.0 * std::numbers::pi * std::sqrt(model.mass / k) : 0.0;
  } catch (const EquilibriumError&) {
    return 0.0;  // nothing carries the weight: no contact period to resolve
  }
}

double contact_period(const MultibodyModel& model) {
  Eigen::VectorXd x = model.initial_state();
  try {
    x = static_equilibrium(model, x).x;
  } catch (const EquilibriumError&) {
    // No equilibrium (gravity 0, or it falls): the contacts as they start.
  }
  const double omega = analyse_modes(model, x).omega_max;
  return omega > 0.0 ? 2.0 * std::numbers::pi / omega : 0.0;
}

// Columns of a Trace: time, tau, force, force_normalized, 4 energies, q, u, and 3 per contact.
double columns(const DropModel&) { return 8.0 + 2.0 + 3.0 * DropSystem::num_contacts; }
double columns(const MultibodyModel& model) {
  return 8.0 + model.nq + model.nu + 3.0 * static_cast<double>(model.contacts.size());
}

// Methods whose error estimate misses a contact inside a long step (see the header).
bool needs_step_cap(integrators::Method method) {
  return method == integrators::Method::fehlberg78 || method == integrators::Method::cash_karp54;
}
constexpr double step_cap_per_period = 0.0625;

template <class AnyModel>
RunSettings capped(const AnyModel& model, RunSettings run) {
  if (!run.integrator.fixed && run.integrator.max_step == 0.0 && needs_step_cap(run.integrator.method))
    run.integrator.max_step = step_cap_per_period * contact_period(model);
  return run;
}

}  // namespace

RunSettings with_adaptive_step_cap(const DropModel& model, RunSettings run) { return capped(model, run); }
RunSettings with_adaptive_step_cap(const MultibodyModel& model, RunSettings run) { return capped(model, run); }

RunEstimate estimate_run(const Model& model, const RunSettings& run) {
  RunEstimate e;
  const auto& method = integrators::info(run.integrator.method);
  // integrators::output_grid: floor(duration / interval) + 1 points, plus the end if it falls between.
  const double intervals = std::floor(run.duration / run.output_interval);
  const double remainder = run.duration - intervals * run.output_interval;
  e.samples = intervals + 1.0 + (remainder > 1e-9 * run.output_interval ? 1.0 : 0.0);
  e.trace_bytes = e.samples * std::visit([](const auto& m) { return columns(m); }, model) * sizeof(double);
  e.contact_period = std::visit([](const auto& m) { return contact_period(m); }, model);

  if (!method.adaptive) {
    // The fixed-step driver splits each output interval into ceil(interval / h) steps
    // (integrators::steps_in), computed here in doubles so 1e15 steps cannot overflow.
    auto steps_in = [&](double span) { return std::max(1.0, std::ceil(span / run.integrator.step * (1.0 - 1e-12))); };
    e.steps = intervals * steps_in(run.output_interval) + (e.samples > intervals + 1.0 ? steps_in(remainder) : 0.0);
    e.steps_exact = true;
    return e;
  }
  // Adaptive: an error-controlled method of order p needs about rtol^(-1/p) steps per
  // oscillation period; bound as if the body stayed in contact for the whole run, with
  // a factor 4 for the stiffer peak of impact. Flight and rest take far fewer.
  double per_period = 4.0 * std::pow(run.integrator.rtol, -1.0 / method.order);
  if (needs_step_cap(method.method)) per_period = std::max(per_period, 1.0 / step_cap_per_period);
  const double periods = e.contact_period > 0.0 ? run.duration / e.contact_period : 0.0;
  e.steps = std::max(periods * per_period, 1.0);
  return e;
}

}  // namespace dropsim
