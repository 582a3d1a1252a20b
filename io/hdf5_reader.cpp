// HDF5 trace reader: dataset lookup, column selection and the `units` attribute, with errors users can act on.
#include "dropsim/io/hdf5_reader.hpp"

#include <H5Cpp.h>

#include <filesystem>
#include <optional>
#include <regex>

#include "dropsim/io/input_error.hpp"

namespace dropsim::io {

namespace {

struct Request {
  std::string name;  // dataset path inside the file
  std::optional<hsize_t> column;
};

Request parse_spec(const std::string& file, const std::string& spec) {
  static const std::regex with_column(R"(([^\[\]]+)\[([0-9]+)\])");
  std::smatch m;
  if (std::regex_match(spec, m, with_column)) return {m[1].str(), std::stoull(m[2].str())};
  if (spec.empty() || spec.find_first_of("[]") != std::string::npos)
    throw InputError(file, "/" + spec, "dataset must be NAME or NAME[COLUMN], e.g. contact_force[0]");
  return {spec, std::nullopt};
}

std::string dataset_path(const std::string& name) { return name.front() == '/' ? name : "/" + name; }

std::string units_attribute(const H5::H5Object& where, const std::string& file, const std::string& path) {
  const std::optional<std::string> units = single_text_attribute(where, "units");
  if (!units) throw InputError(file, path, "its units attribute must be text, one string");
  return *units;
}

}  // namespace

// H5Lexists fails rather than answers when an intermediate group is missing: walk the path.
bool dataset_exists(const H5::H5File& file, const std::string& where) {
  for (std::size_t slash = where.find('/', 1);; slash = where.find('/', slash + 1)) {
    const std::string prefix = where.substr(0, slash);
    if (!file.nameExists(prefix)) return false;
    if (slash == std::string::npos) return file.childObjType(prefix) == H5O_TYPE_DATASET;
    if (file.childObjType(prefix) != H5O_TYPE_GROUP) return false;
  }
}

std::optional<std::string> single_text_attribute(const H5::H5Object& where, const std::string& name) {
  H5::Attribute a = where.openAttribute(name);
  if (a.getTypeClass() != H5T_STRING) return std::nullopt;
  const H5::DataSpace space = a.getSpace();
  const H5S_class_t shape = space.getSimpleExtentType();
  if (shape == H5S_NULL || space.getSimpleExtentNpoints() != 1) return std::nullopt;
  std::string value;
  a.read(a.getStrType(), value);
  return value;
}

H5::H5File open_hdf5_input(const std::string& path, const std::string& expected) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError(path, "", "no such file (expected " + expected + ")");
  // isHdf5 throws rather than answers on a file it cannot read at all: that is "not HDF5" too.
  bool hdf5 = false;
  try {
    hdf5 = H5::H5File::isHdf5(path) > 0;
  } catch (const H5::Exception&) {
  }
  if (!hdf5) throw InputError(path, "", "not an HDF5 file (expected " + expected + ")");
  try {
    return H5::H5File(path, H5F_ACC_RDONLY);
  } catch (const H5::Exception&) {
    // The signature is there but the rest is not: a file cut short, or damaged.
    throw InputError(path, "", "not an HDF5 file that opens (truncated or damaged)");
  }
}

Series read_series(const std::string& path, const std::string& spec) {
  H5::Exception::dontPrint();
  return read_series(open_hdf5_input(path, "an HDF5 trace written by dropsim run"), path, spec);
}

Series read_series(const H5::H5File& file, const std::string& path, const std::string& spec) {
  const Request req = parse_spec(path, spec);
  const std::string where = dataset_path(req.name);
  H5::Exception::dontPrint();
  try {
    if (!dataset_exists(file, where))
      throw InputError(path, where, "no such dataset in the trace");
    H5::DataSet d = file.openDataSet(where);
    if (d.getTypeClass() != H5T_FLOAT && d.getTypeClass() != H5T_INTEGER)
      throw InputError(path, where, "dataset is not numeric");
    H5::DataSpace space = d.getSpace();
    const int rank = space.getSimpleExtentNdims();
    hsize_t dims[2] = {0, 0};
    if (rank < 1 || rank > 2) throw InputError(path, where, "dataset must be 1-D or 2-D (got rank " + std::to_string(rank) + ")");
    space.getSimpleExtentDims(dims);

    Series s;
    s.dataset = spec;
    s.units = d.attrExists("units") ? units_attribute(d, path, where) : "";
    if (rank == 1) {
      if (req.column) throw InputError(path, where, "dataset is 1-D; drop the [column]");
      s.values.resize(dims[0]);
      if (dims[0] > 0) d.read(s.values.data(), H5::PredType::NATIVE_DOUBLE);
      return s;
    }
    if (!req.column)
      throw InputError(path, where, "dataset is 2-D with " + std::to_string(dims[1]) + " columns; choose one, e.g. " +
                                        req.name + "[0]");
    if (*req.column >= dims[1])
      throw InputError(path, where, "column " + std::to_string(*req.column) + " out of range (the dataset has " +
                                        std::to_string(dims[1]) + " columns)");
    // Select the column as an N x 1 hyperslab.
    const hsize_t start[2] = {0, *req.column}, count[2] = {dims[0], 1};
    space.selectHyperslab(H5S_SELECT_SET, count, start);
    H5::DataSpace memory(1, &dims[0]);
    s.values.resize(dims[0]);
    if (dims[0] > 0) d.read(s.values.data(), H5::PredType::NATIVE_DOUBLE, memory, space);
    return s;
  } catch (const H5::Exception& e) {
    throw InputError(path, where, "cannot read: " + e.getDetailMsg());
  }
}

}  // namespace dropsim::io

namespace dropsim::io {

Table read_table(const H5::H5File& file, const std::string& path, const std::string& name) {
  const std::string where = "/" + name;
  H5::Exception::dontPrint();
  try {
    if (!dataset_exists(file, where)) throw InputError(path, where, "no such dataset in the trace");
    H5::DataSet d = file.openDataSet(where);
    if (d.getTypeClass() != H5T_FLOAT && d.getTypeClass() != H5T_INTEGER)
      throw InputError(path, where, "dataset is not numeric");
    H5::DataSpace space = d.getSpace();
    const int rank = space.getSimpleExtentNdims();
    if (rank < 1 || rank > 2) throw InputError(path, where, "dataset must be 1-D or 2-D (got rank " + std::to_string(rank) + ")");
    hsize_t dims[2] = {0, 0};
    space.getSimpleExtentDims(dims);
    Table t;
    t.units = d.attrExists("units") ? units_attribute(d, path, where) : "";
    t.columns = rank == 2 ? dims[1] : 0;
    t.values.resize(rank == 2 ? dims[0] * dims[1] : dims[0]);
    if (!t.values.empty()) d.read(t.values.data(), H5::PredType::NATIVE_DOUBLE);
    return t;
  } catch (const H5::Exception& e) {
    throw InputError(path, where, "cannot read: " + e.getDetailMsg());
  }
}

RootAttributes read_root_attributes(const H5::H5File& file) {
  RootAttributes out;
  const H5::Group root = file.openGroup("/");
  const int n = root.getNumAttrs();
  for (int i = 0; i < n; ++i) {
    const H5::Attribute a = root.openAttribute(static_cast<unsigned>(i));
    const std::string name = a.getName();
    const H5T_class_t type = a.getTypeClass();
    if ((type == H5T_FLOAT || type == H5T_INTEGER) && a.getSpace().getSimpleExtentNdims() == 0) {
      double v = 0.0;
      a.read(H5::PredType::NATIVE_DOUBLE, &v);
      out.numbers[name] = v;
    } else if (type == H5T_STRING) {
      if (auto text = single_text_attribute(root, name)) out.texts[name] = *text;
    }
  }
  return out;
}

}  // namespace dropsim::io
