// Cost per step of every integrator, and work against precision on a paper drop.
//
// BM_StepCost/<method>: the 1-DOF drop (human62, in contact, compressing),
// 1000 steps of 0.1 ms per iteration from the same initial state.
// BM_StepCostBar/<method>: the bar on two supports (docs/physics.md#coupled-contact-modes) as
// its linearised 2-DOF system (LinearSystem): a step's cost on coupled modes without the
// multibody engine's kinematics (multibody_bench times those).
// BM_WorkPrecision/<method>: the whole human62 drop at a fixed 0.5 ms step;
// counter peak_force_error against dopri5 at rtol 1e-12 (largest sample on the same 0.5 ms grid).
// Counters: steps_per_s (rate), rhs_per_step, and the physics counters above;
// timing is never a pass/fail gate (scripts/ci-steplimits.sh checks physics only).
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include "dropsim/integrators/stability.hpp"
#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/simulate.hpp"

namespace {

using namespace dropsim;
using integrators::Method;

const io::Scenario& human62() {
  static const io::Scenario s =
      io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper/human62_alpha-scaled.json");
  return s;
}

Method method_of(const benchmark::State& state) { return integrators::methods[state.range(0)].method; }

template <class System>
void step_cost(benchmark::State& state, const System& system, const typename System::Vector& x0, double h) {
  const Method m = method_of(state);
  state.SetLabel(std::string(integrators::info(m).name));
  long rhs = 0, steps = 0;
  integrators::visit_one_step<typename System::Vector>(m, [&](auto& stepper) {
    const integrators::CountingSystem<System> sys{&system, &rhs};
    for (auto _ : state) {
      typename System::Vector x = x0;  // the same initial state every batch
      stepper.reset();
      for (int k = 0; k < 1000; ++k) stepper.step(sys, x, k * h, h);
      benchmark::DoNotOptimize(x.data());
      steps += 1000;
    }
  });
  state.counters["steps_per_s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
  state.counters["rhs_per_step"] = static_cast<double>(rhs) / static_cast<double>(std::max(1L, steps));
}

void BM_StepCost(benchmark::State& state) {
  const DropSystem system(human62().drop());
  const double r = human62().drop().law.radius;
  step_cost(state, system, DropSystem::Vector(-0.3 * r, -0.3), 1e-4);
}

void BM_StepCostBar(benchmark::State& state) {
  const Eigen::MatrixXd mass = Eigen::Vector2d(2.0, 0.005).asDiagonal();
  Eigen::MatrixXd jac(2, 2);
  jac << 1.0, -0.1, 1.0, 0.1;
  const Eigen::MatrixXd k = Eigen::Vector2d(1e5, 1e5).asDiagonal();
  const auto bar = integrators::LinearSystem::from_contacts(mass, jac, k, 1e-3 * k);
  Eigen::VectorXd x0(4);
  x0 << 1e-4, 1e-3, 0.0, 0.0;
  step_cost(state, bar, x0, 1e-4);
}

void BM_WorkPrecision(benchmark::State& state) {
  const Method m = method_of(state);
  state.SetLabel(std::string(integrators::info(m).name));
  static const double reference = [] {
    RunSettings r = human62().run;
    r.integrator.method = Method::dopri5;
    r.integrator.rtol = 1e-12;
    r.output_interval = 5e-4;  // the grid the runs below sample on
    const Trace t = simulate(human62().drop(), r);
    return t.force_normalized[t.peak_index()];
  }();
  RunSettings run = human62().run;
  run.integrator.method = m;
  run.integrator.fixed = true;
  run.integrator.step = 5e-4;
  run.output_interval = 5e-4;
  Trace trace;
  for (auto _ : state) trace = simulate(human62().drop(), run);
  const bool ok = trace.stats.status == integrators::Status::ok && trace.samples() > 0;
  state.counters["peak_force_error"] = ok ? std::abs(trace.force_normalized[trace.peak_index()] - reference) : -1.0;
  state.counters["steps_per_s"] =
      benchmark::Counter(static_cast<double>(trace.stats.steps) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["rhs_per_step"] =
      static_cast<double>(trace.stats.rhs_evaluations) / static_cast<double>(std::max(1L, trace.stats.steps));
}

void every_method(benchmark::internal::Benchmark* b) {
  for (std::size_t i = 0; i < integrators::methods.size(); ++i)
    if (integrators::has_one_step_form(integrators::methods[i])) b->Arg(static_cast<long>(i));
}

BENCHMARK(BM_StepCost)->Apply(every_method);
BENCHMARK(BM_StepCostBar)->Apply(every_method);
BENCHMARK(BM_WorkPrecision)->Apply(every_method)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
