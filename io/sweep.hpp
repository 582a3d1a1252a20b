// Parameter sweeps: a design of points over JSON-pointer axes of a base
// scenario, each point patched in and validated by parse_scenario, run, and
// reduced to one summary row; rows go to one HDF5 file (sweep_file.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "dropsim/io/scenario.hpp"
#include "dropsim/io/sweep_file.hpp"
#include "dropsim/sim/sweep_design.hpp"

namespace dropsim::io {

using dropsim::SweepAxis;
using dropsim::SweepDesign;

// `PATH=START:STOP:COUNT[:log]`, PATH a JSON pointer into the scenario.
SweepAxis parse_sweep_axis(const std::string& spec);  // throws InputError naming "--vary"

// The designs of sim/sweep_design.hpp with their sizes checked: at most 1e8
// runs, else InputError naming "--vary" or "--samples".
SweepDesign cartesian_design(std::vector<SweepAxis> axes);
SweepDesign latin_hypercube_design(std::vector<SweepAxis> axes, long samples, std::uint64_t seed);

// The scenarios of a design's runs, one after another: the base scenario with
// a run's values patched in, validated exactly as a file would be. The base
// is copied once and each run patches only its own values into the copy (a
// sweep's thread keeps one: a copy per run was a fifth of parsing a run).
// Integer-valued targets of the base (e.g. /drop/spheres) get integers.
// `resolved` says whether the scenarios carry their resolved form (traces do).
class SweepScenarios {
 public:
  // Throws InputError where an axis names no object of the base.
  SweepScenarios(const nlohmann::json& base, std::string base_file, const SweepDesign& design,
                 Resolved resolved = Resolved::keep);
  Scenario operator()(std::size_t run);

 private:
  nlohmann::json document_;
  std::string base_file_;
  const SweepDesign& design_;
  std::vector<nlohmann::json::json_pointer> targets_;
  std::vector<bool> integer_;  // the base holds an integer there
  Resolved resolved_;
};

// One run's scenario, as SweepScenarios gives it.
Scenario sweep_scenario(const nlohmann::json& base, const std::string& base_file, const SweepDesign& design,
                        std::size_t run);

// A run's row of the summary file, from its trace.
SweepRow sweep_row(std::size_t run, const std::vector<double>& values, const Trace& trace);

// Runs design rows [first, last) on `threads` threads (sim/parallel_runs.hpp).
// Rows come back in run order whatever the thread count; `progress(done)` is
// called from workers under a lock. With a traces_dir, each run's trace is
// written there too.
std::vector<SweepRow> run_sweep(const nlohmann::json& base, const std::string& base_file, const SweepDesign& design,
                                std::size_t first, std::size_t last, unsigned threads,
                                const std::string& traces_dir, const std::function<void(std::size_t)>& progress);

}  // namespace dropsim::io
