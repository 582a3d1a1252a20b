// Trace -> HDF5 file (docs/interface.md#hdf5-traces), written atomically.
#pragma once

#include <string>

#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/trace.hpp"

namespace dropsim::io {

// Writes `trace` of `scenario` to `path`; the file is complete or absent.
// Throws IoError.
void write_trace_hdf5(const std::string& path, const Scenario& scenario, const Trace& trace);

}  // namespace dropsim::io
