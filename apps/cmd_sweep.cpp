// `dropsim sweep BASE.json --vary PATH=START:STOP:COUNT[:log] ...`: runs a
// Cartesian or Latin-hypercube design on all cores, writes one summary HDF5.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "apps/commands.hpp"
#include "apps/progress.hpp"
#include "dropsim/io/atomic_file.hpp"
#include "dropsim/io/input_file.hpp"
#include "dropsim/io/json_reader.hpp"
#include "apps/sweep_ranks.hpp"
#include "dropsim/io/sweep.hpp"

namespace dropsim::app {

namespace {

struct SweepOptions {
  std::string base;
  std::vector<std::string> vary;
  long samples = 0;  // 0: Cartesian product
  std::uint64_t seed = 1;
  std::string output;
  std::string traces;
  std::string shard = "0/1";
  int jobs = 0;
};

// "i/N" with 0 <= i < N.
std::pair<std::size_t, std::size_t> parse_shard(const std::string& text) {
  std::size_t i = 0, n = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%zu/%zu%c", &i, &n, &extra) != 2 || n == 0 || i >= n)
    throw io::InputError("--shard", "", "expected i/N with 0 <= i < N (got \"" + text + "\")");
  return {i, n};
}

// A bar on stderr, redrawn at most ten times a second on a terminal, written
// at most every two seconds into a log.
class ProgressBar {
 public:
  explicit ProgressBar(std::size_t total) : total_(total), start_(Clock::now()), last_(start_) {}
  void update(std::size_t done) {
    const auto now = Clock::now();
    const auto every = std::chrono::milliseconds(stderr_is_terminal() ? 100 : 2000);
    if (done != total_ && now - last_ < every) return;
    last_ = now;
    const int width = 30;
    const int filled = total_ ? static_cast<int>(width * done / total_) : width;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    char line[128];
    std::snprintf(line, sizeof line, "[%.*s%*s] %zu/%zu runs, %.1f s", filled, "##############################",
                  width - filled, "", done, total_, seconds);
    print_progress(line, done == total_);
  }

 private:
  using Clock = std::chrono::steady_clock;
  std::size_t total_;
  Clock::time_point start_, last_;
};

int sweep(const SweepOptions& o) {
  const Ranks ranks = start_ranks();
  std::vector<io::SweepAxis> axes;
  for (const auto& v : o.vary) axes.push_back(io::parse_sweep_axis(v));
  const io::SweepDesign design =
      o.samples > 0 ? io::latin_hypercube_design(axes, o.samples, o.seed) : io::cartesian_design(axes);
  const auto [shard, shards] = parse_shard(o.shard);

  const nlohmann::json base = io::parse_json_document(io::read_input_file(o.base, "a scenario JSON file"), o.base);
  const io::Scenario first = io::parse_scenario_json(base, o.base);  // the base itself must be valid
  const std::string output = o.output.empty() ? "results/" + first.name + "_sweep.h5" : o.output;
  const auto parent = std::filesystem::path(output).parent_path();
  io::check_output_directory(parent.empty() ? "." : parent.string());
  if (!o.traces.empty()) io::check_output_directory(o.traces);

  // Contiguous slices: shard i of N runs [i T / N, (i + 1) T / N).
  const std::size_t total = design.values.size();
  const std::size_t begin = total * shard / shards, end = total * (shard + 1) / shards;
  // Fail fast on a bad corner of the design before spending the cores.
  for (std::size_t run : {begin, end ? end - 1 : 0})
    if (run < end) (void)io::sweep_scenario(base, o.base, design, run);

  // Under MPI each rank takes a contiguous part of the slice; rank 0 gathers and writes.
  const std::size_t mine_begin = begin + (end - begin) * static_cast<std::size_t>(ranks.rank) / ranks.size;
  const std::size_t mine_end = begin + (end - begin) * static_cast<std::size_t>(ranks.rank + 1) / ranks.size;
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  ProgressBar bar(mine_end - mine_begin);
  io::SweepFile file;
  file.rows = gather_rows(ranks,
                          io::run_sweep(base, o.base, design, mine_begin, mine_end,
                                        o.jobs > 0 ? static_cast<unsigned>(o.jobs) : hw, o.traces,
                                        [&](std::size_t done) {
                                          if (ranks.rank == 0) bar.update(done);
                                        }),
                          design.axes.size());
  if (ranks.rank != 0) return finish_ranks(ranks, exit_ok);
  file.base_scenario = base.dump();
  file.kind = design.kind;
  file.seed = design.seed;
  for (const auto& a : design.axes) {
    file.axes.push_back(a.spec);
    file.pointers.push_back(a.pointer);
  }
  file.total_runs = static_cast<std::int64_t>(total);
  file.shard = std::to_string(shard) + "/" + std::to_string(shards);
  io::write_sweep_hdf5(output, file);

  const auto diverged = std::count_if(file.rows.begin(), file.rows.end(), [](const auto& r) { return r.status != 0; });
  std::printf("%zu runs (%s%s), %ld diverged -> %s\n", file.rows.size(), design.kind.c_str(),
              shards > 1 ? (", shard " + file.shard).c_str() : "", static_cast<long>(diverged), output.c_str());
  return finish_ranks(ranks, diverged > 0 ? exit_check_failed : exit_ok);
}

}  // namespace

void add_sweep_command(CLI::App& app, Runner& run) {
  auto o = std::make_shared<SweepOptions>();
  CLI::App* cmd = app.add_subcommand("sweep", "run a parameter sweep over a base scenario, write one summary HDF5");
  cmd->add_option("base", o->base, "base scenario JSON")->required();
  cmd->add_option("--vary", o->vary, "PATH=START:STOP:COUNT[:log], PATH a JSON pointer (repeatable)")->required();
  cmd->add_option("--samples", o->samples, "Latin hypercube of N runs instead of the Cartesian product (COUNT unused)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed", o->seed, "Latin hypercube seed (default 1)");
  cmd->add_option("-o,--output", o->output, "summary file (default results/<name>_sweep.h5)");
  cmd->add_option("--traces", o->traces, "also write every run's trace to this directory");
  cmd->add_option("--shard", o->shard, "run slice i of N (0-based) for job arrays; join with dropsim merge");
  cmd->add_option("-j,--jobs", o->jobs, "threads (default: all cores)")->check(CLI::PositiveNumber);
  cmd->callback([o, &run] { run = [o] { return sweep(*o); }; });
}

}  // namespace dropsim::app
