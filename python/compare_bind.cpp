// dropsim.compare: `dropsim compare` on one pair, as a dict.
#include "dropsim/io/curve_pair.hpp"
#include "python/objects.hpp"

namespace dropsim::python {

void bind_compare(py::module_& m) {
  m.def("compare", [](py::handle a, py::handle b, const std::string& x, const std::string& y,
                      const std::string& label, double atol, double rtol) {
        auto fspath = [](py::handle p) { return py::str(py::module_::import("os").attr("fspath")(p)).cast<std::string>(); };
        const std::string pa = fspath(a), pb = fspath(b);
        if (x != "tau" && x != "time") throw io::InputError("x", "", "must be tau or time (got \"" + x + "\")");
        if (!(atol >= 0.0) || !(rtol >= 0.0)) throw io::InputError("atol/rtol", "", "must be non-negative numbers");
        const io::CurveSpec spec{x, y};
        io::ComparedPair r;
        {
          py::gil_scoped_release release;
          H5::Exception::dontPrint();
          const io::Curve ca = io::read_curve_file(pa, spec, label);
          const io::Curve cb = io::read_curve_file(pb, spec, label);
          r = io::compare_curve_pair(pa, ca, pb, cb, spec, Tolerance{atol, rtol});
        }
        const Comparison& c = r.c;
        py::dict d;
        d["a"] = pa;
        d["b"] = pb;
        d["x"] = x;
        d["y"] = y;
        d["units"] = r.units;
        d["overlap"] = py::make_tuple(c.overlap_begin, c.overlap_end);
        d["samples"] = c.samples;
        d["max_abs_diff"] = c.max_abs_diff;
        d["x_of_max"] = c.x_of_max;
        d["rms_diff"] = c.rms_diff;
        d["peak_a"] = c.peak_a;
        d["x_peak_a"] = c.x_peak_a;
        d["peak_b"] = c.peak_b;
        d["x_peak_b"] = c.x_peak_b;
        d["final_diff"] = c.final_diff;
        d["failing_samples"] = c.failing_samples;
        d["x_first_failure"] = c.failing_samples ? py::object(py::float_(c.x_first_failure)) : py::none();
        d["within_tolerance"] = c.within_tolerance();
        return d;
      }, py::arg("a"), py::arg("b"), py::kw_only(), py::arg("x") = "tau", py::arg("y") = "force_normalized",
      py::arg("label") = "", py::arg("atol") = 1e-6, py::arg("rtol") = 0.0,
      R"(Compares curve y(x) of b against a on a's grid, as `dropsim compare a b --json` does for one pair.

a, b: HDF5 traces or OpenSim storage files (.sto, .mot); label names the
storage file's column (default: y), its x is the column labelled x (use
x="time"). Returns a dict (max_abs_diff, rms_diff, peaks, failing_samples,
within_tolerance, ...); bad input raises InputError naming file, line or
dataset, and the rule.)");
}

}  // namespace dropsim::python
