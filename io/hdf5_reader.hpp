// Reading traces back: one dataset (or one column of a 2-D dataset) with its units.
#pragma once

#include <H5Cpp.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dropsim::io {

// A 1-D series read from a trace file.
struct Series {
  std::string dataset;  // as requested, e.g. "force_normalized" or "contact_force[0]"
  std::string units;    // the dataset's `units` attribute ("" when it has none)
  std::vector<double> values;
};

// Opens an HDF5 file a user handed in, read-only; throws InputError naming it
// when it is missing, not HDF5, or cut short. `expected` ends the sentence
// ("an HDF5 trace written by dropsim run").
H5::H5File open_hdf5_input(const std::string& path, const std::string& expected);

// Whether `where` ("/energy/kinetic") names a dataset; false, not an
// exception, where a group on the way is missing.
bool dataset_exists(const H5::H5File& file, const std::string& where);

// The text of attribute `name` (which must exist) when it is one string,
// fixed or variable length; nullopt for any other type or shape. Nothing else
// is read: HDF5's C++ API reads variable-length strings into one pointer, so
// an attribute of two strings would write past it.
std::optional<std::string> single_text_attribute(const H5::H5Object& where, const std::string& name);

// Reads `spec` from the HDF5 file `path`: a 1-D dataset by path ("tau",
// "energy/kinetic") or one column of a 2-D dataset ("contact_force[0]").
// Throws InputError naming the file, the dataset and what is wrong (missing
// file, missing dataset, column out of range, not numeric).
Series read_series(const std::string& path, const std::string& spec);
// The same from a file already open; `path` names it in messages.
Series read_series(const H5::H5File& file, const std::string& path, const std::string& spec);

// A whole 1-D or 2-D numeric dataset ("contact_force", "energy/kinetic"),
// row-major; columns is 0 for a 1-D one. InputError as read_series.
struct Table {
  std::string units;
  std::size_t columns = 0;
  std::vector<double> values;
};
Table read_table(const H5::H5File& file, const std::string& path, const std::string& name);

// The attributes of the file's root group: the numeric scalars as numbers and
// the single strings as text; others are passed over.
struct RootAttributes {
  std::map<std::string, double> numbers;
  std::map<std::string, std::string> texts;
};
RootAttributes read_root_attributes(const H5::H5File& file);

}  // namespace dropsim::io
