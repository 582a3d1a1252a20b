// `dropsim --version`: the version CMake was given, the commit git reports for
// the source tree, and the optional parts this build has, each as the build has it.
#include <gtest/gtest.h>

#include <string>

#include "dropsim/integrators/sundials.hpp"
#include "tests/support/cli.hpp"

namespace dropsim {
namespace {

TEST(VersionFlag, PrintsVersionCommitAndOptionalParts) {
  const auto r = test::dropsim("--version");
  ASSERT_EQ(r.exit_code, 0) << r.output();
  EXPECT_EQ(r.out.rfind(std::string("dropsim ") + DROPSIM_TEST_VERSION + "\n", 0), 0u) << r.out;
  // The commit is the source tree's, as git names it now (the build wrote it; a test
  // run right after the build sees the same tree).
  const auto head = test::run_command("git -C " + test::shell_quote(DROPSIM_SOURCE_DIR) + " rev-parse --short=12 HEAD");
  if (head.exit_code == 0) {
    const std::string commit = head.out.substr(0, head.out.find('\n'));
    EXPECT_NE(r.out.find("\ncommit " + commit), std::string::npos) << r.out;
  } else {
    EXPECT_NE(r.out.find("\ncommit unknown"), std::string::npos) << r.out;
  }
  const auto part = [&](const std::string& name, bool has) {
    EXPECT_NE(r.out.find(name + ": " + (has ? "yes" : "no")), std::string::npos) << name << " in\n" << r.out;
  };
  part("SUNDIALS integrators (CVODE, ARKODE)", integrators::sundials_available());
#ifdef DROPSIM_HAVE_MPI
  part("MPI sweeps (mpirun -n N dropsim sweep)", true);
#else
  part("MPI sweeps (mpirun -n N dropsim sweep)", false);
#endif
#ifdef DROPSIM_TEST_HAVE_SIMBODY
  part("Simbody peer (tests and benchmarks, not this program)", true);
#else
  part("Simbody peer (tests and benchmarks, not this program)", false);
#endif
}

}  // namespace
}  // namespace dropsim
