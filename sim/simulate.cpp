// The drop's observer: records forces, indentations and energies on the output grid.
#include "sim/simulate.hpp"

#include <chrono>
#include <cmath>

namespace dropsim {

namespace {

// The trace's derived columns from (time, q, u, contact_force, elastic), with
// the same expressions the summary uses (bitwise equal to computing them per sample).
void derive_columns(const DropModel& model, double initial_energy, Trace& trace) {
  const std::size_t n = trace.time.size();
  const double tau_per_second = std::sqrt(model.gravity / model.characteristic_length);
  const double weight = model.mass * model.gravity, radius = model.law.radius;
  for (auto* column : {&trace.tau, &trace.force, &trace.force_normalized, &trace.indentation,
                       &trace.indentation_relative, &trace.kinetic, &trace.potential, &trace.dissipated})
    column->resize(n);  // within the capacity reserved before the run
  for (std::size_t i = 0; i < n; ++i) {
    const double y = trace.q[i], v = trace.u[i];
    trace.tau[i] = trace.time[i] * tau_per_second;
    trace.force[i] = model.spheres * trace.contact_force[i];
    trace.force_normalized[i] = trace.force[i] / weight;
    trace.indentation[i] = -y;
    trace.indentation_relative[i] = radius > 0.0 ? -y / radius : 0.0;
    const Energies e = drop_energies(model, y, v, 0.0);  // elastic is stored already
    trace.kinetic[i] = e.kinetic;
    trace.potential[i] = e.potential;
    // From the energy balance: all mechanical energy the contacts removed.
    trace.dissipated[i] = initial_energy - (trace.kinetic[i] + trace.potential[i] + trace.elastic[i]);
  }
}

}  // namespace

Trace simulate(const DropModel& model, const RunSettings& run) {
  Trace trace;
  simulate(model, run, trace);
  return trace;
}

void simulate(const DropModel& model, const RunSettings& run, Trace& trace) {
  const auto start = std::chrono::steady_clock::now();
  const DropSystem system(model);
  const auto grid = integrators::output_grid(0.0, run.duration, run.output_interval);

  trace.clear();  // keeps the sample buffers' capacity: no fresh pages per run
  trace.nq = trace.nu = 1;
  trace.contacts = 1;
  trace.gravity = model.gravity;
  trace.characteristic_length = model.characteristic_length;
  trace.total_mass = model.mass;
  trace.contact_radius = {model.law.radius};
  trace.integrator = std::string(integrators::info(run.integrator.method).name);
  if (run.record_samples) trace.reserve(grid.size());

  const double tau_per_second = std::sqrt(model.gravity / model.characteristic_length);
  const double weight = model.mass * model.gravity;
  const double initial_energy = drop_energies(model, model.initial_height, model.initial_velocity).mechanical();
  // Passive contact laws never add energy; growth beyond this means blow-up.
  const double energy_bound = std::abs(initial_energy) + 10.0 * weight * model.characteristic_length;
  std::string divergence;

  // The summary is kept online so a summary-only run (sweeps) stores no
  // samples at all. A recording run stores the five independent columns here
  // and derives the other eight after the run in plain loops: the observer is
  // the per-sample cost, and 13 appends per sample were most of it.
  const double radius = model.law.radius;
  TraceSummary& summary = trace.summary;
  const bool keep = run.record_samples;
  auto record = [&](const DropSystem::Vector& s, double t) {
    const double y = s[0], v = s[1];
    const double per_sphere = contact_force(model.law, -y, -v);
    const Energies e = drop_energies(model, y, v);
    if (e.mechanical() > energy_bound) {
      divergence = "energy grew beyond bound";
      return false;
    }
    const double fn = model.spheres * per_sphere / weight, tau = t * tau_per_second;
    ++summary.samples;
    if (summary.samples == 1 || fn > summary.peak_force_normalized) {  // first maximum, like max_element
      summary.peak_force_normalized = fn;
      summary.tau_of_peak = tau;
    }
    if (std::abs(fn - 1.0) > settling_band) summary.settling_time = t;
    summary.equilibrium_indentation_relative = radius > 0.0 ? -y / radius : 0.0;
    if (!keep) return true;
    trace.time.push_back(t);
    trace.q.push_back(y);
    trace.u.push_back(v);
    trace.contact_force.push_back(per_sphere);
    trace.elastic.push_back(e.elastic);
    return true;
  };

  DropSystem::Vector x = system.initial_state();
  const DropSystem::Vector atol =
      run.atol > 0.0 ? DropSystem::Vector::Constant(run.atol) : system.model_scaled_atol(run.integrator.rtol);
  trace.stats = integrators::integrate(run.integrator, system, x, grid, atol, record);
  if (trace.stats.status == integrators::Status::stopped && !divergence.empty()) {
    trace.stats.status = integrators::Status::diverged;
    trace.stats.reason = divergence;
  }
  if (keep) derive_columns(model, initial_energy, trace);
  if (!integrators::info(run.integrator.method).adaptive || run.integrator.fixed)
    trace.step = run.output_interval / static_cast<double>(integrators::steps_in(0.0, run.output_interval, run.integrator.step));
  trace.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace dropsim
