// Output is complete or absent: AtomicFile, the signal cleanup, and `dropsim run`'s I/O errors.
#include "dropsim/io/atomic_file.hpp"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "tests/support/cli.hpp"
#include "dropsim/io/io_error.hpp"

namespace fs = std::filesystem;
using namespace dropsim::test;
using dropsim::io::AtomicFile;
using dropsim::io::IoError;

extern char** environ;

namespace {

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// Everything in `dir` except the entries named in `expected`.
std::vector<std::string> unexpected_entries(const fs::path& dir, const std::vector<std::string>& expected) {
  std::vector<std::string> extra;
  for (const auto& p : directory_entries(dir))
    if (std::find(expected.begin(), expected.end(), p.filename().string()) == expected.end())
      extra.push_back(p.filename().string());
  return extra;
}

// A drop that settles in milliseconds, and one that takes seconds (5e7 rk4 steps).
const char* quick_scenario = R"({"name": "quick", "duration": 0.05,
  "drop": {"mass": 1.0, "spheres": 4, "radius": 0.01, "height_over_radius": 0.25},
  "contact": {"law": "hunt_crossley", "stiffness": 1e6, "dissipation": 1.0}})";
const char* long_scenario = R"({"name": "long", "duration": 1.0,
  "drop": {"mass": 1.0, "spheres": 4, "radius": 0.01, "height_over_radius": 0.25},
  "contact": {"law": "hunt_crossley", "stiffness": 1e6, "dissipation": 1.0},
  "integrator": {"name": "rk4", "step": 2e-8}})";

TEST(AtomicFile, CommitReplacesThePreviousFileWhole) {
  const fs::path dir = fresh_directory("atomic");
  write_text(dir / "a.h5", "previous");
  {
    AtomicFile f((dir / "a.h5").string());
    f.write("new contents", 12);
    EXPECT_EQ(slurp(dir / "a.h5"), "previous") << "nothing visible before commit";
    f.commit();
  }
  EXPECT_EQ(slurp(dir / "a.h5"), "new contents");
  EXPECT_TRUE(unexpected_entries(dir, {"a.h5"}).empty());
  fs::remove_all(dir);
}

TEST(AtomicFile, AFailureBeforeCommitLeavesThePreviousFileAndNoTemporary) {
  const fs::path dir = fresh_directory("atomic");
  write_text(dir / "a.h5", "previous");
  try {
    AtomicFile f((dir / "a.h5").string());
    f.write("half", 4);
    throw IoError(f.final_path(), "simulated failure");
  } catch (const IoError&) {
  }
  EXPECT_EQ(slurp(dir / "a.h5"), "previous");
  EXPECT_TRUE(unexpected_entries(dir, {"a.h5"}).empty());
  fs::remove_all(dir);
}

TEST(AtomicFile, RefusesDirectoriesAndDevicesEvenThroughSymlinks) {
  const fs::path dir = fresh_directory("atomic");
  fs::create_directory(dir / "d.h5");
  EXPECT_THROW(AtomicFile((dir / "d.h5").string()), IoError);
  fs::create_symlink("/dev/full", dir / "full.h5");
  try {
    AtomicFile f((dir / "full.h5").string());
    ADD_FAILURE() << "a symlink to /dev/full was accepted";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_character_file("/dev/full"));
  EXPECT_TRUE(unexpected_entries(dir, {"d.h5", "full.h5"}).empty());
  fs::remove_all(dir);
}

TEST(AtomicFile, ASymlinkToARegularFileKeepsTheLinkAndReplacesTheTarget) {
  const fs::path dir = fresh_directory("atomic");
  fs::create_directory(dir / "store");
  write_text(dir / "store" / "a.h5", "previous");
  fs::create_symlink(dir / "store" / "a.h5", dir / "a.h5");
  {
    AtomicFile f((dir / "a.h5").string());
    f.write("new", 3);
    f.commit();
  }
  EXPECT_TRUE(fs::is_symlink(dir / "a.h5"));
  EXPECT_EQ(slurp(dir / "store" / "a.h5"), "new");
  EXPECT_TRUE(unexpected_entries(dir / "store", {"a.h5"}).empty());
  fs::remove_all(dir);
}

// A child holds a half-written temporary when SIGTERM arrives: the temporary goes, the
// previous file stays, the status is 128 + 15.
TEST(SignalCleanup, RemovesLiveTemporariesAndExitsWith128PlusSignal) {
  const fs::path dir = fresh_directory("signal");
  write_text(dir / "a.h5", "previous");
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    dropsim::io::install_signal_cleanup();
    AtomicFile f((dir / "a.h5").string());
    f.write("half", 4);
    (void)!::write(ready[1], "x", 1);
    for (;;) ::pause();
  }
  char c;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  EXPECT_EQ(unexpected_entries(dir, {"a.h5"}).size(), 1u) << "the temporary exists while writing";
  ::kill(child, SIGTERM);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  EXPECT_EQ(slurp(dir / "a.h5"), "previous");
  EXPECT_TRUE(unexpected_entries(dir, {"a.h5"}).empty());
  ::close(ready[0]);
  ::close(ready[1]);
  fs::remove_all(dir);
}

class KilledRun : public ::testing::TestWithParam<int> {};

// `dropsim run quick long`: quick finishes and is written, long is killed mid-run.
TEST_P(KilledRun, KeepsFinishedFilesAndThePreviousFileAndLeavesNoTemporary) {
  const int sig = GetParam();
  const fs::path dir = fresh_directory("killed");
  write_text(dir / "quick.json", quick_scenario);
  write_text(dir / "long.json", long_scenario);
  fs::create_directory(dir / "out");
  write_text(dir / "out" / "long.h5", "previous");
  const std::string bin = DROPSIM_BINARY, quick = (dir / "quick.json").string(), lng = (dir / "long.json").string(),
                    out = (dir / "out").string(), err = (dir / "err").string();
  posix_spawn_file_actions_t io;
  posix_spawn_file_actions_init(&io);
  posix_spawn_file_actions_addopen(&io, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&io, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<const char*> argv{bin.c_str(), "run", quick.c_str(), lng.c_str(), "-o", out.c_str(), "-j", "1", nullptr};
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, bin.c_str(), &io, nullptr, const_cast<char**>(argv.data()), environ), 0);
  posix_spawn_file_actions_destroy(&io);
  // Mid-way: quick.h5 is in place, so long (seconds of stepping) has started.
  for (int k = 0; k < 600 && !fs::exists(dir / "out" / "quick.h5"); ++k)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(fs::exists(dir / "out" / "quick.h5"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::kill(pid, sig);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "the cleanup ends the process itself";
  EXPECT_EQ(WEXITSTATUS(status), 128 + sig);
  EXPECT_NE(slurp(err).find("interrupted"), std::string::npos) << slurp(err);
  EXPECT_EQ(slurp(dir / "out" / "long.h5"), "previous");
  EXPECT_TRUE(unexpected_entries(dir / "out", {"long.h5", "quick.h5"}).empty()) << "no temporary left";
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Signals, KilledRun, ::testing::Values(SIGINT, SIGTERM),
                         [](const ::testing::TestParamInfo<int>& i) { return i.param == SIGINT ? "SIGINT" : "SIGTERM"; });

// Each I/O failure of `dropsim run`: exit 2, one sentence naming the path, nothing written.
struct IoCase {
  fs::path dir, scenario;
  CliResult run(const std::string& out, const std::string& prefix = "") {
    return run_dropsim({"run", scenario.string(), "-o", out}, prefix);
  }
};

IoCase io_case() {
  IoCase c{fresh_directory("io"), {}};
  c.scenario = c.dir / "quick.json";
  write_text(c.scenario, quick_scenario);
  return c;
}

void expect_refused(const CliResult& r, const std::string& path, const std::string& fragment) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
}

TEST(RunOutput, OutputDirectoryThatIsAFileOrCannotBeCreated) {
  IoCase c = io_case();
  write_text(c.dir / "plain", "x");
  expect_refused(c.run((c.dir / "plain").string()), "plain", "exists and is not a directory");
  expect_refused(c.run((c.dir / "plain" / "sub").string()), "plain/sub", "cannot create the output directory");
  fs::remove_all(c.dir);
}

TEST(RunOutput, OutputDirectoryNotWritable) {
  IoCase c = io_case();
  // Root writes through permission bits, so use a directory no one can create files in.
  std::string out = "/proc/self";
  if (::geteuid() != 0) {
    fs::create_directory(c.dir / "locked");
    fs::permissions(c.dir / "locked", fs::perms::owner_read | fs::perms::owner_exec);
    out = (c.dir / "locked").string();
  }
  expect_refused(c.run(out), out, "cannot create files in the output directory");
  if (::geteuid() != 0) {
    EXPECT_TRUE(fs::is_empty(out));
    fs::permissions(out, fs::perms::owner_all, fs::perm_options::replace);
  }
  fs::remove_all(c.dir);
}

TEST(RunOutput, OutputFileThatIsADirectoryOrADeviceIsRefusedBeforeRunning) {
  IoCase c = io_case();
  fs::create_directories(c.dir / "out" / "quick.h5");
  CliResult r = c.run((c.dir / "out").string());
  expect_refused(r, "quick.h5", "is a directory");
  EXPECT_TRUE(r.out.empty()) << "refused before simulating: " << r.out;
  fs::remove_all(c.dir / "out");
  fs::create_directories(c.dir / "out");
  fs::create_symlink("/dev/full", c.dir / "out" / "quick.h5");
  r = c.run((c.dir / "out").string());
  expect_refused(r, "quick.h5", "not a regular file");
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(fs::is_character_file("/dev/full"));
  EXPECT_TRUE(unexpected_entries(c.dir / "out", {"quick.h5"}).empty());
  fs::remove_all(c.dir);
}

// A disk that fills mid-file, made honest with a file-size limit: write() fails with EFBIG.
TEST(RunOutput, AWriteThatFailsMidFileLeavesThePreviousFileAndNoTemporary) {
  IoCase c = io_case();
  fs::create_directories(c.dir / "out");
  write_text(c.dir / "out" / "quick.h5", "previous");
  const CliResult r = c.run((c.dir / "out").string(), "ulimit -f 4; trap '' XFSZ;");
  expect_refused(r, "quick.h5", "cannot write the file");
  EXPECT_EQ(slurp(c.dir / "out" / "quick.h5"), "previous");
  EXPECT_TRUE(unexpected_entries(c.dir / "out", {"quick.h5"}).empty());
  fs::remove_all(c.dir);
}

TEST(RunInput, MissingDirectoryOrUnreadableInput) {
  IoCase c = io_case();
  const std::string out = (c.dir / "out").string();
  const std::string missing = (c.dir / "missing.json").string();
  CliResult r = run_dropsim({"run", missing, "-o", out});
  expect_refused(r, missing, "cannot open the file for reading: No such file or directory");
  r = run_dropsim({"run", c.dir.string(), "-o", out});
  expect_refused(r, c.dir.string(), "is a directory");
  if (::geteuid() != 0) {
    fs::permissions(c.scenario, fs::perms::none);
    expect_refused(run_dropsim({"run", c.scenario.string(), "-o", out}), c.scenario.string(),
                   "cannot open the file for reading: Permission denied");
  }
  EXPECT_FALSE(fs::exists(out) && !fs::is_empty(out));
  fs::remove_all(c.dir);
}

}  // namespace
