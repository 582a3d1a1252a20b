// The paper's drop run in Simbody the way OpenSim runs it: a Slider-mobilized
// body under gravity, n ContactSpheres on a HalfSpace, SimTK::HuntCrossleyForce.
#pragma once

#include <vector>

#include "bench/peers/simbody/simbody_integrator.hpp"
#include "dropsim/sim/drop.hpp"

namespace dropsim::peers {

struct SimbodyRun {
  std::vector<double> force_normalized;  // on the grid, when recorded
  long steps = 0, realizations = 0;
  bool ok = true;
};

// Integrates to grid.back() at Simbody's `accuracy`. With `record`, reports
// F/(Mg) at every grid time (realized to accelerations, as OpenSim's
// reporters do); without, steps straight to the end.
SimbodyRun simbody_drop(const DropModel& model, const std::vector<double>& grid, SimbodyIntegrator integrator,
                        double accuracy, bool record);

}  // namespace dropsim::peers
