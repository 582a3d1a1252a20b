// OpenSim Storage export of a drop trace.
#include "dropsim/io/sto_writer.hpp"
#include "dropsim/integrators/check.hpp"

#include <array>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "dropsim/io/atomic_file.hpp"
#include "dropsim/io/io_error.hpp"

namespace dropsim::io {

void write_trace_sto(std::ostream& out, const std::string& name, const Trace& trace) {
  static constexpr std::array labels{"time",
                                     "/jointset/drop/body_ty/value",
                                     "/jointset/drop/body_ty/speed",
                                     "contact.body.force.X",
                                     "contact.body.force.Y",
                                     "contact.body.force.Z",
                                     "contact.ground.force.X",
                                     "contact.ground.force.Y",
                                     "contact.ground.force.Z"};
  const std::size_t n = trace.samples();
  DROPSIM_CHECK(trace.force.size() == n,
                "write_trace_sto: the trace's force column is not derived (derive_columns() first)");
  out << name << "\nversion=1\nnRows=" << n << "\nnColumns=" << labels.size() << "\ninDegrees=no\nendheader\n";
  for (std::size_t c = 0; c < labels.size(); ++c) out << (c ? "\t" : "") << labels[c];
  out << "\n";
  char cell[32];
  for (std::size_t i = 0; i < n; ++i) {
    const std::array<double, labels.size()> row{trace.time[i], trace.q[i * trace.nq], trace.u[i * trace.nu], 0.0,
                                                trace.force[i], 0.0, 0.0, -trace.force[i], 0.0};
    for (std::size_t c = 0; c < row.size(); ++c) {
      std::snprintf(cell, sizeof cell, "%.17g", row[c] == 0.0 ? 0.0 : row[c]);  // no "-0"
      out << (c ? "\t" : "") << cell;
    }
    out << "\n";
  }
}

void write_trace_sto_file(const std::string& path, const std::string& name, const Trace& trace) {
  write_file_atomically(path, [&](AtomicFile& file) {
    std::ofstream out(file.temporary_path(), std::ios::binary);
    if (!out) throw IoError(path, "cannot open for writing");
    write_trace_sto(out, name, trace);
    out.flush();
    if (!out) throw IoError(path, "write failed (disk full?)");
  });
}

}  // namespace dropsim::io
