// UTF-8 string attributes, shared by the HDF5 writers (traces, sweep summaries).
#pragma once

#include <H5Cpp.h>

#include <string>

namespace dropsim::io {

// Variable-length UTF-8: what h5py reads back as str.
inline const H5::StrType& utf8_string() {
  static const H5::StrType type = [] {
    H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
    t.setCset(H5T_CSET_UTF8);
    return t;
  }();
  return type;
}

inline void string_attribute(H5::H5Object& where, const char* name, const std::string& value) {
  H5::Attribute a = where.createAttribute(name, utf8_string(), H5::DataSpace(H5S_SCALAR));
  a.write(utf8_string(), value);
}

}  // namespace dropsim::io
