// `dropsim osim run MODEL.osim -o OUT.h5`: the model's body tree run with its
// joints free (docs/physics.md#the-body-tree), from its coordinates' defaults
// and --coordinate overrides; the trace as `dropsim run` writes one.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "apps/osim_common.hpp"
#include "dropsim/integrators/registry.hpp"
#include "dropsim/integrators/sundials.hpp"
#include "dropsim/io/atomic_file.hpp"
#include "dropsim/io/hdf5_trace.hpp"
#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/tree/simulate.hpp"

namespace dropsim::app {

namespace {

struct TreeRunOptions {
  std::string file, output, integrator = "dopri5";
  std::vector<std::string> coordinates;
  double duration = 1.0, interval = 1e-3, rtol = 1e-9, step = 0.0;
};

integrators::Settings integrator_settings(const TreeRunOptions& o) {
  const auto* info = integrators::find_method(o.integrator);
  if (!info) {
    std::string names;
    for (const auto& m : integrators::methods) names += (names.empty() ? "" : ", ") + std::string(m.name);
    throw io::InputError("--integrator", "", "unknown integrator \"" + o.integrator + "\"; expected one of " + names);
  }
  if (!integrators::available(*info)) throw io::InputError("--integrator", "", integrators::unavailable_message(o.integrator));
  integrators::Settings s;
  s.method = info->method;
  if (info->adaptive) {
    if (o.step > 0.0) throw io::InputError("--step", "", o.integrator + " is adaptive: give --rtol, not --step");
    if (o.rtol < 1e-14) throw io::InputError("--rtol", "", "must be >= 1e-14 (below that, rounding dominates)");
    s.rtol = o.rtol;
  } else {
    if (!(o.step > 0.0)) throw io::InputError("--integrator", "", o.integrator + " is a fixed-step method: give --step");
    s.step = o.step;
  }
  return s;
}

int run_tree(const TreeRunOptions& o) {
  if (!(o.interval <= o.duration)) throw io::InputError("--interval", "", "must not exceed --duration");
  RunSettings run;
  run.duration = o.duration;
  run.output_interval = o.interval;
  run.integrator = integrator_settings(o);
  Posed p = load_posed(o.file, o.coordinates);
  ArticulatedModel articulated = p.osim.model;
  for (std::size_t i = 0; i < articulated.coordinates.size(); ++i)
    articulated.coordinates[i].default_value = p.q[static_cast<Eigen::Index>(i)];
  const tree::TreeModel model = model_or_fail(o.file, [&] { return tree::TreeModel(articulated); });
  io::install_signal_cleanup();
  io::check_output_file(o.output);
  const Trace trace = tree::simulate(model, run);
  io::Scenario s;
  s.name = articulated.name;
  s.file = o.file;
  nlohmann::json contacts = nlohmann::json::array();
  for (const ContactPair& c : articulated.contacts) contacts.push_back(c.name);
  s.resolved = {{"osim_run",
                 {{"model", o.file},
                  {"duration", o.duration},
                  {"output_interval", o.interval},
                  {"coordinates", model.coordinate_names()},
                  {"contacts", contacts}}},
                {"integrator", o.step > 0.0 ? nlohmann::json{{"name", o.integrator}, {"step", o.step}}
                                            : nlohmann::json{{"name", o.integrator}, {"rtol", o.rtol}}}};
  io::write_trace_hdf5(o.output, s, trace);
  const bool diverged = trace.stats.status == integrators::Status::diverged;
  if (diverged) {
    std::printf("%s: diverged at t = %.6g s (%s); the trace up to it is in %s\n", o.file.c_str(), trace.stats.end_time,
                trace.stats.reason.c_str(), o.output.c_str());
    return exit_check_failed;
  }
  std::printf("%s: %d coordinates, %zu contacts, %.6g s in %ld steps (%s); peak ground force %.4g of the weight\n",
              o.file.c_str(), model.nq(), articulated.contacts.size(), o.duration, trace.stats.steps,
              trace.integrator.c_str(), trace.samples() ? trace.force_normalized[trace.peak_index()] : 0.0);
  return exit_ok;
}

}  // namespace

void add_osim_run(CLI::App* osim, Runner& run) {
  auto o = std::make_shared<TreeRunOptions>();
  CLI::App* cmd = osim->add_subcommand("run", "run the model with its joints free (the body tree); write OUT.h5");
  add_model_options(cmd, o->file, o->coordinates);
  cmd->add_option("--duration", o->duration, "simulated time (s, default 1)")->check(CLI::PositiveNumber);
  cmd->add_option("--interval", o->interval, "output interval (s, default 0.001)")->check(CLI::PositiveNumber);
  cmd->add_option("--integrator", o->integrator, "integrator (default dopri5)");
  cmd->add_option("--rtol", o->rtol, "relative tolerance of an adaptive integrator (default 1e-9)")->check(CLI::PositiveNumber);
  cmd->add_option("--step", o->step, "step of a fixed-step integrator (s)")->check(CLI::PositiveNumber);
  cmd->add_option("-o,--output", o->output, "the trace (HDF5)")->required();
  cmd->callback([o, &run] { run = [o] { return run_tree(*o); }; });
}

}  // namespace dropsim::app
