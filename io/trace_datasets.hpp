// The datasets of an HDF5 trace (docs/interface.md#hdf5-traces) as a table:
// name (path in the file), the Trace column it holds, columns per row (0 for
// 1-D) and units, in the order io/hdf5_trace.cpp writes them. The Python
// module hands out these columns under these names.
#pragma once

#include <string>
#include <vector>

#include "dropsim/sim/trace.hpp"

namespace dropsim::io {

struct TraceDataset {
  std::string name;
  const std::vector<double>* data;
  std::size_t columns;  // 0: 1-D
  std::string units;
};

inline std::vector<TraceDataset> trace_datasets(const Trace& t) {
  const auto C = static_cast<std::size_t>(t.contacts);
  std::vector<TraceDataset> d = {{"time", &t.time, 0, "s"},
                                 {"tau", &t.tau, 0, "1"},
                                 {"force", &t.force, 0, "N"},
                                 {"force_normalized", &t.force_normalized, 0, "1"},
                                 {"contact_force", &t.contact_force, C, "N"},
                                 {"indentation", &t.indentation, C, "m"},
                                 {"indentation_relative", &t.indentation_relative, C, "1"},
                                 {"q", &t.q, static_cast<std::size_t>(t.nq), "m"},
                                 {"u", &t.u, static_cast<std::size_t>(t.nu), "m/s"}};
  if (!t.friction_force.empty()) {
    d.push_back({"friction_force", &t.friction_force, C, "N"});
    d.push_back({"slip_speed", &t.slip_speed, C, "m/s"});
  }
  d.push_back({"energy/kinetic", &t.kinetic, 0, "J"});
  d.push_back({"energy/potential", &t.potential, 0, "J"});
  d.push_back({"energy/elastic", &t.elastic, 0, "J"});
  d.push_back({"energy/dissipated", &t.dissipated, 0, "J"});
  return d;
}

}  // namespace dropsim::io
