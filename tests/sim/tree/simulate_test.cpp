// Runs of the body tree: a conservative double pendulum bouncing its tip on
// the floor keeps its energy, and the 1-DOF drop as a one-slider tree is the
// drop's own system.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "dropsim/sim/simulate.hpp"
#include "dropsim/sim/tree/simulate.hpp"
#include "tests/support/models.hpp"
#include "tests/support/tree_models.hpp"

namespace dropsim::tree {
namespace {

TEST(TreeRun, ConservativeDoublePendulumKeepsItsEnergy) {
  ContactLaw hertz;
  hertz.kind = ContactLawKind::hertz;
  hertz.effective_modulus = 1e7;
  const double length = 0.5, radius = 0.05;
  // Swung from 1.2 and 0.6 rad with the pivot low enough that the tip sphere
  // strikes the floor on its way through the bottom.
  const TreeModel model(test::double_pendulum(hertz, length, 2.0 * length + radius - 0.02, radius, 1.2, 0.6));
  RunSettings run = test::adaptive_run(1.0, 1e-3, 1e-12);
  run.attribute_stiffness = false;
  const Trace trace = simulate(model, run);
  ASSERT_EQ(trace.stats.status, integrators::Status::ok) << trace.stats.reason;
  const double mgl = model.total_mass() * standard_gravity * length;
  const double e0 = trace.kinetic[0] + trace.potential[0] + trace.elastic[0];
  double worst = 0.0, peak = 0.0, elastic_peak = 0.0;
  for (std::size_t k = 0; k < trace.samples(); ++k) {
    worst = std::max(worst, std::abs(trace.kinetic[k] + trace.potential[k] + trace.elastic[k] - e0));
    peak = std::max(peak, trace.contact_force[k]);
    elastic_peak = std::max(elastic_peak, trace.elastic[k]);
  }
  std::printf("[measured] conservative double pendulum: max |E - E0| = %.3g M g L over %zu samples, %ld steps, peak contact %.1f N\n",
              worst / mgl, trace.samples(), trace.stats.steps, peak);
  EXPECT_LE(worst, 1e-8 * mgl);
  EXPECT_GT(peak, 10.0 * model.total_mass() * standard_gravity);  // the tip struck the floor
  EXPECT_GT(elastic_peak, 1e-3 * mgl);
}

TEST(TreeRun, OneSliderTreeIsTheDrop) {
  DropModel drop = test::human_drop(1e8, 1);
  drop.initial_velocity = -0.5;
  const TreeModel model(test::slider_drop(drop));
  RunSettings run = test::adaptive_run(0.06, 1e-4, 1e-10);
  run.integrator.method = integrators::Method::rk4;
  run.integrator.step = 2e-6;
  const Trace ours = simulate(model, run);
  const Trace theirs = dropsim::simulate(drop, run);
  ASSERT_EQ(ours.stats.status, integrators::Status::ok) << ours.stats.reason;
  ASSERT_EQ(ours.samples(), theirs.samples());
  const double weight = drop.mass * drop.gravity;
  const double peak = *std::max_element(theirs.contact_force.begin(), theirs.contact_force.end());
  EXPECT_GT(peak, 2.0 * weight);  // it landed
  // The tree's coordinate is the centre's height R + y, the drop's the gap y:
  // their rounding differs by an ulp of R, 1e-16 m, which the Hertz force
  // turns into some 1e-13 of its peak.
  double worst_force = 0.0, worst_position = 0.0;
  for (std::size_t k = 0; k < ours.samples(); ++k) {
    worst_force = std::max(worst_force, std::abs(ours.contact_force[k] - theirs.contact_force[k]));
    worst_position = std::max(worst_position, std::abs(ours.q[k] - drop.law.radius - theirs.q[k]));
    EXPECT_NEAR(ours.force[k], theirs.force[k], 1e-12 * peak) << "sample " << k;
  }
  std::printf("[measured] one-slider tree against the drop: max |dF| = %.3g of the peak force (%.3g of the weight), max |dy| = %.3g m\n",
              worst_force / peak, worst_force / weight, worst_position);
  EXPECT_LE(worst_force, 1e-12 * peak);
}

}  // namespace
}  // namespace dropsim::tree
