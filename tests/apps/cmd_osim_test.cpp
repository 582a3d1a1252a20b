// `dropsim osim`: OpenSim's ball test protocol on the frozen scenario, scaling
// round trips, the frozen step limit measured against its prediction, what
// articulation does to the modes, and the malformed-model corpus.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <iterator>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "dropsim/io/osim_reader.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/opensim_models.hpp"
#include "tests/support/h5_read.hpp"

namespace fs = std::filesystem;
using namespace dropsim::test;
using nlohmann::json;

namespace {

const std::string block_model = source_path("tests/data/osim/block_two_pin.osim");

json run_json(const std::vector<std::string>& args) {
  const CliResult r = run_dropsim(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

// OpenSim's own test (testForces.cpp): the ball lifted to just touch, at rest,
// 2 s; the contact force must equal the weight within 1e-3 N, with no horizontal force.
void ball_settles(const std::string& model) {
  const fs::path dir = fresh_directory("osim-ball");
  const std::string scenario = (dir / "ball.json").string();
  const CliResult made = run_dropsim({"osim", "scenario", model, "--coordinate", "ball_ty=0.5", "--duration", "2", "-o", scenario});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const CliResult ran = run_dropsim({"run", "-j", "1", scenario, "-o", dir.string()});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const json s = json::parse(slurp(scenario));
  const double weight = s["bodies"][0]["mass"].get<double>() * s["gravity"].get<double>();
  const dropsim::io::OsimModel m = dropsim::io::read_osim(model);
  EXPECT_DOUBLE_EQ(weight, -m.model.gravity.y());  // the model's own gravity, 1 kg
  const hid_t f = H5Fopen((dir / "BouncingBall.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const auto force = read_doubles(f, "/force"), friction = read_doubles(f, "/friction_force");
  H5Fclose(f);
  EXPECT_NEAR(force.back(), weight, 1e-3);
  EXPECT_LT(std::abs(friction.back()), 1e-6);
  fs::remove_all(dir);
}

TEST(CmdOsim, HuntCrossleyBallSettlesOnItsWeight) {
  REQUIRE_OPENSIM_MODEL("ball_hc.osim");
  ball_settles(opensim_model("ball_hc.osim"));
}

TEST(CmdOsim, SmoothBallSettlesOnItsWeight) {
  REQUIRE_OPENSIM_MODEL("ball_sshsf.osim");
  ball_settles(opensim_model("ball_sshsf.osim"));
}

TEST(CmdOsim, InspectReportsWhatTheFileSays) {
  REQUIRE_OPENSIM_MODEL("gait2d_moco.osim");
  const json hc = run_json({"osim", "inspect", opensim_model("ball_hc.osim"), "--json"});
  EXPECT_DOUBLE_EQ(hc["total_mass"], 1.0);
  EXPECT_DOUBLE_EQ(hc["gravity"][1], -9.8065);
  const json& contact = hc["forces"][0]["contacts"][0];
  EXPECT_DOUBLE_EQ(contact["radius"], 0.5);
  EXPECT_NEAR(contact["effective_modulus"].get<double>(), 1e4 / std::pow(2.0, 1.5), 1e-9);
  EXPECT_DOUBLE_EQ(contact["frozen"]["load_share"], 1.0);
  // At rest the sphere carries the weight: (4/3) E* sqrt(R) x^1.5 = m g.
  const double x = std::pow(9.8065 / (4.0 / 3.0 * 1e4 / std::pow(2.0, 1.5) * std::sqrt(0.5)), 2.0 / 3.0);
  EXPECT_NEAR(contact["frozen"]["indentation"].get<double>(), x, 1e-9 * x);
  // OpenSim's ball models start with the sphere sunk one radius.
  ASSERT_EQ(hc["warnings"].size(), 1u);
  EXPECT_NE(hc["warnings"][0].get<std::string>().find("starts 0.5 m"), std::string::npos) << hc["warnings"];

  const json gait = run_json({"osim", "inspect", opensim_model("gait2d_moco.osim"), "--json"});
  EXPECT_FALSE(gait["gravity_given"]);
  EXPECT_DOUBLE_EQ(gait["gravity"][1], -9.80665);
  EXPECT_EQ(gait["forces"].size(), 4u);
  const json& heel = gait["forces"][0];
  EXPECT_TRUE(heel["parameter_sets"][0]["parameters"]["constant_contact_force"]["defaulted"]);
  EXPECT_FALSE(heel["parameter_sets"][0]["parameters"]["hertz_smoothing"]["defaulted"]);
  EXPECT_DOUBLE_EQ(heel["parameter_sets"][0]["parameters"]["constant_contact_force"]["value"], 1e-5);
}

// Lines `diff` reports, without its headers.
std::vector<std::string> changed_lines(const std::string& a, const std::string& b) {
  const CliResult d = run_command("diff " + shell_quote(a) + " " + shell_quote(b));
  std::vector<std::string> lines;
  std::istringstream in(d.out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && (line[0] == '<' || line[0] == '>')) lines.push_back(line);
  return lines;
}

TEST(CmdOsim, ScalingByAFactorOfOneChangesNoByte) {
  const fs::path dir = fresh_directory("osim-scale-one");
  const std::string out = (dir / "same.osim").string();
  const CliResult r = run_dropsim({"osim", "scale", block_model, "--from", block_model, "--scale-dissipation", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(out), slurp(block_model));
  fs::remove_all(dir);
}

TEST(CmdOsim, ScalingRewritesOnlyTheParametersAndRereadsExactly) {
  const fs::path dir = fresh_directory("osim-scale");
  const std::string out = (dir / "scaled.osim").string();
  const CliResult r = run_dropsim({"osim", "scale", block_model, "--mass", "62", "--spheres", "4", "--radius", "0.032", "--stiffness",
                                   "1e6", "--dissipation", "1", "--scale-dissipation", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  bool in_comment = false;
  for (const std::string& line : changed_lines(block_model, out)) {
    if (line.find("<!-- dropsim osim scale") != std::string::npos) in_comment = true;
    const bool parameter = line.find("<stiffness>") != std::string::npos || line.find("<dissipation>") != std::string::npos;
    EXPECT_TRUE(in_comment || parameter) << line;
    if (line.find("-->") != std::string::npos) in_comment = false;
  }
  // By hand: E_b = E_a (M_b / M_a) (n_a / n_b) (R_a / R_b)^2 on the typed value; alpha_b = alpha_a sqrt(R_a / R_b).
  const dropsim::io::OsimModel scaled = dropsim::io::read_osim(out);
  const double typed = 1e6 * (29.0 / 62.0) * (4.0 / 4.0) * std::pow(0.032 / 0.1, 2);
  const auto& set = scaled.forces.front().sets.front();
  EXPECT_NEAR(set.value("stiffness"), typed, 1e-15 * typed);
  EXPECT_NEAR(set.value("dissipation"), std::sqrt(0.032 / 0.1), 1e-15);
  fs::remove_all(dir);
}

// A reference given by numbers names all five: left out, the dissipation is not taken as 0.
TEST(CmdOsim, ScalingFromNumbersRefusesAMissingDissipation) {
  const fs::path dir = fresh_directory("osim-scale-no-alpha");
  const std::string out = (dir / "scaled.osim").string();
  const CliResult r = run_dropsim({"osim", "scale", block_model, "--mass", "62", "--spheres", "4", "--radius", "0.032",
                                   "--stiffness", "1e6", "-o", out});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--dissipation"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  // Nor is an infinite reference taken (it wrote NaN stiffness, or kept the file's alpha under a comment saying inf).
  for (const char* option : {"--dissipation", "--stiffness", "--mass"}) {
    std::vector<std::string> args = {"osim", "scale", block_model, "--mass", "62", "--spheres", "4", "--radius", "0.032",
                                     "--stiffness", "1e6", "--dissipation", "1", "-o", out};
    *std::next(std::find(args.begin(), args.end(), option)) = "inf";
    const CliResult inf = run_dropsim(args);
    EXPECT_EQ(inf.exit_code, 2) << option << ": " << inf.err;
    EXPECT_FALSE(fs::exists(out)) << option;
  }
  fs::remove_all(dir);
}

TEST(CmdOsim, ScalingSmoothingInsertsTheAbsentElements) {
  REQUIRE_OPENSIM_MODEL("ball_sshsf.osim");
  const fs::path dir = fresh_directory("osim-scale-smooth");
  const std::string out = (dir / "scaled.osim").string();
  const std::string model = opensim_model("ball_sshsf.osim");
  const CliResult r = run_dropsim({"osim", "scale", model, "--from", opensim_model("gait2d_moco.osim"), "--scale-dissipation",
                                   "--scale-smoothing", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const dropsim::io::OsimModel scaled = dropsim::io::read_osim(out);
  const auto& law = scaled.model.contacts.front().law;
  // From the walker's heel (R 0.035, its cf 1e-5 by default, bd 300, bv 50) to
  // the ball's 0.5 m; the file holds dropsim's doubles exactly, this test's own
  // arithmetic differs from them by a few units in the last place.
  EXPECT_NEAR(law.cf, 1e-5 * std::pow(0.5 / 0.035, 2), 4e-15 * law.cf);
  EXPECT_NEAR(law.bd, 300.0 * 0.035 / 0.5, 1e-13);
  EXPECT_NEAR(law.bv, 50.0 * std::sqrt(0.035 / 0.5), 1e-13);
  for (const char* e : {"constant_contact_force", "hertz_smoothing", "hunt_crossley_smoothing"})
    EXPECT_FALSE(scaled.forces.front().sets.front().find(e)->defaulted) << e;
  bool in_comment = false;
  for (const std::string& line : changed_lines(model, out)) {
    if (line.find("<!-- dropsim osim scale") != std::string::npos) in_comment = true;
    bool parameter = false;
    for (const char* e : {"<stiffness>", "<dissipation>", "<constant_contact_force>", "<hertz_smoothing>", "<hunt_crossley_smoothing>"})
      parameter = parameter || line.find(e) != std::string::npos;
    EXPECT_TRUE(in_comment || parameter) << line;
    if (line.find("-->") != std::string::npos) in_comment = false;
  }
  fs::remove_all(dir);
}

TEST(CmdOsim, FrozenScenarioStepLimitMatchesTheFrozenPrediction) {
  const fs::path dir = fresh_directory("osim-steplimit");
  const std::string scenario = (dir / "block.json").string();
  ASSERT_EQ(run_dropsim({"osim", "scenario", block_model, "-o", scenario}).exit_code, 0);
  const json modes = run_json({"osim", "modes", block_model, "--integrator", "rk4", "--json"});
  const json limit = run_json({"steplimit", scenario, "--integrator", "rk4", "--json"});
  const json& row = limit.is_array() ? limit[0] : limit["integrators"][0];
  double predicted = 0.0;
  for (const auto& r : modes["frozen"]["step_limits"])
    if (r["integrator"] == "rk4") predicted = r["predicted_step"];
  EXPECT_NEAR(row["measured_step"].get<double>() / predicted, 1.0, 0.02) << row;
  // Articulation frees the chain: the fastest contact mode is faster than frozen.
  EXPECT_GT(modes["articulated"]["omega_max"].get<double>(), modes["frozen"]["omega_max"].get<double>());
  EXPECT_TRUE(modes["articulated"]["pose_at_equilibrium"]);
  fs::remove_all(dir);
}

TEST(CmdOsim, ForwardSetupBudgetIsWeighed) {
  REQUIRE_OPENSIM_MODEL("bouncing_block_forward_setup.xml");
  const json modes = run_json({"osim", "modes", block_model, "--setup", opensim_model("bouncing_block_forward_setup.xml"),
                               "--integrator", "rk_merson", "--json"});
  ASSERT_EQ(modes["articulated"]["step_limits"].size(), 1u);
  EXPECT_DOUBLE_EQ(modes["setup"]["duration"], 10.0);
  for (const auto& r : modes["articulated"]["step_limits"]) {
    if (r["predicted_step"].is_null()) continue;  // unconditionally stable: bounded by the largest step
    const double steps = 10.0 / std::min(r["predicted_step"].get<double>(), 1.0);
    EXPECT_NEAR(r["budget"]["min_steps"].get<double>(), steps, 1e-9 * steps);
    EXPECT_EQ(r["budget"]["covered"].get<bool>(), steps <= 20000) << r;
  }
}

// A knee on one heel sphere cannot stand frozen whole: its modes are the
// vertical stance's alone, and a sentence says why there are no others.
TEST(CmdOsim, ModesOfAPoseThatDoesNotStandFrozenAreTheVerticalOnes) {
  const std::string model = source_path("tests/data/osim/legacy_custom_knee.osim");
  const CliResult r = run_dropsim({"osim", "modes", model});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("no frozen equilibrium: no frozen or articulated modes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("frozen whole, the model topples"), std::string::npos) << r.out;
  const json modes = run_json({"osim", "modes", model, "--json"});
  EXPECT_FALSE(modes.contains("frozen"));
  ASSERT_TRUE(modes.contains("vertical"));
  ASSERT_EQ(modes["vertical"]["modes"].size(), 1u);
  // One sphere under one vertical slider: omega^2 = k / m, the contact's own.
  const auto& contact = modes["vertical"]["contacts"][0];
  EXPECT_NEAR(modes["vertical"]["modes"][0]["omega"].get<double>(), contact["omega_single"].get<double>(),
              1e-9 * contact["omega_single"].get<double>());
  // A pose sunk deep still stands: the equilibrium search starts with the deepest sphere touching.
  EXPECT_EQ(run_dropsim({"osim", "modes", block_model, "--coordinate", "block_ty=-5", "--integrator", "rk4"}).exit_code, 0);
}

// A model path that is not a readable file is named with the reason, as a scenario's is.
TEST(OsimInput, DirectoryAndMissingFileRefused) {
  const fs::path dir = fresh_directory("osim-input");
  const std::string missing = (dir / "absent.osim").string();
  for (const auto& [path, reason] : {std::pair{dir.string(), std::string("is a directory; expected an OpenSim model file")},
                                     std::pair{missing, std::string("cannot open the file for reading: No such file")}}) {
    const CliResult r = run_dropsim({"osim", "inspect", path});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("dropsim: " + path + ": /: " + reason), std::string::npos) << r.err;
  }
  fs::remove_all(dir);
}

// What the reader does not model, and an inertia no rigid body has (which
// OpenSim runs), are said on stderr by every subcommand, with path and line.
TEST(OsimInput, EverySubcommandWarnsOfWhatItDoesNotModel) {
  const fs::path dir = fresh_directory("osim-warnings");
  std::string text = slurp(block_model);
  const std::string link1 = "<inertia>0.1042 0.002 0.1042 0 0 0</inertia>";
  ASSERT_NE(text.find(link1), std::string::npos);
  text.replace(text.find(link1), link1.size(), "<inertia>0.01 0.002 0.1042 0 0 0</inertia>");  // 0.002 + 0.01 < 0.1042
  const std::string model = (dir / "odd_inertia.osim").string();
  std::ofstream(model) << text;
  const std::vector<std::vector<std::string>> commands = {
      {"osim", "inspect", model},
      {"osim", "modes", model},
      {"osim", "scenario", model, "-o", (dir / "s.json").string()},
      {"osim", "scale", model, "--from", block_model, "-o", (dir / "scaled.osim").string()},
      {"osim", "drop", model, "-o", (dir / "drop.h5").string()}};
  for (const auto& args : commands) {
    const CliResult r = run_dropsim(args);
    EXPECT_EQ(r.exit_code, 0) << args[1] << ": " << r.err;
    EXPECT_NE(r.err.find("warning: not modelled (left out of every analysis): 1 PointToPointSpring"), std::string::npos)
        << args[1] << ": " << r.err;
    EXPECT_NE(r.err.find("Body[link1] (line 15): the inertia of body link1 is no rigid body's"), std::string::npos)
        << args[1] << ": " << r.err;
  }
  fs::remove_all(dir);
}

// The malformed-model corpus (tests/bad_inputs/osim): exit 2, file, element path, a sentence, nothing written.
class BadOsim : public ::testing::TestWithParam<std::string> {};

TEST_P(BadOsim, RefusedWithFileElementPathAndSentence) {
  const fs::path corpus = source_path("tests/bad_inputs/osim");
  const std::string input = (corpus / (GetParam() + ".osim")).string();
  std::string path, message;
  std::istringstream expect(slurp(corpus / (GetParam() + ".expect")));
  for (std::string line; std::getline(expect, line);) {
    if (line.rfind("path: ", 0) == 0) path = line.substr(6);
    if (line.rfind("message: ", 0) == 0) message = line.substr(9);
  }
  ASSERT_FALSE(path.empty() || message.empty());
  const fs::path dir = fresh_directory("bad-osim");
  for (const std::vector<std::string>& args : {std::vector<std::string>{"osim", "inspect", input},
                                               std::vector<std::string>{"osim", "scenario", input, "-o", (dir / "out.json").string()}}) {
    const CliResult r = run_dropsim(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(input), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  EXPECT_TRUE(directory_entries(dir).empty());
  fs::remove_all(dir);
}

std::vector<std::string> bad_models() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(source_path("tests/bad_inputs/osim")))
    if (e.path().extension() == ".expect") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadOsim, ::testing::ValuesIn(bad_models()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
