// The drop's observer: records forces, indentations and energies on the output grid.
#include "sim/simulate.hpp"

#include <chrono>
#include <cmath>

namespace dropsim {

Energies drop_energies(const DropModel& model, double y, double v) {
  Energies e;
  e.kinetic = 0.5 * model.mass * v * v;
  e.potential = model.mass * model.gravity * y;
  e.elastic = model.spheres * contact_response(model.law, -y, -v).elastic_energy;
  return e;
}

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

  // One contact evaluation per sample (its elastic energy feeds the energy
  // balance too); the summary is kept online so a summary-only run (sweeps)
  // stores no samples at all.
  const double radius = model.law.radius;
  TraceSummary& summary = trace.summary;
  const bool keep = run.record_samples;
  auto record = [&](const DropSystem::Vector& s, double t) {
    const double y = s[0], v = s[1];
    const ContactResponse c = contact_response(model.law, -y, -v);
    Energies e;
    e.kinetic = 0.5 * model.mass * v * v;
    e.potential = model.mass * model.gravity * y;
    e.elastic = model.spheres * c.elastic_energy;  // as drop_energies()
    const double mechanical = e.mechanical();
    if (mechanical > energy_bound) {
      divergence = "energy grew beyond bound";
      return false;
    }
    const double total = model.spheres * c.force;
    const double fn = total / weight, tau = t * tau_per_second;
    const double xh = radius > 0.0 ? -y / radius : 0.0;
    ++summary.samples;
    if (summary.samples == 1 || fn > summary.peak_force_normalized) {  // first maximum, like max_element
      summary.peak_force_normalized = fn;
      summary.tau_of_peak = tau;
    }
    if (std::abs(fn - 1.0) > settling_band) summary.settling_time = t;
    summary.equilibrium_indentation_relative = xh;
    if (!keep) return true;
    trace.time.push_back(t);
    trace.tau.push_back(tau);
    trace.force.push_back(total);
    trace.force_normalized.push_back(fn);
    trace.contact_force.push_back(c.force);
    trace.indentation.push_back(-y);
    trace.indentation_relative.push_back(xh);
    trace.q.push_back(y);
    trace.u.push_back(v);
    trace.kinetic.push_back(e.kinetic);
    trace.potential.push_back(e.potential);
    trace.elastic.push_back(e.elastic);
    // From the energy balance: all mechanical energy the contacts removed.
    trace.dissipated.push_back(initial_energy - mechanical);
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
  if (!integrators::info(run.integrator.method).adaptive || run.integrator.fixed)
    trace.step = run.output_interval / static_cast<double>(integrators::steps_in(0.0, run.output_interval, run.integrator.step));
  trace.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace dropsim
