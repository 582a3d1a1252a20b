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

// Creation properties of a dataset without a modification time, for files
// that must be byte for byte the same whenever their content is (a sweep
// summary, resumed or not; a trace, run twice).
H5::DSetCreatPropList untimed_dataset();
// A group created under `parent` without a modification time, for the same reason.
H5::Group untimed_group(H5::Group& parent, const char* name);

}  // namespace dropsim::io
