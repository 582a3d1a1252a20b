// `dropsim scale` end to end: --json numbers against the paper's, --osim read back by a
// real XML parser, --curve read back by h5py, and bad input refused with a sentence.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/support/cli.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using Result = dropsim::test::CliResult;
using dropsim::test::dropsim;
using dropsim::test::scratch;

// A shell line whose stdin/stdout redirections are its own.
Result shell(const std::string& line) { return dropsim::test::run_command("( " + line + " )"); }

const std::string human62 =
    "--from-mass 62 --from-spheres 6 --from-radius 0.032 --from-stiffness 1e6 --from-dissipation 2";
const std::string to_mouse = " --to-mass 0.02 --to-spheres 4 --to-radius 0.002";

TEST(ScaleCommand, Human62ReferenceNumbers) {
  const Result r = dropsim("scale " + human62 + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_NEAR(j["effective_modulus"].get<double>(), 1e6 / std::pow(2.0, 1.5), 1e-6);
  EXPECT_NEAR(j["indentation_relative"].get<double>(), 0.35322, 5e-6);
  EXPECT_NEAR(j["stiffness_per_sphere"].get<double>(), 13450.0, 5.0);
  EXPECT_NEAR(j["cf_relative"].get<double>(), 0.0988, 5e-5);
  EXPECT_NEAR(j["bv_hat"].get<double>(), 8.94, 5e-3);
  EXPECT_NEAR(j["restitution_estimate"].get<double>(), 0.2, 0.01);
  EXPECT_NEAR(j["impact_speed"].get<double>(), std::sqrt(2 * 9.80665 * 0.008), 1e-12);
}

TEST(ScaleCommand, FromScenarioEqualsFromFlags) {
  const Result a = dropsim("scale " + human62 + to_mouse + " --scale-dissipation --json");
  const Result b = dropsim("scale --from " + std::string(DROPSIM_SOURCE_DIR) +
                           "/scenarios/paper/human62_alpha-unscaled.json" + to_mouse + " --scale-dissipation --json");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const json ja = json::parse(a.out), jb = json::parse(b.out);
  for (const char* k : {"stiffness", "effective_modulus", "dissipation", "cf", "bd", "bv", "indentation_relative"})
    EXPECT_NEAR(ja[k].get<double>(), jb[k].get<double>(), 1e-12 * std::abs(ja[k].get<double>())) << k;
  // Scaled to the mouse: docs/physics.md#size-scaling, #scaling-the-dissipation, #scaling-the-smoothing-parameters; the reference cf seen at 2 mm is 1.58 radii.
  EXPECT_NEAR(ja["effective_modulus"].get<double>(),
              1e6 / std::pow(2.0, 1.5) * (0.02 / 62) * (6.0 / 4) * std::pow(0.032 / 0.002, 2), 1e-6);
  EXPECT_NEAR(ja["dissipation"].get<double>(), 2.0 * 4.0, 1e-12);
  EXPECT_NEAR(ja["cf"].get<double>(), 1e-5 / 256.0, 1e-20);
  EXPECT_NEAR(ja["bd"].get<double>(), 300.0 * 16.0, 1e-9);
  EXPECT_NEAR(ja["bv"].get<double>(), 50.0 * 4.0, 1e-9);
  EXPECT_NEAR(ja["cf_relative_unscaled"].get<double>(), 1.58, 5e-3);
  EXPECT_NEAR(ja["indentation_relative"].get<double>(), 0.35322, 5e-6);
}

TEST(ScaleCommand, OsimParsesAndCarriesTheJsonNumbers) {
  const std::string args = "scale " + human62 + to_mouse + " --scale-dissipation";
  const Result j = dropsim(args + " --json");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const json values = json::parse(j.out);
  const fs::path xml = scratch() / "scaled.osim";
  const Result x = shell("'" + std::string(DROPSIM_BINARY) + "' " + args + " --osim > " + xml.string());
  ASSERT_EQ(x.exit_code, 0) << x.err;
  const Result parsed =
      shell("/usr/bin/python3 " + std::string(DROPSIM_SOURCE_DIR) + "/tests/data/osim_summary.py < " + xml.string());
  ASSERT_EQ(parsed.exit_code, 0) << parsed.err;
  const json o = json::parse(parsed.out);
  EXPECT_EQ(o["root"], "OpenSimDocument");
  ASSERT_EQ(o["spheres"].size(), 4u);
  ASSERT_EQ(o["hunt_crossley"].size(), 4u);
  ASSERT_EQ(o["smooth"].size(), 4u);
  ASSERT_EQ(o["half_spaces"].size(), 1u);
  // y up: the half space's x axis (its outward normal is -x) turned by -90 deg about z.
  EXPECT_NEAR(o["half_spaces"][0]["orientation"][2].get<double>(), -std::numbers::pi / 2, 1e-15);
  for (const auto& s : o["spheres"]) EXPECT_EQ(s["radius"].get<double>(), values["radius"].get<double>());
  for (const auto& h : o["hunt_crossley"]) {
    EXPECT_EQ(h["stiffness"].get<double>(), values["stiffness"].get<double>());
    EXPECT_EQ(h["dissipation"].get<double>(), values["dissipation"].get<double>());
    EXPECT_EQ(h["geometry"][1], "ground_contact");
  }
  for (const auto& s : o["smooth"]) {
    EXPECT_EQ(s["stiffness"].get<double>(), values["stiffness"].get<double>());
    EXPECT_EQ(s["dissipation"].get<double>(), values["dissipation"].get<double>());
    EXPECT_EQ(s["constant_contact_force"].get<double>(), values["cf"].get<double>());
    EXPECT_EQ(s["hertz_smoothing"].get<double>(), values["bd"].get<double>());
    EXPECT_EQ(s["hunt_crossley_smoothing"].get<double>(), values["bv"].get<double>());
    EXPECT_EQ(s["half_space"], "/contactgeometryset/ground_contact");
  }
}

TEST(ScaleCommand, DesignModeGivesGammaBodyWeightsAtXh) {
  const Result r = dropsim("scale --to-mass 0.02 --to-spheres 4 --to-radius 0.002 --gamma 3 --xh 0.2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  // docs/physics.md#hertz-contact at x = 0.2 R carries 3 M g / n per sphere.
  const double e = j["effective_modulus"].get<double>(), radius = 0.002, x = 0.2 * radius;
  const double f = 4.0 / 3.0 * e * std::sqrt(radius) * std::pow(x, 1.5);
  EXPECT_NEAR(f, 3 * 0.02 * 9.80665 / 4, 1e-9 * f);
  EXPECT_NEAR(j["stiffness"].get<double>(), e * std::pow(2.0, 1.5), 1e-9 * e);  // Sherman, as OpenSim takes it
}

TEST(ScaleCommand, CurveFileHoldsFigureC4) {
  const fs::path h5 = scratch() / "curves.h5";
  const Result r = dropsim("scale " + human62 + to_mouse + " --curve " + h5.string() + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  // Read back with h5py and check the curves against docs/physics.md#hertz-contact, #smoothed-hunt-crossley at the mouse radius.
  const std::string script =
      "import h5py, json, sys, numpy as np\n"
      "f = h5py.File(sys.argv[1], 'r')\n"
      "x = f['indentation'][:]; R = f.attrs['radius']; E = f.attrs['effective_modulus']\n"
      "h = np.where(x > 0, 4/3*E*np.sqrt(R)*np.clip(x, 0, None)**1.5, 0)\n"
      "def s(cf, bd): return 4/3*E*np.sqrt(R)*(x*x+cf)**0.75*(0.5+0.5*np.tanh(bd*x))\n"
      "rel = lambda a, b: float(np.max(np.abs(a-b)/(np.abs(b)+1e-300)))\n"
      "print(json.dumps({'hertz': rel(f['force_hertz'][:], h), 'unscaled': rel(f['force_smooth_unscaled'][:], "
      "s(1e-5, 300)), 'scaled': rel(f['force_smooth_scaled'][:], s(1e-5/256, 4800)), 'R': float(R), 'E': float(E), "
      "'n': int(x.size), 'units': f['force_hertz'].attrs['units'].decode() if isinstance(f['force_hertz'].attrs['units'], bytes) else str(f['force_hertz'].attrs['units'])}))\n";
  const fs::path py = scratch() / "curve.py";
  std::ofstream(py) << script;
  const Result c = shell("/usr/bin/python3 " + py.string() + " " + h5.string());
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const json k = json::parse(c.out);
  EXPECT_EQ(k["R"].get<double>(), 0.002);
  EXPECT_NEAR(k["E"].get<double>(), j["effective_modulus"].get<double>(), 1e-9);
  EXPECT_LT(k["hertz"].get<double>(), 1e-12);
  EXPECT_LT(k["unscaled"].get<double>(), 1e-12);
  EXPECT_LT(k["scaled"].get<double>(), 1e-12);
  EXPECT_EQ(k["n"].get<int>(), 601);
  EXPECT_EQ(k["units"], "N");
}

TEST(ScaleCommand, BadInputExitsTwoWithAReason) {
  struct Case {
    std::string args, needle;
  };
  for (const Case& c : {Case{human62 + " --to-mass 0 --to-spheres 4 --to-radius 0.002", "--to-mass"},
                        Case{"--from-mass 0 --from-spheres 6 --from-radius 0.032 --from-stiffness 1e6", "--from-mass"},
                        Case{"--to-mass 1 --to-spheres 4 --to-radius 0.01 --gamma 1 --xh 1", "--xh"},
                        Case{"--to-mass 1 --to-spheres 4 --to-radius 0.01 --gamma 0 --xh 0.2", "--gamma"},
                        Case{"--to-mass 1 --to-spheres 4 --to-radius 0.01 --gamma -2 --xh 0.2", "--gamma"},
                        Case{human62 + " --to-spheres 0", "--to-spheres"},
                        Case{human62 + " --combining hooke", "--combining"},
                        Case{human62 + " --json --osim", "--osim"},
                        Case{human62 + " --no-such-flag", "no-such-flag"}}) {
    const Result r = dropsim("scale " + c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args;
    EXPECT_NE(r.err.find(c.needle), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty() || r.out.find('{') == std::string::npos) << c.args;
  }
  // The sentence says why, not just which.
  const Result xh = dropsim("scale --to-mass 1 --to-spheres 4 --to-radius 0.01 --gamma 1 --xh 1.5");
  EXPECT_NE(xh.err.find("between 0 and 1"), std::string::npos) << xh.err;
}

}  // namespace
