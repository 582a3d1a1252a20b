// `dropsim osim scale --to MODEL.osim --from REF.osim -o OUT.osim`: the contact
// parameters scaled to this model's size, the file written back with only them changed.
#include <cstdio>

#include "apps/osim_common.hpp"
#include "dropsim/io/atomic_file.hpp"
#include "dropsim/sim/format.hpp"

namespace dropsim::app {

namespace {

struct ScaleOptions {
  std::string file, output;
  ReferenceOptions reference;
};

int run_scale(const ScaleOptions& o) {
  const io::OsimModel target = read_model(o.file);
  const Scaled scaled = scale_model(target, o.reference);
  io::write_text_file(o.output, scaled.bytes);
  for (const auto& e : scaled.plan.edits)
    std::fprintf(stderr, "%s: %s %s -> %s\n", e.where.c_str(), e.element.c_str(), significant(e.old_value, 8).c_str(),
                 significant(e.new_value, 8).c_str());
  std::fprintf(stderr, "%s: %zu parameter%s changed\n", o.output.c_str(), scaled.plan.edits.size(), scaled.plan.edits.size() == 1 ? "" : "s");
  return exit_ok;
}

}  // namespace

void add_osim_scale(CLI::App* osim, Runner& run) {
  auto o = std::make_shared<ScaleOptions>();
  CLI::App* cmd = osim->add_subcommand("scale", "scale the contact parameters to this model's size; write the file back");
  cmd->add_option("target,--to", o->file, "OpenSim model file to scale (the target)")->required();
  add_reference_options(cmd, o->reference);
  cmd->add_option("-o,--output", o->output, "the scaled model file")->required();
  cmd->callback([o, &run] { run = [o] { return run_scale(*o); }; });
}

}  // namespace dropsim::app
