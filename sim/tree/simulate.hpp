// Running the body tree: the recorder's probe for it (time, q, u, each
// contact's normal and friction force and indentation, the ground's vertical
// force, energies) and one entry that integrates and records.
#pragma once

#include <Eigen/Core>

#include "dropsim/sim/simulate.hpp"
#include "dropsim/sim/trace.hpp"
#include "dropsim/sim/tree/model.hpp"

namespace dropsim::tree {

// Never throws on numerical trouble: a run that blows up (energy beyond its
// bound, a rate that is not finite) comes back with stats.status == diverged
// and the trace up to its last good sample. Trace::force is the vertical
// (against gravity) force the ground and the bodies fixed to it put on the
// rest; trace.potential holds the gravitational energy.
Trace simulate(const TreeModel& model, const RunSettings& run);
Trace simulate_from(const TreeModel& model, const RunSettings& run, const Eigen::VectorXd& x0);

}  // namespace dropsim::tree
