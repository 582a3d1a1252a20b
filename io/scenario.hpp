// Scenario files: the one place JSON is parsed and validated and turned into a const Model.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "dropsim/io/input_error.hpp"
#include "dropsim/sim/model.hpp"
#include "dropsim/sim/simulate.hpp"

namespace dropsim::io {

struct Scenario {
  std::string name;          // output file stem
  std::string description;
  std::string file;          // where it came from, for messages
  Model model;               // the drop form's DropModel or the multi-contact form's MultibodyModel
  std::string modes_at = "equilibrium";     // multi-contact form: where `dropsim modes` linearises
  RunSettings run;
  // HDF5 traces: gzip (shuffle + deflate) or, by default, none. gzip saves
  // ~45 % of the paper suite's bytes and costs ~3.5x the write CPU.
  bool compress_traces = false;
  nlohmann::json resolved;   // the scenario as run: defaults and scaling filled in

  // The drop form's model; throws InternalError (DROPSIM_CHECK) for a multi-contact scenario.
  const DropModel& drop() const { return std::get<DropModel>(checked_drop()); }
  DropModel& drop() { return const_cast<DropModel&>(std::as_const(*this).drop()); }
  // The multi-contact form's model, or null for a drop scenario.
  const MultibodyModel* multibody() const { return std::get_if<MultibodyModel>(&model); }
  MultibodyModel* multibody() { return std::get_if<MultibodyModel>(&model); }

 private:
  const Model& checked_drop() const;
};

// Parses and validates; throws InputError naming file, JSON path and rule.
Scenario parse_scenario(const std::string& text, const std::string& file);
// The same from a parsed document (sweeps patch one and validate it here).
// Resolved::skip leaves Scenario::resolved empty: summary-only sweeps never read it.
enum class Resolved { keep, skip };
Scenario parse_scenario_json(const nlohmann::json& doc, const std::string& file, Resolved resolved = Resolved::keep);
Scenario load_scenario(const std::string& path);

// Command-line overrides of the scenario's integrator (`dropsim run --integrator ...`).
struct IntegratorOverride {
  std::string name;
  double step = 0.0, rtol = 0.0, atol = 0.0;  // 0: keep
};
void apply_override(Scenario& scenario, const IntegratorOverride& override_);

}  // namespace dropsim::io
