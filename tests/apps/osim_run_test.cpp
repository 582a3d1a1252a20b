// `dropsim osim run`: the block on two pins run with its joints free writes a
// trace whose energy balance holds; bad input writes nothing and exits 2.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <filesystem>

#include "tests/support/cli.hpp"
#include "tests/support/h5_read.hpp"

namespace fs = std::filesystem;
using namespace dropsim::test;

namespace {

const std::string block_model = source_path("tests/data/osim/block_two_pin.osim");

TEST(OsimRun, BlockOnTwoPinsLandsWithItsEnergyAccounted) {
  const fs::path dir = fresh_directory("osim-run");
  const std::string out = (dir / "block.h5").string();
  const CliResult r = run_dropsim({"osim", "run", block_model, "--duration", "0.3", "--rtol", "1e-8", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const hid_t file = H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  EXPECT_EQ(read_string_attribute(file, "status"), "ok");
  const std::vector<double> time = read_doubles(file, "/time"), q = read_doubles(file, "/q");
  const std::vector<double> kinetic = read_doubles(file, "/energy/kinetic"), potential = read_doubles(file, "/energy/potential"),
                            elastic = read_doubles(file, "/energy/elastic"), force = read_doubles(file, "/force_normalized");
  H5Fclose(file);
  ASSERT_EQ(time.size(), 301u);
  EXPECT_EQ(q.size(), 8u * time.size());  // six Free coordinates and two pins
  // Hunt–Crossley only takes energy out: the mechanical energy never grows.
  const double e0 = kinetic[0] + potential[0] + elastic[0];
  double peak = 0.0;
  for (std::size_t k = 0; k < time.size(); ++k) {
    EXPECT_LE(kinetic[k] + potential[k] + elastic[k], e0 + 1e-6 * std::abs(e0)) << "sample " << k;
    peak = std::max(peak, force[k]);
  }
  EXPECT_GT(peak, 1.0);  // it landed
}

// Forward Euler at 10 ms on stiff contact: the run blows up, exits 1 and says so in the file.
TEST(OsimRun, ADivergedRunSaysSoInItsFile) {
  const fs::path dir = fresh_directory("osim-run-diverged");
  const std::string out = (dir / "block.h5").string();
  const CliResult r = run_dropsim({"osim", "run", block_model, "--duration", "1", "--interval", "1e-2", "--integrator", "euler", "--step", "1e-2", "-o", out});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const hid_t file = H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  EXPECT_EQ(read_string_attribute(file, "status"), "diverged");
  H5Fclose(file);
}

TEST(OsimRun, BadInputWritesNothing) {
  const fs::path dir = fresh_directory("osim-run-bad");
  const std::string out = (dir / "never.h5").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"osim", "run", block_model, "--integrator", "no_such_method", "-o", out},
        std::vector<std::string>{"osim", "run", block_model, "--integrator", "rk4", "-o", out},
        std::vector<std::string>{"osim", "run", block_model, "--coordinate", "no_such=1", "-o", out},
        std::vector<std::string>{"osim", "run", (dir / "missing.osim").string(), "-o", out}}) {
    const CliResult r = run_dropsim(args);
    EXPECT_EQ(r.exit_code, 2) << args[3] << "\n" << r.err;
    EXPECT_FALSE(r.err.empty());
    EXPECT_FALSE(fs::exists(out));
  }
}

}  // namespace
