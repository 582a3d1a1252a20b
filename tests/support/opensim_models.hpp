// OpenSim's own model files, read where they are (DROPSIM_OPENSIM_MODELS, set by
// CMake, empty where the build was not given the folder); the tests that need
// them skip, saying how to run them, where the folder or the file is absent.
#pragma once

#include <filesystem>
#include <string>

namespace dropsim::test {

inline std::string opensim_model(const std::string& name) { return std::string(DROPSIM_OPENSIM_MODELS) + "/" + name; }

// Why an OpenSim model test cannot run here, or empty when it can.
inline std::string opensim_model_missing(const std::string& name) {
  if (std::string(DROPSIM_OPENSIM_MODELS).empty())
    return "no folder of OpenSim models: configure with -DDROPSIM_OPENSIM_MODELS=<folder> to run this test";
  if (!std::filesystem::exists(opensim_model(name)))
    return opensim_model(name) + " is absent from the folder DROPSIM_OPENSIM_MODELS names";
  return {};
}

}  // namespace dropsim::test

#define REQUIRE_OPENSIM_MODEL(name)                                                                 \
  if (const std::string why = dropsim::test::opensim_model_missing(name); !why.empty()) GTEST_SKIP() \
      << why
