// `dropsim steplimit`: the fixed orders of a variable-order BDF/Adams code on
// the scenario's modes, against the BDF wedge angles of the literature and the
// undamped crossing (docs/physics.md#multistep-methods).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>

#include "tests/support/cli.hpp"

namespace dropsim::test {
namespace {

using nlohmann::json;

json order_named(const json& orders, const std::string& name) {
  for (const json& o : orders)
    if (o["name"] == name) return o;
  ADD_FAILURE() << "no order " << name;
  return json::object();
}

// human62 rests at damping ratio 0.408: inside BDF4's wedge (73.35 deg, zeta > 0.287),
// outside BDF5's (51.84 deg, zeta > 0.618), so BDF1-4 are stable at every step and BDF5 is not.
TEST(StepLimitCommand, DampedDropStableForBdfOrdersWhoseWedgeHoldsItsMode) {
  const CliResult c = dropsim("steplimit --integrator rk4 --json " + paper_scenario_path("human62_alpha-scaled"));
  ASSERT_EQ(c.exit_code, 0) << c.output();
  const json j = json::parse(c.out);
  const double zeta = j["damping_ratio_equilibrium"];
  const double degree = std::numbers::pi / 180.0;
  ASSERT_GT(zeta, std::cos(73.35 * degree));
  ASSERT_LT(zeta, std::cos(51.84 * degree));
  ASSERT_EQ(j["multistep_orders"].size(), 17u);  // BDF 1-5, Adams 1-12
  for (const char* name : {"bdf1", "bdf2", "bdf3", "bdf4", "adams1", "adams2"})
    EXPECT_TRUE(order_named(j["multistep_orders"], name)["unconditionally_stable"]) << name;
  const json bdf5 = order_named(j["multistep_orders"], "bdf5");
  EXPECT_FALSE(bdf5["unconditionally_stable"]);
  ASSERT_EQ(bdf5["unstable_steps"].size(), 1u);
  EXPECT_TRUE(bdf5["unstable_steps"][0][1].is_number()) << "stable again at large steps";
  // Adams of order 3 and above: bounded regions, unstable at every large step.
  EXPECT_TRUE(order_named(j["multistep_orders"], "adams3")["unstable_steps"].back()[1].is_null());
}

// The undamped bar: BDF3 grows on a mode until h omega = sqrt(15)/2, where its
// boundary locus crosses the imaginary axis, so the band ends with the slowest
// mode, the bounce (316.23 rad/s), not with the rocking (632.46 rad/s).
TEST(StepLimitCommand, UndampedBarBdf3GrowsUpToTheLocusCrossing) {
  const CliResult c = dropsim("steplimit --integrator rk4 --json " + source_path("scenarios/modes/bar_two_supports.json"));
  ASSERT_EQ(c.exit_code, 0) << c.output();
  const json bdf3 = order_named(json::parse(c.out)["multistep_orders"], "bdf3");
  ASSERT_EQ(bdf3["unstable_steps"].size(), 1u) << bdf3.dump();
  const double k = 1e5, mass = 2.0;
  const double omega = std::sqrt(2.0 * k / mass);  // bounce on two supports
  EXPECT_NEAR(bdf3["unstable_steps"][0][1].get<double>() * omega / (std::sqrt(15.0) / 2.0), 1.0, 1e-4) << bdf3.dump();
}

}  // namespace
}  // namespace dropsim::test
