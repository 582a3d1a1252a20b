// `dropsim osim scenario MODEL.osim [--vertical] -o FILE.json`: the model made
// rigid as a multi-contact scenario: frozen whole (a free body), or on the
// vertical slider of the scaling paper's drop.
#include <cstdio>

#include "apps/osim_common.hpp"
#include "dropsim/io/atomic_file.hpp"
#include "dropsim/io/scenario_writer.hpp"
#include "dropsim/sim/articulated_rigid.hpp"
#include "dropsim/sim/format.hpp"

namespace dropsim::app {

nlohmann::json rigid_scenario(const Posed& p, const RigidScenarioOptions& o) {
  const ArticulatedModel& model = p.osim.model;
  const MultibodyModel rigid = model_or_fail(p.osim.file, [&] {
    return o.vertical ? vertical_model(model, p.q, o.height_over_radius) : frozen_model(model, p.q);
  });
  if (rigid.contacts.empty())
    throw io::InputError(p.osim.file, "/OpenSimDocument/Model/ForceSet", "the model has no sphere contact to stand on");
  const Body& b = rigid.bodies.front();
  const std::string shape = significant(b.mass, 6) + " kg on " + std::to_string(rigid.contacts.size()) + " contacts";
  io::ScenarioHeader header;
  header.name = model.name;
  header.duration = o.duration;
  header.description =
      o.vertical ? "the scaling paper's drop of " + p.osim.file + ": every coordinate locked but the vertical translation, " +
                       shape + ", the first sphere to touch " + significant(o.height_over_radius, 4) +
                       " R above its surface; stiffness is E* (combining none)"
                 : "frozen from " + p.osim.file + ": every joint below the moving roots locked at the pose given, one rigid body of " +
                       shape + "; stiffness is E* (combining none)";
  return io::multibody_scenario_json(rigid, header);
}

namespace {

struct ScenarioOptions {
  std::string file, output;
  std::vector<std::string> coordinates;
  RigidScenarioOptions rigid;
};

int run_scenario(const ScenarioOptions& o) {
  const Posed p = load_posed(o.file, o.coordinates);
  const nlohmann::json scenario = rigid_scenario(p, o.rigid);
  io::write_text_file(o.output, scenario.dump(2) + "\n");
  std::fprintf(stderr, "%s: the %s model of %s (%zu contacts)\n", o.output.c_str(), o.rigid.vertical ? "vertical" : "frozen",
               o.file.c_str(), scenario["contacts"].size());
  return exit_ok;
}

}  // namespace

void add_rigid_options(CLI::App* cmd, RigidScenarioOptions& o) {
  cmd->add_option("--duration", o.duration, "the run's duration, s")->check(CLI::PositiveNumber);
  cmd->add_option("--height-over-radius", o.height_over_radius,
                  "vertical: the drop height over the radius of the sphere that touches first (default 0.25)")
      ->check(CLI::NonNegativeNumber);
}

void add_osim_scenario(CLI::App* osim, Runner& run) {
  auto o = std::make_shared<ScenarioOptions>();
  CLI::App* cmd = osim->add_subcommand("scenario", "write the model made rigid (frozen, or --vertical) as a multi-contact scenario");
  add_model_options(cmd, o->file, o->coordinates);
  cmd->add_option("-o,--output", o->output, "scenario JSON file")->required();
  cmd->add_flag("--vertical", o->rigid.vertical, "the scaling paper's drop: every coordinate locked but the vertical translation");
  add_rigid_options(cmd, o->rigid);
  cmd->callback([o, &run] { run = [o] { return run_scenario(*o); }; });
}

}  // namespace dropsim::app
