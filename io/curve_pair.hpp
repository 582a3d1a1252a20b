// One curve of each of two traces, read and compared: what `dropsim compare`
// does per pair, apart from the command line so a fuzz harness can drive it
// on in-memory files (fuzz/trace_fuzz.cpp).
#pragma once

#include <H5Cpp.h>

#include <string>

#include "dropsim/io/hdf5_reader.hpp"
#include "dropsim/sim/trace_compare.hpp"

namespace dropsim::io {

struct CurveSpec {
  std::string x = "tau";               // the x axis dataset
  std::string y = "force_normalized";  // NAME or NAME[COLUMN]
};

// x and y of one trace, each checked on its own: equal lengths, at least two
// samples, finite, x strictly increasing. Throws InputError naming `path` and
// the dataset.
struct Curve {
  Series x, y;
  // An OpenSim storage file states no units: its curve takes the other
  // side's. With inDegrees=yes its column is in degrees where the other
  // side's is an angle (rad, rad/s): it is converted to radians.
  bool units_stated = true;
  bool in_degrees = false;
};
Curve read_curve(const H5::H5File& file, const std::string& path, const CurveSpec& spec);

// One side of `dropsim compare` from its file: an HDF5 trace, or an OpenSim
// storage file (.sto, .mot) whose x is the column labelled spec.x and y the
// column labelled `label` (spec.y where empty). Checked as read_curve checks;
// InputError naming the file (and the line of a storage file).
Curve read_curve_file(const std::string& path, const CurveSpec& spec, const std::string& label);

// B against A on A's grid; throws InputError when the units differ or the
// curves do not overlap. `a` and `b` name the files in messages.
struct ComparedPair {
  std::string units;  // of y
  Comparison c;
};
ComparedPair compare_curve_pair(const std::string& a, const Curve& ca, const std::string& b, const Curve& cb,
                                const CurveSpec& spec, const Tolerance& tol);

}  // namespace dropsim::io
