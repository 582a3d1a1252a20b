// dropsim.run, run_many, sweep and integrators: the library calls of `dropsim
// run`, `dropsim sweep` and `dropsim integrators`, with the GIL released.
#include <pybind11/stl.h>

#include <chrono>
#include <thread>

#include "dropsim/integrators/registry.hpp"
#include "dropsim/integrators/stability.hpp"
#include "dropsim/integrators/sundials.hpp"
#include "dropsim/io/run_budget.hpp"
#include "dropsim/io/sweep.hpp"
#include "dropsim/sim/parallel_runs.hpp"
#include "dropsim/sim/run.hpp"
#include "python/objects.hpp"

namespace dropsim::python {

namespace {

// Raised inside a worker when Ctrl-C asked the runs to stop: no new run starts.
struct Stopped {};

unsigned thread_count(int threads) {
  if (threads < 0) throw io::InputError("threads", "", "must be 0 (all cores) or a positive count");
  return threads > 0 ? static_cast<unsigned>(threads) : std::max(1u, std::thread::hardware_concurrency());
}

// The scenarios as `dropsim run` reads them: every one validated, with the
// overrides and the run budget checked, before anything runs.
std::vector<io::Scenario> prepared(const py::handle& scenarios, const Settings& o, bool force) {
  std::vector<io::Scenario> out;
  for (py::handle s : scenarios) out.push_back(with_settings(*as_scenario(s), o));
  for (const auto& s : out) io::check_run_budget(s, force ? io::hard_run_limits : io::RunBudget{});
  return out;
}

py::list run_all(std::vector<io::Scenario> scenarios, unsigned threads) {
  std::vector<std::unique_ptr<TraceObject>> done(scenarios.size());
  std::atomic<bool> stop{false};
  run_interruptibly([&] {
    run_in_parallel<int>(0, scenarios.size(), threads, [&](std::size_t i, int&) {
      if (stop) throw Stopped{};
      auto t = std::make_unique<TraceObject>();
      t->scenario = std::move(scenarios[i]);
      t->trace = simulate(t->scenario.model, t->scenario.run);
      done[i] = std::move(t);
    }, nullptr);
  }, stop);
  py::list out;
  for (auto& t : done) out.append(py::cast(std::move(t)));
  return out;
}

// The Python design: one run per index of the equally long value arrays.
io::SweepDesign points_design(const py::dict& vary) {
  io::SweepDesign design;
  design.kind = "points";
  if (vary.empty()) throw io::InputError("vary", "", "names no parameter: give {\"/json/pointer\": values, ...}");
  std::vector<std::vector<double>> columns;
  for (auto [key, values] : vary) {
    io::SweepAxis axis;
    axis.pointer = axis.spec = py::str(key);
    auto column = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(values);
    if (!column || column.ndim() != 1)
      throw io::InputError("vary", axis.pointer, "values must be a 1-D sequence of numbers");
    columns.emplace_back(column.data(), column.data() + column.size());
    axis.count = static_cast<long>(column.size());
    if (columns.size() > 1 && columns.back().size() != columns.front().size())
      throw io::InputError("vary", axis.pointer, "has " + std::to_string(columns.back().size()) + " values, " +
                                                    design.axes.front().pointer + " has " +
                                                    std::to_string(columns.front().size()) + ": one value per run each");
    design.axes.push_back(axis);
  }
  design.values.assign(columns.front().size(), std::vector<double>(columns.size()));
  for (std::size_t r = 0; r < design.values.size(); ++r)
    for (std::size_t a = 0; a < columns.size(); ++a) design.values[r][a] = columns[a][r];
  return design;
}

}  // namespace

void bind_runs(py::module_& m) {
  m.def("run", [](py::handle scenario, std::optional<std::string> integrator, std::optional<double> step,
                  std::optional<double> rtol, std::optional<double> atol, bool attribution, bool force) {
        py::list one;
        one.append(scenario);
        py::list traces = run_all(prepared(one, settings(integrator, step, rtol, atol, attribution), force), 1);
        return py::object(traces[0]);
      }, py::arg("scenario"), py::kw_only(), py::arg("integrator") = py::none(), py::arg("step") = py::none(),
      py::arg("rtol") = py::none(), py::arg("atol") = py::none(), py::arg("attribution") = true,
      py::arg("force") = false, R"(Simulates one scenario as `dropsim run` does and returns its Trace.

scenario: a Scenario, a dict or a file path. integrator, step, rtol, atol:
the command line's overrides (--integrator, --step, --rtol, --atol).
attribution=False is --no-attribution; force=True is --force (only the hard
limits of the run budget). Runs with the GIL released.)");

  m.def("run_many", [](py::handle scenarios, int threads, std::optional<std::string> integrator,
                       std::optional<double> step, std::optional<double> rtol, std::optional<double> atol,
                       bool attribution, bool force) {
        const unsigned n = thread_count(threads);
        return run_all(prepared(scenarios, settings(integrator, step, rtol, atol, attribution), force), n);
      }, py::arg("scenarios"), py::kw_only(), py::arg("threads") = 0, py::arg("integrator") = py::none(),
      py::arg("step") = py::none(), py::arg("rtol") = py::none(), py::arg("atol") = py::none(),
      py::arg("attribution") = true, py::arg("force") = false,
      R"(Simulates scenarios on `threads` threads (0: all cores) as `dropsim run -j` does: a list of Trace in the
order given. All are validated before any runs. The GIL is released; Ctrl-C stops before the next run starts.)");

  m.def("sweep", [](py::handle base, const py::dict& vary, int threads) {
        const ScenarioPtr b = as_scenario(base);
        const io::SweepDesign design = points_design(vary);
        const unsigned n = thread_count(threads);
        const std::size_t total = design.values.size();
        // As `dropsim sweep`: the first and the last run's scenarios validated before any runs.
        for (std::size_t r : {std::size_t{0}, total ? total - 1 : 0})
          if (r < total) (void)io::sweep_scenario(b->document, b->scenario.file, design, r);
        std::vector<io::SweepRow> rows;
        rows.reserve(total);
        std::atomic<bool> stop{false};
        run_interruptibly([&] {
          // Slices of about a fifth of a second, as the command line's slices of two: Ctrl-C is heard
          // between them.
          std::size_t size = 2 * n;
          for (std::size_t a = 0; a < total && !stop;) {
            const std::size_t e = std::min(total, a + size);
            const auto started = std::chrono::steady_clock::now();
            auto slice = io::run_sweep(b->document, b->scenario.file, design, a, e, n, "", nullptr);
            std::move(slice.begin(), slice.end(), std::back_inserter(rows));
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            size = std::clamp(static_cast<std::size_t>(static_cast<double>(e - a) / std::max(seconds, 1e-3) * 0.2),
                              std::size_t{n}, 8 * size);
            a = e;
          }
        }, stop);
        std::vector<std::int64_t> run, steps, rhs;
        std::vector<double> xh, peak, tau, settle;
        std::vector<std::int8_t> status;
        std::vector<std::vector<double>> values(design.axes.size());
        for (const auto& r : rows) {
          run.push_back(r.run);
          for (std::size_t k = 0; k < values.size(); ++k) values[k].push_back(r.values[k]);
          xh.push_back(r.equilibrium_indentation_relative);
          peak.push_back(r.peak_force_normalized);
          tau.push_back(r.tau_of_peak);
          settle.push_back(r.settling_time);
          status.push_back(r.status);
          steps.push_back(r.steps);
          rhs.push_back(r.rhs_evaluations);
        }
        py::dict out;
        out["run"] = adopt(std::move(run));
        for (std::size_t k = 0; k < values.size(); ++k) out[py::str(design.axes[k].pointer)] = adopt(std::move(values[k]));
        out["equilibrium_indentation_relative"] = adopt(std::move(xh));
        out["peak_force_normalized"] = adopt(std::move(peak));
        out["tau_of_peak"] = adopt(std::move(tau));
        out["settling_time"] = adopt(std::move(settle));
        out["status"] = adopt(std::move(status));
        out["steps"] = adopt(std::move(steps));
        out["rhs_evaluations"] = adopt(std::move(rhs));
        return out;
      }, py::arg("base"), py::arg("vary"), py::kw_only(), py::arg("threads") = 0,
      R"(Runs a parameter sweep as `dropsim sweep` does, summary only.

base: a Scenario, dict or path. vary: {JSON pointer: values}, equally long
1-D arrays; run i takes the i-th value of each (numpy.meshgrid makes a
Cartesian design). Every run's scenario is the base with its values patched
in and validated as a file would be. Returns a dict of numpy arrays, one
entry per run: "run", one column per pointer, and the sweep file's summary
columns (equilibrium_indentation_relative, peak_force_normalized,
tau_of_peak, settling_time, status 0 ok / 1 diverged, steps,
rhs_evaluations). The GIL is released; Ctrl-C stops within about a second.)");

  m.def("integrators", [] {
        using namespace integrators;
        py::list rows;
        for (const auto& meth : methods) {
          py::dict row;
          row["name"] = std::string(meth.name);
          row["order"] = meth.order;
          row["adaptive"] = meth.adaptive;
          row["implicit"] = meth.implicit;
          row["description"] = std::string(meth.description);
          row["library"] = meth.library == Library::sundials ? "sundials" : "dropsim";
          row["available"] = available(meth);
          if (!available(meth) || !has_fixed_step_limit(meth)) {
            row["undamped_limit"] = available(meth) ? py::object(py::str("variable")) : py::none();
          } else {
            const StepLimit limit = undamped_limit(meth.method);
            row["undamped_limit"] = limit.unconditional() ? py::object(py::float_(INFINITY)) : py::object(py::float_(limit.step));
          }
          rows.append(row);
        }
        return rows;
      }, R"(The integrators as `dropsim integrators --json` lists them: a list of dicts (name, order, adaptive,
implicit, description, library, available, undamped_limit: the largest h*omega on the undamped oscillator,
inf where unconditionally stable, 0 where unstable, "variable" for CVODE, None where not in this build).)");
}

}  // namespace dropsim::python
