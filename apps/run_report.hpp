// What `run` and `osim drop` print of a finished run: the summary row, and
// where a run diverged.
#pragma once

#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/trace.hpp"

namespace dropsim::app {

void print_summary_header();
// One row: E*, alpha, final x/R, peak F/(Mg) and its tau, steps, status.
void print_summary(const io::Scenario& s, const Trace& t);
// Status, time, reason and the last finite state, as the file's attributes hold them.
void print_divergence(const io::Scenario& s, const Trace& t);

}  // namespace dropsim::app
