// A recorded run: samples on the output grid plus what the integrator reported.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "dropsim/integrators/system.hpp"

namespace dropsim {

// Settling: the run has settled once |F/(Mg) - 1| stays within this band.
constexpr double settling_band = 0.02;

// Summary metrics of a run, kept while it runs (so they exist without samples).
struct TraceSummary {
  std::size_t samples = 0;                        // observed, stored or not
  double equilibrium_indentation_relative = 0.0;  // at the last sample
  double peak_force_normalized = 0.0;             // max F/(Mg), first occurrence
  double tau_of_peak = 0.0;
  double settling_time = 0.0;  // s, last sample outside settling_band (the end if it never settles)
};

// One observed sample into the summary: the first maximum of F/(Mg) (as
// max_element finds it) and the last time outside the settling band. Both
// recorders call this; each keeps its own measure of the final indentation.
inline void summarise_sample(TraceSummary& summary, double t, double tau_per_second, double force_normalized) {
  ++summary.samples;
  if (summary.samples == 1 || force_normalized > summary.peak_force_normalized) {
    summary.peak_force_normalized = force_normalized;
    summary.tau_of_peak = t * tau_per_second;
  }
  if (std::abs(force_normalized - 1.0) > settling_band) summary.settling_time = t;
}

// Bounds on F/(Mg) and on the mechanical energy over a run of samples.
struct SampleBounds {
  double force_low, force_high, mechanical_high;
};

// Whether samples within bounds b, followed by a last sample within them too,
// leave the summary (and the divergence test) exactly as that last sample
// alone does: none can beat the peak or reach the energy bound, and all lie on
// one side of the settling band, or all inside it. The slack covers rounding
// that may differ between evaluating the bounds and the samples (contracted
// multiply-adds); a force of exactly zero is exact (no contact).
inline bool only_last_sample_counts(const TraceSummary& summary, const SampleBounds& b, double energy_bound) {
  constexpr double slack = 1e-12;
  if (summary.samples == 0) return false;  // the first sample sets the peak
  const double peak = summary.peak_force_normalized;
  if (!(b.force_high == 0.0 || b.force_high <= peak - slack * std::abs(peak))) return false;
  if (!(b.mechanical_high <= energy_bound - slack * std::abs(energy_bound))) return false;
  const bool all_above = b.force_low - 1.0 > settling_band + slack;
  const bool all_below = b.force_high - 1.0 < -settling_band - slack;
  const bool all_inside = b.force_low - 1.0 >= -settling_band + slack && b.force_high - 1.0 <= settling_band - slack;
  return all_above || all_below || all_inside;
}

// Row-major (time-major) samples; 2-D quantities hold `columns` values per row.
struct Trace {
  int nq = 0, nu = 0, contacts = 0;
  bool has_friction = false;  // some contact has friction: friction_force and slip_speed are recorded
  double gravity = 0.0, characteristic_length = 0.0, total_mass = 0.0;
  std::vector<double> contact_radius;  // per contact, for indentation_relative

  std::vector<double> time, tau, force, force_normalized;
  std::vector<double> contact_force, indentation, indentation_relative;  // N x contacts
  std::vector<double> friction_force, slip_speed;  // N x contacts, per sphere; empty without friction
  std::vector<double> q, u;                                              // N x nq, N x nu
  std::vector<std::string> q_names, u_names;  // column names of q and u, when known
  std::vector<std::string> q_units, u_units;  // and their units (angles, quaternions), when known
  std::vector<double> kinetic, potential, elastic, dissipated;

  std::string integrator;
  double step = 0.0;  // fixed-step methods: the step actually taken
  integrators::IntegrationStats stats;
  // An adaptive run that judged each step against its stability limit: the
  // stats' stability-bound counts mean something (RunSettings::attribute_stiffness).
  bool stiffness_attributed = false;
  double wall_time = 0.0;  // s
  TraceSummary summary;

  std::size_t samples() const { return time.size(); }
  // Whether every column holds every sample: false for a drop recorded with
  // RunSettings::record_states_only until derive_columns() has run.
  bool columns_complete() const;
  void reserve(std::size_t n);
  void clear();  // back to a default Trace, keeping the buffers' capacity

  // Summary metrics of the run.
  double final_indentation_relative() const;  // mean over contacts at the last sample; NaN if not derived
  std::size_t peak_index() const;             // of force_normalized
  // With friction recorded (0 without): the largest friction force over normal
  // force of any pushing contact at any sample, the friction coefficient the
  // run called on; and the fastest slip of a pushing contact at the last
  // sample, m/s (near 0: the bodies ended stuck).
  double peak_friction_ratio() const;
  double final_slip_speed() const;
};

}  // namespace dropsim
