// Scenario parsing: defaults, the paper's scaling, and errors that name file, path and rule.
#include <gtest/gtest.h>

#include <cmath>

#include "dropsim/io/input_file.hpp"
#include "dropsim/io/json_reader.hpp"
#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/combining.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/scenarios.hpp"

namespace dropsim::io {
namespace {

const std::string valid = R"({"name": "t", "duration": 1.0,
  "drop": {"mass": 0.02, "spheres": 4, "radius": 0.002},
  "contact": {"law": "hunt_crossley", "stiffness": 3.2e5, "dissipation": 8.0}})";

// The message of the InputError `text` raises.
std::string error_of(const std::string& text) {
  try {
    parse_scenario(text, "bad.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string with(const std::string& from, const std::string& to) {
  std::string s = valid;
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST(Scenario, DefaultsAreFilledIn) {
  const Scenario s = parse_scenario(valid, "t.json");
  EXPECT_EQ(s.drop().gravity, 9.80665);
  EXPECT_EQ(s.drop().characteristic_length, 0.002);            // radius of the sphere
  EXPECT_DOUBLE_EQ(s.drop().initial_height, 0.25 * 0.002);     // the paper's drop height
  EXPECT_DOUBLE_EQ(s.drop().law.effective_modulus, 3.2e5 / std::pow(2.0, 1.5));  // Sherman
  EXPECT_EQ(s.run.integrator.method, integrators::Method::dopri5);
  EXPECT_EQ(s.run.integrator.rtol, 1e-9);
  EXPECT_DOUBLE_EQ(s.run.output_interval, 1.0 / 4000.0);
}

TEST(Scenario, CombiningRulesGiveTheCompositeModulus) {
  EXPECT_DOUBLE_EQ(parse_scenario(with("\"dissipation\"", "\"combining\": \"johnson\", \"dissipation\""), "t")
                       .drop().law.effective_modulus,
                   1.6e5);
  EXPECT_DOUBLE_EQ(
      parse_scenario(with("\"dissipation\"", "\"combining\": \"none\", \"dissipation\""), "t").drop().law.effective_modulus,
      3.2e5);
}

// docs/physics.md#size-scaling, #scaling-the-dissipation done by dropsim: mouse scaled from the 62 kg human.
TEST(Scenario, ScaledFromFollowsThePaper) {
  const Scenario s = test::paper_scenario("mouse_alpha-scaled");
  const double factor = (0.02 / 62.0) * (6.0 / 4.0) * std::pow(0.032 / 0.002, 2);
  EXPECT_NEAR(s.drop().law.effective_modulus, 1e6 / std::pow(2.0, 1.5) * factor, 1e-9);
  EXPECT_NEAR(s.drop().law.dissipation, 2.0 * std::sqrt(0.032 / 0.002), 1e-12);  // 8 s/m
  EXPECT_EQ(test::paper_scenario("mouse_alpha-unscaled").drop().law.dissipation, 2.0);
  // The resolved scenario holds the typed form and reproduces itself.
  const Scenario again = parse_scenario(s.resolved.dump(), "resolved");
  EXPECT_EQ(again.drop().law.effective_modulus, s.drop().law.effective_modulus);
  EXPECT_EQ(again.drop().law.dissipation, s.drop().law.dissipation);
  EXPECT_EQ(again.run.output_interval, s.run.output_interval);
}

// Summary-only sweeps parse without the resolved echo: the same model and
// run, and nothing echoed (a scenario that reaches a trace file keeps it).
TEST(Scenario, SkippingTheResolvedFormChangesNothingElse) {
  const std::string file = std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper/mouse_alpha-scaled.json";
  const Scenario kept = load_scenario(file);
  const Scenario skipped =
      parse_scenario_json(parse_json_document(read_input_file(file, "a scenario"), file), file, Resolved::skip);
  EXPECT_TRUE(skipped.resolved.is_null());
  ASSERT_TRUE(kept.resolved.is_object());
  const DropModel &a = kept.drop(), &b = skipped.drop();
  EXPECT_EQ(a.law.effective_modulus, b.law.effective_modulus);
  EXPECT_EQ(a.law.dissipation, b.law.dissipation);
  EXPECT_EQ(a.mass, b.mass);
  EXPECT_EQ(a.initial_height, b.initial_height);
  EXPECT_EQ(a.characteristic_length, b.characteristic_length);
  EXPECT_EQ(kept.run.integrator.rtol, skipped.run.integrator.rtol);
  EXPECT_EQ(kept.run.output_interval, skipped.run.output_interval);
  EXPECT_EQ(kept.name, skipped.name);
}

TEST(Scenario, BadInputNamesFilePathAndRule) {
  EXPECT_EQ(error_of(with("\"radius\": 0.002", "\"radius\": -0.002")),
            "bad.json: /drop/radius: must be > 0 (got -0.002)");
  EXPECT_NE(error_of(with("\"dissipation\"", "\"dissipaton\": 1, \"dissipation\"")).find("/contact/dissipaton: unknown key"),
            std::string::npos);
  EXPECT_NE(error_of(with("\"mass\": 0.02, ", "")).find("/drop/mass: is required"), std::string::npos);
  EXPECT_NE(error_of(with("\"spheres\": 4", "\"spheres\": 0")).find("/drop/spheres: must lie in [1,"), std::string::npos);
  EXPECT_NE(error_of(with("\"stiffness\": 3.2e5", "\"stiffness\": \"NaN\"")).find("/contact/stiffness: must be a number"),
            std::string::npos);
  EXPECT_NE(error_of(with("\"stiffness\": 3.2e5", "\"stiffness\": 1e999")).find("(numbers must fit in a double)"),
            std::string::npos);
  EXPECT_NE(error_of(valid.substr(0, valid.size() - 3)).find("bad.json: /: malformed JSON"), std::string::npos);
  EXPECT_NE(error_of(with("\"law\": \"hunt_crossley\"", "\"law\": \"hunt-crossley\"")).find("/contact/law: unknown contact law"),
            std::string::npos);
  EXPECT_NE(error_of(with("\"radius\": 0.002}", "\"radius\": 0.002, \"height\": 0.1, \"height_over_radius\": 1}"))
                .find("/drop/height_over_radius: conflicts with \"height\""),
            std::string::npos);
  EXPECT_NE(error_of(with("\"duration\": 1.0", "\"duration\": 1.0, \"integrator\": {\"name\": \"rk4\", \"rtol\": 1e-6}"))
                .find("/integrator/rtol: applies to adaptive integrators only"),
            std::string::npos);
}

}  // namespace
}  // namespace dropsim::io
