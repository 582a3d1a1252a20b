// Sweeps: designs, rows equal to single `dropsim run`s bit for bit, shards merged equal one process,
// interrupted sweeps resumed to the same file.
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

extern char** environ;

namespace dropsim {
namespace {

namespace fs = std::filesystem;

fs::path fresh_directory(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("dropsim_sweep_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A short human drop with typed contact parameters, so /contact/dissipation can vary.
nlohmann::json base_scenario() {
  return nlohmann::json::parse(R"({
    "name": "human_sweep", "duration": 0.6,
    "drop": {"mass": 62, "spheres": 6, "radius": 0.032, "height_over_radius": 0.25},
    "contact": {"law": "hunt_crossley", "combining": "sherman", "stiffness": 1e6, "dissipation": 2.0},
    "integrator": {"name": "dopri5", "rtol": 1e-8},
    "output": {"interval_tau": 0.01}
  })");
}

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
    (void)io::sweep_scenario(base_scenario(), "base.json", d, 0);
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
  std::ofstream(base) << base_scenario().dump(2);
  const auto r = test::dropsim("sweep " + base.string() + " " + vary + " -o " + (dir / "sweep.h5").string());
  ASSERT_EQ(r.exit_code, 0) << r.output();
  const io::SweepFile sweep = io::read_sweep_hdf5((dir / "sweep.h5").string());
  ASSERT_EQ(sweep.rows.size(), 12u);
  EXPECT_EQ(sweep.pointers, (std::vector<std::string>{"/contact/dissipation", "/drop/mass"}));

  // Three rows against `dropsim run` on scenario files written here by hand.
  for (std::size_t row : {0u, 6u, 11u}) {
    nlohmann::json doc = base_scenario();
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
  std::ofstream(base) << base_scenario().dump(2);
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
  std::ofstream(base) << base_scenario().dump(2);
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
  std::ofstream(base) << base_scenario().dump(2);
  const auto r = test::dropsim("sweep " + base.string() + " --vary /contact/dissipation=1:2:2 --traces " +
                                   (dir / "traces").string() + " -o " + (dir / "s.h5").string());
  ASSERT_EQ(r.exit_code, 0) << r.output();
  EXPECT_TRUE(fs::exists(dir / "traces" / "human_sweep_000000.h5"));
  EXPECT_TRUE(fs::exists(dir / "traces" / "human_sweep_000001.h5"));
}

// Interruption: a sweep long enough to be stopped mid-way (60 drops of 3 s
// in fixed steps, about 25 ms each, saved in slices of 5), and the same sweep
// run straight through.
const char* const long_vary = "--vary /contact/dissipation=0.5:4:5 --vary /drop/mass=31:124:12:log";

struct Interruptible {
  fs::path dir = fresh_directory("interrupt");
  fs::path base = dir / "base.json", whole = dir / "whole.h5", out = dir / "out.h5",
           slices = dir / "out.h5.slices", err = dir / "err";
  Interruptible() {
    nlohmann::json doc = base_scenario();
    doc["duration"] = 3.0;
    doc["integrator"] = {{"name", "rk4"}, {"step", 2e-5}};
    std::ofstream(base) << doc.dump(2);
  }
  std::string command(const fs::path& output) const {
    return "sweep " + base.string() + " " + long_vary + " -o " + output.string();
  }
  // `dropsim sweep` into out.h5 on one thread, in the background, stderr to err.
  pid_t start() const {
    const std::string bin = DROPSIM_BINARY;
    std::vector<std::string> args{bin, "sweep", base.string(), "--vary", "/contact/dissipation=0.5:4:5",
                                  "--vary", "/drop/mass=31:124:12:log", "-o", out.string(), "-j", "1",
                                  "--slice-runs", "5"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t io;
    posix_spawn_file_actions_init(&io);
    posix_spawn_file_actions_addopen(&io, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&io, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = 0;
    EXPECT_EQ(posix_spawn(&pid, bin.c_str(), &io, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&io);
    return pid;
  }
  std::vector<fs::path> slice_files() const {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(slices, ec))
      if (e.path().filename().string().rfind("runs_", 0) == 0) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
  }
  void wait_for_slices(std::size_t n) const {
    for (int k = 0; k < 6000 && slice_files().size() < n; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_GE(slice_files().size(), n) << test::slurp(err);
  }
  ~Interruptible() { fs::remove_all(dir); }
};

// A two-run summary of the base scenario over /drop/mass.
io::SweepFile two_run_summary() {
  io::SweepFile s;
  s.base_scenario = base_scenario().dump();
  s.kind = "cartesian";
  s.axes = {"/drop/mass=1:2:2"};
  s.pointers = {"/drop/mass"};
  s.total_runs = 2;
  for (std::int64_t run : {0, 1}) {
    io::SweepRow r;
    r.run = run;
    r.values = {1.0 + static_cast<double>(run)};
    r.peak_force_normalized = 2.5;
    s.rows.push_back(r);
  }
  return s;
}

// HDF5 stamps objects with their modification time unless told not to: two
// writes of one summary, seconds apart, must still be the same bytes.
TEST(SweepSummary, SameRowsAreTheSameBytesWhenWrittenLater) {
  const fs::path dir = fresh_directory("bytes");
  const io::SweepFile s = two_run_summary();
  io::write_sweep_hdf5((dir / "a.h5").string(), s);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  io::write_sweep_hdf5((dir / "b.h5").string(), s);
  EXPECT_EQ(test::slurp(dir / "a.h5"), test::slurp(dir / "b.h5"));
  fs::remove_all(dir);
}

// A slice holds exactly the runs its name claims: fewer, none, or others are refused by name.
TEST(SweepSummary, SliceWithoutTheRunsItsNameClaimsIsRefused) {
  const fs::path dir = fresh_directory("slice_rows");
  const io::SweepFile whole = two_run_summary();
  io::SweepFile none = whole;
  none.rows.clear();
  for (const auto& [name, file] : {std::pair{"runs_000000000-000000002.h5", none},
                                   std::pair{"runs_000000000-000000001.h5", whole}}) {
    const fs::path slices = dir / (std::string(name) + ".slices");  // one slice per case
    fs::create_directories(slices);
    io::write_sweep_hdf5((slices / name).string(), file);
    try {
      (void)io::read_sweep_slices(slices.string(), whole, 0, 2);
      ADD_FAILURE() << name << " with " << file.rows.size() << " rows was taken for a slice";
    } catch (const io::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("as its name says"), std::string::npos) << e.what();
    }
  }
  fs::remove_all(dir);
}

// Exit status as the shell reports it: 128 + N for death by signal N.
int wait_for(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(SweepCommand, InterruptedThenResumedEqualsUninterruptedBitForBit) {
  const Interruptible t;
  const auto whole = test::dropsim(t.command(t.whole) + " -j 2");
  ASSERT_EQ(whole.exit_code, 0) << whole.output();
  EXPECT_FALSE(fs::exists(t.dir / "whole.h5.slices")) << "slices are removed once the summary is written";

  const pid_t pid = t.start();
  t.wait_for_slices(2);
  ::kill(pid, SIGINT);
  EXPECT_EQ(wait_for(pid), 128 + SIGINT) << test::slurp(t.err);
  EXPECT_NE(test::slurp(t.err).find("--resume"), std::string::npos) << test::slurp(t.err);
  EXPECT_FALSE(fs::exists(t.out)) << "no summary from an interrupted sweep";
  const auto saved = t.slice_files();
  ASSERT_GE(saved.size(), 2u);
  ASSERT_LT(saved.size(), 12u) << "the sweep was stopped before its end";
  // The slice running when the signal came was finished and saved: all slices are whole.
  for (const fs::path& f : saved) EXPECT_EQ(io::read_sweep_hdf5(f.string()).rows.size(), 5u) << f;

  const auto again = test::dropsim(t.command(t.out));
  EXPECT_EQ(again.exit_code, 2) << "slices are not overwritten without --resume";
  EXPECT_NE(again.err.find("--resume"), std::string::npos) << again.err;

  // Resumed on two threads with slices of its own size: the same file all the same.
  const auto resumed = test::dropsim(t.command(t.out) + " --resume -j 2");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output();
  EXPECT_NE(resumed.err.find("resuming: " + std::to_string(5 * saved.size()) + " of 60 runs"), std::string::npos)
      << resumed.err;
  EXPECT_EQ(test::slurp(t.out), test::slurp(t.whole)) << "the resumed summary differs from the uninterrupted one";
  EXPECT_FALSE(fs::exists(t.slices));
}

// SIGKILL gives no chance to finish: what is left must never pass for a
// finished slice. A killed writer's temporary is passed over; a damaged
// slice file is refused by name, not rerun silently or taken in.
TEST(SweepCommand, KilledMidSliceLeavesNoPartialFileTakenForASlice) {
  const Interruptible t;
  ASSERT_EQ(test::dropsim(t.command(t.whole) + " -j 2").exit_code, 0);

  const pid_t pid = t.start();
  t.wait_for_slices(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // into the next slice
  ::kill(pid, SIGKILL);
  EXPECT_EQ(wait_for(pid), 128 + SIGKILL);
  const auto saved = t.slice_files();
  ASSERT_GE(saved.size(), 1u);
  ASSERT_LT(saved.size(), 12u);
  for (const fs::path& f : saved) EXPECT_EQ(io::read_sweep_hdf5(f.string()).rows.size(), 5u) << f;

  // What a writer killed mid-file leaves: half a slice under a temporary name.
  const std::string first = test::slurp(saved.front());
  std::ofstream(t.slices / ".runs_000000055-000000060.h5.tmp-1-0", std::ios::binary)
      << first.substr(0, first.size() / 2);
  // A finished slice damaged afterwards is an error naming it.
  std::ofstream(saved.front(), std::ios::binary | std::ios::trunc) << first.substr(0, first.size() / 2);
  const auto damaged = test::dropsim(t.command(t.out) + " --resume");
  EXPECT_EQ(damaged.exit_code, 2) << damaged.output();
  EXPECT_NE(damaged.err.find(saved.front().filename().string()), std::string::npos) << damaged.err;
  EXPECT_FALSE(fs::exists(t.out));

  std::ofstream(saved.front(), std::ios::binary | std::ios::trunc) << first;
  const auto resumed = test::dropsim(t.command(t.out) + " --resume");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output();
  EXPECT_EQ(test::slurp(t.out), test::slurp(t.whole));
  EXPECT_FALSE(fs::exists(t.slices)) << "the temporary went with the slices";
}

}  // namespace
}  // namespace dropsim
