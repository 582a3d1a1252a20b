// Step-count and memory estimates of a drop run.
#include "sim/run_estimate.hpp"

#include <cmath>
#include <numbers>

namespace dropsim {

namespace {

// Indentation where the spheres carry the weight: bisection on the elastic force,
// which every law makes increasing in x. 0 if no indentation up to 1e6 radii does.
double equilibrium_indentation(const DropModel& m) {
  const double weight = m.mass * m.gravity;
  auto carried = [&](double x) { return m.spheres * contact_response(m.law, x, 0.0).elastic_force; };
  double lo = 0.0, hi = m.law.radius > 0.0 ? m.law.radius : 1e-3;
  for (int k = 0; carried(hi) < weight; ++k) {
    if (k > 60) return 0.0;
    lo = hi;
    hi *= 2.0;
  }
  for (int k = 0; k < 100 && hi - lo > 1e-12 * hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    (carried(mid) < weight ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace

RunEstimate estimate_run(const DropModel& model, const RunSettings& run) {
  RunEstimate e;
  const auto& method = integrators::info(run.integrator.method);
  // integrators::output_grid: floor(duration / interval) + 1 points, plus the end if it falls between.
  const double intervals = std::floor(run.duration / run.output_interval);
  const double remainder = run.duration - intervals * run.output_interval;
  e.samples = intervals + 1.0 + (remainder > 1e-9 * run.output_interval ? 1.0 : 0.0);
  // Columns of a drop Trace: time, tau, force, force_normalized, 4 energies, q, u, and 3 per contact.
  constexpr double columns = 8.0 + 2.0 + 3.0 * DropSystem::num_contacts;
  e.trace_bytes = e.samples * columns * sizeof(double);

  const double x_eq = equilibrium_indentation(model);
  const double k = x_eq > 0.0 ? model.spheres * contact_response(model.law, x_eq, 0.0).stiffness : 0.0;
  if (k > 0.0) e.contact_period = 2.0 * std::numbers::pi * std::sqrt(model.mass / k);

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
  const double per_period = 4.0 * std::pow(run.integrator.rtol, -1.0 / method.order);
  const double periods = e.contact_period > 0.0 ? run.duration / e.contact_period : 0.0;
  e.steps = std::max(periods * per_period, 1.0);
  return e;
}

}  // namespace dropsim
