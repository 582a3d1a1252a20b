// What the `osim` subcommands share: the model posed by --coordinate, analyses
// whose ModelError is the model file's fault, the reference a
// contact is scaled from, and the model made rigid as a scenario.
#pragma once

#include <CLI/CLI.hpp>
#include <Eigen/Core>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "dropsim/io/input_error.hpp"
#include "dropsim/io/osim_reader.hpp"
#include "dropsim/io/osim_scale.hpp"
#include "dropsim/sim/model_error.hpp"

namespace dropsim::app {

// The model file read, with a warning line on stderr naming what it holds
// that dropsim does not model (muscles, actuators, other forces), and one for
// each of the reader's warnings.
io::OsimModel read_model(const std::string& file);

// The model and the pose it is analysed at: the coordinates' defaults, with --coordinate overrides.
struct Posed {
  io::OsimModel osim;
  Eigen::VectorXd q;
};
Posed load_posed(const std::string& file, const std::vector<std::string>& coordinates);
// The same for a model already read (a scaled one).
Posed pose(io::OsimModel osim, const std::vector<std::string>& coordinates);
// The model file argument and --coordinate, as every posing subcommand takes them.
void add_model_options(CLI::App* cmd, std::string& file, std::vector<std::string>& coordinates);

// What the model cannot be analysed as (frozen with gravity off -y, a singular
// M(q), ...) is the file's fault: an InputError naming it. Any other exception
// is dropsim's own and reaches main as an internal error.
template <class Analysis>
auto model_or_fail(const std::string& file, Analysis&& analysis) {
  try {
    return analysis();
  } catch (const ModelError& e) {
    throw io::InputError(file, "/OpenSimDocument/Model", e.what());
  }
}

// The reference a model's contact is scaled from: another model (--from) or numbers.
struct ReferenceOptions {
  std::string from, reference_contact;
  double mass = 0.0, radius = 0.0, stiffness = 0.0;
  double dissipation = NAN;  // unset: a reference given by numbers must say its alpha, 0 included
  int spheres = 0;
  bool scale_dissipation = false, scale_smoothing = false;
  // Any of them given: a reference is asked for (and must then be complete).
  bool given() const {
    return !from.empty() || !reference_contact.empty() || mass != 0.0 || spheres != 0 || radius != 0.0 || stiffness != 0.0 ||
           !std::isnan(dissipation) || scale_dissipation || scale_smoothing;
  }
};
void add_reference_options(CLI::App* cmd, ReferenceOptions& o);
// `file` names the target in messages.
io::ScaleReference scale_reference(const ReferenceOptions& o, const std::string& file);
// The target's contact scaled from the reference (plan and the rewritten file's bytes).
struct Scaled {
  io::ScalePlan plan;
  std::string bytes;
};
Scaled scale_model(const io::OsimModel& target, const ReferenceOptions& o);

// The model made rigid as a scenario document (apps/osim_scenario.cpp).
struct RigidScenarioOptions {
  bool vertical = false;            // the paper's drop, else frozen whole
  double height_over_radius = 0.25;  // vertical: the drop height over the first-touching sphere's radius
  double duration = 1.0;            // s
};
void add_rigid_options(CLI::App* cmd, RigidScenarioOptions& o);
nlohmann::json rigid_scenario(const Posed& p, const RigidScenarioOptions& o);

void add_osim_inspect(CLI::App* osim, Runner& run);
void add_osim_scale(CLI::App* osim, Runner& run);
void add_osim_modes(CLI::App* osim, Runner& run);
void add_osim_scenario(CLI::App* osim, Runner& run);
void add_osim_drop(CLI::App* osim, Runner& run);
void add_osim_run(CLI::App* osim, Runner& run);

}  // namespace dropsim::app
