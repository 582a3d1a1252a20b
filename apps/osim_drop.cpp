// `dropsim osim drop MODEL.osim -o OUT.h5`: the scaling paper's drop test on an
// OpenSim model (docs/physics.md#the-drop-protocol-on-a-model): posed, every
// coordinate locked but the vertical translation, the first sphere to touch
// 0.25 R above its surface, run as `dropsim run` runs a scenario.
#include <cstdio>

#include "apps/osim_common.hpp"
#include "apps/run_report.hpp"
#include "dropsim/io/atomic_file.hpp"
#include "dropsim/io/hdf5_trace.hpp"
#include "dropsim/io/run_budget.hpp"
#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/run.hpp"

namespace dropsim::app {

namespace {

struct DropOptions {
  std::string file, output;
  std::vector<std::string> coordinates;
  RigidScenarioOptions rigid{true, 0.25, 2.0};
  ReferenceOptions reference;
  io::IntegratorOverride integrator;
};

int run_drop(const DropOptions& o) {
  io::OsimModel osim = read_model(o.file);
  // Scaled from a reference: the model as `osim scale` would write it, read back.
  if (o.reference.given()) osim = io::read_osim_bytes(o.file, scale_model(osim, o.reference).bytes);
  const Posed p = pose(std::move(osim), o.coordinates);
  io::Scenario s = io::parse_scenario_json(rigid_scenario(p, o.rigid), o.file);
  io::apply_override(s, o.integrator);
  io::check_run_budget(s);
  io::install_signal_cleanup();
  io::check_output_file(o.output);
  const Trace trace = simulate(s.model, s.run);
  io::write_trace_hdf5(o.output, s, trace);
  print_summary_header();
  print_summary(s, trace);
  if (trace.stats.status == integrators::Status::diverged) {
    print_divergence(s, trace);
    return exit_check_failed;
  }
  return exit_ok;
}

}  // namespace

void add_osim_drop(CLI::App* osim, Runner& run) {
  auto o = std::make_shared<DropOptions>();
  CLI::App* cmd = osim->add_subcommand("drop", "the scaling paper's drop test on the model: vertical translation only, from 0.25 R; write OUT.h5");
  add_model_options(cmd, o->file, o->coordinates);
  add_rigid_options(cmd, o->rigid);
  add_reference_options(cmd, o->reference);
  cmd->add_option("--integrator", o->integrator.name, "integrator (default the scenario form's)");
  cmd->add_option("--step", o->integrator.step, "fixed step (s)")->check(CLI::PositiveNumber);
  cmd->add_option("--rtol", o->integrator.rtol, "relative tolerance")->check(CLI::PositiveNumber);
  cmd->add_option("-o,--output", o->output, "the trace (HDF5)")->required();
  cmd->callback([o, &run] { run = [o] { return run_drop(*o); }; });
}

}  // namespace dropsim::app
