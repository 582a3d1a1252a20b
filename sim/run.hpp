// Running any model: the run pipeline's one dispatch on the model's kind.
#pragma once

#include "dropsim/sim/model.hpp"
#include "dropsim/sim/multibody_simulate.hpp"
#include "dropsim/sim/simulate.hpp"

namespace dropsim {

// The drop's fixed-size system or the multibody system, from the model's
// initial state. Never throws on numerical trouble: divergence comes back as
// stats.status == diverged with the trace up to its last finite sample.
Trace simulate(const Model& model, const RunSettings& run);
// The same into `trace`, reusing its buffers (sweeps, benchmarks).
void simulate(const Model& model, const RunSettings& run, Trace& trace);

}  // namespace dropsim
