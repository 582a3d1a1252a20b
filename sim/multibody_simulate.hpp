// Running a multibody model: the same Trace (and HDF5 layout) as the 1-DOF drop.
#pragma once

#include "dropsim/sim/multibody.hpp"
#include "dropsim/sim/simulate.hpp"

namespace dropsim {

// Simulates from the model's initial state, or from x0 ([q; u]) when given.
// Never throws on numerical trouble: divergence comes back as
// stats.status == diverged with the trace up to its last finite sample.
Trace simulate(const MultibodyModel& model, const RunSettings& run);
Trace simulate_from(const MultibodyModel& model, const RunSettings& run, const Eigen::VectorXd& x0);
// The same into `trace`, reusing its buffers (sweeps).
void simulate_from(const MultibodyModel& model, const RunSettings& run, const Eigen::VectorXd& x0, Trace& trace);

}  // namespace dropsim
