// dropsim.Scenario and dropsim.load_scenario: the command line's validator.
#include <pybind11/stl.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "dropsim/io/input_file.hpp"
#include "dropsim/io/json_reader.hpp"
#include "python/objects.hpp"

namespace dropsim::python {

ScenarioPtr from_document(nlohmann::json document, const std::string& file) {
  auto s = std::make_shared<ScenarioObject>();
  s->scenario = io::parse_scenario_json(document, file);
  s->document = std::move(document);
  return s;
}

ScenarioPtr load(const std::string& path) {
  return from_document(io::parse_json_document(io::read_input_file(path, "a scenario JSON file"), path), path);
}

ScenarioPtr as_scenario(py::handle value) {
  if (py::isinstance<ScenarioObject>(value)) return value.cast<std::shared_ptr<ScenarioObject>>();
  if (py::isinstance<py::dict>(value)) return from_document(to_json(value, ""), dict_file);
  if (py::isinstance<py::str>(value) || py::hasattr(value, "__fspath__"))
    return load(py::str(py::module_::import("os").attr("fspath")(value)).cast<std::string>());
  throw py::type_error("a scenario is a dropsim.Scenario, a dict or the path of a scenario file (got " +
                       py::repr(value.get_type()).cast<std::string>() + ")");
}

Settings settings(const std::optional<std::string>& integrator, std::optional<double> step,
                  std::optional<double> rtol, std::optional<double> atol, bool attribution) {
  Settings o;
  o.integrator.name = integrator.value_or("");
  // The command line's checks on --step, --rtol and --atol (CLI::PositiveNumber).
  for (auto [name, value, target] : {std::tuple{"step", step, &o.integrator.step},
                                     std::tuple{"rtol", rtol, &o.integrator.rtol},
                                     std::tuple{"atol", atol, &o.integrator.atol}}) {
    if (!value) continue;
    if (!(*value > 0.0)) throw io::InputError(name, "", "must be a positive number (got " + std::to_string(*value) + ")");
    *target = *value;
  }
  o.attribution = attribution;
  return o;
}

io::Scenario with_settings(const ScenarioObject& s, const Settings& o) {
  io::Scenario out = s.scenario;
  io::apply_override(out, o.integrator);
  out.run.attribute_stiffness = o.attribution;
  return out;
}

void run_interruptibly(const std::function<void()>& work, std::atomic<bool>& stop) {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::exception_ptr error;
  std::thread worker([&] {
    try {
      work();
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard g(m);
    done = true;
    cv.notify_all();
  });
  auto wait = [&](std::chrono::milliseconds period) {
    py::gil_scoped_release release;
    std::unique_lock g(m);
    return cv.wait_for(g, period, [&] { return done; });
  };
  while (!wait(std::chrono::milliseconds(100))) {
    if (PyErr_CheckSignals() != 0) {
      stop = true;
      {
        py::gil_scoped_release release;
        worker.join();
      }
      throw py::error_already_set();
    }
  }
  worker.join();
  if (error) std::rethrow_exception(error);
}

void bind_scenario(py::module_& m) {
  py::class_<ScenarioObject, std::shared_ptr<ScenarioObject>>(m, "Scenario", R"(A validated scenario.

Scenario(document) validates a dict laid out as a scenario file
(docs/interface.md) with the command line's own validator: bad input raises
InputError naming the JSON path and the rule. load_scenario(path) reads a file.)")
      .def(py::init([](const py::dict& document) { return std::const_pointer_cast<ScenarioObject>(from_document(to_json(document, ""), dict_file)); }),
           py::arg("document"), "Validates `document` (a dict laid out as a scenario file).")
      .def_property_readonly("name", [](const ScenarioObject& s) { return s.scenario.name; }, "Output file stem.")
      .def_property_readonly("description", [](const ScenarioObject& s) { return s.scenario.description; })
      .def_property_readonly("file", [](const ScenarioObject& s) { return s.scenario.file; },
                             "The file it came from, or \"scenario dict\".")
      .def_property_readonly("kind", [](const ScenarioObject& s) { return s.scenario.multibody() ? "multibody" : "drop"; },
                             "\"drop\" (the drop form) or \"multibody\" (the multi-contact form).")
      .def_property_readonly("document", [](const ScenarioObject& s) { return from_json(s.document); },
                             "The document as given (a new dict).")
      .def_property_readonly("resolved", [](const ScenarioObject& s) { return from_json(s.scenario.resolved); },
                             "The scenario as run: every default filled in, scaled parameters as numbers (a new dict).")
      .def("__repr__", [](const ScenarioObject& s) { return "<dropsim.Scenario " + s.scenario.name + " from " + s.scenario.file + ">"; });

  m.def("load_scenario", [](py::handle path) { return std::const_pointer_cast<ScenarioObject>(as_scenario(py::str(py::module_::import("os").attr("fspath")(path)))); },
        py::arg("path"), "Reads and validates a scenario file as `dropsim run` does; InputError names file, path and rule.");
}

}  // namespace dropsim::python
