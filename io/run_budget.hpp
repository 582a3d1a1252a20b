// The resource guard: refuse, before running, a scenario whose step count or trace exceeds a budget.
#pragma once

#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/run_estimate.hpp"

namespace dropsim::io {

// Defaults: about a minute of 1-DOF stepping, a trace that fits a laptop's memory.
struct RunBudget {
  double max_steps = 1e9;
  double max_trace_bytes = 1024.0 * 1024.0 * 1024.0;  // 1 GiB
  bool forceable = true;  // the message offers --force
};

// What even `--force` cannot run: beyond 1e15 steps the step counts overflow the
// integer types of the fixed-step driver, and the run would take years anyway.
inline constexpr RunBudget hard_run_limits{1e15, 1e300, false};

// Throws InputError (exit 2) naming the scenario keys that drive the cost and
// the estimate; `dropsim run --force` checks hard_run_limits instead.
void check_run_budget(const Scenario& scenario, const RunBudget& budget = {});

}  // namespace dropsim::io
