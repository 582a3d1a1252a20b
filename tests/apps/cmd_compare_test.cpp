// `dropsim compare` end to end: what the README promises of it, on traces made by `dropsim run`.
#include <H5Cpp.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "dropsim/io/hdf5_reader.hpp"
#include "tests/support/cli.hpp"

namespace fs = std::filesystem;

namespace {

using dropsim::test::CliResult;
using dropsim::test::dropsim;
using dropsim::test::scratch;
using dropsim::test::slurp;

std::string paper(const std::string& name) { return dropsim::test::paper_scenario_path(name); }

// Runs the paper's mouse and giraffe once for all tests.
std::string trace(const std::string& name) {
  static const bool made = [] {
    const CliResult r = dropsim("run -j 1 -o '" + scratch().string() + "' '" + paper("mouse_alpha-scaled") + "' '" +
                             paper("mouse_alpha-unscaled") + "' '" + paper("giraffe_alpha-scaled") + "' '" +
                             paper("giraffe_alpha-unscaled") + "'");
    return r.exit_code == 0;
  }();
  EXPECT_TRUE(made);
  return (scratch() / (name + ".h5")).string();
}

// The human62 scaled drop recorded every `interval` seconds, as `name`.
std::string human_at_interval(const std::string& name, double interval) {
  nlohmann::json s = nlohmann::json::parse(slurp(paper("human62_alpha-scaled")));
  s["name"] = name;
  s["output"] = {{"interval", interval}};
  const std::string trace = dropsim::test::run_scenario(s);
  EXPECT_FALSE(trace.empty()) << name;
  return trace;
}

std::string copy_of(const std::string& file, const std::string& name) {
  const fs::path to = scratch() / name;
  fs::copy_file(file, to, fs::copy_options::overwrite_existing);
  return to.string();
}

nlohmann::json compare_json(const std::string& args) {
  const CliResult r = dropsim("compare --json " + args);
  EXPECT_LE(r.exit_code, 1) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(CmdCompare, FileAgainstItselfIsExactlyEqual) {
  const std::string a = trace("mouse_alpha-unscaled");
  const CliResult r = dropsim("compare '" + a + "' '" + a + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = compare_json("'" + a + "' '" + a + "'");
  EXPECT_EQ(j["pairs"][0]["max_abs_diff"].get<double>(), 0.0);
  EXPECT_EQ(j["pairs"][0]["rms_diff"].get<double>(), 0.0);
  EXPECT_EQ(j["pairs"][0]["samples"].get<std::size_t>(), dropsim::io::read_series(a, "tau").values.size());
}

TEST(CmdCompare, OnePerturbedSampleFailsAndIsLocated) {
  const std::string a = trace("giraffe_alpha-scaled");
  const std::string b = copy_of(a, "perturbed.h5");
  const double atol = 1e-6;
  const std::size_t k = 345;  // mid-bounce
  const double tau_k = dropsim::io::read_series(a, "tau").values[k];
  {
    H5::H5File f(b, H5F_ACC_RDWR);
    H5::DataSet d = f.openDataSet("force_normalized");
    std::vector<double> y(static_cast<std::size_t>(d.getSpace().getSimpleExtentNpoints()));
    d.read(y.data(), H5::PredType::NATIVE_DOUBLE);
    y[k] += 2.0 * atol;
    d.write(y.data(), H5::PredType::NATIVE_DOUBLE);
  }
  const CliResult r = dropsim("compare --atol 1e-6 '" + a + "' '" + b + "'");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  char where[64];
  std::snprintf(where, sizeof where, "at tau = %.6g", tau_k);
  EXPECT_NE(r.out.find(where), std::string::npos) << r.out;
  const auto j = compare_json("--atol 1e-6 '" + a + "' '" + b + "'")["pairs"][0];
  EXPECT_EQ(j["x_of_max"].get<double>(), tau_k);
  EXPECT_EQ(j["x_first_failure"].get<double>(), tau_k);
  EXPECT_EQ(j["failing_samples"].get<int>(), 1);
  EXPECT_NEAR(j["max_abs_diff"].get<double>(), 2.0 * atol, 1e-15);
}

TEST(CmdCompare, BadInputExitsTwoWithASentence) {
  const std::string a = trace("mouse_alpha-scaled");
  CliResult r = dropsim("compare '" + a + "' '" + (scratch() / "missing.h5").string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing.h5: /: no such file"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());

  r = dropsim("compare --y no_such_thing '" + a + "' '" + a + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/no_such_thing: no such dataset"), std::string::npos) << r.err;

  r = dropsim("compare --y 'contact_force[3]' '" + a + "' '" + a + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("out of range"), std::string::npos) << r.err;

  const std::string newtons = copy_of(a, "units_N.h5");
  {
    H5::H5File f(newtons, H5F_ACC_RDWR);
    H5::DataSet d = f.openDataSet("force_normalized");
    d.removeAttr("units");
    H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
    d.createAttribute("units", t, H5::DataSpace(H5S_SCALAR)).write(t, std::string("N"));
  }
  r = dropsim("compare '" + a + "' '" + newtons + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("units \"N\" differ from \"1\""), std::string::npos) << r.err;

  r = dropsim("compare '" + a + "' '" + a + "' '" + a + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("has no partner"), std::string::npos) << r.err;
}

// docs/physics.md#size-scaling + docs/physics.md#scaling-the-dissipation: scaled models share one F/(Mg)-tau curve; unscaled, the mouse oscillates.
TEST(CmdCompare, ScaledMouseAndGiraffeCollapseOnTau) {
  const std::string ms = trace("mouse_alpha-scaled"), gs = trace("giraffe_alpha-scaled");
  const std::string mu = trace("mouse_alpha-unscaled"), gu = trace("giraffe_alpha-unscaled");
  const CliResult r = dropsim("compare --atol 1e-6 '" + ms + "' '" + gs + "' '" + mu + "' '" + gu + "'");
  EXPECT_EQ(r.exit_code, 1);
  // One line per pair, in order.
  const auto nl = r.out.find('\n');
  ASSERT_NE(nl, std::string::npos);
  EXPECT_EQ(r.out.rfind("ok ", 0), 0u) << r.out;
  EXPECT_EQ(r.out.find("FAIL", nl), nl + 1) << r.out;

  EXPECT_EQ(dropsim("compare --atol 1e-6 '" + ms + "' '" + gs + "'").exit_code, 0);
  const auto j = compare_json("--atol 1e-6 '" + ms + "' '" + gs + "' '" + mu + "' '" + gu + "'");
  EXPECT_FALSE(j["within_tolerance"].get<bool>());
  const auto& scaled = j["pairs"][0];
  const auto& unscaled = j["pairs"][1];
  EXPECT_LT(scaled["max_abs_diff"].get<double>(), 1e-6);
  // The overlap ends where the giraffe's 2 s end: tau = 2 sqrt(g / 0.08).
  EXPECT_NEAR(scaled["overlap"][1].get<double>(), 2.0 * std::sqrt(9.80665 / 0.08), 1e-9);
  EXPECT_GT(unscaled["max_abs_diff"].get<double>(), 0.5);
  EXPECT_FALSE(unscaled["within_tolerance"].get<bool>());
}

// Different output intervals. The dense output makes the trajectory independent
// of the grid, so nested grids agree exactly; on grids that do not nest, the
// cubic is O(h^4) where the curve is smooth but the force has a kink at
// touchdown (F ~ (t - t0)^(3/2)), which no polynomial interpolant resolves.
TEST(CmdCompare, DifferentOutputIntervals) {
  const std::string a = human_at_interval("h4000", 2.0 / 4000);    // 4000 samples
  const std::string nested = human_at_interval("h8000", 2.0 / 8000);
  const std::string skew = human_at_interval("h6061", 3.3e-4);      // shares 1 sample in 33 with A
  EXPECT_EQ(dropsim("compare --x time --atol 1e-6 '" + a + "' '" + nested + "'").exit_code, 0);
  EXPECT_EQ(compare_json("--x time '" + a + "' '" + nested + "'")["pairs"][0]["max_abs_diff"].get<double>(), 0.0);

  // Smooth quantities on skew grids: within 1e-6.
  for (const char* y : {"indentation_relative[0]", "q[0]"})
    EXPECT_EQ(dropsim(std::string("compare --x time --atol 1e-6 --y '") + y + "' '" + a + "' '" + skew + "'").exit_code, 0) << y;

  // The force on skew grids: the worst sample is the first one in contact, at
  // touchdown t0 = sqrt(2 h0 / g) with h0 = 0.25 R.
  const auto j = compare_json("--x time --atol 1e-6 '" + a + "' '" + skew + "'")["pairs"][0];
  const double t0 = std::sqrt(2.0 * 0.25 * 0.032 / 9.80665);
  EXPECT_GT(j["x_of_max"].get<double>(), t0);
  EXPECT_LT(j["x_of_max"].get<double>(), t0 + 2.0 / 4000);
  EXPECT_LT(j["max_abs_diff"].get<double>(), 1e-3);
}

}  // namespace
