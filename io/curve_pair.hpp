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
};
Curve read_curve(const H5::H5File& file, const std::string& path, const CurveSpec& spec);

// B against A on A's grid; throws InputError when the units differ or the
// curves do not overlap. `a` and `b` name the files in messages.
struct ComparedPair {
  std::string units;  // of y
  Comparison c;
};
ComparedPair compare_curve_pair(const std::string& a, const Curve& ca, const std::string& b, const Curve& cb,
                                const CurveSpec& spec, const Tolerance& tol);

}  // namespace dropsim::io
