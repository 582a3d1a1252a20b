// The sweep summary file: written atomically, read back with every failure
// named, shards merged, slices written and read for --resume.
#include "dropsim/io/sweep_file.hpp"

#include <H5Cpp.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>

#include "dropsim/io/hdf5_image.hpp"
#include "dropsim/io/hdf5_reader.hpp"
#include "dropsim/io/hdf5_strings.hpp"
#include "dropsim/io/input_error.hpp"
#include "dropsim/io/io_error.hpp"

namespace dropsim::io {

using nlohmann::json;

namespace {

template <class T>
const H5::PredType& h5_type() {
  if constexpr (std::is_same_v<T, double>) return H5::PredType::NATIVE_DOUBLE;
  else if constexpr (std::is_same_v<T, std::int64_t>) return H5::PredType::NATIVE_INT64;
  else return H5::PredType::NATIVE_INT8;
}

// Without modification times: a resumed sweep's summary equals an uninterrupted one's byte for byte.
template <class T>
void column(H5::H5File& file, const char* name, const std::vector<T>& data, hsize_t columns, const char* units) {
  const hsize_t rows = columns ? data.size() / columns : data.size();
  const hsize_t dims[2] = {rows, columns};
  H5::DataSet d = file.createDataSet(name, h5_type<T>(), H5::DataSpace(columns ? 2 : 1, dims), untimed_dataset());
  if (!data.empty()) d.write(data.data(), h5_type<T>());
  string_attribute(d, "units", units);
}

// A sweep summary opened for reading; every failure names the file, the
// object and the rule (a shard comes from elsewhere and may be anything).
class SweepReader {
 public:
  explicit SweepReader(const std::string& path)
      : path_(path),
        file_(open_hdf5_input(path, "a sweep summary written by dropsim sweep")),
        root_(file_.openGroup("/")) {}

  std::string text(const char* name) const {
    if (!root_.attrExists(name)) fail("/", "attribute \"" + std::string(name) + "\" is missing");
    const std::optional<std::string> value = single_text_attribute(root_, name);
    if (!value) fail("/", "attribute \"" + std::string(name) + "\" must be text, one string");
    return *value;
  }
  // A whole number in [lowest, 2^64): the seed takes any uint64, counts are
  // checked against int64 by their callers.
  std::uint64_t whole_number(const char* name, std::uint64_t lowest) const {
    const std::string t = text(name);
    std::size_t used = 0;
    unsigned long long v = 0;
    try {
      if (!t.empty() && t.front() != '-') v = std::stoull(t, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != t.size() || v < lowest)
      fail("/", "attribute \"" + std::string(name) + "\" must be a whole number >= " + std::to_string(lowest) +
                    " (got \"" + t + "\")");
    return v;
  }
  std::vector<std::string> text_list(const char* name) const {
    const json j = json::parse(text(name), nullptr, false);
    if (!j.is_array() || !std::all_of(j.begin(), j.end(), [](const json& e) { return e.is_string(); }))
      fail("/", "attribute \"" + std::string(name) + "\" must be a JSON list of strings");
    return j.get<std::vector<std::string>>();
  }

  // A column of `rows` rows (and `columns` columns when > 0) of T's kind.
  template <class T>
  std::vector<T> column(const char* name, std::size_t rows, std::size_t columns) const {
    const std::string where = "/" + std::string(name);
    const H5::DataSet d = dataset(where);
    const H5T_class_t kind = d.getTypeClass();
    if (std::is_integral_v<T> ? kind != H5T_INTEGER : (kind != H5T_FLOAT && kind != H5T_INTEGER))
      fail(where, std::is_integral_v<T> ? "must hold integers" : "must hold numbers");
    const H5::DataSpace space = d.getSpace();
    const int rank = space.getSimpleExtentNdims();
    if (rank != (columns > 0 ? 2 : 1)) fail(where, columns > 0 ? "must be 2-D" : "must be 1-D");
    hsize_t dims[2] = {0, 0};
    space.getSimpleExtentDims(dims);
    if (dims[0] != rows) fail(where, "has " + std::to_string(dims[0]) + " rows, expected " + std::to_string(rows) + " (as /run)");
    if (columns > 0 && dims[1] != columns)
      fail(where, "has " + std::to_string(dims[1]) + " columns, expected " + std::to_string(columns) +
                      " (one per parameter path)");
    std::vector<T> out(rows * std::max<std::size_t>(columns, 1));
    if (!out.empty()) d.read(out.data(), h5_type<T>());
    return out;
  }
  std::size_t rows(const char* name) const {
    const std::string where = "/" + std::string(name);
    const H5::DataSpace space = dataset(where).getSpace();
    if (space.getSimpleExtentNdims() != 1) fail(where, "must be 1-D");
    hsize_t n = 0;
    space.getSimpleExtentDims(&n);
    return n;
  }

  H5::DataSet dataset(const std::string& where) const {
    if (!dataset_exists(file_, where)) fail(where, "no such dataset");
    return file_.openDataSet(where);
  }

  [[noreturn]] void fail(const std::string& where, const std::string& rule) const {
    throw InputError(path_, where, rule + " (expected a sweep summary written by dropsim sweep)");
  }

 private:
  std::string path_;
  H5::H5File file_;
  H5::Group root_;
};

// `json(texts).dump()` without a json array: destroying one allocates
// (nlohmann's destructor keeps a stack), and a destructor that cannot
// allocate ends the process; a writer must fail with a sentence instead.
std::string json_text_list(const std::vector<std::string>& texts) {
  std::string list = "[";
  for (const std::string& t : texts) list += (list.size() > 1 ? "," : "") + json(t).dump();
  return list + "]";
}

}  // namespace

void write_sweep_hdf5(const std::string& path, const SweepFile& s) {
  const std::size_t rows = s.rows.size() * (8 + s.pointers.size());
  write_hdf5_file(path, sizeof(double) * rows + (1 << 16), [&](H5::H5File& file) {
    const std::size_t n = s.rows.size(), p = s.pointers.size();
    std::vector<std::int64_t> run(n), steps(n), rhs(n);
    std::vector<std::int8_t> status(n);
    std::vector<double> values(n * p), xh(n), peak(n), tau(n), settle(n);
    for (std::size_t i = 0; i < n; ++i) {
      const SweepRow& r = s.rows[i];
      run[i] = r.run;
      std::copy(r.values.begin(), r.values.end(), values.begin() + static_cast<long>(i * p));
      xh[i] = r.equilibrium_indentation_relative;
      peak[i] = r.peak_force_normalized;
      tau[i] = r.tau_of_peak;
      settle[i] = r.settling_time;
      status[i] = r.status;
      steps[i] = r.steps;
      rhs[i] = r.rhs_evaluations;
    }
    column(file, "run", run, 0, "1");
    column(file, "parameters", values, p, "as in the scenario");
    column(file, "equilibrium_indentation_relative", xh, 0, "1");
    column(file, "peak_force_normalized", peak, 0, "1");
    column(file, "tau_of_peak", tau, 0, "1");
    column(file, "settling_time", settle, 0, "s");
    column(file, "status", status, 0, "0 ok, 1 diverged");
    column(file, "steps", steps, 0, "1");
    column(file, "rhs_evaluations", rhs, 0, "1");
    H5::Group root = file.openGroup("/");
    string_attribute(root, "dropsim_version", DROPSIM_VERSION);
    string_attribute(root, "base_scenario", s.base_scenario);
    string_attribute(root, "design", s.kind);
    string_attribute(root, "seed", std::to_string(s.seed));
    string_attribute(root, "axes", json_text_list(s.axes));
    string_attribute(root, "parameter_paths", json_text_list(s.pointers));
    string_attribute(root, "total_runs", std::to_string(s.total_runs));
    string_attribute(root, "shard", s.shard);
    string_attribute(root, "settling_band", "|F/(Mg) - 1| <= 0.02");
  });
}

SweepFile read_sweep_hdf5(const std::string& path) {
  H5::Exception::dontPrint();
  SweepFile s;
  try {
    const SweepReader r(path);
    s.base_scenario = r.text("base_scenario");
    s.kind = r.text("design");
    s.seed = r.whole_number("seed", 0);
    s.axes = r.text_list("axes");
    s.pointers = r.text_list("parameter_paths");
    const std::uint64_t total = r.whole_number("total_runs", 1);
    if (total > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      r.fail("/", "attribute \"total_runs\" is beyond any sweep (got " + std::to_string(total) + ")");
    s.total_runs = static_cast<std::int64_t>(total);
    s.shard = r.text("shard");
    const std::size_t n = r.rows("run"), p = s.pointers.size();
    // Before anything is allocated by a size the file claims.
    if (n > static_cast<std::uint64_t>(s.total_runs))
      r.fail("/run", "has " + std::to_string(n) + " rows, more than the sweep's " + std::to_string(s.total_runs) + " runs");
    const auto run = r.column<std::int64_t>("run", n, 0);
    const auto values = r.column<double>("parameters", n, p);
    const auto xh = r.column<double>("equilibrium_indentation_relative", n, 0);
    const auto peak = r.column<double>("peak_force_normalized", n, 0);
    const auto tau = r.column<double>("tau_of_peak", n, 0);
    const auto settle = r.column<double>("settling_time", n, 0);
    const auto status = r.column<std::int8_t>("status", n, 0);
    const auto steps = r.column<std::int64_t>("steps", n, 0);
    const auto rhs = r.column<std::int64_t>("rhs_evaluations", n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (run[i] < 0 || run[i] >= s.total_runs)
        r.fail("/run", "run " + std::to_string(run[i]) + " is outside the sweep's 0 to " +
                           std::to_string(s.total_runs - 1));
      if (status[i] != 0 && status[i] != 1)
        r.fail("/status", "row " + std::to_string(i) + " is " + std::to_string(status[i]) +
                              "; a status must be 0 (ok) or 1 (diverged)");
      SweepRow row;
      row.run = run[i];
      row.values.assign(values.begin() + static_cast<long>(i * p), values.begin() + static_cast<long>((i + 1) * p));
      row.equilibrium_indentation_relative = xh[i];
      row.peak_force_normalized = peak[i];
      row.tau_of_peak = tau[i];
      row.settling_time = settle[i];
      row.status = status[i];
      row.steps = steps[i];
      row.rhs_evaluations = rhs[i];
      s.rows.push_back(std::move(row));
    }
  } catch (const H5::Exception& e) {
    throw InputError(path, "", "cannot read the sweep summary: " + e.getDetailMsg());
  }
  return s;
}

bool same_sweep(const SweepFile& a, const SweepFile& b) {
  return a.base_scenario == b.base_scenario && a.kind == b.kind && a.seed == b.seed && a.axes == b.axes &&
         a.pointers == b.pointers && a.total_runs == b.total_runs;
}

SweepFile merge_sweeps(const std::vector<SweepFile>& shards, const std::vector<std::string>& files) {
  if (shards.empty()) throw InputError("merge", "", "no shard files given");
  SweepFile out = shards.front();
  out.rows.clear();
  out.shard = "0/1";
  std::vector<std::pair<std::int64_t, std::size_t>> origin;  // (run, shard index) per row
  for (std::size_t k = 0; k < shards.size(); ++k) {
    const SweepFile& s = shards[k];
    if (!same_sweep(s, out))
      throw InputError(files[k], "", "is a shard of a different sweep than " + files.front() +
                                         " (base scenario, design or axes differ)");
    out.rows.insert(out.rows.end(), s.rows.begin(), s.rows.end());
    for (const SweepRow& r : s.rows) origin.emplace_back(r.run, k);
  }
  std::stable_sort(out.rows.begin(), out.rows.end(), [](const SweepRow& a, const SweepRow& b) { return a.run < b.run; });
  std::stable_sort(origin.begin(), origin.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < out.rows.size(); ++i) {
    if (out.rows[i].run == static_cast<std::int64_t>(i)) continue;
    if (out.rows[i].run < static_cast<std::int64_t>(i))  // the second of two rows with one run
      throw InputError(files[origin[i].second], "/run", "run " + std::to_string(out.rows[i].run) +
                                                            " appears twice: it is in " + files[origin[i - 1].second] +
                                                            " too");
    throw InputError(files.front(), "/run", "the shards do not cover the sweep: run " + std::to_string(i) + " is missing");
  }
  if (static_cast<std::int64_t>(out.rows.size()) != out.total_runs)
    throw InputError(files.front(), "/run",
                     "the shards do not cover the sweep: runs " + std::to_string(out.rows.size()) + " to " +
                         std::to_string(out.total_runs - 1) + " are missing");
  return out;
}

std::string slice_directory(const std::string& output) { return output + ".slices"; }

namespace {

namespace fs = std::filesystem;

// "runs_000000100-000000200.h5" holds runs 100 to 199.
std::string slice_name(std::size_t first, std::size_t last) {
  char name[64];
  std::snprintf(name, sizeof name, "runs_%09zu-%09zu.h5", first, last);
  return name;
}
// The runs a slice file's name claims; std::nullopt for any other name.
std::optional<std::pair<std::size_t, std::size_t>> slice_runs(const std::string& name) {
  std::size_t first = 0, last = 0;
  int used = 0;
  if (std::sscanf(name.c_str(), "runs_%zu-%zu.h5%n", &first, &last, &used) != 2 ||
      used != static_cast<int>(name.size()) || name != slice_name(first, last) || first >= last)
    return std::nullopt;
  return std::make_pair(first, last);
}
bool is_temporary(const std::string& name) { return name.front() == '.' && name.find(".tmp-") != std::string::npos; }

}  // namespace

void write_sweep_slice(const std::string& dir, const SweepFile& slice) {
  if (slice.rows.empty()) return;
  const auto first = static_cast<std::size_t>(slice.rows.front().run);
  write_sweep_hdf5((fs::path(dir) / slice_name(first, first + slice.rows.size())).string(), slice);
}

std::vector<SweepRow> read_sweep_slices(const std::string& dir, const SweepFile& sweep, std::size_t first,
                                        std::size_t last) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return {};
  if (!fs::is_directory(dir, ec)) throw InputError(dir, "", "is not a directory of sweep slices");
  std::vector<SweepRow> rows;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string(), file = entry.path().string();
    if (is_temporary(name)) continue;
    const auto runs = slice_runs(name);
    if (!runs) throw InputError(file, "", "is not a slice written by dropsim sweep (runs_FIRST-END.h5); move it "
                                          "out of " + dir + " to resume");
    SweepFile slice = read_sweep_hdf5(file);
    if (!same_sweep(slice, sweep))
      throw InputError(file, "", "is a slice of a different sweep (base scenario, design or axes differ): remove " +
                                     dir + " to start this one afresh");
    if (runs->first < first || runs->second > last)
      throw InputError(file, "", "holds runs outside this shard's " + std::to_string(first) + " to " +
                                     std::to_string(last - 1));
    bool as_named = slice.rows.size() == runs->second - runs->first;
    for (std::size_t i = 0; as_named && i < slice.rows.size(); ++i)
      as_named = slice.rows[i].run == static_cast<std::int64_t>(runs->first + i);
    if (!as_named)
      throw InputError(file, "/run", "does not hold runs " + std::to_string(runs->first) + " to " +
                                         std::to_string(runs->second - 1) + " in order, as its name says");
    std::move(slice.rows.begin(), slice.rows.end(), std::back_inserter(rows));
  }
  std::sort(rows.begin(), rows.end(), [](const SweepRow& a, const SweepRow& b) { return a.run < b.run; });
  for (std::size_t i = 1; i < rows.size(); ++i)
    if (rows[i].run == rows[i - 1].run)
      throw InputError(dir, "", "two slices hold run " + std::to_string(rows[i].run) + "; remove the directory to start afresh");
  return rows;
}

std::vector<std::pair<std::size_t, std::size_t>> missing_runs(const std::vector<SweepRow>& rows, std::size_t first,
                                                              std::size_t last) {
  std::vector<std::pair<std::size_t, std::size_t>> gaps;
  std::size_t next = first;
  for (const SweepRow& r : rows) {
    const auto run = static_cast<std::size_t>(r.run);
    if (run > next) gaps.emplace_back(next, run);
    next = std::max(next, run + 1);
  }
  if (next < last) gaps.emplace_back(next, last);
  return gaps;
}

void remove_sweep_slices(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (slice_runs(name) || is_temporary(name)) fs::remove(entry.path(), ec);
  }
  fs::remove(dir, ec);  // only if empty
}

}  // namespace dropsim::io
