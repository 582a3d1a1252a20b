// SUNDIALS methods on dropsim's own models (docs/integrators.md#sundials): the
// paper drops to tolerance against a tight dopri5 reference, and CVODE's BDF
// with and without stability-limit detection on the undamped bar.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "dropsim/integrators/sundials.hpp"
#include "dropsim/sim/multibody_simulate.hpp"
#include "dropsim/sim/simulate.hpp"
#include "dropsim/sim/steplimit.hpp"
#include "tests/support/models.hpp"
#include "tests/support/scenarios.hpp"

namespace dropsim {
namespace {

using integrators::Method;

constexpr Method sundials_methods[] = {Method::cvode_bdf, Method::cvode_adams, Method::arkode_erk, Method::arkode_dirk};
const char* const paper_stems[] = {"human62_alpha-scaled", "human62_alpha-unscaled", "human500_alpha-scaled",
                                   "human500_alpha-unscaled", "mouse_alpha-scaled", "mouse_alpha-unscaled",
                                   "emu10_alpha-scaled", "emu10_alpha-unscaled", "emu2_alpha-scaled",
                                   "emu2_alpha-unscaled", "horse_alpha-scaled", "horse_alpha-unscaled",
                                   "giraffe_alpha-scaled", "giraffe_alpha-unscaled"};

class SundialsRuns : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!integrators::sundials_available()) GTEST_SKIP() << integrators::unavailable_message("cvode_bdf");
  }
};

double max_force_difference(const Trace& a, const Trace& b) {
  const std::size_t n = std::min(a.samples(), b.samples());
  double worst = 0.0;
  for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(a.force_normalized[i] - b.force_normalized[i]));
  return worst;
}

// The 14 paper drops at rtol 1e-8: every SUNDIALS method completes, lands on
// the touchdown, and stays within 1e-5 of F/(Mg) of dopri5 at 1e-12 everywhere.
TEST_F(SundialsRuns, PaperDropsMeetTheirTolerance) {
  for (const char* stem : paper_stems) {
    const io::Scenario s = test::paper_scenario(stem);
    RunSettings run = s.run;
    run.integrator.method = Method::dopri5;
    run.integrator.rtol = 1e-12;
    const Trace reference = simulate(s.drop(), run);
    ASSERT_EQ(reference.stats.status, integrators::Status::ok) << stem;
    for (const Method m : sundials_methods) {
      run.integrator.method = m;
      run.integrator.rtol = 1e-8;
      const Trace t = simulate(s.drop(), run);
      const char* name = integrators::info(m).name.data();
      ASSERT_EQ(t.stats.status, integrators::Status::ok) << stem << " " << name << ": " << t.stats.reason;
      ASSERT_EQ(t.samples(), reference.samples()) << stem << " " << name;
      EXPECT_GE(t.stats.events, 1) << stem << " " << name;
      const double error = max_force_difference(t, reference);
      EXPECT_LT(error, 1e-5) << stem << " " << name;
      std::printf("[measured] %-24s %-12s max |dF/(Mg)| %.2e, %ld steps\n", stem, name, error, t.stats.steps);
    }
  }
}

// The undamped bar (bounce 316.2 rad/s, rocking 632.5 rad/s) from rest with a
// kick of a tenth of its compression, so that no support lifts off: a linear
// undamped two-mode system whose energy is exactly conserved. BDF orders 3-5
// grow on it at the steps accuracy asks for (docs/physics.md#multistep-methods);
// CVODE's stability-limit detection exists to take those orders back.
struct BarRun {
  double energy_gain = 0.0, energy_loss = 0.0;  // largest E - E0 and E0 - E, in kick energies
  integrators::IntegrationStats stats;
};

BarRun run_bar(double rtol, bool detection, double duration) {
  const MultibodyModel bar = test::bar_on_two_supports();
  const RestState rest = rest_state(bar);
  Eigen::VectorXd x0 = rest.equilibrium.x;
  x0.tail(bar.nu) += mode_exciting_kick(rest.linearization, 0.1 * rest.linearization.indentation.minCoeff());
  RunSettings run = test::adaptive_run(duration, 1e-3, rtol);
  run.integrator.method = Method::cvode_bdf;
  run.integrator.sundials.stability_limit_detection = detection;
  const Trace t = simulate_from(bar, run, x0);
  BarRun out;
  out.stats = t.stats;
  const double e0 = t.kinetic[0] + t.potential[0] + t.elastic[0], kick = t.kinetic[0];
  for (std::size_t i = 0; i < t.samples(); ++i) {
    const double change = (t.kinetic[i] + t.potential[i] + t.elastic[i] - e0) / kick;
    out.energy_gain = std::max(out.energy_gain, change);
    out.energy_loss = std::max(out.energy_loss, -change);
  }
  return out;
}

// The detector is CVODE's, switched by the scenario: off it never acts; on,
// at tolerances where BDF runs at orders 3-5 on the bar, it takes orders back.
TEST_F(SundialsRuns, StabilityLimitDetectionSwitchesOnTheUndampedBar) {
  for (const double rtol : {1e-5, 1e-6}) {
    for (const bool detection : {false, true}) {
      const BarRun r = run_bar(rtol, detection, 20.0);
      const auto& by = r.stats.steps_by_order;
      std::printf("[measured] bar rtol %.0e detection %-3s: %6ld steps, energy +%.3g / -%.3g kicks, orders 1-5: "
                  "%ld %ld %ld %ld %ld, %ld reductions\n",
                  rtol, detection ? "on" : "off", r.stats.steps, r.energy_gain, r.energy_loss, by[1], by[2], by[3],
                  by[4], by[5], r.stats.order_reductions);
      ASSERT_EQ(r.stats.status, integrators::Status::ok) << r.stats.reason;
      EXPECT_GT(by[3] + by[4] + by[5], r.stats.steps / 2) << "BDF 3-5 carry most steps at these tolerances";
      if (detection) EXPECT_GT(r.stats.order_reductions, 0) << rtol;
      else EXPECT_EQ(r.stats.order_reductions, 0) << rtol;
    }
  }
}

}  // namespace
}  // namespace dropsim
