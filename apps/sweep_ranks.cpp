// MPI glue for `dropsim sweep`; without DROPSIM_HAVE_MPI every call is the one-process case.
#include "apps/sweep_ranks.hpp"

#include <cstdlib>

#ifdef DROPSIM_HAVE_MPI
#include <mpi.h>
#endif

namespace dropsim::app {

Ranks start_ranks() {
  Ranks r;
#ifdef DROPSIM_HAVE_MPI
  // Only under a launcher: a plain `dropsim sweep` must not need an MPI runtime.
  if (!std::getenv("OMPI_COMM_WORLD_SIZE") && !std::getenv("PMI_SIZE") && !std::getenv("PMIX_RANK")) return r;
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);  // workers never call MPI
  MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r.size);
#endif
  return r;
}

#ifdef DROPSIM_HAVE_MPI
namespace {
// A row as doubles: run, values, 4 metrics, status, steps, rhs (integers < 2^53 are exact).
constexpr std::size_t fixed_fields = 8;
}  // namespace
#endif

std::vector<io::SweepRow> gather_rows(const Ranks& ranks, std::vector<io::SweepRow> mine, std::size_t parameters) {
  if (ranks.size == 1) return mine;
#ifdef DROPSIM_HAVE_MPI
  const std::size_t width = fixed_fields + parameters;
  std::vector<double> packed;
  packed.reserve(mine.size() * width);
  for (const auto& r : mine) {
    packed.push_back(static_cast<double>(r.run));
    packed.insert(packed.end(), r.values.begin(), r.values.end());
    for (double v : {r.equilibrium_indentation_relative, r.peak_force_normalized, r.tau_of_peak, r.settling_time,
                     static_cast<double>(r.status), static_cast<double>(r.steps),
                     static_cast<double>(r.rhs_evaluations)})
      packed.push_back(v);
  }
  const int count = static_cast<int>(packed.size());
  std::vector<int> counts(static_cast<std::size_t>(ranks.size)), offsets(counts.size());
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<double> all;
  if (ranks.rank == 0) {
    for (std::size_t k = 1; k < counts.size(); ++k) offsets[k] = offsets[k - 1] + counts[k - 1];
    all.resize(static_cast<std::size_t>(offsets.back() + counts.back()));
  }
  MPI_Gatherv(packed.data(), count, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  std::vector<io::SweepRow> rows;
  for (std::size_t at = 0; at + width <= all.size(); at += width) {
    io::SweepRow r;
    const double* p = all.data() + at;
    r.run = static_cast<std::int64_t>(p[0]);
    r.values.assign(p + 1, p + 1 + parameters);
    p += 1 + parameters;
    r.equilibrium_indentation_relative = p[0];
    r.peak_force_normalized = p[1];
    r.tau_of_peak = p[2];
    r.settling_time = p[3];
    r.status = static_cast<std::int8_t>(p[4]);
    r.steps = static_cast<std::int64_t>(p[5]);
    r.rhs_evaluations = static_cast<std::int64_t>(p[6]);
    rows.push_back(std::move(r));
  }
  return rows;
#else
  (void)parameters;
  return mine;
#endif
}

long from_root(const Ranks& ranks, long value) {
#ifdef DROPSIM_HAVE_MPI
  if (ranks.size > 1) MPI_Bcast(&value, 1, MPI_LONG, 0, MPI_COMM_WORLD);
#endif
  (void)ranks;
  return value;
}

int max_over_ranks(const Ranks& ranks, int value) {
#ifdef DROPSIM_HAVE_MPI
  if (ranks.size > 1) {
    int worst = value;
    MPI_Allreduce(&value, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return worst;
  }
#endif
  (void)ranks;
  return value;
}

int finish_ranks(const Ranks& ranks, int code) {
#ifdef DROPSIM_HAVE_MPI
  if (ranks.size > 1 || std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK")) {
    const int worst = max_over_ranks(ranks, code);
    MPI_Finalize();
    return worst;
  }
#endif
  (void)ranks;
  return code;
}

}  // namespace dropsim::app
