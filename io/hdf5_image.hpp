// Every HDF5 file dropsim writes is built in memory and reaches the disk in one
// checked write (docs/reliability.md#output-is-complete-or-absent).
#pragma once

#include <H5Cpp.h>

#include <cstddef>
#include <functional>
#include <string>

namespace dropsim::io {

// Builds an HDF5 file with the core driver (memory, no backing store): HDF5
// itself never writes to disk, so none of its writes can fail halfway or go
// unreported from a destructor. `contents` fills the open file; the image then
// goes through AtomicFile's checked write, fsync and rename, so a full disk is
// an IoError naming `path` and the file is complete or absent. `expected_bytes`
// sizes the driver's first block (it grows in steps of that much).
void write_hdf5_file(const std::string& path, std::size_t expected_bytes,
                     const std::function<void(H5::H5File&)>& contents);

}  // namespace dropsim::io
