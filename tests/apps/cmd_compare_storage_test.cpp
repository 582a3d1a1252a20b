// `dropsim compare` with OpenSim storage files (.sto, .mot) on either side: a
// trace against the storage file of the same quantity, and malformed files
// refused with file, line and rule.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "dropsim/io/hdf5_reader.hpp"
#include "tests/support/cli.hpp"

namespace fs = std::filesystem;

namespace {

using dropsim::test::CliResult;
using dropsim::test::dropsim;
using dropsim::test::scratch;
using dropsim::test::shell_quote;

const fs::path& directory() {
  static const fs::path dir = dropsim::test::fresh_directory("compare_storage");
  return dir;
}

// The mouse drop run with --sto: its trace and its Storage file.
std::string mouse(const std::string& ext) {
  static const bool made = [] {
    const CliResult r = dropsim("run --sto -j 1 -o " + shell_quote(directory().string()) + " " +
                                shell_quote(dropsim::test::paper_scenario_path("mouse_alpha-unscaled")));
    return r.exit_code == 0;
  }();
  EXPECT_TRUE(made);
  return (directory() / ("mouse_alpha-unscaled" + ext)).string();
}

// A .mot file of time and the contact force as OpenSim writes a ground-reaction
// file: a free-text description in the header, space-separated, with the force
// of row `bump` multiplied by `factor`.
std::string force_plate(const std::string& name, std::size_t bump, double factor) {
  const auto time = dropsim::io::read_series(mouse(".h5"), "time").values;
  const auto force = dropsim::io::read_series(mouse(".h5"), "force").values;
  const fs::path path = directory() / name;
  std::ofstream out(path);
  out << "mouse_force_plate\nversion=1\nnRows=" << time.size() << "\nnColumns=2\ninDegrees=yes\n"
      << "Ground reaction of the drop, written by the test\nendheader\ntime ground_force_vy\n";
  char row[80];
  for (std::size_t i = 0; i < time.size(); ++i) {
    std::snprintf(row, sizeof row, "%.17g %.17g\n", time[i], i == bump ? force[i] * factor : force[i]);
    out << row;
  }
  return path.string();
}

nlohmann::json compare_json(const std::string& args) {
  const CliResult r = dropsim("compare --json --x time --y force " + args);
  EXPECT_LE(r.exit_code, 1) << r.err;
  return nlohmann::json::parse(r.out)["pairs"][0];
}

TEST(CmdCompareStorage, TraceEqualsItsOwnStorageFile) {
  const std::string args = "--label contact.body.force.Y " + shell_quote(mouse(".h5")) + " " + shell_quote(mouse(".sto"));
  EXPECT_EQ(dropsim("compare --x time --y force " + args).exit_code, 0);
  const auto j = compare_json(args);
  EXPECT_EQ(j["max_abs_diff"].get<double>(), 0.0);  // %.17g round-trips every double
  EXPECT_EQ(j["units"], "N");                        // the storage side takes the trace's units
  EXPECT_GT(j["peak_a"].get<double>(), 0.0);
}

TEST(CmdCompareStorage, StorageFileOnEitherSide) {
  const std::string plate = force_plate("plate.mot", 0, 1.0);
  EXPECT_EQ(dropsim("compare --x time --y force --label ground_force_vy " + shell_quote(plate) + " " +
                    shell_quote(mouse(".h5"))).exit_code, 0);
  EXPECT_EQ(dropsim("compare --x time --y force --label ground_force_vy " + shell_quote(mouse(".h5")) + " " +
                    shell_quote(plate)).exit_code, 0);
}

TEST(CmdCompareStorage, OneSampleBeyondToleranceFails) {
  const auto force = dropsim::io::read_series(mouse(".h5"), "force").values;
  std::size_t peak = 0;
  for (std::size_t i = 0; i < force.size(); ++i)
    if (force[i] > force[peak]) peak = i;
  const std::string plate = force_plate("bumped.mot", peak, 1.001);
  const std::string args = "--atol 1e-6 --label ground_force_vy " + shell_quote(mouse(".h5")) + " " + shell_quote(plate);
  const CliResult r = dropsim("compare --x time --y force " + args);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto j = compare_json(args);
  EXPECT_EQ(j["failing_samples"].get<int>(), 1);
  EXPECT_NEAR(j["max_abs_diff"].get<double>(), force[peak] * 0.001, 1e-9 * force[peak]);
  // Within a tolerance that covers the bump it passes again.
  EXPECT_EQ(dropsim("compare --x time --y force --rtol 0.002 " + args).exit_code, 0);
}

struct Malformed {
  const char* file;
  const char* label;
  const char* message;  // after "FILE: "
};

TEST(CmdCompareStorage, MalformedFilesExit2NamingFileLineAndRule) {
  const Malformed cases[] = {
      {"no_endheader.sto", "force", "line 7: no \"endheader\" line"},
      {"ragged_row.sto", "force", "line 8: ragged row: 1 cells, the labels on line 6 are 2"},
      {"missing_label.sto", "contact.body.force.Y", "line 4: no column is labelled \"contact.body.force.Y\""},
      {"version_2.sto", "force", "line 2: storage version 2 is not read (version=1 is)"},
      {"nrows_wrong.mot", "force", "line 7: nRows=3 but the file has 2 rows"},
      {"indegrees_maybe.mot", "force", "line 3: inDegrees must be yes or no"},
      {"cell_not_number.sto", "force", "line 6: cell 2 (force) is not a number (got \"abc\")"},
  };
  for (const auto& c : cases) {
    const std::string bad = dropsim::test::source_path(std::string("tests/bad_inputs/storage/") + c.file);
    const CliResult r = dropsim("compare --x time --y force --label " + shell_quote(c.label) + " " +
                                shell_quote(mouse(".h5")) + " " + shell_quote(bad));
    EXPECT_EQ(r.exit_code, 2) << c.file;
    EXPECT_NE(r.err.find(bad + ": " + c.message), std::string::npos) << c.file << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.file;
  }
}

TEST(CmdCompareStorage, TauIsRefusedForAStorageFile) {
  const CliResult r = dropsim("compare --y force --label contact.body.force.Y " + shell_quote(mouse(".h5")) + " " +
                              shell_quote(mouse(".sto")));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("an OpenSim storage file has time, not tau: compare it with --x time"), std::string::npos) << r.err;
}

}  // namespace
