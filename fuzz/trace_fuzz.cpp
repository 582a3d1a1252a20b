// libFuzzer harness on the trace reader behind `dropsim compare` (io/curve_pair.hpp).
//
// The input is not a file: it is decoded, byte by byte, into the layout of two
// traces (which datasets exist, their type, rank, shape and values, their
// units attribute, groups where datasets belong) and the curve specs to read.
// Both traces are built as HDF5 files in memory (the core driver, nothing on
// disk), so every input is a well-formed HDF5 file and the fuzzer spends its
// time on dropsim's checks, not on libhdf5's parser. Reading and comparing
// must end in a result or an InputError, never a crash, a sanitizer report,
// another exception, or a result that is not finite.
#include <fuzzer/FuzzedDataProvider.h>

#include <H5Cpp.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "dropsim/io/curve_pair.hpp"
#include "dropsim/io/input_error.hpp"

namespace {

const char* const dataset_names[] = {"tau", "time", "force_normalized", "contact_force", "energy/kinetic"};
const char* const x_specs[] = {"tau", "time", "tau[0]", "contact_force[1]", "", "energy"};
const char* const y_specs[] = {"force_normalized", "contact_force[0]", "contact_force[2]", "energy/kinetic",
                               "[0]", "tau"};
const char* const unit_texts[] = {"1", "s", "N", "", "J"};

double sample_value(FuzzedDataProvider& in, std::size_t i, double step) {
  switch (in.ConsumeIntegralInRange(0, 7)) {
    case 0: return std::numeric_limits<double>::quiet_NaN();
    case 1: return in.ConsumeBool() ? HUGE_VAL : -HUGE_VAL;
    case 2: return in.ConsumeFloatingPoint<double>();  // anything, subnormals to 1e308
    case 3: return static_cast<double>(i > 0 ? i - 1 : 0) * step;  // a repeated or backward time
    default: return static_cast<double>(i) * step;  // a regular grid, most of the time
  }
}

// The `units` attribute: absent, one string, a number, two strings, or an empty one.
void add_units(FuzzedDataProvider& in, H5::DataSet& d) {
  switch (in.ConsumeIntegralInRange(0, 5)) {
    case 0: return;
    case 1: {
      const H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
      d.createAttribute("units", t, H5::DataSpace(H5S_SCALAR)).write(t, std::string(in.PickValueInArray(unit_texts)));
      return;
    }
    case 2: {
      const double v = 1.0;
      d.createAttribute("units", H5::PredType::NATIVE_DOUBLE, H5::DataSpace(H5S_SCALAR))
          .write(H5::PredType::NATIVE_DOUBLE, &v);
      return;
    }
    case 3: {
      const hsize_t two = 2;
      const H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
      const char* texts[2] = {"s", "N"};
      d.createAttribute("units", t, H5::DataSpace(1, &two)).write(t, texts);
      return;
    }
    case 4: {
      const H5::StrType t(H5::PredType::C_S1, 4);  // fixed length
      d.createAttribute("units", t, H5::DataSpace(H5S_SCALAR)).write(t, std::string("1\0\0\0", 4));
      return;
    }
    default:
      d.createAttribute("units", H5::StrType(H5::PredType::C_S1, 1), H5::DataSpace(H5S_NULL));
      return;
  }
}

void add_dataset(FuzzedDataProvider& in, H5::H5File& file, const std::string& name) {
  if (name.find('/') != std::string::npos && !file.nameExists(name.substr(0, name.find('/'))))
    file.createGroup(name.substr(0, name.find('/')));
  if (in.ConsumeIntegralInRange(0, 15) == 0) {  // a group where a dataset belongs
    file.createGroup(name);
    return;
  }
  const int rank = in.ConsumeIntegralInRange(0, 9) < 7 ? (name == "contact_force" ? 2 : 1)
                                                        : in.ConsumeIntegralInRange(0, 3);
  const hsize_t rows = in.ConsumeIntegralInRange<hsize_t>(0, 48);
  const hsize_t columns = in.ConsumeIntegralInRange<hsize_t>(0, 4);
  const hsize_t dims[3] = {rows, rank >= 2 ? columns : 1, 1};
  const H5::DataSpace space = rank == 0 ? H5::DataSpace(H5S_SCALAR) : H5::DataSpace(rank, dims);
  const hsize_t count = rank == 0 ? 1 : rows * (rank >= 2 ? columns : 1);
  const double step = in.ConsumeBool() ? 0.01 : in.ConsumeFloatingPoint<double>();
  std::vector<double> values(count);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = sample_value(in, rank >= 2 && columns ? i / columns : i, step);
  H5::DataSet d;
  switch (in.ConsumeIntegralInRange(0, 5)) {
    case 0: {  // text, not numbers
      const H5::StrType t(H5::PredType::C_S1, 8);
      d = file.createDataSet(name, t, space);
      break;
    }
    case 1: {  // integers: numeric, read converted
      d = file.createDataSet(name, H5::PredType::NATIVE_INT, space);
      std::vector<int> ints(count);
      for (std::size_t i = 0; i < ints.size(); ++i)
        ints[i] = std::isfinite(values[i]) && std::abs(values[i]) < 1e9 ? static_cast<int>(values[i]) : 0;
      if (count > 0) d.write(ints.data(), H5::PredType::NATIVE_INT);
      break;
    }
    case 2:  // single precision
      d = file.createDataSet(name, H5::PredType::NATIVE_FLOAT, space);
      if (count > 0) d.write(values.data(), H5::PredType::NATIVE_DOUBLE);
      break;
    default:
      d = file.createDataSet(name, H5::PredType::NATIVE_DOUBLE, space);
      if (count > 0) d.write(values.data(), H5::PredType::NATIVE_DOUBLE);
      break;
  }
  add_units(in, d);
}

// One trace as the input describes it, in memory only.
H5::H5File make_trace(FuzzedDataProvider& in, const char* name) {
  H5::FileAccPropList access;
  access.setCore(1 << 16, false);  // no backing store: nothing touches the disk
  H5::H5File file(name, H5F_ACC_TRUNC, H5::FileCreatPropList::DEFAULT, access);
  for (const char* dataset : dataset_names)
    if (in.ConsumeIntegralInRange(0, 7) != 0) add_dataset(in, file, dataset);
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  H5::Exception::dontPrint();
  dropsim::io::CurveSpec spec{in.PickValueInArray(x_specs), in.PickValueInArray(y_specs)};
  dropsim::Tolerance tol{in.ConsumeFloatingPoint<double>(), in.ConsumeFloatingPoint<double>()};
  H5::H5File a, b;
  try {
    a = make_trace(in, "a.h5");
    b = make_trace(in, "b.h5");
  } catch (const H5::Exception&) {
    return 0;  // a layout libhdf5 will not build (a conversion it refuses): not dropsim's to read
  }
  try {
    const dropsim::io::Curve ca = dropsim::io::read_curve(a, "a.h5", spec);
    const dropsim::io::Curve cb = dropsim::io::read_curve(b, "b.h5", spec);
    const dropsim::io::ComparedPair r = dropsim::io::compare_curve_pair("a.h5", ca, "b.h5", cb, spec, tol);
    // The curves passed their checks (finite, increasing x), so every number of the result must be finite;
    // a difference of two finite doubles may still overflow, and that must say so instead.
    const dropsim::Comparison& c = r.c;
    for (const double v : {c.overlap_begin, c.overlap_end, c.peak_a, c.peak_b, c.x_peak_a, c.x_peak_b})
      if (!std::isfinite(v)) {
        std::fprintf(stderr, "accepted curves gave a non-finite result\n");
        std::abort();
      }
  } catch (const dropsim::io::InputError&) {
    // A sentence naming the file and the dataset: the expected refusal.
  }
  return 0;
}
