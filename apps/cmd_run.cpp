// `dropsim run FILE... [-o DIR]`: simulate scenarios on all cores, write one HDF5 per run.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include "apps/commands.hpp"
#include "apps/progress.hpp"
#include "apps/run_report.hpp"
#include "dropsim/io/atomic_file.hpp"
#include "dropsim/io/hdf5_trace.hpp"
#include "dropsim/io/io_error.hpp"
#include "dropsim/io/run_budget.hpp"
#include "dropsim/io/scenario.hpp"
#include "dropsim/io/sto_writer.hpp"
#include "dropsim/sim/format.hpp"
#include "dropsim/sim/run.hpp"

namespace dropsim::app {

namespace {

struct RunOptions {
  std::vector<std::string> files;
  std::string output_dir = "results";
  io::IntegratorOverride integrator;
  int jobs = 0;
  bool sto = false;    // also write <name>.sto (OpenSim Storage)
  bool force = false;  // the resource guard checks only its hard limits
  bool explain = false;  // say what held each adaptive run's steps
  bool no_attribution = false;  // skip the stiffness attribution (its Jacobians cost most of a multi-contact run)
};

struct Outcome {
  Trace trace;
  std::string error;  // I/O failure while writing
};

// An adaptive run's steps: how many, and how much of the time, stability held
// (docs/integrators.md#stiffness-attribution); the rest accuracy held.
void print_explanation(const io::Scenario& s, const Trace& t) {
  if (t.step > 0.0) {
    std::printf("%s: fixed step %s s (%s): no error control\n", s.name.c_str(), significant(t.step, 4).c_str(),
                t.integrator.c_str());
    return;
  }
  const auto& st = t.stats;
  const double span = st.end_time;
  if (st.steps == 0 || !(span > 0.0)) return;
  auto percent = [](auto part, double whole) { return 100.0 * static_cast<double>(part) / whole; };
  const double n = static_cast<double>(st.steps);
  std::printf("%s: %s, %ld steps (mean %s s)", s.name.c_str(), t.integrator.c_str(), st.steps,
              significant(span / n, 4).c_str());
  // SUNDIALS runs: their rejections, restarts at contact events and orders.
  if (const auto* m = integrators::find_method(t.integrator); m && !integrators::has_one_step_form(*m)) {
    std::printf(", %ld rejected, %ld landed on a contact event", st.rejected_steps, st.events);
    if (std::any_of(st.steps_by_order.begin(), st.steps_by_order.end(), [](long c) { return c > 0; })) {
      std::printf(", by order:");
      for (std::size_t q = 1; q < st.steps_by_order.size(); ++q)
        if (st.steps_by_order[q] > 0) std::printf(" %zu: %ld", q, st.steps_by_order[q]);
      std::printf(", %ld order reductions by stability-limit detection", st.order_reductions);
    }
  }
  std::printf(": %ld (%.0f %%, covering %.0f %% of the time) held by stability", st.stability_bound_steps,
              percent(st.stability_bound_steps, n), percent(st.stability_bound_time, span));
  if (st.stability_bound_steps > 0)
    std::printf(" at %.2f of the local limit on average",
                st.step_over_limit_sum / static_cast<double>(st.stability_bound_steps));
  if (st.cap_bound_steps > 0)
    std::printf(", %ld (%.0f %%, covering %.0f %%) by the largest step allowed", st.cap_bound_steps,
                percent(st.cap_bound_steps, n), percent(st.cap_bound_time, span));
  const double accuracy = n - static_cast<double>(st.stability_bound_steps + st.cap_bound_steps);
  std::printf(", %.0f (%.0f %%) by accuracy\n", accuracy, percent(accuracy, n));
}

int run_all(const RunOptions& o) {
  // Validate everything before simulating anything: bad input writes nothing.
  std::vector<io::Scenario> scenarios;
  for (const auto& f : o.files) {
    scenarios.push_back(io::load_scenario(f));
    io::apply_override(scenarios.back(), o.integrator);
  }
  for (std::size_t i = 0; i < scenarios.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (scenarios[i].name == scenarios[j].name)
        throw io::InputError(scenarios[i].file, "/name",
                             "\"" + scenarios[i].name + "\" is also the name of " + scenarios[j].file +
                                 "; both would write the same output file");
  for (const auto& s : scenarios) io::check_run_budget(s, o.force ? io::hard_run_limits : io::RunBudget{});
  io::install_signal_cleanup();  // before the workers start: they inherit the blocked signals
  io::check_output_directory(o.output_dir);
  const auto output_path = [&](const io::Scenario& s) {
    return (std::filesystem::path(o.output_dir) / (s.name + ".h5")).string();
  };
  for (const auto& s : scenarios) io::check_output_file(output_path(s));

  std::vector<Outcome> outcomes(scenarios.size());
  std::atomic<std::size_t> next{0};
  std::mutex progress;
  std::size_t done = 0;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < scenarios.size();) {
      const auto& s = scenarios[i];
      RunSettings run = s.run;
      run.attribute_stiffness = !o.no_attribution;
      outcomes[i].trace = simulate(s.model, run);
      try {
        io::write_trace_hdf5(output_path(s), s, outcomes[i].trace);
        if (o.sto)
          io::write_trace_sto_file((std::filesystem::path(o.output_dir) / (s.name + ".sto")).string(), s.name,
                                   outcomes[i].trace);
      } catch (const io::IoError& e) {
        outcomes[i].error = e.what();
      }
      std::lock_guard lock(progress);
      ++done;
      print_progress("[" + std::to_string(done) + "/" + std::to_string(scenarios.size()) + "] " + s.name,
                     done == scenarios.size());
    }
  };
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const auto threads = std::min<std::size_t>(o.jobs > 0 ? static_cast<std::size_t>(o.jobs) : hw, scenarios.size());
  std::vector<std::thread> pool;
  for (std::size_t k = 0; k < threads; ++k) pool.emplace_back(worker);
  for (auto& th : pool) th.join();

  print_summary_header();
  int code = exit_ok;
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    print_summary(scenarios[i], outcomes[i].trace);
    const auto& t = outcomes[i].trace;
    if (t.stats.status == integrators::Status::diverged) {
      print_divergence(scenarios[i], t);
      code = std::max(code, int(exit_check_failed));
    }
    if (o.explain) print_explanation(scenarios[i], t);
    if (!outcomes[i].error.empty()) {
      std::fprintf(stderr, "dropsim: %s\n", outcomes[i].error.c_str());
      code = exit_bad_input;
    }
  }
  return code;
}

}  // namespace

void add_run_command(CLI::App& app, Runner& run) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand("run", "simulate scenario files, write DIR/<name>.h5");
  cmd->add_option("files", o->files, "scenario JSON files")->required();
  cmd->add_option("-o,--output", o->output_dir, "output directory (default results/)");
  cmd->add_option("--integrator", o->integrator.name, "override the scenario's integrator");
  cmd->add_option("--step", o->integrator.step, "fixed step (s)")->check(CLI::PositiveNumber);
  cmd->add_option("--rtol", o->integrator.rtol, "relative tolerance")->check(CLI::PositiveNumber);
  cmd->add_option("--atol", o->integrator.atol, "absolute tolerance (all components)")->check(CLI::PositiveNumber);
  cmd->add_flag("--force", o->force, "run even if the estimated steps or trace size exceed the budget");
  cmd->add_option("-j,--jobs", o->jobs, "parallel runs (default: all cores)")->check(CLI::PositiveNumber);
  cmd->add_flag("--sto", o->sto, "also write DIR/<name>.sto (OpenSim Storage, tab-separated)");
  auto* explain =
      cmd->add_flag("--explain", o->explain, "say whether stability or accuracy held each adaptive run's steps");
  cmd->add_flag("--no-attribution", o->no_attribution,
                "do not judge each step against its stability limit: no Jacobian per step, no stability_bound_* "
                "attributes in the trace")
      ->excludes(explain);
  cmd->callback([o, &run] { run = [o] { return run_all(*o); }; });
}

}  // namespace dropsim::app
