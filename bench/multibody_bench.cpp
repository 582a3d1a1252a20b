// Speed of the multibody engine: right-hand sides and a whole quadruped drop.
#include <benchmark/benchmark.h>

#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/multibody_simulate.hpp"

#include <Eigen/Eigenvalues>

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

// The box on its edge (scenarios/friction/box_on_edge.json) at its sample of
// largest contact force: free body, eight spheres, friction; the pieces of an
// accepted step's cost.
struct BoxAtPeak {
  dropsim::MultibodyModel model;
  Eigen::VectorXd x;
};
const BoxAtPeak& box_at_peak() {
  static const BoxAtPeak b = [] {
    const auto s = dropsim::io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/friction/box_on_edge.json");
    BoxAtPeak out{*s.multibody(), {}};
    const dropsim::Trace t = dropsim::simulate(out.model, s.run);
    const std::size_t i = t.peak_index();
    out.x.resize(t.nq + t.nu);
    for (int k = 0; k < t.nq; ++k) out.x[k] = t.q[i * t.nq + k];
    for (int k = 0; k < t.nu; ++k) out.x[t.nq + k] = t.u[i * t.nu + k];
    return out;
  }();
  return b;
}

void BM_BoxRhs(benchmark::State& state) {
  const auto& b = box_at_peak();
  const dropsim::MultibodySystem system(b.model);
  Eigen::VectorXd dxdt(b.x.size());
  for (auto _ : state) {
    system(b.x, dxdt, 0.0);
    benchmark::DoNotOptimize(dxdt.data());
  }
}
BENCHMARK(BM_BoxRhs);

void BM_BoxJacobian(benchmark::State& state) {
  const auto& b = box_at_peak();
  const dropsim::MultibodySystem system(b.model);
  Eigen::MatrixXd j;
  for (auto _ : state) {
    system.jacobian(b.x, 0.0, j);
    benchmark::DoNotOptimize(j.data());
  }
}
BENCHMARK(BM_BoxJacobian);

void BM_BoxEigenvalues(benchmark::State& state) {
  const auto& b = box_at_peak();
  const dropsim::MultibodySystem system(b.model);
  Eigen::MatrixXd j;
  system.jacobian(b.x, 0.0, j);
  for (auto _ : state) {
    const Eigen::VectorXcd l = j.eigenvalues();
    benchmark::DoNotOptimize(l.data());
  }
}
BENCHMARK(BM_BoxEigenvalues);

}  // namespace

BENCHMARK_MAIN();
