// Sweeps from the command line: axes parsed and checked, per-run scenarios, their rows (the file: sweep_file.cpp).
#include "dropsim/io/sweep.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "dropsim/io/hdf5_trace.hpp"
#include "dropsim/io/input_error.hpp"
#include "dropsim/sim/parallel_runs.hpp"
#include "dropsim/sim/run.hpp"

namespace dropsim::io {

using nlohmann::json;

namespace {

double parse_number(const std::string& text, const std::string& spec, const char* what) {
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  throw InputError("--vary", "", std::string(what) + " must be a number in \"" + spec + "\" (got \"" + text + "\")");
}

}  // namespace

SweepAxis parse_sweep_axis(const std::string& spec) {
  SweepAxis a;
  a.spec = spec;
  const auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || spec[0] != '/')
    throw InputError("--vary", "", "expected PATH=START:STOP:COUNT[:log] with PATH a JSON pointer such as "
                                   "/contact/dissipation (got \"" + spec + "\")");
  a.pointer = spec.substr(0, eq);
  std::vector<std::string> parts;
  std::string rest = spec.substr(eq + 1);
  for (std::size_t from = 0;;) {
    const auto colon = rest.find(':', from);
    parts.push_back(rest.substr(from, colon - from));
    if (colon == std::string::npos) break;
    from = colon + 1;
  }
  if (parts.size() < 3 || parts.size() > 4 || (parts.size() == 4 && parts[3] != "log"))
    throw InputError("--vary", "", "expected PATH=START:STOP:COUNT[:log] (got \"" + spec + "\")");
  a.start = parse_number(parts[0], spec, "START");
  a.stop = parse_number(parts[1], spec, "STOP");
  const double count = parse_number(parts[2], spec, "COUNT");
  if (count < 1 || count != std::floor(count) || count > 1e9)
    throw InputError("--vary", "", "COUNT must be a whole number >= 1 in \"" + spec + "\"");
  a.count = static_cast<long>(count);
  a.log = parts.size() == 4;
  if (a.log && (a.start <= 0.0 || a.stop <= 0.0))
    throw InputError("--vary", "", "a log axis needs START and STOP > 0 in \"" + spec + "\"");
  try {
    (void)json::json_pointer(a.pointer);
  } catch (const json::exception&) {
    throw InputError("--vary", "", "\"" + a.pointer + "\" is not a JSON pointer");
  }
  return a;
}

SweepDesign cartesian_design(std::vector<SweepAxis> axes) {
  double total = 1.0;
  for (const auto& a : axes) total *= static_cast<double>(a.count);
  if (total > 1e8) throw InputError("--vary", "", "the product has " + std::to_string(total) + " runs (limit 1e8)");
  return dropsim::cartesian_design(std::move(axes));
}

SweepDesign latin_hypercube_design(std::vector<SweepAxis> axes, long samples, std::uint64_t seed) {
  if (samples < 1 || samples > 100000000) throw InputError("--samples", "", "must be between 1 and 1e8");
  return dropsim::latin_hypercube_design(std::move(axes), samples, seed);
}

SweepScenarios::SweepScenarios(const json& base, std::string base_file, const SweepDesign& design, Resolved resolved)
    : document_(base), base_file_(std::move(base_file)), design_(design), resolved_(resolved) {
  for (const SweepAxis& axis : design.axes) {
    const json::json_pointer& target = targets_.emplace_back(axis.pointer);
    if (!base.contains(target.parent_pointer()) || !base[target.parent_pointer()].is_object())
      throw InputError(base_file_, axis.pointer, "--vary: no such object in the base scenario");
    integer_.push_back(base.contains(target) && base[target].is_number_integer());
  }
}

Scenario SweepScenarios::operator()(std::size_t run) {
  for (std::size_t i = 0; i < targets_.size(); ++i) {
    const double v = design_.values[run][i];
    json& target = document_[targets_[i]];
    if (integer_[i] && v == std::round(v)) target = static_cast<long long>(std::llround(v));
    else target = v;  // a fraction where the base has an integer: left to the parser to reject, with its path
  }
  return parse_scenario_json(document_, base_file_ + " (sweep run " + std::to_string(run) + ")", resolved_);
}

Scenario sweep_scenario(const json& base, const std::string& base_file, const SweepDesign& design, std::size_t run) {
  return SweepScenarios(base, base_file, design)(run);
}

SweepRow sweep_row(std::size_t run, const std::vector<double>& values, const Trace& t) {
  SweepRow r;
  r.run = static_cast<std::int64_t>(run);
  r.values = values;
  r.equilibrium_indentation_relative = t.summary.equilibrium_indentation_relative;
  r.peak_force_normalized = t.summary.peak_force_normalized;
  r.tau_of_peak = t.summary.tau_of_peak;
  r.settling_time = t.summary.settling_time;
  r.status = t.stats.status == integrators::Status::diverged ? 1 : 0;
  r.steps = t.stats.steps;
  r.rhs_evaluations = t.stats.rhs_evaluations;
  return r;
}

std::vector<SweepRow> run_sweep(const json& base, const std::string& base_file, const SweepDesign& design,
                                std::size_t first, std::size_t last, unsigned threads, const std::string& traces_dir,
                                const std::function<void(std::size_t)>& progress) {
  std::vector<SweepRow> rows(last - first);
  struct Worker {  // one per thread, kept run after run
    Trace trace;
    std::optional<SweepScenarios> scenarios;
  };
  run_in_parallel<Worker>(first, last, threads, [&](std::size_t i, Worker& worker) {
    // Summary-only runs skip the resolved scenario, which only a trace file carries.
    if (!worker.scenarios) worker.scenarios.emplace(base, base_file, design, traces_dir.empty() ? Resolved::skip : Resolved::keep);
    Trace& trace = worker.trace;
    Scenario s = (*worker.scenarios)(i);
    s.run.record_samples = !traces_dir.empty();  // summary only unless traces are wanted
    s.run.attribute_stiffness = !traces_dir.empty();  // the rows have no stiffness columns; traces do
    simulate(s.model, s.run, trace);  // reuses the buffers run after run
    if (!traces_dir.empty()) {
      char stem[32];
      std::snprintf(stem, sizeof stem, "_%06zu.h5", i);
      write_trace_hdf5((std::filesystem::path(traces_dir) / (s.name + stem)).string(), s, trace);
    }
    rows[i - first] = sweep_row(i, design.values[i], trace);
  }, progress);
  return rows;
}

}  // namespace dropsim::io
