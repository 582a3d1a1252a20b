// The drop's run: its probe for the recorder keeps forces, indentations and energies.
#include "dropsim/sim/simulate.hpp"

#include "dropsim/sim/recorder.hpp"
#include "dropsim/sim/run_estimate.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace dropsim {

namespace {

// The drop's probe for the Recorder (sim/recorder.hpp).
//
// The adaptive driver hands over each step's samples at once with the step's
// dense output; the sampler evaluates the contact law and the energies inline,
// with the law's kind tested once per step. A recorded sample is its time and
// state alone (keep_states): like a summary-only run (sweeps), a recorded run
// evaluates the law only at the samples that can change the summary, and the
// trace's other columns are filled from the state in one pass over the trace
// when the run ends (fill_columns), unless the run records states only.
class DropProbe {
 public:
  using State = DropSystem::Vector;

  struct Observation {
    double mechanical, force_normalized;
    double indentation;  // y: the summary's final indentation, made relative in finish()
  };

  DropProbe(const DropModel& model, Trace& trace, bool states_only = false)
      : model_(model),
        trace_(trace),
        states_only_(states_only),
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
  // recorder's loop, which the trace's stores cannot alias).
  template <class ContactSampler>
  static auto sampler(ContactSampler contact_sampler, DropEnergies energies, double spheres_per_weight) {
    return [contact_sampler, energies, spheres_per_weight](const State& s) {
      const double y = s[0], v = s[1];
      const ContactSample contact = contact_sampler(-y, -v);
      const Energies e = energies(y, v, contact.elastic_energy);
      return Observation{e.mechanical(), contact.force * spheres_per_weight, y};
    };
  }

  // f(contact_sampler): the law with its kind tested once, for a run's or a pass's loop.
  template <class F>
  auto with_contact_sampler(F f) const {
    if (hunt_crossley_form(model_.law.kind)) return f(HuntCrossleyFormSampler(model_.law));
    return f([&law = model_.law](double x, double xdot) { return contact_sample(law, x, xdot); });
  }

  template <class F>
  std::size_t with_sampler(F f) const {
    return with_contact_sampler([&](auto contact_sampler) {
      return f(sampler(contact_sampler, DropEnergies(model_), spheres_per_weight_));
    });
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

  void keep_states(const double* times, const State* states, std::size_t n) {
    Trace& tr = trace_;
    tr.time.insert(tr.time.end(), times, times + n);
    const std::size_t from = tr.q.size();
    tr.q.resize(from + n);  // then written through pointers: push_back reloaded the end at every sample
    tr.u.resize(from + n);
    double* __restrict q = tr.q.data() + from;
    double* __restrict u = tr.u.data() + from;
    for (std::size_t i = 0; i < n; ++i) {
      q[i] = states[i][0];
      u[i] = states[i][1];
    }
  }

  void finish(bool kept) {
    TraceSummary& summary = trace_.summary;
    const double radius = model_.law.radius;
    summary.equilibrium_indentation_relative =
        summary.samples > 0 && radius > 0.0 ? -summary.equilibrium_indentation_relative / radius : 0.0;
    if (kept && !states_only_) derive_columns();
  }

  // The trace's columns other than time, q and u, from them, with the
  // sampler's expressions: what the run would have recorded had it evaluated
  // every sample.
  void derive_columns() const {
    with_contact_sampler([&](auto contact_sampler) { fill_columns(contact_sampler); });
  }
  // F/(Mg) alone. The Hunt–Crossley form is dispatched here rather than through
  // with_contact_sampler: written once through it, GCC still vectorised the
  // loop, but the states run was 1-6 % slower in interleaved turns (2026-12-07).
  void derive_force_normalized() const {
    Trace& tr = trace_;
    const std::size_t n = tr.time.size();
    tr.force_normalized.resize(n);
    const double* __restrict q = tr.q.data();
    const double* __restrict u = tr.u.data();
    double* __restrict force_normalized = tr.force_normalized.data();
    const double spheres_per_weight = spheres_per_weight_;
    if (hunt_crossley_form(model_.law.kind)) {
      // No branch on contact: GCC vectorises this loop.
      const HuntCrossleyFormSampler law(model_.law);
      for (std::size_t i = 0; i < n; ++i) force_normalized[i] = law(-q[i], -u[i]).force * spheres_per_weight;
    } else {
      // The force alone: contact_sample() also integrates the smoothed law's energy, by quadrature.
      for (std::size_t i = 0; i < n; ++i)
        force_normalized[i] = contact_force(model_.law, -q[i], -u[i]) * spheres_per_weight;
    }
  }

 private:
  template <class ContactSampler>
  void fill_columns(const ContactSampler contact_sampler) const {
    Trace& tr = trace_;
    const std::size_t n = tr.time.size();
    std::vector<double>* const columns[] = {&tr.tau,         &tr.force,   &tr.force_normalized,
                                            &tr.contact_force, &tr.indentation, &tr.indentation_relative,
                                            &tr.kinetic,     &tr.potential, &tr.elastic, &tr.dissipated};
    for (auto* c : columns) c->resize(n);
    const double* __restrict time = tr.time.data();
    const double* __restrict q = tr.q.data();
    const double* __restrict u = tr.u.data();
    double* __restrict tau = tr.tau.data();
    double* __restrict force = tr.force.data();
    double* __restrict force_normalized = tr.force_normalized.data();
    double* __restrict contact_force = tr.contact_force.data();
    double* __restrict indentation = tr.indentation.data();
    double* __restrict indentation_relative = tr.indentation_relative.data();
    double* __restrict kinetic = tr.kinetic.data();
    double* __restrict potential = tr.potential.data();
    double* __restrict elastic = tr.elastic.data();
    double* __restrict dissipated = tr.dissipated.data();
    const DropEnergies energies(model_);
    const double radius = model_.law.radius, spheres = model_.spheres, spheres_per_weight = spheres_per_weight_,
                 tau_per_second = tau_per_second_, initial_energy = initial_energy_;
    for (std::size_t i = 0; i < n; ++i) {
      const double y = q[i], v = u[i];
      const ContactSample contact = contact_sampler(-y, -v);
      const Energies e = energies(y, v, contact.elastic_energy);
      tau[i] = time[i] * tau_per_second;
      contact_force[i] = contact.force;
      force[i] = spheres * contact.force;
      force_normalized[i] = contact.force * spheres_per_weight;
      indentation[i] = -y;
      indentation_relative[i] = radius > 0.0 ? -y / radius : 0.0;
      kinetic[i] = e.kinetic;
      potential[i] = e.potential;
      elastic[i] = e.elastic;
      // From the energy balance: all mechanical energy the contacts removed.
      dissipated[i] = initial_energy - (e.kinetic + e.potential + e.elastic);
    }
  }

  const DropModel& model_;
  Trace& trace_;
  const bool states_only_;
  const double tau_per_second_, spheres_per_weight_, initial_energy_;
  const bool bounds_chunks_;
};
static_assert(RecorderProbe<DropProbe>);

}  // namespace

Trace simulate(const DropModel& model, const RunSettings& run) {
  Trace trace;
  simulate(model, run, trace);
  return trace;
}

void simulate(const DropModel& model, const RunSettings& run, Trace& trace) {
  const DropSystem system(model);
  DropProbe probe(model, trace, run.record_states_only);
  record_run(system, system.initial_state(), with_adaptive_step_cap(model, run), probe, trace);
}

namespace {

void check_drop_trace(const Trace& trace, const char* function) {
  const std::size_t n = trace.samples();
  if (trace.nq != 1 || trace.nu != 1 || trace.contacts != 1 || trace.q.size() != n || trace.u.size() != n)
    throw std::invalid_argument(std::string(function) +
                                ": not a drop trace (one coordinate and one contact, q and u at every sample)");
}

}  // namespace

void derive_columns(const DropModel& model, Trace& trace) {
  check_drop_trace(trace, "derive_columns");
  DropProbe(model, trace).derive_columns();
}

void derive_force_normalized(const DropModel& model, Trace& trace) {
  check_drop_trace(trace, "derive_force_normalized");
  DropProbe(model, trace).derive_force_normalized();
}

}  // namespace dropsim
