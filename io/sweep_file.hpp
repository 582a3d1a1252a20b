// A sweep's summary on disk: one HDF5 file of rows (sweep_file.cpp), shards
// merged, and the slice files that let an interrupted sweep resume.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dropsim::io {

// One row of the summary file.
struct SweepRow {
  std::int64_t run = 0;  // index in the whole design
  std::vector<double> values;
  double equilibrium_indentation_relative = 0.0, peak_force_normalized = 0.0, tau_of_peak = 0.0,
         settling_time = 0.0;
  std::int8_t status = 0;  // 0 ok, 1 diverged
  std::int64_t steps = 0, rhs_evaluations = 0;
};

// The summary file. Root attributes record the base scenario, the design and
// which shard of how many the rows are ("0/1" for a whole sweep).
struct SweepFile {
  std::string base_scenario;  // JSON text of the base as given
  std::string kind;
  std::uint64_t seed = 0;
  std::vector<std::string> axes;  // specs as typed
  std::vector<std::string> pointers;
  std::int64_t total_runs = 0;
  std::string shard = "0/1";
  std::vector<SweepRow> rows;
};
void write_sweep_hdf5(const std::string& path, const SweepFile& sweep);  // atomic; throws IoError
SweepFile read_sweep_hdf5(const std::string& path);                      // throws InputError

// True when two summaries come from one sweep: same base, design and axes.
bool same_sweep(const SweepFile& a, const SweepFile& b);

// Joins shards of one sweep: same base and design, every run exactly once.
SweepFile merge_sweeps(const std::vector<SweepFile>& shards, const std::vector<std::string>& files);

// Checkpoints of a long sweep: each finished slice of consecutive runs is a
// complete summary file in the slice directory, so an interrupted sweep loses
// at most the slice it was running, and `--resume` runs only what is missing.
std::string slice_directory(const std::string& output);  // OUTPUT.slices
// `slice` (the sweep's attributes and a run of consecutive rows) as one file
// of `dir`, named after its runs; atomic; throws IoError.
void write_sweep_slice(const std::string& dir, const SweepFile& slice);
// The rows of every slice file in `dir` (none if it does not exist), in run
// order. Each must be a slice of `sweep` with runs in [first, last), no run
// twice; else InputError naming the file. Temporaries of a killed writer
// (dot files) are not slices and are passed over.
std::vector<SweepRow> read_sweep_slices(const std::string& dir, const SweepFile& sweep, std::size_t first,
                                        std::size_t last);
// The runs of [first, last) that no row covers, as [begin, end) ranges; rows in run order.
std::vector<std::pair<std::size_t, std::size_t>> missing_runs(const std::vector<SweepRow>& rows, std::size_t first,
                                                              std::size_t last);
// Once the summary is written: removes the slices, killed writers'
// temporaries and the directory; anything else in it stays, and so does the directory.
void remove_sweep_slices(const std::string& dir);

}  // namespace dropsim::io
