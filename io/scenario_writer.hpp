// A multi-contact model as a scenario file: what `osim scenario` and `osim
// drop` write, read back by parse_scenario into the same model
// (docs/interface.md#multi-contact-form).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "dropsim/sim/multibody_model.hpp"

namespace dropsim::io {

struct ScenarioHeader {
  std::string name, description;
  double duration = 1.0;  // s
};

// Bodies as they start (position, orientation, velocities), contacts with
// their laws as E* (combining "none"), fixed planes other than the ground.
// Body names are made file-safe ([A-Za-z0-9_.-]).
nlohmann::json multibody_scenario_json(const MultibodyModel& model, const ScenarioHeader& header);

// `name` with every character outside [A-Za-z0-9_.-] replaced by '_' (empty: "model").
std::string file_safe_name(const std::string& name);

}  // namespace dropsim::io
