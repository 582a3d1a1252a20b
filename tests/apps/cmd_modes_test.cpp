// `dropsim modes` end to end: --json keys, --verify, and the sentences for impossible equilibria.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/cli.hpp"

namespace dropsim::test {
namespace {

std::string scenario_path(const std::string& name) { return source_path("scenarios/modes/" + name); }

TEST(ModesCommand, JsonCarriesTheInterfaceKeys) {
  const CliResult c = dropsim("modes --json " + scenario_path("bar_two_supports.json"));
  ASSERT_EQ(c.exit_code, 0) << c.output();
  const auto j = nlohmann::json::parse(c.out);
  EXPECT_EQ(j["equilibrium"]["q"].size(), 3u);
  EXPECT_NEAR(j["modes"][1]["omega"].get<double>(), 632.5, 0.05);
  EXPECT_EQ(j["modes"][0]["damping_ratio"].get<double>(), 0.0);
  EXPECT_NEAR(j["contacts"][0]["effective_mass"].get<double>(), 0.4, 1e-9);
  EXPECT_NEAR(j["contacts"][0]["omega_single"].get<double>(), 500.0, 0.05);
  EXPECT_EQ(j["redundant"].get<int>(), 0);
  EXPECT_EQ(j["free_motions"].size(), 1u);
}

// `scenario` is the scenario as analysed, defaults filled in: it names every
// contact's law, and analysed again it gives the same modes.
TEST(ModesCommand, JsonCarriesTheResolvedScenario) {
  const CliResult c = dropsim("modes --json " + scenario_path("quadruped_two_limbs.json"));
  ASSERT_EQ(c.exit_code, 0) << c.output();
  const auto j = nlohmann::json::parse(c.out);
  const auto& scenario = j["scenario"];
  ASSERT_TRUE(scenario.is_object());
  EXPECT_EQ(scenario["name"], j["name"]);
  for (const auto& contact : scenario["contacts"]) {
    EXPECT_TRUE(contact.contains("law")) << contact;
    EXPECT_TRUE(contact.contains("count")) << contact;
  }
  const auto file = fresh_directory("modes-resolved") / "resolved.json";
  std::ofstream(file) << scenario.dump();
  const CliResult again = dropsim("modes --json " + file.string());
  ASSERT_EQ(again.exit_code, 0) << again.output();
  const auto k = nlohmann::json::parse(again.out);
  ASSERT_EQ(k["modes"].size(), j["modes"].size());
  for (std::size_t i = 0; i < j["modes"].size(); ++i)
    EXPECT_EQ(k["modes"][i]["omega"].get<double>(), j["modes"][i]["omega"].get<double>()) << i;
  EXPECT_EQ(k["scenario"], scenario);
}

TEST(ModesCommand, VerifyPassesOnTheBar) {
  const CliResult c = dropsim("modes --verify " + scenario_path("bar_two_supports.json"));
  EXPECT_EQ(c.exit_code, 0) << c.output();
  EXPECT_NE(c.output().find("stayed closed"), std::string::npos) << c.output();
}

TEST(ModesCommand, ImpossibleEquilibriumExitsTwoWithASentence) {
  const std::string file = (scratch() / "tips_over.json").string();
  std::ofstream(file) << R"({"name": "tips_over", "duration": 1,
    "bodies": [{"name": "body", "joint": "planar", "mass": 2, "inertia": 0.02, "position": [0, 0.01]}],
    "contacts": [{"type": "sphere_plane", "body": "body", "at": [0.1, 0], "radius": 0, "law": "linear", "stiffness": 1e5}]})";
  const CliResult c = dropsim("modes " + file);
  EXPECT_EQ(c.exit_code, 2) << c.output();
  EXPECT_NE(c.output().find("tips_over.json: /modes_at: no static equilibrium"), std::string::npos) << c.output();
  EXPECT_NE(c.output().find("tips over"), std::string::npos) << c.output();
}

// A block below the friction angle: regularised friction holds it creeping.
// modes reports the creep (the slope's v_t tan(theta) / mu = 7.78 mm/s);
// steplimit needs a state at rest and says so with exit 2, as it does beyond
// the friction angle, where modes says the block slides.
TEST(ModesCommand, CreepOnASlopeIsReportedAndSlidingRefused) {
  const std::string held = source_path("scenarios/friction/slope_held.json");
  const CliResult c = dropsim("modes --json " + held);
  ASSERT_EQ(c.exit_code, 0) << c.output();
  const auto j = nlohmann::json::parse(c.out);
  const double theta = 0.8 * std::atan(0.5);
  EXPECT_NEAR(j["equilibrium"]["creep_speed"].get<double>(), 0.01 * std::tan(theta) / 0.5, 1e-8);
  EXPECT_EQ(j["equilibrium"]["u"].size(), 6u);
  const CliResult limit = dropsim("steplimit --integrator rk4 " + held);
  EXPECT_EQ(limit.exit_code, 2) << limit.output();
  EXPECT_NE(limit.err.find("creeping"), std::string::npos) << limit.output();
  const CliResult steep = dropsim("modes " + source_path("scenarios/friction/slope_sliding.json"));
  EXPECT_EQ(steep.exit_code, 2) << steep.output();
  EXPECT_NE(steep.err.find("/modes_at: no static equilibrium: friction cannot hold"), std::string::npos)
      << steep.output();
}

// The drop form goes through the same analysis (one vertical body, n spheres as one contact).
TEST(ModesCommand, DropFormScenario) {
  const CliResult c = dropsim("modes --json " + std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper/human62_alpha-unscaled.json");
  ASSERT_EQ(c.exit_code, 0) << c.output();
  const auto j = nlohmann::json::parse(c.out);
  EXPECT_NEAR(j["contacts"][0]["effective_mass"].get<double>(), 62.0, 1e-9);
  // docs/physics.md#paper-drop-tests: the human's tangent stiffness is 13.45 kN/m per sphere at xh = 0.353.
  EXPECT_NEAR(j["contacts"][0]["stiffness"].get<double>() / 6, 13.45e3, 10);
  EXPECT_NEAR(j["contacts"][0]["indentation"].get<double>() / 0.032, 0.353, 5e-4);
}

// Gravity 0 is a valid multi-contact scenario: modes at the given configuration
// (reduced mass 1 kg on k 1e5 N/m: 316.2 rad/s); no static equilibrium to find.
TEST(ModesCommand, BodiesInFreeSpace) {
  const CliResult c = dropsim("modes --json " + scenario_path("two_bodies_free_space.json"));
  ASSERT_EQ(c.exit_code, 0) << c.output();
  const auto j = nlohmann::json::parse(c.out);
  ASSERT_EQ(j["modes"].size(), 1u);
  EXPECT_NEAR(j["modes"][0]["omega"].get<double>(), std::sqrt(1e5 / 1.0), 1e-6);

  std::ifstream in(scenario_path("two_bodies_free_space.json"));
  nlohmann::json doc = nlohmann::json::parse(in);
  doc["modes_at"] = "equilibrium";
  const auto file = scratch() / "free_space_equilibrium.json";
  std::ofstream(file) << doc.dump();
  const CliResult e = dropsim("modes " + shell_quote(file.string()));
  EXPECT_EQ(e.exit_code, 2) << e.output();
  EXPECT_NE(e.err.find("/modes_at: no static equilibrium: with gravity 0"), std::string::npos) << e.err;
}

// The same bodies apart (found by fuzzing the resource guard): no contact is
// compressed, so there are no contact modes and both motions are free; the
// analysis must say so, not read through an empty solve.
TEST(ModesCommand, BodiesApartHaveNoContactModes) {
  std::ifstream in(scenario_path("two_bodies_free_space.json"));
  nlohmann::json doc = nlohmann::json::parse(in);
  doc["bodies"][1]["position"] = {0.0, 0.0599};  // 40 mm below: the spheres do not touch
  const auto file = scratch() / "bodies_apart.json";
  std::ofstream(file) << doc.dump();
  const CliResult c = dropsim("modes --json " + shell_quote(file.string()));
  ASSERT_EQ(c.exit_code, 0) << c.output();
  const auto j = nlohmann::json::parse(c.out);
  EXPECT_EQ(j["modes"].size(), 0u);
  EXPECT_EQ(j["free_motions"].size(), 2u);
}

// With friction the damped modes are the ones verified: the resting box rocks
// about its contact lines, as the damped problem predicts, and passes.
TEST(ModesCommand, VerifyChecksTheFrictionModesOfTheRestingBox) {
  const CliResult c = dropsim("modes --json --verify " + scenario_path("box_friction_rest.json"));
  ASSERT_EQ(c.exit_code, 0) << c.output();
  const auto j = nlohmann::json::parse(c.out);
  ASSERT_EQ(j["friction_modes"].size(), j["verification"].size());
  for (const auto& v : j["verification"]) {
    const auto& mode = j["friction_modes"][v["mode"].get<std::size_t>()];
    EXPECT_EQ(v["predicted"].get<double>(), mode["damped_omega"].get<double>());
    EXPECT_LT(std::abs(v["runs"].back()["relative_error"].get<double>()), 0.005);
  }
  // Pinned contacts turn the box about its contact lines: slower than about its centre.
  double slowest_loaded = j["loaded_modes"][0]["omega"].get<double>();
  EXPECT_LT(j["friction_modes"][0]["damped_omega"].get<double>(), 0.9 * slowest_loaded);
  EXPECT_EQ(j["friction_growth_rates"].size(), 0u);
  EXPECT_LT(j["rk4_step_limit"].get<double>(), 1.01 * j["rk4_step_limit_frozen"].get<double>());
}

// The quadruped's feet pinned by friction leave one sway mode damped at zeta
// 0.8: no crossings to count. It is said so, with no measured number, and
// does not fail the check.
TEST(ModesCommand, TooDampedModesAreReportedNotMeasured) {
  const std::string file = source_path("scenarios/friction/quadruped_friction.json");
  const CliResult c = dropsim("modes --json --verify " + file);
  ASSERT_EQ(c.exit_code, 0) << c.output();
  const auto j = nlohmann::json::parse(c.out);
  int too_damped = 0;
  for (const auto& v : j["verification"]) {
    if (!v["too_damped"].get<bool>()) continue;
    ++too_damped;
    EXPECT_GT(v["damping_ratio"].get<double>(), 0.48);
    EXPECT_TRUE(v["runs"].empty());
  }
  EXPECT_EQ(too_damped, 1);
  const CliResult text = dropsim("modes --verify " + file);
  EXPECT_NE(text.out.find("too damped to measure"), std::string::npos) << text.output();
}

// Every friction scenario verifies, about rest or the steady creep on a
// slope; the slope past its friction angle slides, accelerating, and has no
// state to perturb about: exit 2.
TEST(ModesCommand, VerifyEveryFrictionScenario) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(source_path("scenarios/friction"))) {
    if (entry.path().extension() != ".json") continue;
    const std::string name = entry.path().filename().string();
    const CliResult c = dropsim("modes --verify " + shell_quote(entry.path().string()));
    const bool off_rest = name == "slope_sliding.json";
    EXPECT_EQ(c.exit_code, off_rest ? 2 : 0) << name << "\n" << c.output();
  }
}

}  // namespace
}  // namespace dropsim::test
