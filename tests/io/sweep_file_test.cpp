// The sweep summary file: the same rows are the same bytes, slices hold the
// runs they claim, and an interrupted or killed sweep resumes to the file an
// uninterrupted one writes.
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

// Interruption: a sweep long enough to be stopped mid-way (60 drops of 3 s
// in fixed steps, about 25 ms each, saved in slices of 5), and the same sweep
// run straight through.
const char* const long_vary = "--vary /contact/dissipation=0.5:4:5 --vary /drop/mass=31:124:12:log";

struct Interruptible {
  fs::path dir = fresh_directory("interrupt");
  fs::path base = dir / "base.json", whole = dir / "whole.h5", out = dir / "out.h5",
           slices = dir / "out.h5.slices", err = dir / "err";
  Interruptible() {
    nlohmann::json doc = sweep_base_scenario();
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
  s.base_scenario = sweep_base_scenario().dump();
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
