// `dropsim sweep BASE.json --vary PATH=START:STOP:COUNT[:log] ...`: runs a
// Cartesian or Latin-hypercube design on all cores, writes one summary HDF5.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iterator>
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
  bool resume = false;
  long slice_runs = 0;  // 0: about two seconds of runs per slice
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

// Runs per saved slice: the user's fixed number, or a small first slice and
// then about two seconds of runs each, so that an interruption costs little
// and the files stay few.
class SliceSizer {
 public:
  SliceSizer(std::size_t workers, std::size_t fixed) : size_(fixed ? fixed : 8 * workers), workers_(workers), fixed_(fixed) {}
  std::size_t next() const { return size_; }
  void finished(std::size_t runs, double seconds) {
    if (fixed_) return;
    const double rate = static_cast<double>(runs) / std::max(seconds, 1e-3);
    size_ = std::clamp(static_cast<std::size_t>(rate * target_seconds), workers_, 8 * size_);
  }

 private:
  static constexpr double target_seconds = 2.0;
  std::size_t size_, workers_, fixed_;
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

  // Contiguous parts: shard i of N runs [i T / N, (i + 1) T / N).
  const std::size_t total = design.values.size();
  const std::size_t begin = total * shard / shards, end = total * (shard + 1) / shards;
  // Fail fast on a bad corner of the design before spending the cores.
  for (std::size_t run : {begin, end ? end - 1 : 0})
    if (run < end) (void)io::sweep_scenario(base, o.base, design, run);

  io::SweepFile file;  // the sweep's attributes; its rows come from the slices
  file.base_scenario = base.dump();
  file.kind = design.kind;
  file.seed = design.seed;
  for (const auto& a : design.axes) {
    file.axes.push_back(a.spec);
    file.pointers.push_back(a.pointer);
  }
  file.total_runs = static_cast<std::int64_t>(total);
  file.shard = std::to_string(shard) + "/" + std::to_string(shards);

  const std::string slices = io::slice_directory(output);
  std::vector<io::SweepRow> rows = io::read_sweep_slices(slices, file, begin, end);
  if (!o.resume && !rows.empty())
    throw io::InputError(slices, "", "holds the finished slices of an interrupted sweep: add --resume to run only "
                                     "what is missing, or remove the directory to start again");
  const auto todo = io::missing_runs(rows, begin, end);
  std::size_t to_run = 0;
  for (const auto& [a, b] : todo) to_run += b - a;
  if (ranks.rank == 0 && !rows.empty())
    std::fprintf(stderr, "resuming: %zu of %zu runs are done in %s, %zu to run\n", rows.size(), end - begin,
                 slices.c_str(), to_run);
  if (to_run > 0 && ranks.rank == 0) io::check_output_directory(slices);
  io::install_graceful_stop("finishing the runs of the current slice, then stopping (again to stop at once)");

  // Each slice is split among the MPI ranks; rank 0 gathers it and writes it.
  const unsigned threads = o.jobs > 0 ? static_cast<unsigned>(o.jobs) : std::max(1u, std::thread::hardware_concurrency());
  SliceSizer sizer(threads * static_cast<std::size_t>(ranks.size), static_cast<std::size_t>(o.slice_runs));
  ProgressBar bar(to_run);
  std::size_t ran = 0;
  for (const auto& [gap_begin, gap_end] : todo) {
    for (std::size_t a = gap_begin; a < gap_end;) {
      const std::size_t b = std::min(gap_end, a + static_cast<std::size_t>(from_root(ranks, static_cast<long>(sizer.next()))));
      const std::size_t mine_begin = a + (b - a) * static_cast<std::size_t>(ranks.rank) / static_cast<std::size_t>(ranks.size);
      const std::size_t mine_end = a + (b - a) * static_cast<std::size_t>(ranks.rank + 1) / static_cast<std::size_t>(ranks.size);
      const auto started = std::chrono::steady_clock::now();
      io::SweepFile slice = file;
      slice.rows = gather_rows(ranks,
                               io::run_sweep(base, o.base, design, mine_begin, mine_end, threads, o.traces,
                                             [&](std::size_t done) {
                                               if (ranks.rank == 0) bar.update(std::min(to_run, ran + done * static_cast<std::size_t>(ranks.size)));
                                             }),
                               design.axes.size());
      if (ranks.rank == 0) {
        io::write_sweep_slice(slices, slice);
        std::move(slice.rows.begin(), slice.rows.end(), std::back_inserter(rows));
      }
      ran += b - a;
      sizer.finished(b - a, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
      a = b;
      if (const int sig = max_over_ranks(ranks, io::stop_signal())) {
        if (ranks.rank == 0)
          std::fprintf(stderr, "stopped: %zu of %zu runs are done and kept in %s; run the same command with "
                               "--resume to finish the sweep\n",
                       rows.size(), end - begin, slices.c_str());
        return finish_ranks(ranks, 128 + sig);
      }
    }
  }
  if (ranks.rank != 0) return finish_ranks(ranks, exit_ok);

  std::sort(rows.begin(), rows.end(), [](const io::SweepRow& x, const io::SweepRow& y) { return x.run < y.run; });
  file.rows = std::move(rows);
  io::write_sweep_hdf5(output, file);
  io::remove_sweep_slices(slices);

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
  cmd->add_option("--shard", o->shard, "run part i of N (0-based) for job arrays; join with dropsim merge");
  cmd->add_flag("--resume", o->resume, "finish an interrupted sweep: run only the runs its saved slices lack");
  cmd->add_option("--slice-runs", o->slice_runs, "runs per saved slice (default: about two seconds' worth)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("-j,--jobs", o->jobs, "threads (default: all cores)")->check(CLI::PositiveNumber);
  cmd->callback([o, &run] { run = [o] { return sweep(*o); }; });
}

}  // namespace dropsim::app
