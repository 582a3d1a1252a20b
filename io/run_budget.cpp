// The resource guard's messages: the estimate, the budget and the keys that set the cost.
#include "dropsim/io/run_budget.hpp"

#include <string>

#include "dropsim/sim/format.hpp"

namespace dropsim::io {

namespace {

std::string number(double x) { return significant(x, 3); }

}  // namespace

void check_run_budget(const Scenario& s, const RunBudget& budget) {
  const RunEstimate e = estimate_run(s.model, s.run);
  const std::string force = budget.forceable ? "; pass --force to run it anyway" : " (a hard limit, even with --force)";
  if (e.trace_bytes > budget.max_trace_bytes)
    throw InputError(s.file, "/output/interval",
                     "the trace would hold " + number(e.samples) + " samples (/duration " + number(s.run.duration) +
                         " s every " + number(s.run.output_interval) + " s), about " +
                         number(e.trace_bytes / 1048576.0) + " MiB in memory, over the budget of " +
                         number(budget.max_trace_bytes / 1048576.0) + " MiB; raise the interval" + force);
  if (e.steps <= budget.max_steps) return;
  if (e.steps_exact)
    throw InputError(s.file, "/integrator/step",
                     "the run needs " + number(e.steps) + " steps of " + number(s.run.integrator.step) +
                         " s over /duration " + number(s.run.duration) + " s, over the budget of " +
                         number(budget.max_steps) + " steps; raise the step or shorten the run" + force);
  throw InputError(s.file, "/duration",
                   number(s.run.duration) + " s is about " + number(s.run.duration / e.contact_period) +
                       " contact periods of " + number(e.contact_period) + " s; at /integrator/rtol " +
                       number(s.run.integrator.rtol) + " that is roughly " + number(e.steps) +
                       " steps (an estimate), over the budget of " + number(budget.max_steps) +
                       " steps; shorten the run or loosen rtol" + force);
}

}  // namespace dropsim::io
