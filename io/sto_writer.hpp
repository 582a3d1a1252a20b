// Trace -> OpenSim Storage (.sto) text file, for users who load results in OpenSim or its scripts.
#pragma once

#include <ostream>
#include <string>

#include "dropsim/sim/trace.hpp"

namespace dropsim::io {

// Writes the Storage format OpenSim's Storage/TimeSeriesTable read: a header
// (name, version=1, nRows, nColumns counting `time`, inDegrees=no, endheader),
// one tab-separated label row with `time` first, then one row per sample.
// Columns, labelled the way OpenSim's reporters label them for a body `body`
// on a vertical slider joint `drop` with a HuntCrossleyForce `contact`:
// /jointset/drop/body_ty/value and /speed (the q and u), then
// contact.body.force.X/Y/Z (the total contact force on the body, +Y up) and
// contact.ground.force.X/Y/Z (its reaction on the ground).
void write_trace_sto(std::ostream& out, const std::string& name, const Trace& trace);

// The same, to `path`, complete or absent (AtomicFile). Throws IoError.
void write_trace_sto_file(const std::string& path, const std::string& name, const Trace& trace);

}  // namespace dropsim::io
