// A drop trace's summary metrics computed again from its recorded columns,
// where the law was evaluated at every sample: what the run's summary, which
// skips the law where bounds show a sample cannot change it, must equal to the bit.
#pragma once

#include <cmath>

#include "dropsim/sim/trace.hpp"

namespace dropsim::test {

inline TraceSummary summary_of_columns(const Trace& t) {
  TraceSummary s;
  s.samples = t.samples();
  if (s.samples == 0) return s;
  const std::size_t peak = t.peak_index();  // the first maximum
  s.peak_force_normalized = t.force_normalized[peak];
  s.tau_of_peak = t.tau[peak];
  for (std::size_t i = 0; i < t.samples(); ++i)
    if (std::abs(t.force_normalized[i] - 1.0) > settling_band) s.settling_time = t.time[i];
  s.equilibrium_indentation_relative = t.indentation_relative.back();  // the drop's one contact
  return s;
}

}  // namespace dropsim::test
