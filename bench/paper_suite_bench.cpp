// BM_PaperSuite: the 14 paper drops end to end, no I/O.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "dropsim/io/scenario.hpp"

namespace {

std::vector<dropsim::io::Scenario> paper_scenarios() {
  std::vector<dropsim::io::Scenario> all;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(DROPSIM_SOURCE_DIR "/scenarios/paper"))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) all.push_back(dropsim::io::load_scenario(f.string()));
  return all;
}

void BM_PaperSuite(benchmark::State& state) {
  const auto scenarios = paper_scenarios();
  long steps = 0, evaluations = 0;
  for (auto _ : state) {
    for (const auto& s : scenarios) {
      const dropsim::Trace t = dropsim::simulate(s.drop(), s.run);
      steps += t.stats.steps;
      evaluations += t.stats.rhs_evaluations;
      benchmark::DoNotOptimize(t.force.data());
    }
  }
  const double iterations = static_cast<double>(state.iterations());
  state.counters["runs"] = static_cast<double>(scenarios.size());
  state.counters["steps_per_suite"] = static_cast<double>(steps) / iterations;
  state.counters["rhs_per_suite"] = static_cast<double>(evaluations) / iterations;
  state.counters["steps_per_s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PaperSuite)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
