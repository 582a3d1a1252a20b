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
  double wall_time = 0.0;  // s
  TraceSummary summary;

  std::size_t samples() const { return time.size(); }
  void reserve(std::size_t n);
  void clear();  // back to a default Trace, keeping the buffers' capacity

  // Summary metrics of the run.
  double final_indentation_relative() const;  // mean over contacts at the last sample
  std::size_t peak_index() const;             // of force_normalized
  // With friction recorded (0 without): the largest friction force over normal
  // force of any pushing contact at any sample, the friction coefficient the
  // run called on; and the fastest slip of a pushing contact at the last
  // sample, m/s (near 0: the bodies ended stuck).
  double peak_friction_ratio() const;
  double final_slip_speed() const;
};

}  // namespace dropsim
