// Reading one curve of a trace and comparing two: the checks `dropsim compare` makes.
#include "dropsim/io/curve_pair.hpp"

#include <algorithm>
#include <numbers>

#include "dropsim/io/input_error.hpp"
#include "dropsim/io/storage_reader.hpp"

namespace dropsim::io {

Curve read_curve(const H5::H5File& file, const std::string& path, const CurveSpec& spec) {
  Curve c{read_series(file, path, spec.x), read_series(file, path, spec.y)};
  // Each file's curve on its own first, so that the error names the file and its dataset.
  if (const CurveProblem p = check_curve(c.x.values, c.y.values); !p.message.empty())
    throw InputError(path, "/" + (p.in_x ? spec.x : spec.y), p.message);
  return c;
}

Curve read_curve_file(const std::string& path, const CurveSpec& spec, const std::string& label) {
  if (!is_storage_file(path))
    return read_curve(open_hdf5_input(path, "an HDF5 trace written by dropsim run, or an OpenSim .sto or .mot file"),
                      path, spec);
  const Storage s = read_storage_file(path);
  const std::string y = label.empty() ? spec.y : label;
  if (spec.x == "tau" && std::find(s.labels.begin(), s.labels.end(), "tau") == s.labels.end())
    throw InputError(path, "line " + std::to_string(s.labels_line),
                     "an OpenSim storage file has time, not tau: compare it with --x time");
  Curve c{{spec.x, "", storage_column(s, path, spec.x)}, {y, "", storage_column(s, path, y)}, false, s.in_degrees};
  if (const CurveProblem p = check_curve(c.x.values, c.y.values); !p.message.empty())
    throw InputError(path, "column \"" + (p.in_x ? spec.x : y) + "\"", p.message);
  return c;
}

namespace {

// A storage curve in the other side's units (degrees to radians for angles).
Curve in_units_of(Curve c, const Curve& other) {
  if (c.units_stated) return c;
  c.x.units = other.x.units;
  c.y.units = other.y.units;
  if (c.in_degrees && (other.y.units == "rad" || other.y.units == "rad/s"))
    for (double& v : c.y.values) v *= std::numbers::pi / 180.0;
  return c;
}

}  // namespace

ComparedPair compare_curve_pair(const std::string& a, const Curve& stated_a, const std::string& b,
                                const Curve& stated_b, const CurveSpec& spec, const Tolerance& tol) {
  const Curve ca = in_units_of(stated_a, stated_b), cb = in_units_of(stated_b, stated_a);
  if (ca.y.units != cb.y.units)
    throw InputError(b, "/" + spec.y, "units \"" + cb.y.units + "\" differ from \"" + ca.y.units + "\" in " + a +
                                          "; compare refuses to subtract quantities of different units");
  if (ca.x.units != cb.x.units)
    throw InputError(b, "/" + spec.x, "units \"" + cb.x.units + "\" differ from \"" + ca.x.units + "\" in " + a +
                                          "; the x axes are not the same quantity");
  const CompareOutcome r = compare_curves(ca.x.values, ca.y.values, cb.x.values, cb.y.values, tol);
  if (!r.error.empty()) throw InputError(a + " vs " + b, "/" + spec.y + "(" + spec.x + ")", r.error);
  return {ca.y.units, r.result};
}

}  // namespace dropsim::io
