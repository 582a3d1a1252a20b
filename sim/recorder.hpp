// Recording a run on its output grid: one recorder and one divergence rule for every system.
//
// A system contributes a probe, which knows its model and the trace it fills;
// the concept RecorderProbe below states what a probe must have:
//   using State;                                      // the system's Vector
//   struct Observation;                               // what a sample's evaluation gives (SampleObservation)
//   double initial_energy() const;                    // mechanical, J
//   void describe();                                  // columns, names, units, model constants
//   std::size_t with_sampler(F f);                    // returns f(sampler); sampler(state) -> Observation
//   void keep(double t, const State&, const Observation&);  // a recorded sample
//   void finish(bool kept);                           // completes the trace; the summary's final indentation made relative
// where Observation has .mechanical (J), .force_normalized (F/(Mg)) and
// .indentation (what finish() turns into the summary's final indentation).
// Optionally:
//   std::optional<SampleBounds> range_bounds(const State& low, const State& high) const;
// bounds on F/(Mg) and the mechanical energy of any state within [low, high],
// or none where it cannot bound them (then every sample is evaluated); and
//   void keep_states(const double* times, const State* states, std::size_t n);
// for probes whose recorded samples are their states alone (finish() derives
// the rest from them): keep() is then never called (a probe has one or the
// other), and a recorded run, like a
// summary-only one, evaluates a sample only where it can change the summary.
// The recorder checks the energy, keeps the summary and decides divergence;
// the probe decides how a sample is evaluated and stored.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <concepts>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "dropsim/integrators/integrate.hpp"
#include "dropsim/integrators/stiffness.hpp"
#include "dropsim/sim/simulate.hpp"

namespace dropsim {

// Passive contact laws never add energy: a run whose mechanical energy grows
// beyond its initial value by ten times M g L has blown up. The thousandth of
// the initial energy is the margin for bodies in free space, where M g L is 0.
inline double divergence_energy_bound(double initial_energy, double weight, double length) {
  return std::abs(initial_energy) + 10.0 * weight * length + 1e-3 * std::abs(initial_energy);
}

// What the recorder reads of a sample's evaluation.
template <class O>
concept SampleObservation = requires(const O& o) {
  { o.mechanical } -> std::convertible_to<double>;
  { o.force_normalized } -> std::convertible_to<double>;
  { o.indentation } -> std::convertible_to<double>;
};

namespace recorder_detail {
// Stands for the recorder's sample loop in RecorderProbe: takes a sampler that
// maps a State to an Observation (declared only: never called).
template <class State, class Observation>
struct SamplerUser {
  template <class Sampler>
    requires std::is_invocable_r_v<Observation, const Sampler&, const State&>
  std::size_t operator()(const Sampler&) const;
};
}  // namespace recorder_detail

// The probe contract (top of this file): the recorder and record_run take nothing else.
template <class P>
concept RecorderProbe =
    SampleObservation<typename P::Observation> &&
    requires(P& p, const P& cp, const typename P::State& s, const typename P::Observation& o, const double* times,
             const typename P::State* states, std::size_t n, bool kept) {
      { cp.initial_energy() } -> std::convertible_to<double>;
      p.describe();
      { p.with_sampler(recorder_detail::SamplerUser<typename P::State, typename P::Observation>{}) }
          -> std::same_as<std::size_t>;
      p.finish(kept);
      requires requires { p.keep(0.0, s, o); } || requires { p.keep_states(times, states, n); };
    };

template <RecorderProbe Probe>
class Recorder {
 public:
  using State = typename Probe::State;

  Recorder(Probe& probe, Trace& trace, bool keep_samples, Eigen::Index state_size)
      : probe_(probe),
        trace_(trace),
        keep_(keep_samples),
        tau_per_second_(std::sqrt(trace.gravity / trace.characteristic_length)),
        energy_bound_(divergence_energy_bound(probe.initial_energy(), trace.total_mass * trace.gravity,
                                              trace.characteristic_length)) {
    if constexpr (!fixed_size_state) states_.fill(State::Zero(state_size));
  }

  // The adaptive driver's call: count samples at times, from dense(t, state).
  // Returns how many were taken; fewer than count when a sample's energy left
  // the bound (the run stops there: diverged). Kept out of the driver: inlined
  // there, the sample loop lost registers to the step's code (7-11 % slower).
  template <class Dense>
  [[gnu::noinline]] std::size_t take_samples(const Dense& dense, const double* times, std::size_t count) {
    // Recording or not is fixed per run: two loops, neither testing it per sample.
    return probe_.with_sampler([&](const auto& sampler) {
      return keep_ ? sample_loop<true>(dense, times, count, sampler) : sample_loop<false>(dense, times, count, sampler);
    });
  }

  // Every other caller (the first sample, fixed-step methods): one sample.
  bool operator()(const State& s, double t) { return take_samples(integrators::AtState<State>{s}, &t, 1) == 1; }

  // Completes the trace; the time of the first sample beyond the energy
  // bound, if one was (the trace ends before it), else NaN.
  double finish() {
    probe_.finish(keep_);
    return diverged_at_;
  }

 private:
  static constexpr bool fixed_size_state = State::SizeAtCompileTime != Eigen::Dynamic;
  // Probes that can bound forces and energy (SampleBounds) over a range of states.
  static constexpr bool bounds_chunks = requires(const Probe& p, const State& s) {
    { p.range_bounds(s, s) } -> std::same_as<std::optional<SampleBounds>>;
  };
  // Probes that record the state alone at a sample and derive the rest when the run ends.
  static constexpr bool keeps_states = requires(Probe& p, const double* t, const State* s) {
    p.keep_states(t, s, std::size_t{});
  };
  // Dense outputs that bound a step's samples without evaluating them.
  template <class Dense>
  static constexpr bool bounds_samples = requires(const Dense& d, State& s) {
    { d.bounds(0.0, 0.0, s, s) } -> std::same_as<bool>;
  };
  static constexpr std::size_t chunk_size = 32;  // interpolated states, per pass

  // A step's samples. Two passes over a chunk: the interpolant, then the
  // sampler and the rest; in one pass each sample's chain (interpolant, law,
  // energy) was too long for the CPU to overlap enough samples. What does not
  // change within a run sits in locals: the probe's stores would otherwise
  // make the compiler reload it from *this at every sample.
  template <bool keep, class Dense, class Sampler>
  std::size_t sample_loop(const Dense& dense, const double* times, std::size_t count, const Sampler sampler) {
    // Fixed-size states in a local, which the probe's stores cannot alias;
    // dynamic ones in the member sized once per run.
    [[maybe_unused]] std::array<State, fixed_size_state ? chunk_size : 1> local_states;
    auto& states = [&]() -> auto& {
      if constexpr (fixed_size_state) return local_states;
      else return states_;
    }();
    TraceSummary summary = trace_.summary;
    const double energy_bound = energy_bound_, tau_per_second = tau_per_second_;
    Probe& probe = probe_;  // one load per sample fewer than through *this
    std::size_t taken = 0;
    constexpr bool skips_laws = (!keep || keeps_states) && bounds_chunks;
    bool only_last_of_step = false;  // the step's bounds showed that only its last sample needs the law
    if constexpr (skips_laws && bounds_samples<Dense>) {
      // From the interpolant's bounds over the step: summary only, the others are not even
      // interpolated; recording states, they are interpolated and kept, not evaluated.
      State low, high;
      only_last_of_step = count > 1 && dense.bounds(times[0], times[count - 1], low, high) &&
                          only_last_counts(summary, low, high);
      if (!keep && only_last_of_step) {
        summary.samples += count - 1;
        taken = count - 1;
      }
    }
    while (taken < count) {
      const std::size_t n = std::min(chunk_size, count - taken);
      const double* const chunk_times = times + taken;
      for (std::size_t i = 0; i < n; ++i) dense(chunk_times[i], states[i]);
      std::size_t i = 0;
      if constexpr (skips_laws) {
        // From the chunk's interpolated states: the law is skipped at the others;
        // the summary is the same to the bit.
        if (only_last_of_step) {  // recording states: every chunk is kept, only the step's last sample evaluated
          i = taken + n == count ? n - 1 : n;
          summary.samples += i;
          taken += i;
        } else if (n > 1) {
          State low = states[0], high = low, sum = low;
          for (std::size_t k = 1; k < n; ++k) {
            low = low.cwiseMin(states[k]);
            high = high.cwiseMax(states[k]);
            sum += states[k];  // min and max may pass NaN over: the sum does not
          }
          if (sum.allFinite() && only_last_counts(summary, low, high)) {
            summary.samples += n - 1;
            taken += n - 1;
            i = n - 1;
          }
        }
      }
      for (; i < n; ++i, ++taken) {
        const double t = times[taken];
        const auto observation = sampler(states[i]);
        if (!(observation.mechanical <= energy_bound)) {  // also NaN
          diverged_at_ = t;
          trace_.summary = summary;
          if constexpr (keep && keeps_states) probe.keep_states(chunk_times, states.data(), i);
          return taken;
        }
        summarise_sample(summary, t, tau_per_second, observation.force_normalized);
        summary.equilibrium_indentation_relative = observation.indentation;  // made relative in finish()
        if constexpr (keep && !keeps_states) probe.keep(t, states[i], observation);
      }
      if constexpr (keep && keeps_states) probe.keep_states(chunk_times, states.data(), n);
    }
    trace_.summary = summary;
    return taken;
  }

  // Whether samples whose states lie in [low, high] change the summary only
  // through their last one, which then stands for them all.
  bool only_last_counts(const TraceSummary& summary, const State& low, const State& high) const {
    const auto bounds = probe_.range_bounds(low, high);
    return bounds && only_last_sample_counts(summary, *bounds, energy_bound_);
  }

  Probe& probe_;
  Trace& trace_;
  const bool keep_;
  const double tau_per_second_, energy_bound_;
  std::array<State, fixed_size_state ? 1 : chunk_size> states_;  // dynamic states: sized once per run
  double diverged_at_ = std::numeric_limits<double>::quiet_NaN();
};

// The output grid of the last run on this thread, kept for the next run that
// asks for the same one: a sweep's runs mostly do, and building it afresh (a
// zeroed vector of a few thousand times, then filled) was a tenth of the
// instructions of a summary-only drop. Runs on one thread never nest.
inline const std::vector<double>& reused_output_grid(double duration, double interval) {
  thread_local struct {
    double duration = -1.0, interval = -1.0;
    std::vector<double> grid;
  } last;
  if (duration != last.duration || interval != last.interval) {
    last.grid = integrators::output_grid(0.0, duration, interval);
    last.duration = duration;
    last.interval = interval;
  }
  return last.grid;
}

// Runs system from x over run's output grid and records it into trace through
// probe: the one run pipeline of every system. Never throws on numerical
// trouble: a blow-up comes back as stats.status == diverged, the trace ending
// at the last sample within the energy bound.
template <class System, RecorderProbe Probe>
void record_run(const System& system, typename System::Vector x, const RunSettings& run, Probe& probe,
                Trace& trace) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<double>& grid = reused_output_grid(run.duration, run.output_interval);
  trace.clear();  // keeps the sample buffers' capacity: no fresh pages per run
  probe.describe();
  trace.integrator = std::string(integrators::info(run.integrator.method).name);
  if (run.record_samples) trace.reserve(grid.size());

  Recorder<Probe> recorder(probe, trace, run.record_samples, system.size());
  using Vector = typename System::Vector;
  const Vector atol = run.atol > 0.0 ? Vector(Vector::Constant(system.size(), run.atol))
                                     : Vector(system.model_scaled_atol(run.integrator.rtol));
  // Adaptive runs say whether stability, the step cap or accuracy held their steps.
  integrators::StiffnessMonitor<System> watch(system, run.integrator, run.attribute_stiffness);
  trace.stats = integrators::integrate(run.integrator, system, x, grid, atol, recorder, watch);
  const double diverged_at = recorder.finish();
  if (!std::isnan(diverged_at)) {
    trace.stats.status = integrators::Status::diverged;
    trace.stats.reason = "energy grew beyond bound";
    trace.stats.end_time = diverged_at;
  }
  const bool adaptive = integrators::info(run.integrator.method).adaptive && !run.integrator.fixed;
  if (!adaptive)
    trace.step = run.output_interval /
                 static_cast<double>(integrators::steps_in(0.0, run.output_interval, run.integrator.step));
  trace.stiffness_attributed = adaptive && run.attribute_stiffness;
  trace.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace dropsim
