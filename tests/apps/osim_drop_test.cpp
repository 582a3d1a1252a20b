// `dropsim osim drop` and the stances `osim inspect` reports: the scaling
// paper's drop on OpenSim models as users have them, the contact pairs OpenSim
// makes, half-spaces on bodies, and no number from a solve that failed.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <regex>

#include "tests/support/cli.hpp"
#include "tests/support/h5_read.hpp"
#include "tests/support/opensim_models.hpp"

namespace {

namespace fs = std::filesystem;
using namespace dropsim::test;
using nlohmann::json;

json run_json(const std::vector<std::string>& args) {
  const CliResult r = run_dropsim(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

// Every model the tests have: the repository's own, and OpenSim's where present.
std::vector<std::string> drop_models() {
  std::vector<std::string> out;
  for (const char* m : {"block_two_pin", "legacy_custom_knee", "sphere_pair", "tilted_platform"})
    out.push_back(source_path(std::string("tests/data/osim/") + m + ".osim"));
  for (const char* m : {"ball_hc.osim", "ball_sshsf.osim", "bouncing_block.osim", "gait2d_moco.osim"})
    if (fs::exists(opensim_model(m))) out.push_back(opensim_model(m));
  return out;
}

struct DropEnd {
  double force_normalized = 0.0;
  std::map<std::string, double> indentation_relative;  // per contact, by name
};

DropEnd drop_end(const std::string& trace) {
  const hid_t file = H5Fopen(trace.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  DropEnd end;
  end.force_normalized = read_doubles(file, "/force_normalized").back();
  const json scenario = json::parse(read_string_attribute(file, "scenario"));
  const std::vector<double> x = read_doubles(file, "/indentation_relative");
  const std::size_t n = scenario["contacts"].size();
  for (std::size_t c = 0; c < n; ++c) end.indentation_relative[scenario["contacts"][c]["name"]] = x[x.size() - n + c];
  H5Fclose(file);
  return end;
}

// Every model comes to rest on its weight at the 1-DOF equilibrium `inspect` reports.
TEST(OsimDrop, EveryModelComesToRestAtTheVerticalEquilibrium) {
  const fs::path dir = fresh_directory("osim-drop-all");
  for (const std::string& model : drop_models()) {
    const std::string trace = (dir / (fs::path(model).stem().string() + ".h5")).string();
    const CliResult r = run_dropsim({"osim", "drop", model, "--duration", "4", "-o", trace});
    ASSERT_EQ(r.exit_code, 0) << model << "\n" << r.err;
    const DropEnd end = drop_end(trace);
    EXPECT_NEAR(end.force_normalized, 1.0, 1e-3) << model;
    const json inspect = run_json({"osim", "inspect", model, "--json"});
    ASSERT_TRUE(inspect["vertical_equilibrium"]["found"].get<bool>()) << model;
    int compared = 0;
    for (const auto& force : inspect["forces"])
      for (const auto& contact : force["contacts"]) {
        if (!contact.contains("vertical")) continue;
        const auto it = end.indentation_relative.find(contact["name"]);
        ASSERT_NE(it, end.indentation_relative.end()) << model << ": " << contact["name"];
        EXPECT_NEAR(it->second, contact["vertical"]["indentation_relative"].get<double>(), 1e-6) << model << ": " << contact["name"];
        ++compared;
      }
    EXPECT_EQ(compared, static_cast<int>(end.indentation_relative.size())) << model;
    std::printf("[measured] osim drop %s: final F/(Mg) %.7f over %d contacts\n", fs::path(model).filename().c_str(),
                end.force_normalized, compared);
  }
  fs::remove_all(dir);
}

// Four equal spheres at one height: the paper's n-sphere drop of the same mass, radius and modulus.
TEST(OsimDrop, SpheresAtOneHeightRestAsThePapersDropForm) {
  const std::string model = source_path("tests/data/osim/block_two_pin.osim");
  const fs::path dir = fresh_directory("osim-drop-form");
  const std::string trace = (dir / "block.h5").string();
  ASSERT_EQ(run_dropsim({"osim", "drop", model, "--duration", "4", "-o", trace}).exit_code, 0);
  const json inspect = run_json({"osim", "inspect", model, "--json"});
  const auto& first = inspect["forces"][0]["contacts"][0];
  const json drop = {{"name", "block_drop_form"},
                     {"duration", 4.0},
                     {"drop", {{"mass", inspect["total_mass"]}, {"spheres", 4}, {"radius", first["radius"]}, {"height_over_radius", 0.25}}},
                     {"contact", {{"law", "hunt_crossley"}, {"combining", "none"}, {"stiffness", first["effective_modulus"]},
                                  {"dissipation", first["dissipation"]}}}};
  const std::string form = run_scenario(drop);
  ASSERT_FALSE(form.empty());
  const hid_t file = H5Fopen(form.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const double form_x = read_doubles(file, "/indentation_relative").back();
  H5Fclose(file);
  for (const auto& [name, x] : drop_end(trace).indentation_relative) EXPECT_NEAR(x, form_x, 1e-8) << name;
  fs::remove_all(dir);
}

// One HuntCrossleyForce over a half-space and three spheres on two bodies:
// every two surfaces on different bodies are a pair, sphere with sphere too.
TEST(OsimDrop, OneForceMakesEveryPairOpenSimMakes) {
  const json inspect = run_json({"osim", "inspect", source_path("tests/data/osim/sphere_pair.osim"), "--json"});
  std::vector<std::string> names;
  for (const auto& c : inspect["forces"][0]["contacts"]) names.push_back(c["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"contact:foot-floor", "contact:foot-cap", "contact:knob-floor", "contact:knob-cap",
                                             "contact:cap-floor"}));
  const auto& pair = inspect["forces"][0]["contacts"][3];
  EXPECT_DOUBLE_EQ(pair["radius"].get<double>(), 0.02 * 0.03 / 0.05);  // Hertz between spheres: R1 R2 / (R1 + R2)
  EXPECT_EQ(pair["other_sphere"]["body"], "post");
  // Dropped vertically, the knob lands on the welded post's cap and carries the weight.
  EXPECT_NEAR(pair["vertical"]["load_share"].get<double>(), 1.0, 1e-12);
}

// A block sliding down a platform that a locked pin holds tilted stops where
// Coulomb's law says: v0^2 / (2 g (mu cos theta - sin theta)).
TEST(OsimDrop, BlockOnALockedTiltStopsWhereCoulombSays) {
  const fs::path dir = fresh_directory("osim-tilt");
  const std::string scenario = (dir / "tilt.json").string();
  ASSERT_EQ(run_dropsim({"osim", "scenario", source_path("tests/data/osim/tilted_platform.osim"), "--duration", "0.6", "-o", scenario})
                .exit_code,
            0);
  ASSERT_EQ(run_dropsim({"run", scenario, "-o", dir.string()}).exit_code, 0);
  const hid_t file = H5Fopen((dir / "tilted_platform.h5").string().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const std::vector<double> q = read_doubles(file, "/q"), u = read_doubles(file, "/u");
  H5Fclose(file);
  const double theta = 0.2, mu = 0.5, v0 = 1.0, g = 9.80665;
  const std::size_t nq = 7, nu = 6, samples = q.size() / nq;
  const auto along = [&](std::size_t k) {  // down the slope, from the start
    return -(q[k * nq] - q[0]) * std::cos(theta) - (q[k * nq + 1] - q[1]) * std::sin(theta);
  };
  std::size_t stop = samples;
  for (std::size_t k = 0; k < samples && stop == samples; ++k)
    if (std::hypot(u[k * nu], u[k * nu + 1], u[k * nu + 2]) < 1e-3 * v0) stop = k;
  ASSERT_LT(stop, samples) << "the block never stopped";
  const double coulomb = v0 * v0 / (2.0 * g * (mu * std::cos(theta) - std::sin(theta)));
  std::printf("[measured] tilted platform: stopped after %.6f m, Coulomb %.6f m (%.2g relative)\n", along(stop), coulomb,
              along(stop) / coulomb - 1.0);
  EXPECT_NEAR(along(stop) / coulomb, 1.0, 1e-3);
  fs::remove_all(dir);
}

// A model that cannot settle: every message says what did not converge, and
// none carries an equilibrium value.
TEST(OsimDrop, NoNumberFromAStanceThatWasNotFound) {
  const CliResult knee = run_dropsim({"osim", "inspect", source_path("tests/data/osim/legacy_custom_knee.osim")});
  ASSERT_EQ(knee.exit_code, 0) << knee.err;
  // Frozen whole the knee topples off its one heel: said with the mass centre's offset, no frozen x/R.
  EXPECT_NE(knee.out.find("frozen whole, the model topples: its mass centre is"), std::string::npos) << knee.out;
  EXPECT_NE(knee.out.find("frozen equilibrium (every joint locked, the model free): not found"), std::string::npos) << knee.out;
  const json knee_json = run_json({"osim", "inspect", source_path("tests/data/osim/legacy_custom_knee.osim"), "--json"});
  for (const auto& c : knee_json["forces"][0]["contacts"]) EXPECT_FALSE(c.contains("frozen")) << c;
  EXPECT_FALSE(knee_json["equilibrium"].contains("residual"));

  // A smoothed sphere against a wall, nothing under it: no stance exists,
  // and the sphere's constant contact force outweighs the body.
  const CliResult r = run_dropsim({"osim", "inspect", source_path("tests/data/osim/wall_sphere.osim")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("no equilibrium was found to say where it rests"), std::string::npos) << r.out;
  EXPECT_FALSE(std::regex_search(r.out, std::regex("equilibrium indentation -?[0-9]"))) << r.out;
  EXPECT_NE(r.out.find("vertical equilibrium (the scaling paper's drop: vertical translation only): not found"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("frozen equilibrium (every joint locked, the model free): not found"), std::string::npos) << r.out;
}

// What `osim scenario` writes, frozen and vertical, is a scenario the schema
// accepts and `dropsim run` runs: sphere pairs with the world as "ground", a
// tilted platform's plane, a vertical body's 3-D sphere positions.
TEST(OsimDrop, WrittenScenariosMatchTheSchema) {
  const fs::path dir = fresh_directory("osim-written");
  std::vector<std::string> written;
  for (const char* m : {"sphere_pair", "tilted_platform", "block_two_pin"})
    for (const bool vertical : {false, true}) {
      const std::string out = (dir / (std::string(m) + (vertical ? "_vertical" : "") + ".json")).string();
      std::vector<std::string> args{"osim", "scenario", source_path(std::string("tests/data/osim/") + m + ".osim"), "-o", out};
      if (vertical) args.push_back("--vertical");
      ASSERT_EQ(run_dropsim(args).exit_code, 0) << out;
      written.push_back(out);
    }
  std::string files;
  for (const auto& f : written) files += " " + shell_quote(f);
  const CliResult schema = run_command("/usr/bin/python3 " + shell_quote(source_path("scripts/check-scenario-schema.py")) + files);
  EXPECT_EQ(schema.exit_code, 0) << schema.output();
  const json pair = json::parse(slurp(written[0]));
  bool on_the_world = false;
  for (const auto& c : pair["contacts"]) on_the_world = on_the_world || (c.contains("bodies") && c["bodies"][1] == "ground");
  EXPECT_TRUE(on_the_world) << pair.dump();
  const json tilt_vertical = json::parse(slurp(written[3]));
  EXPECT_EQ(tilt_vertical["bodies"][0]["joint"], "vertical");
  EXPECT_EQ(tilt_vertical["contacts"][0]["at"].size(), 3u);
  fs::remove_all(dir);
}

// Scaled from the paper's 62 kg human (6 spheres of 32 mm, typed stiffness
// 1e6, alpha 2 scaled), a model dropped by the paper's protocol is the
// human's dimensionless drop: the same rest x/R, the same peak F/(M g).
TEST(OsimDrop, ScaledFromThePapersHumanItDropsAsTheHuman) {
  const fs::path dir = fresh_directory("osim-drop-scaled");
  const std::string trace = (dir / "block.h5").string();
  const CliResult r = run_dropsim({"osim", "drop", source_path("tests/data/osim/block_two_pin.osim"), "--mass", "62", "--spheres", "6",
                                   "--radius", "0.032", "--stiffness", "1e6", "--dissipation", "2", "--scale-dissipation",
                                   "--duration", "4", "-o", trace});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const CliResult human = run_dropsim({"run", paper_scenario_path("human62_alpha-scaled"), "-o", dir.string()});
  ASSERT_EQ(human.exit_code, 0) << human.err;
  const auto end_and_peak = [](const std::string& path) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const std::vector<double> f = read_doubles(file, "/force_normalized"), x = read_doubles(file, "/indentation_relative");
    H5Fclose(file);
    return std::pair{x.back(), *std::max_element(f.begin(), f.end())};
  };
  const auto [block_x, block_peak] = end_and_peak(trace);
  const auto [human_x, human_peak] = end_and_peak((dir / "human62_alpha-scaled.h5").string());
  std::printf("[measured] block scaled from the human: rest x/R %.8f (human %.8f), peak F/(Mg) %.5f (human %.5f)\n", block_x,
              human_x, block_peak, human_peak);
  EXPECT_NEAR(block_x, human_x, 1e-6);
  EXPECT_NEAR(block_peak / human_peak, 1.0, 1e-3);
  fs::remove_all(dir);
}

}  // namespace
