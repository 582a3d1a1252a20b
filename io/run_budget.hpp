// The resource guard: refuse, before running, a scenario whose step count or trace exceeds a budget.
#pragma once

#include "io/scenario.hpp"
#include "sim/run_estimate.hpp"

namespace dropsim::io {

// Defaults: about a minute of 1-DOF stepping, a trace that fits a laptop's memory.
struct RunBudget {
  double max_steps = 1e9;
  double max_trace_bytes = 1024.0 * 1024.0 * 1024.0;  // 1 GiB
};

// Throws InputError (exit 2) naming the scenario keys that drive the cost and
// the estimate; `dropsim run --force` skips this check.
void check_run_budget(const Scenario& scenario, const RunBudget& budget = {});

}  // namespace dropsim::io
