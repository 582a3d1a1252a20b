// The drop's run: its probe for the recorder keeps forces, indentations and energies.
#include "dropsim/sim/simulate.hpp"

#include "dropsim/sim/recorder.hpp"
#include "dropsim/sim/run_estimate.hpp"

#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

namespace dropsim {

namespace {

// The drop's probe for the Recorder (sim/recorder.hpp).
//
// The adaptive driver hands over each step's samples at once with the step's
// dense output; the sampler evaluates the contact law and the energies inline,
// with the law's kind tested once per step. Recorded samples gather in a block
// of a few KB (time, q, u, the contact force, the elastic energy); a full block
// gets its other eight columns in one vectorised pass while it is in L1, and
// all thirteen are appended to the trace. No column is zero-filled or grown
// per sample. A summary-only run (sweeps) writes nothing per sample.
class DropProbe {
 public:
  using State = DropSystem::Vector;

  struct Observation {
    double mechanical, force_normalized;
    double indentation;  // y: the summary's final indentation, made relative in finish()
    double velocity;     // v
    double contact_force, elastic;
  };

  DropProbe(const DropModel& model, Trace& trace)
      : model_(model),
        trace_(trace),
        tau_per_second_(std::sqrt(model.gravity / model.characteristic_length)),
        // F/(Mg) by a multiplication: a division per sample was the sample loop's longest latency.
        spheres_per_weight_(model.spheres / (model.mass * model.gravity)),
        initial_energy_(drop_energies(model, model.initial_height, model.initial_velocity).mechanical()),
        // Hunt-Crossley-form forces with alpha >= 0 grow with x and xdot, the elastic energy with x,
        // the potential with y: what range_bounds() needs, rounding included (each operation is monotone).
        bounds_chunks_(hunt_crossley_form(model.law.kind) && model.law.dissipation >= 0.0 && model.gravity > 0.0) {}

  double initial_energy() const { return initial_energy_; }

  void describe() const {
    Trace& trace = trace_;
    trace.nq = trace.nu = 1;
    trace.contacts = 1;
    trace.gravity = model_.gravity;
    trace.characteristic_length = model_.characteristic_length;
    trace.total_mass = model_.mass;
    trace.contact_radius = {model_.law.radius};
  }

  // state -> Observation, with the model's constants by value (locals of the
  // recorder's loop, which the block's stores cannot alias).
  template <class ContactSampler>
  auto sampler(ContactSampler contact_sampler) const {
    return [contact_sampler, energies = DropEnergies(model_), spheres_per_weight = spheres_per_weight_](
               const State& s) {
      const double y = s[0], v = s[1];
      const ContactSample contact = contact_sampler(-y, -v);
      const Energies e = energies(y, v, contact.elastic_energy);
      // F/(Mg), as derive_drop_samples computes it
      return Observation{e.mechanical(), contact.force * spheres_per_weight, y, v, contact.force, e.elastic};
    };
  }

  template <class F>
  std::size_t with_sampler(F f) const {
    if (hunt_crossley_form(model_.law.kind)) return f(sampler(HuntCrossleyFormSampler(model_.law)));
    return f(sampler([&law = model_.law](double x, double xdot) { return contact_sample(law, x, xdot); }));
  }

  // Bounds on F/(Mg) and the mechanical energy of states whose y and v lie in
  // [low, high]: the force is largest at the deepest, fastest-closing state,
  // the energy at most the largest kinetic, potential and elastic terms together.
  std::optional<SampleBounds> range_bounds(const State& low, const State& high) const {
    if (!bounds_chunks_) return std::nullopt;
    const HuntCrossleyFormSampler law(model_.law);
    const ContactSample deepest = law(-low[0], -low[1]);  // x = -y, xdot = -v
    const double speed = std::max(-low[1], high[1]);
    return SampleBounds{law(-high[0], -high[1]).force * spheres_per_weight_, deepest.force * spheres_per_weight_,
                        DropEnergies(model_)(high[0], speed, deepest.elastic_energy).mechanical()};
  }

  // From the observation, not the state: its y and v are in registers already.
  void keep(double t, const State& /*s*/, const Observation& o) {
    block_[time][pending_] = t;
    block_[q][pending_] = o.indentation;
    block_[u][pending_] = o.velocity;
    block_[contact_force][pending_] = o.contact_force;
    block_[elastic][pending_] = o.elastic;
    if (++pending_ == block_size) flush();
  }

  void finish(bool kept) {
    TraceSummary& summary = trace_.summary;
    const double radius = model_.law.radius;
    summary.equilibrium_indentation_relative =
        summary.samples > 0 && radius > 0.0 ? -summary.equilibrium_indentation_relative / radius : 0.0;
    if (kept) flush();
  }

 private:
  static constexpr std::size_t block_size = 96;  // 13 columns of it: ~10 KB, within L1
  enum Column { time, q, u, contact_force, elastic, tau, force, force_normalized, indentation,
                indentation_relative, kinetic, potential, dissipated, column_count };

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
  const double tau_per_second_, spheres_per_weight_, initial_energy_;
  const bool bounds_chunks_;
  std::array<std::array<double, block_size>, column_count> block_;
  std::size_t pending_ = 0;  // samples in block_
};

}  // namespace

Trace simulate(const DropModel& model, const RunSettings& run) {
  Trace trace;
  simulate(model, run, trace);
  return trace;
}

void simulate(const DropModel& model, const RunSettings& run, Trace& trace) {
  const DropSystem system(model);
  DropProbe probe(model, trace);
  record_run(system, system.initial_state(), with_adaptive_step_cap(model, run), probe, trace);
}

}  // namespace dropsim
