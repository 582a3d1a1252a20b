// What a run will cost before it runs: integration steps and trace memory (the resource guard's input).
#pragma once

#include "dropsim/sim/model.hpp"
#include "dropsim/sim/simulate.hpp"

namespace dropsim {

struct RunEstimate {
  double steps = 0.0;        // integration steps: exact for fixed-step methods, a rough upper estimate otherwise
  bool steps_exact = false;  // fixed-step: the driver takes exactly this many
  double samples = 0.0;      // output samples (rows of every dataset)
  double trace_bytes = 0.0;  // memory the Trace holds; the HDF5 file is at most about this
  double contact_period = 0.0;  // s, 2 pi / omega of the fastest contact mode (0: no contact stiffness)
};

// Never throws and never runs the model; doubles, because absurd inputs
// (1e12 steps) are exactly what this is for. The contact period is taken at
// static equilibrium, or at the initial state where there is none (gravity 0).
RunEstimate estimate_run(const Model& model, const RunSettings& run);

}  // namespace dropsim
