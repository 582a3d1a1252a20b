// OpenSim's own model files, read where they are (DROPSIM_OPENSIM_MODELS, set by
// CMake); the tests that need them skip, saying so, where the folder is absent.
#pragma once

#include <filesystem>
#include <string>

namespace dropsim::test {

inline std::string opensim_model(const std::string& name) { return std::string(DROPSIM_OPENSIM_MODELS) + "/" + name; }

}  // namespace dropsim::test

#define REQUIRE_OPENSIM_MODEL(name)                                                                                   \
  if (!std::filesystem::exists(dropsim::test::opensim_model(name)))                                                  \
  GTEST_SKIP() << dropsim::test::opensim_model(name) << " is absent: OpenSim's models are not there (CMake variable " \
                                                        "DROPSIM_OPENSIM_MODELS)"
