// The multibody observer: records q, u, per-contact forces and indentations, energies.
#include "dropsim/sim/multibody_simulate.hpp"

#include <chrono>
#include <cmath>

namespace dropsim {

Trace simulate(const MultibodyModel& model, const RunSettings& run) {
  return simulate_from(model, run, model.initial_state());
}

Trace simulate_from(const MultibodyModel& model, const RunSettings& run, const Eigen::VectorXd& x0) {
  Trace trace;
  simulate_from(model, run, x0, trace);
  return trace;
}

void simulate_from(const MultibodyModel& model, const RunSettings& run, const Eigen::VectorXd& x0, Trace& trace) {
  const auto start = std::chrono::steady_clock::now();
  const MultibodySystem system(model);
  const auto grid = integrators::output_grid(0.0, run.duration, run.output_interval);
  const int nc = static_cast<int>(model.contacts.size());

  trace.clear();
  trace.nq = model.nq;
  trace.nu = model.nu;
  trace.contacts = nc;
  trace.gravity = model.gravity;
  trace.characteristic_length = model.characteristic_length;
  trace.total_mass = model.total_mass();
  for (const auto& c : model.contacts) trace.contact_radius.push_back(c.law.radius);
  trace.q_names = model.position_names();
  trace.u_names = model.speed_names();
  trace.q_units = model.position_units();
  trace.u_units = model.speed_units();
  trace.integrator = std::string(integrators::info(run.integrator.method).name);
  if (run.record_samples) trace.reserve(grid.size());

  const double tau_per_second = std::sqrt(model.gravity / model.characteristic_length);
  const double weight = trace.total_mass * model.gravity;
  const double initial_energy = multibody_energies(model, x0).mechanical();
  // Passive contact laws never add energy; growth beyond this means blow-up.
  const double energy_bound = std::abs(initial_energy) + 10.0 * weight * model.characteristic_length +
                              1e-3 * std::abs(initial_energy);
  std::string divergence;
  std::vector<double> per_sphere(static_cast<std::size_t>(nc));
  Eigen::VectorXd generalized(model.nu);

  auto record = [&](const Eigen::VectorXd& x, double t) {
    const MultibodyEnergies e = multibody_energies(model, x);
    if (!(e.mechanical() <= energy_bound)) {
      divergence = "energy grew beyond bound";
      return false;
    }
    system.applied_forces(x, generalized, per_sphere.data());
    double ground = 0.0;  // the plane's normal is +y: all of it is vertical
    double relative_sum = 0.0;
    for (int i = 0; i < nc; ++i) {
      const Contact& c = model.contacts[static_cast<std::size_t>(i)];
      const double indentation = -contact_kinematics(model, c, x.head(model.nq)).gap;
      const double f = per_sphere[static_cast<std::size_t>(i)];
      const double relative = c.law.radius > 0.0 ? indentation / c.law.radius : 0.0;
      relative_sum += relative;
      if (c.type == ContactType::sphere_plane) ground += c.count * f;
      if (!run.record_samples) continue;
      trace.contact_force.push_back(f);
      trace.indentation.push_back(indentation);
      trace.indentation_relative.push_back(relative);
    }
    const double fn = weight > 0.0 ? ground / weight : 0.0;
    summarise_sample(trace.summary, t, tau_per_second, fn);
    trace.summary.equilibrium_indentation_relative = nc > 0 ? relative_sum / nc : 0.0;
    if (!run.record_samples) return true;
    trace.time.push_back(t);
    trace.tau.push_back(t * tau_per_second);
    trace.force.push_back(ground);
    trace.force_normalized.push_back(fn);
    for (int k = 0; k < model.nq; ++k) trace.q.push_back(x[k]);
    for (int k = 0; k < model.nu; ++k) trace.u.push_back(x[model.nq + k]);
    trace.kinetic.push_back(e.kinetic);
    trace.potential.push_back(e.potential);
    trace.elastic.push_back(e.elastic);
    // From the energy balance: all mechanical energy the contacts removed.
    trace.dissipated.push_back(initial_energy - e.mechanical());
    return true;
  };

  Eigen::VectorXd x = x0;
  const Eigen::VectorXd atol = run.atol > 0.0 ? Eigen::VectorXd::Constant(system.size(), run.atol)
                                              : system.model_scaled_atol(run.integrator.rtol);
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
