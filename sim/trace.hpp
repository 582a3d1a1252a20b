// A recorded run: samples on the output grid plus what the integrator reported.
#pragma once

#include <string>
#include <vector>

#include "integrators/system.hpp"

namespace dropsim {

// Row-major (time-major) samples; 2-D quantities hold `columns` values per row.
struct Trace {
  int nq = 0, nu = 0, contacts = 0;
  double gravity = 0.0, characteristic_length = 0.0, total_mass = 0.0;
  std::vector<double> contact_radius;  // per contact, for indentation_relative

  std::vector<double> time, tau, force, force_normalized;
  std::vector<double> contact_force, indentation, indentation_relative;  // N x contacts
  std::vector<double> q, u;                                              // N x nq, N x nu
  std::vector<std::string> q_names, u_names;  // column names of q and u, when known
  std::vector<double> kinetic, potential, elastic, dissipated;

  std::string integrator;
  double step = 0.0;  // fixed-step methods: the step actually taken
  integrators::IntegrationStats stats;
  double wall_time = 0.0;  // s

  std::size_t samples() const { return time.size(); }
  void reserve(std::size_t n);

  // Summary metrics of the run.
  double final_indentation_relative() const;  // mean over contacts at the last sample
  std::size_t peak_index() const;             // of force_normalized
};

}  // namespace dropsim
