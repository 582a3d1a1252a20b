// BM_WorkPrecision/<method>/<tolerance>: the 14-run paper suite's time against its
// max error in F/(Mg) (vs a tight dropsim reference) for dropsim, the
// hand-written floor and (when built) Simbody; the same for the multi-contact
// suites (<scenario>:<method>: a free box on eight spheres, the posed
// quadruped on four and a bar on two, all with friction) against their own hand-written floor
// and Simbody; then the matched-accuracy table and its ratios, printed and
// written to JSON.
//
//   work_precision_bench [--json PATH] [google-benchmark flags]   (PATH: results/bench/work_precision.json)
// CI: --benchmark_min_time=0.01 (scripts/ci-bench.sh) still writes the JSON. A full run
// (docs/performance.md#reproduce) repeats each setting and keeps its fastest timing.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bench/work_precision/families.hpp"
#include "bench/work_precision/report.hpp"
#include "bench/work_precision/suites.hpp"
#include "dropsim/integrators/sundials.hpp"
#include "dropsim/io/hdf5_trace.hpp"
#include "dropsim/sim/run.hpp"

namespace {

using namespace work_precision;

void BM_WorkPrecision(benchmark::State& state, std::size_t index) {
  Config& c = configs[index];
  const auto h5_dir = std::filesystem::temp_directory_path() / "dropsim_work_precision";
  std::filesystem::create_directories(h5_dir);
  const Outcome measured = run_suite(c, true, h5_dir);  // error from the recorded run, outside the timing
  c.error = measured.error;
  c.steps = measured.steps;
  c.rhs = measured.rhs;
  for (auto _ : state) run_suite(c, false, h5_dir);
  state.counters["config"] = static_cast<double>(index);
  state.counters["max_error"] = c.error;
  state.counters["steps_per_suite"] = static_cast<double>(c.steps);
  state.counters["rhs_per_suite"] = static_cast<double>(c.rhs);
  state.counters["ns_per_rhs"] = benchmark::Counter(static_cast<double>(c.rhs) * 1e-9,
                                                    benchmark::Counter::kIsIterationInvariantRate |
                                                        benchmark::Counter::kInvert);
}

// Writing the 14 files alone (write_only_rtol, report.hpp).
void BM_Hdf5WriteOnly(benchmark::State& state) {
  Suite& s = suite();
  std::vector<dropsim::Trace> traces(s.scenarios.size());
  for (std::size_t i = 0; i < traces.size(); ++i) {
    dropsim::RunSettings run = s.scenarios[i].run;
    run.integrator.rtol = write_only_rtol;
    dropsim::simulate(s.scenarios[i].drop(), run, traces[i]);
  }
  const auto h5_dir = std::filesystem::temp_directory_path() / "dropsim_work_precision";
  std::filesystem::create_directories(h5_dir);
  for (auto _ : state)
    for (std::size_t i = 0; i < traces.size(); ++i)
      dropsim::io::write_trace_hdf5((h5_dir / (s.scenarios[i].name + ".h5")).string(), s.scenarios[i], traces[i]);
  state.counters["hdf5_write_only"] = 1.0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string json_path = "results/bench/work_precision.json";  // not tracked: generated output
  bool short_mode = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json" && i + 1 < argc) json_path = argv[++i];
    else if (a.rfind("--json=", 0) == 0) json_path = a.substr(7);
    else args.push_back(argv[i]);
    // CI's short mode (scripts/ci-bench.sh: 0.01 s); a full run uses 0.2 s, three times (docs/performance.md).
    if (a.rfind("--benchmark_min_time=", 0) == 0) short_mode = std::atof(a.c_str() + 21) < 0.1;
    // With these, Google Benchmark hands the reporter only the aggregates: no timing would reach the table.
    for (const char* flag : {"--benchmark_report_aggregates_only", "--benchmark_display_aggregates_only"})
      if (a.rfind(flag, 0) == 0 && a != std::string(flag) + "=false") {
        std::fprintf(stderr, "work_precision_bench: %s: the table needs every repetition's timing (of repeated "
                             "timings it keeps the fastest); leave it out\n", flag);
        return 2;
      }
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());

  const std::vector<double> rtols = tolerance_grid();
  for (Family f : {Family::dropsim, Family::dropsim_states, Family::dropsim_summary, Family::dropsim_hdf5,
                   Family::floor, Family::floor_reports})
    for (double r : rtols) configs.push_back({f, r});
  for (double r : rtols) configs.push_back({Family::dropsim_rk_merson, r});
  if (dropsim::integrators::sundials_available())
    for (Family f : {Family::dropsim_cvode_bdf, Family::dropsim_cvode_adams, Family::dropsim_arkode_erk,
                     Family::dropsim_arkode_dirk})
      for (double r : rtols) configs.push_back({f, r});
#ifdef DROPSIM_HAVE_SIMBODY
  for (Family f : simbody_families(false))
    for (double a : rtols) configs.push_back({f, a});
#endif
  // The box's error is erratic from one rtol to the next (it bounces, and the worst sample hangs on one
  // touchdown's timing): on the multi-contact suites dropsim and its floor also run at 1e-11, so that both
  // reach 1e-6 somewhere.
  std::vector<double> contact_rtols = rtols;
  contact_rtols.push_back(1e-11);
  for (std::size_t k = 0; k < contact_suites().size(); ++k) {
    for (Family f : {Family::contact_dropsim_dopri5, Family::contact_dropsim_no_attribution, Family::contact_floor})
      for (double r : contact_rtols) configs.push_back({f, r, k});
#ifdef DROPSIM_HAVE_SIMBODY
    for (Family f : simbody_families(true))
      for (double a : rtols) configs.push_back({f, a, k});
#endif
  }
  for (std::size_t i = 0; i < configs.size(); ++i) {
    char label[96];
    std::snprintf(label, sizeof label, "BM_WorkPrecision/%s/%.0e", name(configs[i]).c_str(), configs[i].tolerance);
    auto* b = benchmark::RegisterBenchmark(label, BM_WorkPrecision, i)->Unit(benchmark::kMillisecond);
    // Simbody runs take seconds: one timed suite each is plenty at its scale.
    if (simbody_family(configs[i].family)) b->Iterations(1);
  }
  benchmark::RegisterBenchmark("BM_Hdf5WriteOnly", BM_Hdf5WriteOnly)->Unit(benchmark::kMillisecond);
  suite();  // the references, before any timing
  contact_suites();
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::Shutdown();

  const nlohmann::json out = summarize(short_mode);
  const std::filesystem::path path(json_path);
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << out.dump(2) << "\n";
  std::printf("wrote %s\n", json_path.c_str());
  return 0;
}
