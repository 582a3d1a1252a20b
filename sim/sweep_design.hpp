// Sweep designs: the points of a parameter sweep over named axes, cartesian or Latin hypercube.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dropsim {

// START to STOP in COUNT values (log-spaced for log axes) of one parameter,
// named by a JSON pointer into the base scenario.
struct SweepAxis {
  std::string spec;  // as typed, PATH=START:STOP:COUNT[:log]
  std::string pointer;
  double start = 0.0, stop = 0.0;
  long count = 1;
  bool log = false;
};

// The runs of a sweep: values[run][axis], in a fixed order.
struct SweepDesign {
  std::string kind;        // "cartesian" or "latin_hypercube"
  std::uint64_t seed = 0;  // latin_hypercube only
  std::vector<SweepAxis> axes;
  std::vector<std::vector<double>> values;
};

// Cartesian product, the last axis varying fastest.
SweepDesign cartesian_design(std::vector<SweepAxis> axes);
// `samples` (>= 1) points, one per stratum of every axis (log axes stratified
// in log space), from a fixed-seed generator: the same seed gives the same design.
SweepDesign latin_hypercube_design(std::vector<SweepAxis> axes, long samples, std::uint64_t seed);

}  // namespace dropsim
