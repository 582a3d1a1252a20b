// Reading one curve of a trace and comparing two: the checks `dropsim compare` makes.
#include "dropsim/io/curve_pair.hpp"

#include "dropsim/io/input_error.hpp"

namespace dropsim::io {

Curve read_curve(const H5::H5File& file, const std::string& path, const CurveSpec& spec) {
  Curve c{read_series(file, path, spec.x), read_series(file, path, spec.y)};
  // Each file's curve on its own first, so that the error names the file and its dataset.
  if (const CurveProblem p = check_curve(c.x.values, c.y.values); !p.message.empty())
    throw InputError(path, "/" + (p.in_x ? spec.x : spec.y), p.message);
  return c;
}

ComparedPair compare_curve_pair(const std::string& a, const Curve& ca, const std::string& b, const Curve& cb,
                                const CurveSpec& spec, const Tolerance& tol) {
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
