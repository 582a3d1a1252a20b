// Single-impact restitution: the relation cr(chi v-) and its inversion, checked by
// dropping bodies through the engine (dopri5 with event landing, an independent integrator).
#include "dropsim/sim/restitution.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>

#include "dropsim/sim/simulate.hpp"

namespace dropsim {
namespace {

constexpr double targets[] = {0.9, 0.7, 0.5, 0.3, 0.1};
constexpr ContactLawKind laws[] = {ContactLawKind::hunt_crossley,    ContactLawKind::lankarani_nikravesh,
                                   ContactLawKind::flores,           ContactLawKind::gonthier,
                                   ContactLawKind::carvalho_martins, ContactLawKind::exact_restitution};

// One impact through the engine: a body of `mass` hits at `speed` with
// negligible gravity; cr is the lift-off speed over the impact speed.
double engine_restitution(ContactLawKind kind, double target, double mass, double modulus, double speed) {
  DropModel m;
  m.mass = mass;
  m.spheres = 1;
  m.gravity = 1e-9;  // its effect on cr over the run is ~1e-8
  m.law.kind = kind;
  m.law.effective_modulus = modulus;
  m.law.radius = 0.01;
  m.law.dissipation = dissipation_for_restitution(kind, target, speed);
  m.characteristic_length = m.law.radius;
  m.initial_height = 1e-9;
  m.initial_velocity = -speed;
  // Time unit of the impact: x_ref / v with x_ref = (m v^2 / K)^(2/5), K = 4/3 E* sqrt(R).
  const double k = (4.0 / 3.0) * modulus * std::sqrt(m.law.radius);
  const double t_ref = std::pow(mass * speed * speed / k, 0.4) / speed;
  RunSettings run;
  run.duration = 400.0 * t_ref;
  run.output_interval = run.duration / 20.0;
  run.integrator.method = integrators::Method::dopri5;
  run.integrator.rtol = 1e-11;
  const Trace t = simulate(m, run);
  EXPECT_EQ(t.stats.status, integrators::Status::ok);
  EXPECT_LT(t.indentation.back(), 0.0) << "still in contact: " << to_string(kind) << " cr " << target;
  return t.u.back() / speed;
}

TEST(SingleImpact, ElasticImpactRestoresAllSpeed) { EXPECT_NEAR(single_impact_restitution(0.0), 1.0, 1e-9); }

TEST(SingleImpact, SmallDampingFollowsP14) {
  // docs/physics.md#restitution: cr = 1 - alpha v = 1 - (2/3) chi v to first order.
  const double c = 1e-3;
  EXPECT_NEAR(single_impact_restitution(c), 1.0 - 2.0 / 3.0 * c, 1e-5);
}

TEST(SingleImpact, DependsOnlyOnChiTimesSpeed) {
  // Same chi v-, different mass, stiffness and speed: the same restitution.
  const double a = engine_restitution(ContactLawKind::gonthier, 0.5, 1.0, 1e6, 1.0);
  const double b = engine_restitution(ContactLawKind::gonthier, 0.5, 70.0, 3e4, 0.2);
  EXPECT_NEAR(a, b, 1e-6);
  EXPECT_NEAR(a, single_impact_restitution(1.5), 1e-6);  // Gonthier at 0.5: chi v = 0.75 / 0.5
}

TEST(SingleImpact, InversionRoundTrips) {
  for (double cr : targets) EXPECT_NEAR(single_impact_restitution(chi_times_speed_for_restitution(cr)), cr, 1e-9);
  EXPECT_EQ(chi_times_speed_for_restitution(1.0), 0.0);
}

// The acceptance table: every law at every target, measured through the engine.
TEST(RestitutionTable, EveryLawAtEveryTarget) {
  std::map<std::pair<int, double>, double> achieved;
  std::printf("| law | 0.9 | 0.7 | 0.5 | 0.3 | 0.1 |\n|---|---|---|---|---|---|\n");
  for (int l = 0; l < 6; ++l) {
    std::printf("| %s |", std::string(to_string(laws[l])).c_str());
    for (double cr : targets) {
      achieved[{l, cr}] = engine_restitution(laws[l], cr, 2.0, 1e6, 1.0);
      std::printf(" %.4f |", achieved[{l, cr}]);
    }
    std::printf("\n");
  }
  auto at = [&](int law, double cr) { return achieved.at({law, cr}); };
  for (double cr : targets) {
    EXPECT_NEAR(at(5, cr), cr, 1e-3) << "exact_restitution at " << cr;
    if (cr >= 0.3) {
      EXPECT_NEAR(at(4, cr), cr, 0.015) << "Carvalho-Martins at " << cr;
    }
  }
  EXPECT_NEAR(at(0, 0.9), 0.9, 0.02);
  EXPECT_GT(std::abs(at(0, 0.5) - 0.5), 0.05);
  // docs/physics.md#exact-restitution: only near cr = 0.9 are Hunt-Crossley and Lankarani-Nikravesh close,
  // 1.0 % and 1.5 % above the target (0.9090 and 0.9132), and further above it at lower targets.
  EXPECT_NEAR(at(0, 0.9) / 0.9 - 1.0, 0.010, 0.0005);
  EXPECT_NEAR(at(1, 0.9) / 0.9 - 1.0, 0.015, 0.0005);
  for (int law : {0, 1}) EXPECT_GT(at(law, 0.7) / 0.7 - 1.0, 0.09) << to_string(laws[law]);
}

}  // namespace
}  // namespace dropsim
