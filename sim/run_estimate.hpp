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

// `run` with the largest step an adaptive method may take on the model, where
// one is needed and none is set (fixed-step runs are left as they are).
// In free flight the solution is a parabola, which the embedded pairs
// integrate exactly, so the error estimate is zero and the step grows
// fivefold per step until it can hold a whole contact. Fehlberg 7(8)'s
// estimate, 41/840 (k0 + k10 - k11 - k12), sees only the stages at a step's
// two ends, and Cash-Karp's also misses such a contact. The step is accepted
// with a wrong state and the run blows up: 51 of 147 and 12 of 150 random
// drops did (dropsim_soak --seed 7). Their steps are capped at a sixteenth of
// the contact period at rest: at an eighth, 129 of 77 199 fehlberg78 runs of a
// million-run soak still blew up (a hard impact is shorter than the period at
// rest); at a sixteenth none of either method's did. dopri5, bulirsch_stoer and
// rosenbrock4 never failed and stay unbounded
// (docs/integrators.md#the-adaptive-driver). The period is the one at static
// equilibrium, or at the initial state where there is none; with no contact
// compressed there (bodies in flight with gravity 0, say) it is 0 and the
// step is not capped.
RunSettings with_adaptive_step_cap(const DropModel& model, RunSettings run);
RunSettings with_adaptive_step_cap(const MultibodyModel& model, RunSettings run);

}  // namespace dropsim
