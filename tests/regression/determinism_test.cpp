// The same scenarios give bitwise-identical datasets whatever the number of threads running them.
#include <gtest/gtest.h>

#include <cstring>

#include "tests/support/cli.hpp"
#include "tests/support/h5_read.hpp"

namespace fs = std::filesystem;
using namespace dropsim::test;

namespace {

std::vector<std::string> paper_scenarios() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(fs::path(DROPSIM_SOURCE_DIR) / "scenarios" / "paper"))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

CliResult run_suite(const std::vector<std::string>& files, const fs::path& out, const std::string& jobs) {
  std::vector<std::string> args{"run"};
  args.insert(args.end(), files.begin(), files.end());
  args.insert(args.end(), {"-o", out.string(), "-j", jobs});
  return run_dropsim(args);
}

TEST(Determinism, PaperSuiteWithOneAndTwoThreadsGivesIdenticalDatasets) {
  const auto files = paper_scenarios();
  ASSERT_EQ(files.size(), 14u);
  const fs::path one = fresh_directory("det-j1"), two = fresh_directory("det-j2");
  const CliResult a = run_suite(files, one, "1"), b = run_suite(files, two, "2");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;

  std::size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(one)) {
    const fs::path name = entry.path().filename();
    SCOPED_TRACE(name.string());
    ASSERT_TRUE(fs::exists(two / name));
    const hid_t fa = H5Fopen((one / name).c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t fb = H5Fopen((two / name).c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(fa, 0);
    ASSERT_GE(fb, 0);
    const auto paths = dataset_paths(fa);
    EXPECT_EQ(paths, dataset_paths(fb));
    EXPECT_GE(paths.size(), 13u) << "every dataset of docs/interface.md";
    for (const auto& p : paths) {
      const std::vector<double> x = read_doubles(fa, p), y = read_doubles(fb, p);
      ASSERT_EQ(x.size(), y.size()) << p;
      // Bitwise, not ==: -0.0 against 0.0 or a NaN payload would be a difference too.
      EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size() * sizeof(double)), 0) << p << " differs";
      ++compared;
    }
    // Wall time aside, the attributes describe the same run.
    for (const char* attribute : {"scenario", "integrator", "status"})
      EXPECT_EQ(read_string_attribute(fa, attribute), read_string_attribute(fb, attribute)) << attribute;
    EXPECT_EQ(read_double_attribute(fa, "steps"), read_double_attribute(fb, "steps"));
    H5Fclose(fa);
    H5Fclose(fb);
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(one), fs::directory_iterator{}), 14);
  EXPECT_GE(compared, 14u * 13u);
  fs::remove_all(one);
  fs::remove_all(two);
}

}  // namespace
