// The C++ objects behind dropsim.Scenario and dropsim.Trace, and the steps
// every entry point shares: a scenario from whatever Python passed, the run
// settings of keyword arguments, and waiting on C++ threads with the GIL
// released while honouring Ctrl-C.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/trace.hpp"
#include "python/convert.hpp"

namespace dropsim::python {

// A validated scenario and the document it was validated from (a sweep patches
// the document, as `dropsim sweep` patches the file's).
struct ScenarioObject {
  io::Scenario scenario;
  nlohmann::json document;
};
using ScenarioPtr = std::shared_ptr<const ScenarioObject>;

// The name a dict scenario's messages give as its file.
inline const char* dict_file = "scenario dict";

// From a file, as `dropsim run FILE` reads it.
ScenarioPtr load(const std::string& path);
// From a document, as the file would be validated; `file` names it in messages.
ScenarioPtr from_document(nlohmann::json document, const std::string& file);
// A Scenario, a dict or a path (str or os.PathLike).
ScenarioPtr as_scenario(py::handle value);

// `dropsim run`'s overrides: integrator, step, rtol, atol (None: the scenario's).
struct Settings {
  io::IntegratorOverride integrator;
  bool attribution = true;  // `--no-attribution` when false
};
Settings settings(const std::optional<std::string>& integrator, std::optional<double> step,
                  std::optional<double> rtol, std::optional<double> atol, bool attribution);
// The scenario as `dropsim run` with those options runs it; its RunSettings.
io::Scenario with_settings(const ScenarioObject& s, const Settings& o);

// A finished run and the scenario it ran, for Trace.write.
struct TraceObject {
  io::Scenario scenario;
  Trace trace;
};

// Runs `work` on a C++ thread while this one waits with the GIL released,
// checking Python's signals every 100 ms; on KeyboardInterrupt (or any signal
// handler's exception) it sets `stop`, waits for `work` to return and raises
// it. `work`'s own exception is rethrown here.
void run_interruptibly(const std::function<void()>& work, std::atomic<bool>& stop);

void bind_scenario(py::module_& m);
void bind_trace(py::module_& m);
void bind_runs(py::module_& m);
void bind_compare(py::module_& m);
void bind_modes(py::module_& m);

}  // namespace dropsim::python
