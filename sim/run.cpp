// Running any model: std::visit picks the system.
#include "dropsim/sim/run.hpp"

namespace dropsim {

Trace simulate(const Model& model, const RunSettings& run) {
  Trace trace;
  simulate(model, run, trace);
  return trace;
}

void simulate(const Model& model, const RunSettings& run, Trace& trace) {
  struct Run {
    const RunSettings& run;
    Trace& trace;
    void operator()(const DropModel& m) const { dropsim::simulate(m, run, trace); }
    void operator()(const MultibodyModel& m) const { simulate_from(m, run, m.initial_state(), trace); }
  };
  std::visit(Run{run, trace}, model);
}

}  // namespace dropsim
