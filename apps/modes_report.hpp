// What `modes` and `osim modes` report of the damped quadratic problem friction
// makes (docs/physics.md#modes-with-friction): its modes, real roots and rk4's
// predicted step limit, as JSON and as text.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "dropsim/sim/modes.hpp"

namespace dropsim::app {

// With friction: `friction_modes`, `friction_decay_rates`, `friction_growth_rates`,
// `friction_fastest`, `rk4_step_limit` (null where a root grows) and
// `rk4_step_limit_frozen` into `out`; nothing without friction.
void add_friction_modes_json(const ModesAnalysis& a, nlohmann::json& out);

// The same as a table; `describe` names a shape's motion.
void print_friction_modes(const ModesAnalysis& a, const std::function<std::string(const Eigen::VectorXd&)>& describe);

}  // namespace dropsim::app
