// A run that blows up is a result: exit 1, status diverged with time, reason and last finite
// state in the file and on stderr, and no NaN written.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "tests/support/cli.hpp"
#include "tests/support/h5_read.hpp"

namespace fs = std::filesystem;
using namespace dropsim::test;

namespace {

// Linear spring k = 1e8 N/m on 1 kg: omega = 1e4 rad/s. Central difference is stable for
// h omega < 2, so h = 1e-3 (h omega = 10) must diverge and h = 1e-4 (h omega = 1) must not.
// The coarse output interval keeps the driver from shortening the step to the sampling grid.
std::string scenario(double step) {
  return R"({"name": "stiff", "duration": 0.2,
    "drop": {"mass": 1.0, "spheres": 1, "radius": 0.01, "height_over_radius": 0.25},
    "contact": {"law": "linear", "stiffness": 1e8},
    "integrator": {"name": "central_difference", "step": )" +
         std::to_string(step) + R"(}, "output": {"interval": 0.01}})";
}

struct StiffRun {
  CliResult cli;
  fs::path dir, file;
};

StiffRun run_with_step(double step) {
  StiffRun r;
  r.dir = fresh_directory("divergence");
  std::ofstream(r.dir / "stiff.json") << scenario(step);
  r.cli = run_dropsim({"run", (r.dir / "stiff.json").string(), "-o", (r.dir / "out").string()});
  r.file = r.dir / "out" / "stiff.h5";
  return r;
}

TEST(Divergence, BeyondTheStabilityLimitIsReportedInFileAndOnStderr) {
  const StiffRun r = run_with_step(1e-3);
  EXPECT_EQ(r.cli.exit_code, 1) << r.cli.err;
  ASSERT_TRUE(fs::exists(r.file)) << "the trace up to the blow-up is a result and is written";

  const hid_t f = H5Fopen(r.file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  EXPECT_EQ(read_string_attribute(f, "status"), "diverged");
  const std::string reason = read_string_attribute(f, "diverged_reason");
  EXPECT_FALSE(reason.empty());
  const double t_div = read_double_attribute(f, "diverged_time").at(0);
  const std::vector<double> time = read_doubles(f, "/time"), q = read_doubles(f, "/q"), u = read_doubles(f, "/u");
  ASSERT_FALSE(time.empty());
  EXPECT_LT(time.back(), 0.2) << "stops at the blow-up, not at the end";
  EXPECT_LE(time.back(), t_div);
  // The last finite state is the last sample of the trace.
  EXPECT_EQ(read_double_attribute(f, "last_finite_time").at(0), time.back());
  EXPECT_EQ(read_double_attribute(f, "last_finite_q"), std::vector<double>{q.back()});
  EXPECT_EQ(read_double_attribute(f, "last_finite_u"), std::vector<double>{u.back()});
  for (const auto& path : dataset_paths(f))
    for (double v : read_doubles(f, path)) ASSERT_TRUE(std::isfinite(v)) << path << " holds a non-finite value";
  H5Fclose(f);

  // stderr: status, time, reason, last finite state, in one line.
  EXPECT_NE(r.cli.err.find("stiff.json: status diverged at t = "), std::string::npos) << r.cli.err;
  EXPECT_NE(r.cli.err.find(reason), std::string::npos) << r.cli.err;
  char state[128];
  std::snprintf(state, sizeof state, "last finite state at t = %.9g s: q = %.9g, u = %.9g", time.back(), q.back(),
                u.back());
  EXPECT_NE(r.cli.err.find(state), std::string::npos) << "expected \"" << state << "\" in " << r.cli.err;
  EXPECT_NE(r.cli.out.find("diverged"), std::string::npos) << r.cli.out;
  fs::remove_all(r.dir);
}

TEST(Divergence, WithinTheStabilityLimitTheSameDropRunsToTheEnd) {
  const StiffRun r = run_with_step(1e-4);
  EXPECT_EQ(r.cli.exit_code, 0) << r.cli.err;
  const hid_t f = H5Fopen(r.file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  EXPECT_EQ(read_string_attribute(f, "status"), "ok");
  EXPECT_LT(H5Aexists(f, "last_finite_time"), 1);
  EXPECT_DOUBLE_EQ(read_doubles(f, "/time").back(), 0.2);
  H5Fclose(f);
  fs::remove_all(r.dir);
}

}  // namespace
