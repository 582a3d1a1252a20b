// Paper scenarios as parsed models, for tests of the engine that start from a scenario file.
#pragma once

#include <string>

#include "dropsim/io/scenario.hpp"

namespace dropsim::test {

inline io::Scenario paper_scenario(const std::string& stem) {
  return io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper/" + stem + ".json");
}

}  // namespace dropsim::test
