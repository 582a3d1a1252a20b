// Cost of one contact_response per law: the smoothed law pays for its exact potential (quadrature).
#include <benchmark/benchmark.h>

#include "dropsim/sim/contact_laws.hpp"
#include "dropsim/sim/restitution.hpp"

namespace {

using dropsim::ContactLaw;
using dropsim::ContactLawKind;

void BM_ContactResponse(benchmark::State& state) {
  ContactLaw law;
  law.kind = static_cast<ContactLawKind>(state.range(0));
  law.effective_modulus = 3.5e5;
  law.radius = 0.032;
  law.dissipation = 2.0;
  law.stiffness = 1e5;
  law.damping = 10.0;
  state.SetLabel(std::string(dropsim::to_string(law.kind)));
  double x = 0.0, sink = 0.0;
  for (auto _ : state) {
    // Sweep -R/4 .. R/2 so branches and quadrature panels vary as in a drop.
    x = x > 0.016 ? -0.008 : x + 1e-5;
    sink += dropsim::contact_response(law, x, 0.1).force;
    benchmark::DoNotOptimize(sink);
  }
  state.counters["calls_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ContactResponse)
    ->Arg(static_cast<int>(ContactLawKind::hunt_crossley))
    ->Arg(static_cast<int>(ContactLawKind::smooth_hunt_crossley))
    ->Arg(static_cast<int>(ContactLawKind::carvalho_martins));

// The inversion behind exact_restitution, paid once per scenario parse.
void BM_ExactRestitutionInversion(benchmark::State& state) {
  const double cr = static_cast<double>(state.range(0)) / 10.0;
  for (auto _ : state) benchmark::DoNotOptimize(dropsim::chi_times_speed_for_restitution(cr));
}
BENCHMARK(BM_ExactRestitutionInversion)->Arg(9)->Arg(1);

}  // namespace

BENCHMARK_MAIN();
