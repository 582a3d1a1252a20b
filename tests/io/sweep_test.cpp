// Sweeps: designs, rows equal to single `dropsim run`s bit for bit, shards merged equal one process
// (the summary file, slices and resuming: sweep_file_test.cpp).
#include <gtest/gtest.h>

#include <H5Cpp.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "dropsim/io/sweep.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/scenarios.hpp"
#include "tests/support/sweeps.hpp"

extern char** environ;

namespace dropsim {
namespace {

namespace fs = std::filesystem;
using test::fresh_directory;
using test::sweep_base_scenario;

const char* const vary = "--vary /contact/dissipation=0.5:4:3 --vary /drop/mass=31:124:4:log";

double root_double(const H5::H5File& f, const char* name) {
  double v = 0.0;
  f.openGroup("/").openAttribute(name).read(H5::PredType::NATIVE_DOUBLE, &v);
  return v;
}
long long root_integer(const H5::H5File& f, const char* name) {
  long long v = 0;
  f.openGroup("/").openAttribute(name).read(H5::PredType::NATIVE_LLONG, &v);
  return v;
}

void expect_same_rows(const io::SweepFile& a, const io::SweepFile& b) {
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (std::size_t i = 0; i < a.rows.size(); ++i) {
    const io::SweepRow &x = a.rows[i], &y = b.rows[i];
    EXPECT_EQ(x.run, y.run);
    EXPECT_EQ(x.values, y.values);
    // Bitwise: == on doubles, no tolerance.
    EXPECT_EQ(x.equilibrium_indentation_relative, y.equilibrium_indentation_relative) << i;
    EXPECT_EQ(x.peak_force_normalized, y.peak_force_normalized) << i;
    EXPECT_EQ(x.tau_of_peak, y.tau_of_peak) << i;
    EXPECT_EQ(x.settling_time, y.settling_time) << i;
    EXPECT_EQ(x.status, y.status);
    EXPECT_EQ(x.steps, y.steps);
    EXPECT_EQ(x.rhs_evaluations, y.rhs_evaluations);
  }
}

TEST(SweepDesign, CartesianRunsTheProductLastAxisFastest) {
  const auto d = io::cartesian_design({io::parse_sweep_axis("/a=1:3:3"), io::parse_sweep_axis("/b=1:100:3:log")});
  ASSERT_EQ(d.values.size(), 9u);
  EXPECT_EQ(d.values[0], (std::vector<double>{1, 1}));
  EXPECT_EQ(d.values[1][0], 1.0);
  EXPECT_NEAR(d.values[1][1], 10.0, 1e-12);  // geometric midpoint of a log axis
  EXPECT_EQ(d.values[3][0], 2.0);
  EXPECT_EQ(d.values[8][0], 3.0);
  EXPECT_NEAR(d.values[8][1], 100.0, 1e-12);
}

TEST(SweepDesign, LatinHypercubePutsOneSampleInEveryStratum) {
  const std::vector<io::SweepAxis> axes = {io::parse_sweep_axis("/a=0:1:1"), io::parse_sweep_axis("/b=1:1000:1:log")};
  const auto d = io::latin_hypercube_design(axes, 50, 7);
  for (std::size_t i = 0; i < axes.size(); ++i) {
    std::set<long> strata;
    for (const auto& v : d.values) {
      const double u = i == 0 ? v[0] : std::log10(v[1]) / 3.0;  // position in [0, 1)
      strata.insert(static_cast<long>(std::floor(u * 50)));
    }
    EXPECT_EQ(strata.size(), 50u) << "axis " << i;
  }
  EXPECT_EQ(io::latin_hypercube_design(axes, 50, 7).values, d.values);  // fixed seed, same design
  EXPECT_NE(io::latin_hypercube_design(axes, 50, 8).values, d.values);
}

TEST(SweepDesign, BadAxesNameTheRule) {
  EXPECT_THROW(io::parse_sweep_axis("contact/dissipation=1:2:3"), io::InputError);
  EXPECT_THROW(io::parse_sweep_axis("/x=1:2"), io::InputError);
  EXPECT_THROW(io::parse_sweep_axis("/x=1:2:2.5"), io::InputError);
  EXPECT_THROW(io::parse_sweep_axis("/x=0:2:3:log"), io::InputError);
  // A value the scenario rejects fails the sweep with the scenario's own message.
  const auto d = io::cartesian_design({io::parse_sweep_axis("/drop/mass=-1:1:2")});
  try {
    (void)io::sweep_scenario(sweep_base_scenario(), "base.json", d, 0);
    FAIL() << "a negative mass was accepted";
  } catch (const io::InputError& e) {
    EXPECT_EQ(e.path(), "/drop/mass");
  }
}

// `dropsim run` of the scenario `doc` (written to dir) against a sweep row, bit for bit.
void expect_row_equals_single_run(const io::SweepRow& s, const nlohmann::json& doc, const fs::path& dir) {
  const std::string name = doc["name"].get<std::string>();
  const fs::path file = dir / (name + ".json");
  std::ofstream(file) << doc.dump(2);
  const auto single = test::dropsim("run " + file.string() + " -o " + dir.string());
  ASSERT_EQ(single.exit_code, 0) << single.output();
  const H5::H5File h5((dir / (name + ".h5")).string(), H5F_ACC_RDONLY);
  EXPECT_EQ(s.peak_force_normalized, root_double(h5, "peak_force_normalized")) << name;
  EXPECT_EQ(s.tau_of_peak, root_double(h5, "tau_of_peak")) << name;
  EXPECT_EQ(s.equilibrium_indentation_relative, root_double(h5, "equilibrium_indentation_relative")) << name;
  EXPECT_EQ(s.steps, root_integer(h5, "steps")) << name;
  EXPECT_EQ(s.rhs_evaluations, root_integer(h5, "rhs_evaluations")) << name;
  EXPECT_EQ(s.status, 0) << name;
}

TEST(SweepCommand, RowsEqualSingleRunsBitwise) {
  const fs::path dir = fresh_directory("rows");
  const fs::path base = dir / "base.json";
  std::ofstream(base) << sweep_base_scenario().dump(2);
  const auto r = test::dropsim("sweep " + base.string() + " " + vary + " -o " + (dir / "sweep.h5").string());
  ASSERT_EQ(r.exit_code, 0) << r.output();
  const io::SweepFile sweep = io::read_sweep_hdf5((dir / "sweep.h5").string());
  ASSERT_EQ(sweep.rows.size(), 12u);
  EXPECT_EQ(sweep.pointers, (std::vector<std::string>{"/contact/dissipation", "/drop/mass"}));

  // Three rows against `dropsim run` on scenario files written here by hand.
  for (std::size_t row : {0u, 6u, 11u}) {
    nlohmann::json doc = sweep_base_scenario();
    doc["contact"]["dissipation"] = sweep.rows[row].values[0];
    doc["drop"]["mass"] = sweep.rows[row].values[1];
    doc["name"] = "single_" + std::to_string(row);
    const io::SweepRow& s = sweep.rows[row];
    expect_row_equals_single_run(s, doc, dir);
    // Physics: the scaled human settles near the paper's xh; the peak exceeds the weight.
    EXPECT_GT(s.peak_force_normalized, 1.0);
    EXPECT_GT(s.settling_time, 0.0);
    EXPECT_LE(s.settling_time, 0.6);
    if (s.values[0] >= 2.0) {
      EXPECT_LT(s.settling_time, 0.6) << row;  // damped enough to settle within the run
    }
  }
}

// A multi-contact base runs through the same pipeline: the bar on two supports
// swept over its mass, each row equal to `dropsim run` of that scenario.
TEST(SweepCommand, MultiContactRowsEqualSingleRuns) {
  const fs::path dir = fresh_directory("multibody_rows");
  std::ifstream in(test::source_path("scenarios/modes/bar_two_supports.json"));
  const nlohmann::json bar = nlohmann::json::parse(in);
  const fs::path base = dir / "bar.json";
  std::ofstream(base) << bar.dump(2);
  const auto r = test::dropsim("sweep " + base.string() + " --vary /bodies/0/mass=1:4:3 -o " + (dir / "sweep.h5").string());
  ASSERT_EQ(r.exit_code, 0) << r.output();
  const io::SweepFile sweep = io::read_sweep_hdf5((dir / "sweep.h5").string());
  ASSERT_EQ(sweep.rows.size(), 3u);
  for (std::size_t row = 0; row < 3; ++row) {
    nlohmann::json doc = bar;
    doc["bodies"][0]["mass"] = sweep.rows[row].values[0];
    doc["name"] = "bar_" + std::to_string(row);
    const io::SweepRow& s = sweep.rows[row];
    expect_row_equals_single_run(s, doc, dir);
    EXPECT_GT(s.peak_force_normalized, 0.5) << "the bar rests on its supports: " << row;
  }
}

TEST(SweepCommand, TwoShardsMergedEqualOneProcess) {
  const fs::path dir = fresh_directory("shards");
  const fs::path base = dir / "base.json";
  std::ofstream(base) << sweep_base_scenario().dump(2);
  const std::string common = "sweep " + base.string() + " " + vary;
  ASSERT_EQ(test::dropsim(common + " -j 2 -o " + (dir / "whole.h5").string()).exit_code, 0);
  ASSERT_EQ(test::dropsim(common + " -j 1 --shard 0/2 -o " + (dir / "s0.h5").string()).exit_code, 0);
  ASSERT_EQ(test::dropsim(common + " -j 2 --shard 1/2 -o " + (dir / "s1.h5").string()).exit_code, 0);
  const auto merged = test::dropsim("merge " + (dir / "s1.h5").string() + " " + (dir / "s0.h5").string() +
                                        " -o " + (dir / "merged.h5").string());
  ASSERT_EQ(merged.exit_code, 0) << merged.output();
  expect_same_rows(io::read_sweep_hdf5((dir / "whole.h5").string()), io::read_sweep_hdf5((dir / "merged.h5").string()));
  // One shard alone does not cover the sweep.
  EXPECT_EQ(test::dropsim("merge " + (dir / "s0.h5").string() + " -o " + (dir / "bad.h5").string()).exit_code, 2);
  EXPECT_FALSE(fs::exists(dir / "bad.h5"));
}

#ifdef DROPSIM_HAVE_MPI
TEST(SweepCommand, TwoMpiRanksEqualOneProcess) {
  const fs::path dir = fresh_directory("mpi");
  const fs::path base = dir / "base.json";
  std::ofstream(base) << sweep_base_scenario().dump(2);
  const std::string args = "sweep " + base.string() + " " + vary;
  ASSERT_EQ(test::dropsim(args + " -o " + (dir / "one.h5").string()).exit_code, 0);
  // Root in containers: OpenMPI wants both variables to agree to run.
  const std::string mpirun = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe -n 2 ";
  const std::string command = mpirun + DROPSIM_BINARY + " " + args + " -j 1 -o " + (dir / "two.h5").string() + " 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  expect_same_rows(io::read_sweep_hdf5((dir / "one.h5").string()), io::read_sweep_hdf5((dir / "two.h5").string()));
}
#endif

TEST(SweepCommand, TracesOnRequest) {
  const fs::path dir = fresh_directory("traces");
  const fs::path base = dir / "base.json";
  std::ofstream(base) << sweep_base_scenario().dump(2);
  const auto r = test::dropsim("sweep " + base.string() + " --vary /contact/dissipation=1:2:2 --traces " +
                                   (dir / "traces").string() + " -o " + (dir / "s.h5").string());
  ASSERT_EQ(r.exit_code, 0) << r.output();
  EXPECT_TRUE(fs::exists(dir / "traces" / "human_sweep_000000.h5"));
  EXPECT_TRUE(fs::exists(dir / "traces" / "human_sweep_000001.h5"));
}

}  // namespace
}  // namespace dropsim
