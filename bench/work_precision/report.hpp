// What the work-precision benchmark reports: each setting's CPU time per suite,
// caught on its way to the console, and the matched-accuracy table and JSON.
#pragma once

#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>
#include <vector>

namespace work_precision {

// BM_Hdf5WriteOnly writes the 14 files alone: the traces are recorded once at
// an rtol that meets 1e-6 (1e-8; every tolerance has the same grid, so the same
// bytes), then each iteration writes them. The "+hdf5" family's difference from
// the recording family says the same, but as the difference of two noisy timings.
constexpr double write_only_rtol = 1e-8;
extern double hdf5_write_only_seconds;  // CPU per suite of BM_Hdf5WriteOnly, filled in by the reporter

// Catches each run's time per suite on its way to the console.
class Collector : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override;
};

// The JSON the figure is drawn from; prints the matched-accuracy table on the way.
nlohmann::json summarize(bool short_mode);

}  // namespace work_precision
