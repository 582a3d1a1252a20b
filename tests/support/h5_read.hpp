// Reading dropsim's HDF5 traces back in tests with the HDF5 C API (independent of the writer's C++ code).
#pragma once

#include <hdf5.h>

#include <string>
#include <vector>

namespace dropsim::test {

// Paths of every dataset in the file, e.g. "/time", "/energy/kinetic".
inline std::vector<std::string> dataset_paths(hid_t file) {
  std::vector<std::string> paths;
  H5Ovisit(
      file, H5_INDEX_NAME, H5_ITER_NATIVE,
      [](hid_t, const char* name, const H5O_info_t* info, void* out) -> herr_t {
        if (info->type == H5O_TYPE_DATASET) static_cast<std::vector<std::string>*>(out)->push_back("/" + std::string(name));
        return 0;
      },
      &paths);
  return paths;
}

// All values of a double dataset, row-major.
inline std::vector<double> read_doubles(hid_t file, const std::string& path) {
  const hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  const hid_t space = H5Dget_space(d);
  std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  if (!v.empty()) H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(space);
  H5Dclose(d);
  return v;
}

// A root attribute of doubles (scalar or 1-D).
inline std::vector<double> read_double_attribute(hid_t file, const char* name) {
  const hid_t a = H5Aopen(file, name, H5P_DEFAULT);
  const hid_t space = H5Aget_space(a);
  std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  H5Aread(a, H5T_NATIVE_DOUBLE, v.data());
  H5Sclose(space);
  H5Aclose(a);
  return v;
}

// A variable-length string root attribute.
inline std::string read_string_attribute(hid_t file, const char* name) {
  const hid_t a = H5Aopen(file, name, H5P_DEFAULT);
  const hid_t type = H5Aget_type(a);
  char* s = nullptr;
  H5Aread(a, type, &s);
  std::string out = s ? s : "";
  H5free_memory(s);
  H5Tclose(type);
  H5Aclose(a);
  return out;
}

}  // namespace dropsim::test
