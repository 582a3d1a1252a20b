// The drop's observer: records forces, indentations and energies on the output grid.
#include "dropsim/sim/simulate.hpp"

#include <array>
#include <chrono>
#include <cmath>
#include <limits>

namespace dropsim {

namespace {

// Records a drop on the output grid and keeps its summary.
//
// The adaptive driver hands over each step's samples at once (take_samples)
// with the step's dense output: one loop interpolates, evaluates the contact
// law, checks the energy and updates the summary per sample, with no call per
// sample; the samples of a step are independent, so the CPU overlaps them.
// Recorded samples gather in a block of a few KB (time, q, u, the contact
// force, the elastic energy); a full block gets its other eight columns in one
// vectorised pass while it is in L1, and all thirteen are appended to the
// trace. No column is zero-filled or grown per sample. A summary-only run
// (sweeps) writes nothing per sample.
class DropRecorder {
 public:
  DropRecorder(const DropModel& model, Trace& trace, bool keep_samples)
      : model_(model),
        trace_(trace),
        keep_(keep_samples),
        tau_per_second_(std::sqrt(model.gravity / model.characteristic_length)),
        weight_(model.mass * model.gravity),
        // F/(Mg) by a multiplication: a division per sample was the sample loop's longest latency.
        spheres_per_weight_(model.spheres / weight_),
        initial_energy_(drop_energies(model, model.initial_height, model.initial_velocity).mechanical()),
        // Passive contact laws never add energy; growth beyond this means blow-up.
        energy_bound_(std::abs(initial_energy_) + 10.0 * weight_ * model.characteristic_length) {}

  // The adaptive driver's call: count samples at times, from dense(t, state).
  // Returns how many were taken; fewer than count when a sample's energy left
  // the bound (the run stops there: diverged).
  template <class Dense>
  std::size_t take_samples(const Dense& dense, const double* times, std::size_t count) {
    // The law's kind is tested here once per step rather than in every sample.
    if (hunt_crossley_form(model_.law.kind))
      return sample_loop(dense, times, count, HuntCrossleyFormSampler(model_.law));
    return sample_loop(dense, times, count,
                       [&law = model_.law](double x, double xdot) { return contact_sample(law, x, xdot); });
  }

  // Every other caller (the first sample, fixed-step methods): one sample.
  bool operator()(const DropSystem::Vector& s, double t) {
    return take_samples(integrators::AtState<DropSystem::Vector>{s}, &t, 1) == 1;
  }

  // Completes the trace; the time of the first sample beyond the energy
  // bound, if one was (the trace ends before it), else NaN.
  double finish() {
    TraceSummary& summary = trace_.summary;
    const double radius = model_.law.radius;
    summary.equilibrium_indentation_relative =
        summary.samples > 0 && radius > 0.0 ? -summary.equilibrium_indentation_relative / radius : 0.0;
    if (keep_) flush();
    return diverged_at_;
  }

 private:
  static constexpr std::size_t block_size = 96;  // 13 columns of it: ~10 KB, within L1
  static constexpr std::size_t chunk_size = 32;  // interpolated states, per pass
  enum Column { time, q, u, contact_force, elastic, tau, force, force_normalized, indentation,
                indentation_relative, kinetic, potential, dissipated, column_count };

  // A step's samples: interpolate, evaluate the law, check the energy, update
  // the summary, gather recorded samples in the block. What does not change
  // within a run sits in locals: the block's stores would otherwise make the
  // compiler reload it from *this at every sample.
  template <class Dense, class ContactSampler>
  std::size_t sample_loop(const Dense& dense, const double* times, std::size_t count,
                          const ContactSampler contact_sampler) {
    TraceSummary summary = trace_.summary;
    const DropEnergies energies(model_);
    const double energy_bound = energy_bound_, spheres_per_weight = spheres_per_weight_;
    const double tau_per_second = tau_per_second_;
    const bool keep = keep_;
    std::array<DropSystem::Vector, chunk_size> states;  // a local: the block's stores cannot alias it
    std::size_t taken = 0;
    while (taken < count) {
      // Two passes over a chunk of samples: the interpolant, then the law and
      // the rest. In one pass each sample's chain (interpolant, square root,
      // energy) was too long for the CPU to overlap enough samples.
      const std::size_t n = std::min(chunk_size, count - taken);
      for (std::size_t i = 0; i < n; ++i) dense(times[taken + i], states[i]);
      for (std::size_t i = 0; i < n; ++i, ++taken) {
        const double t = times[taken], y = states[i][0], v = states[i][1];
        const ContactSample contact = contact_sampler(-y, -v);
        const Energies e = energies(y, v, contact.elastic_energy);
        if (!(e.mechanical() <= energy_bound)) {  // also NaN
          diverged_at_ = t;
          trace_.summary = summary;
          return taken;
        }
        const double fn = contact.force * spheres_per_weight;  // F/(Mg), as derive_drop_samples computes it
        summarise_sample(summary, t, tau_per_second, fn);
        summary.equilibrium_indentation_relative = y;  // the last sample's y, made relative in finish()
        if (keep) {
          block_[time][pending_] = t;
          block_[q][pending_] = y;
          block_[u][pending_] = v;
          block_[contact_force][pending_] = contact.force;
          block_[elastic][pending_] = e.elastic;
          if (++pending_ == block_size) flush();
        }
      }
    }
    trace_.summary = summary;
    return taken;
  }

  void flush() {
    const std::size_t n = pending_;
    auto& b = block_;
    derive_drop_samples(n, model_, tau_per_second_, spheres_per_weight_, initial_energy_, b[time].data(),
                        b[q].data(), b[u].data(), b[contact_force].data(), b[elastic].data(), b[tau].data(),
                        b[force].data(), b[force_normalized].data(), b[indentation].data(),
                        b[indentation_relative].data(), b[kinetic].data(), b[potential].data(),
                        b[dissipated].data());
    Trace& tr = trace_;
    const std::array<std::vector<double>*, column_count> columns = {
        &tr.time, &tr.q, &tr.u, &tr.contact_force, &tr.elastic, &tr.tau, &tr.force, &tr.force_normalized,
        &tr.indentation, &tr.indentation_relative, &tr.kinetic, &tr.potential, &tr.dissipated};
    for (int c = 0; c < column_count; ++c) columns[c]->insert(columns[c]->end(), b[c].data(), b[c].data() + n);
    pending_ = 0;
  }

  // The eight derived columns of n samples from the five recorded ones, with
  // the summary's constants and expressions (bitwise equal to computing them
  // per sample). __restrict (distinct columns) and the model's constants in
  // locals (they cannot alias the columns) let GCC vectorise the loop.
  static void derive_drop_samples(std::size_t n, const DropModel& model, double tau_per_second,
                                  double spheres_per_weight, double initial_energy, const double* __restrict time_in,
                                  const double* __restrict q_in, const double* __restrict u_in,
                                  const double* __restrict contact_force_in,
                                  const double* __restrict elastic_in, double* __restrict tau_out,
                                  double* __restrict force_out, double* __restrict force_normalized_out,
                                  double* __restrict indentation_out, double* __restrict indentation_relative_out,
                                  double* __restrict kinetic_out, double* __restrict potential_out,
                                  double* __restrict dissipated_out) {
    const DropEnergies energies(model);
    const double radius = model.law.radius, spheres = model.spheres;
    for (std::size_t i = 0; i < n; ++i) {
      const double y = q_in[i], f = spheres * contact_force_in[i];
      tau_out[i] = time_in[i] * tau_per_second;
      force_out[i] = f;
      force_normalized_out[i] = contact_force_in[i] * spheres_per_weight;
      indentation_out[i] = -y;
      indentation_relative_out[i] = radius > 0.0 ? -y / radius : 0.0;
      const Energies e = energies(y, u_in[i], 0.0);  // elastic is recorded already
      kinetic_out[i] = e.kinetic;
      potential_out[i] = e.potential;
      // From the energy balance: all mechanical energy the contacts removed.
      dissipated_out[i] = initial_energy - (e.kinetic + e.potential + elastic_in[i]);
    }
  }

  const DropModel& model_;
  Trace& trace_;
  const bool keep_;
  const double tau_per_second_, weight_, spheres_per_weight_, initial_energy_, energy_bound_;
  std::array<std::array<double, block_size>, column_count> block_;
  std::size_t pending_ = 0;  // samples in block_
  double diverged_at_ = std::numeric_limits<double>::quiet_NaN();
};

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

  DropRecorder recorder(model, trace, run.record_samples);
  DropSystem::Vector x = system.initial_state();
  const DropSystem::Vector atol =
      run.atol > 0.0 ? DropSystem::Vector::Constant(run.atol) : system.model_scaled_atol(run.integrator.rtol);
  trace.stats = integrators::integrate(run.integrator, system, x, grid, atol, recorder);
  const double diverged_at = recorder.finish();
  if (!std::isnan(diverged_at)) {
    trace.stats.status = integrators::Status::diverged;
    trace.stats.reason = "energy grew beyond bound";
    trace.stats.end_time = diverged_at;
  }
  if (!integrators::info(run.integrator.method).adaptive || run.integrator.fixed)
    trace.step = run.output_interval / static_cast<double>(integrators::steps_in(0.0, run.output_interval, run.integrator.step));
  trace.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace dropsim
