// dropsim.Trace (a finished run: numpy views of its columns, units, summary,
// write) and dropsim.read_trace (an HDF5 trace back as numpy arrays).
#include <pybind11/stl.h>

#include "dropsim/io/hdf5_reader.hpp"
#include "dropsim/io/hdf5_trace.hpp"
#include "dropsim/io/sto_writer.hpp"
#include "dropsim/io/trace_datasets.hpp"
#include "python/objects.hpp"

namespace dropsim::python {

namespace {

const io::TraceDataset& dataset(const TraceObject& t, const std::string& name, std::vector<io::TraceDataset>& table) {
  table = io::trace_datasets(t.trace);
  for (const auto& d : table)
    if (d.name == name) return d;
  throw py::key_error("no dataset \"" + name + "\" in the trace of " + t.scenario.name);
}

py::dict summary(const TraceObject& o) {
  const Trace& t = o.trace;
  const auto& st = t.stats;
  const bool ok = st.status != integrators::Status::diverged;
  py::dict d;
  d["name"] = o.scenario.name;
  d["status"] = ok ? "ok" : "diverged";
  d["reason"] = st.reason;
  d["integrator"] = t.integrator;
  d["step"] = t.step > 0.0 ? py::object(py::float_(t.step)) : py::none();
  d["steps"] = st.steps;
  d["rejected_steps"] = st.rejected_steps;
  d["rhs_evaluations"] = st.rhs_evaluations;
  d["end_time"] = st.end_time;
  d["samples"] = t.samples();
  d["wall_time"] = t.wall_time;
  // A diverged run's metrics are not results: None, as the command line prints none.
  auto metric = [&](double v) { return ok && t.samples() ? py::object(py::float_(v)) : py::none(); };
  const std::size_t peak = t.samples() ? t.peak_index() : 0;
  d["peak_force_normalized"] = metric(t.samples() ? t.force_normalized[peak] : 0.0);
  d["tau_of_peak"] = metric(t.samples() ? t.tau[peak] : 0.0);
  d["equilibrium_indentation_relative"] = metric(t.final_indentation_relative());
  d["settling_time"] = metric(t.summary.settling_time);
  if (t.has_friction) {
    d["peak_friction_ratio"] = metric(t.peak_friction_ratio());
    d["final_slip_speed"] = metric(t.final_slip_speed());
  }
  return d;
}

std::string fspath(py::handle path) { return py::str(py::module_::import("os").attr("fspath")(path)); }

}  // namespace

void bind_trace(py::module_& m) {
  py::class_<TraceObject>(m, "Trace", R"(A finished run.

trace[name] is a dataset of the HDF5 trace ("tau", "force_normalized",
"contact_force", "energy/kinetic", ...) as a read-only numpy array that views
the run's own buffer: no copy, and the array keeps the trace alive (its .base
is the trace). trace.units maps each name to its units, trace.summary is a
dict of the run's summary, trace.write(path) writes the file `dropsim run`
writes.)")
      .def("__getitem__", [](py::object self, const std::string& name) {
            std::vector<io::TraceDataset> table;
            const auto& d = dataset(self.cast<const TraceObject&>(), name, table);
            return view(*d.data, d.columns, self);
          }, py::arg("name"), "The dataset `name` as a read-only numpy view (rows = samples).")
      .def("keys", [](const TraceObject& t) {
            std::vector<std::string> names;
            for (const auto& d : io::trace_datasets(t.trace)) names.push_back(d.name);
            return names;
          }, "The dataset names, in the HDF5 file's order.")
      .def("__contains__", [](const TraceObject& t, const std::string& name) {
            for (const auto& d : io::trace_datasets(t.trace)) if (d.name == name) return true;
            return false;
          })
      .def("__len__", [](const TraceObject& t) { return t.trace.samples(); }, "Number of samples.")
      .def_property_readonly("units", [](const TraceObject& t) {
            py::dict u;
            for (const auto& d : io::trace_datasets(t.trace)) u[py::str(d.name)] = d.units;
            return u;
          }, "Units of each dataset, as the HDF5 file's `units` attributes.")
      .def_property_readonly("q_names", [](const TraceObject& t) { return t.trace.q_names; })
      .def_property_readonly("u_names", [](const TraceObject& t) { return t.trace.u_names; })
      .def_property_readonly("name", [](const TraceObject& t) { return t.scenario.name; })
      .def_property_readonly("summary", &summary,
                             "status, reason, integrator, steps, rhs_evaluations, peak_force_normalized, tau_of_peak, "
                             "equilibrium_indentation_relative (final x/R), settling_time, wall_time, ... "
                             "(metrics are None for a diverged run)")
      .def("write", [](const TraceObject& t, py::handle path) {
            const std::string p = fspath(path);
            py::gil_scoped_release release;
            io::write_trace_hdf5(p, t.scenario, t.trace);
          }, py::arg("path"), "Writes the HDF5 trace `dropsim run` writes for this run (atomically).")
      .def("write_sto", [](const TraceObject& t, py::handle path) {
            io::write_trace_sto_file(fspath(path), t.scenario.name, t.trace);
          }, py::arg("path"), "Writes the OpenSim Storage file `dropsim run --sto` writes.")
      .def("__repr__", [](const TraceObject& t) {
            return "<dropsim.Trace " + t.scenario.name + ": " + std::to_string(t.trace.samples()) + " samples>";
          });

  m.def("read_trace", [](py::handle path) {
        const std::string p = fspath(path);
        const H5::H5File file = io::open_hdf5_input(p, "an HDF5 trace written by dropsim run");
        Trace names;  // the table's names, friction's too
        names.friction_force = {0.0};
        py::dict data, units, attributes;
        for (const auto& d : io::trace_datasets(names)) {
          if (!io::dataset_exists(file, "/" + d.name)) continue;
          io::Table t = io::read_table(file, p, d.name);
          const std::size_t rows = t.columns ? t.values.size() / t.columns : t.values.size();
          py::array a = adopt(std::move(t.values));
          data[py::str(d.name)] = t.columns ? a.attr("reshape")(rows, t.columns) : a;
          units[py::str(d.name)] = t.units;
        }
        const io::RootAttributes root = io::read_root_attributes(file);
        for (const auto& [k, v] : root.numbers) attributes[py::str(k)] = v;
        for (const auto& [k, v] : root.texts) attributes[py::str(k)] = v;
        py::dict out;
        out["data"] = data;
        out["units"] = units;
        out["attributes"] = attributes;
        return out;
      }, py::arg("path"), R"(Reads an HDF5 trace written by `dropsim run` (or Trace.write).

Returns a dict: "data" (dataset name -> numpy array), "units" (name -> units)
and "attributes" (the root group's numeric and text attributes).)");
}

}  // namespace dropsim::python
