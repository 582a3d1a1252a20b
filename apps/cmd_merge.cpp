// `dropsim merge -o OUT.h5 SHARD.h5...`: joins the shards of one sweep into the single-process file.
#include <cstdio>

#include "apps/commands.hpp"
#include "dropsim/io/sweep.hpp"

namespace dropsim::app {

namespace {

struct MergeOptions {
  std::vector<std::string> files;
  std::string output;
};

int merge(const MergeOptions& o) {
  std::vector<io::SweepFile> shards;
  for (const auto& f : o.files) shards.push_back(io::read_sweep_hdf5(f));
  const io::SweepFile merged = io::merge_sweeps(shards, o.files);
  io::write_sweep_hdf5(o.output, merged);
  std::printf("%zu runs from %zu shards -> %s\n", merged.rows.size(), shards.size(), o.output.c_str());
  return exit_ok;
}

}  // namespace

void add_merge_command(CLI::App& app, Runner& run) {
  auto o = std::make_shared<MergeOptions>();
  CLI::App* cmd = app.add_subcommand("merge", "join sweep shards (dropsim sweep --shard i/N) into one summary file");
  cmd->add_option("files", o->files, "shard summary files")->required();
  cmd->add_option("-o,--output", o->output, "merged summary file")->required();
  cmd->callback([o, &run] { run = [o] { return merge(*o); }; });
}

}  // namespace dropsim::app
