// Speed of the multibody engine: right-hand sides and a whole quadruped drop.
#include <benchmark/benchmark.h>

#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/multibody_simulate.hpp"

namespace {

const dropsim::io::Scenario& quadruped() {
  static const dropsim::io::Scenario s =
      dropsim::io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/modes/quadruped_two_limbs.json");
  return s;
}

// One right-hand side of a free body on n Hertz spheres (the quadruped's four, repeated).
void BM_MultibodyRhs(benchmark::State& state) {
  dropsim::MultibodyModel m = *quadruped().multibody();
  const auto base = m.contacts;
  while (m.contacts.size() < static_cast<std::size_t>(state.range(0))) m.contacts.push_back(base[m.contacts.size() % base.size()]);
  const dropsim::MultibodySystem system(m);
  const Eigen::VectorXd x = m.initial_state();
  Eigen::VectorXd dxdt(x.size());
  for (auto _ : state) {
    system(x, dxdt, 0.0);
    benchmark::DoNotOptimize(dxdt.data());
  }
  state.counters["rhs_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MultibodyRhs)->Arg(4)->Arg(16)->Arg(64);

// The quadruped's 0.5 s drop with dopri5 at the scenario's tolerance.
void BM_QuadrupedDrop(benchmark::State& state) {
  const auto& s = quadruped();
  long steps = 0;
  for (auto _ : state) {
    const dropsim::Trace t = dropsim::simulate(*s.multibody(), s.run);
    steps += t.stats.steps;
    benchmark::DoNotOptimize(t.force.data());
  }
  state.counters["steps_per_s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_QuadrupedDrop)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
