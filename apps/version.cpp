// `dropsim --version`: what this binary is. The commit comes from a header
// written at build time (cmake/build_info.cmake) that only this file includes,
// so a new commit recompiles this file alone.
#include "apps/commands.hpp"
#include "dropsim/integrators/sundials.hpp"
#include "dropsim_build_info.hpp"

namespace dropsim::app {

namespace {
const char* yes_no(bool b) { return b ? "yes" : "no"; }
}  // namespace

std::string version_text() {
  std::string text = std::string("dropsim ") + build_info::version + "\n";
  text += std::string("commit ") + build_info::commit + "\n";
  text += std::string("SUNDIALS integrators (CVODE, ARKODE): ") + yes_no(integrators::sundials_available()) + "\n";
  text += std::string("MPI sweeps (mpirun -n N dropsim sweep): ") + yes_no(build_info::mpi) + "\n";
  text += std::string("Simbody peer (tests and benchmarks, not this program): ") + yes_no(build_info::simbody_peer);
  return text;
}

void add_version_flag(CLI::App& app) {
  app.set_version_flag("--version", [] { return version_text(); },
                       "print the version, the git commit and the optional parts this build has, then exit");
}

}  // namespace dropsim::app
