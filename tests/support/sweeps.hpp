// The sweep tests' base scenario (tests/io/sweep_test.cpp, sweep_file_test.cpp).
#pragma once

#include <nlohmann/json.hpp>

namespace dropsim::test {

// A short human drop with typed contact parameters, so /contact/dissipation can vary.
inline nlohmann::json sweep_base_scenario() {
  return nlohmann::json::parse(R"({
    "name": "human_sweep", "duration": 0.6,
    "drop": {"mass": 62, "spheres": 6, "radius": 0.032, "height_over_radius": 0.25},
    "contact": {"law": "hunt_crossley", "combining": "sherman", "stiffness": 1e6, "dissipation": 2.0},
    "integrator": {"name": "dopri5", "rtol": 1e-8},
    "output": {"interval_tau": 0.01}
  })");
}

}  // namespace dropsim::test
