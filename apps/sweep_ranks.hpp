// Splitting a sweep across MPI ranks (optional build): which slice this process
// runs, and gathering every rank's rows on rank 0 in run order.
#pragma once

#include <cstddef>
#include <vector>

#include "dropsim/io/sweep.hpp"

namespace dropsim::app {

struct Ranks {
  int rank = 0, size = 1;  // one process without MPI or outside mpirun
};

// Initializes MPI when built with it and launched by mpirun; else {0, 1}.
Ranks start_ranks();
// Rank 0 receives all rows, in rank (= run) order; others get nothing back.
std::vector<io::SweepRow> gather_rows(const Ranks& ranks, std::vector<io::SweepRow> mine, std::size_t parameters);
// Collective: rank 0's value, on every rank.
long from_root(const Ranks& ranks, long value);
// Collective: the largest value over all ranks.
int max_over_ranks(const Ranks& ranks, int value);
// Collective: the worst exit code over all ranks; then finalizes MPI.
int finish_ranks(const Ranks& ranks, int code);

}  // namespace dropsim::app
