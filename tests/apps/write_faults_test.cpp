// A full disk at every write point, and memory exhausted at every allocation
// of the writers: each write, fsync and rename a command makes fails in turn,
// and so does each allocation from its first output file on
// (tests/support/write_faults.cpp, preloaded). Every time the command exits 2
// with a sentence naming the file, and the output directory holds only
// complete files the clean run also wrote (and a sweep's finished slices): no
// temporary, no half-written file, no crash (docs/reliability.md).
#include <gtest/gtest.h>

#include <hdf5.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include "tests/support/cli.hpp"
#include "tests/support/h5_read.hpp"

namespace dropsim::test {
namespace {

namespace fs = std::filesystem;

#ifdef DROPSIM_WRITE_FAULTS

// A file the clean run also wrote, complete: an HDF5 file opens and holds
// datasets, a Storage file ends its last row, a model closes its document, a scenario its object.
::testing::AssertionResult complete(const fs::path& file) {
  if (file.extension() == ".h5") {
    const hid_t h = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (h < 0) return ::testing::AssertionFailure() << file << " does not open as HDF5";
    const bool has_data = !dataset_paths(h).empty();
    H5Fclose(h);
    if (!has_data) return ::testing::AssertionFailure() << file << " has no datasets";
    return ::testing::AssertionSuccess();
  }
  const std::string text = slurp(file);
  const std::string ext = file.extension().string();
  const std::string must_hold = ext == ".osim" ? "</OpenSimDocument>" : ext == ".json" ? "}" : "endheader";
  if (text.find(must_hold) == std::string::npos || text.empty() || text.back() != '\n')
    return ::testing::AssertionFailure() << file << " is cut short";
  return ::testing::AssertionSuccess();
}

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const fs::path& p : directory_entries(dir)) names.insert(p.filename().string());
  return names;
}

enum class Fault { write, allocation };

// Runs `args` (whose outputs go under OUT) failing every write point, or every
// allocation from the first output file on, in turn.
void fail_every_point(Fault fault, const std::string& what, const std::string& args) {
  const fs::path out = fresh_directory("faults"), count = out.string() + ".count";
  auto command = [&](const std::string& env) {
    fs::remove_all(out);
    fs::create_directories(out);
    std::string line = args;
    for (std::size_t at; (at = line.find("OUT")) != std::string::npos;) line.replace(at, 3, out.string());
    return run_command(std::string(DROPSIM_BINARY) + " " + line,
                       env + " LD_PRELOAD=" + shell_quote(DROPSIM_WRITE_FAULTS));
  };
  const CliResult clean = command("WRITE_FAULT_COUNT=" + shell_quote(count.string()));
  ASSERT_EQ(clean.exit_code, 0) << what << ": " << clean.output();
  const std::set<std::string> written = names_in(out);
  long writes = 0, allocations = 0;
  std::istringstream(slurp(count)) >> writes >> allocations;
  ASSERT_GE(writes, 3 * static_cast<long>(written.size())) << what << ": a write, an fsync and a rename per file";
  const bool disk = fault == Fault::write;
  if (!disk) {
    ASSERT_GT(allocations, 0) << what << ": the writers allocate";
  }
  const long points = disk ? writes : allocations;
  const char* kind = disk ? "write point" : "allocation";
  for (long k = 1; k <= points; ++k) {
    const CliResult r = command((disk ? "WRITE_FAULT_AT=" : "ALLOC_FAULT_AT=") + std::to_string(k));
    EXPECT_EQ(r.exit_code, 2) << what << ", " << kind << " " << k << ": " << r.output();
    EXPECT_NE(r.err.find("dropsim: " + out.string() + "/"), std::string::npos) << what << ", " << k << ": " << r.err;
    // libhdf5 reports a failed allocation inside it as its call failing.
    const bool cause_named = disk ? r.err.find("No space left on device") != std::string::npos ||
                                        r.err.find("disk full") != std::string::npos
                                  : r.err.find("out of memory") != std::string::npos ||
                                        r.err.find("HDF5 write failed") != std::string::npos;
    EXPECT_TRUE(cause_named) << what << ", " << kind << " " << k << ": " << r.err;
    for (const std::string& name : names_in(out)) {
      // A sweep whose summary failed keeps its finished slices for --resume: complete files, no temporary.
      if (fs::is_directory(out / name) && name.size() > 7 && name.compare(name.size() - 7, 7, ".slices") == 0) {
        for (const std::string& slice : names_in(out / name)) {
          EXPECT_EQ(slice.rfind("runs_", 0), 0u) << what << ", " << k << ": left " << name << "/" << slice;
          EXPECT_TRUE(complete(out / name / slice)) << what << ", " << kind << " " << k;
        }
        continue;
      }
      EXPECT_TRUE(written.count(name)) << what << ", " << k << ": left " << name;
      EXPECT_TRUE(complete(out / name)) << what << ", " << kind << " " << k;
    }
  }
  std::printf("[measured] %s: %ld %ss, each failed in turn: exit 2, named, nothing half-written\n", what.c_str(),
              points, kind);
  fs::remove_all(out);
  fs::remove(count);
}

void fail_every_write_and_allocation(const std::string& what, const std::string& args) {
  fail_every_point(Fault::write, what, args);
  fail_every_point(Fault::allocation, what, args);
}

TEST(WriteFaults, RunWithStorageFiles) {
  fail_every_write_and_allocation("run", "run " + paper_scenario_path("human62_alpha-scaled") + " " +
                              paper_scenario_path("mouse_alpha-scaled") + " -o OUT --sto -j 1");
}

TEST(WriteFaults, SweepAndMerge) {
  const std::string base = paper_scenario_path("human62_alpha-scaled");
  fail_every_write_and_allocation("sweep", "sweep " + base + " --vary /contact/scaled_from/dissipation=1:3:3 -o OUT/sweep.h5");
  const fs::path shards = fresh_directory("faults-shards");
  for (int i = 0; i < 2; ++i) {
    const CliResult s = dropsim("sweep " + base + " --vary /contact/scaled_from/dissipation=1:3:4 --shard " +
                                std::to_string(i) + "/2 -o " + (shards / ("part" + std::to_string(i) + ".h5")).string());
    ASSERT_EQ(s.exit_code, 0) << s.output();
  }
  fail_every_write_and_allocation("merge", "merge " + (shards / "part0.h5").string() + " " + (shards / "part1.h5").string() +
                                " -o OUT/merged.h5");
  fs::remove_all(shards);
}

TEST(WriteFaults, ForceCurves) {
  fail_every_write_and_allocation("scale --curve", "scale --from " + paper_scenario_path("human62_alpha-unscaled") +
                                        " --to-mass 0.02 --to-spheres 4 --to-radius 0.002 --curve OUT/curves.h5");
}

// The OpenSim commands' texts are built before their files are opened, so only their writes are failed here.
TEST(WriteFaults, OpenSimModelAndScenario) {
  const std::string model = source_path("tests/data/osim/block_two_pin.osim");
  fail_every_point(Fault::write, "osim scale",
                   "osim scale " + model + " --from " + model + " --scale-dissipation -o OUT/scaled.osim");
  fail_every_point(Fault::write, "osim scenario", "osim scenario " + model + " -o OUT/block.json");
}

#else

TEST(WriteFaults, NeedTheShim) { GTEST_SKIP() << "built without the write-fault shim (sanitizer builds)"; }

#endif

}  // namespace
}  // namespace dropsim::test
