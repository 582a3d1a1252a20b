// `dropsim compare A B [A2 B2 ...]`: align B on A's x grid and report how far the curves differ. Each side is
// an HDF5 trace or an OpenSim storage file (.sto, .mot) whose column --label names.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

#include "apps/commands.hpp"
#include "dropsim/io/curve_pair.hpp"
#include "dropsim/io/input_error.hpp"
#include "dropsim/sim/trace_compare.hpp"

namespace dropsim::app {

namespace {

struct CompareOptions {
  std::vector<std::string> files;
  io::CurveSpec curve;
  std::string label;  // the column of a storage file (default: --y)
  Tolerance tol;
  bool json = false;
};

struct Pair {
  std::string a, b, units;
  Comparison c;
};

// Reads both curves of one pair and compares them; bad input throws InputError.
Pair compare_pair(const std::string& a, const std::string& b, const CompareOptions& o) {
  H5::Exception::dontPrint();
  const io::Curve ca = io::read_curve_file(a, o.curve, o.label);
  const io::Curve cb = io::read_curve_file(b, o.curve, o.label);
  const io::ComparedPair r = io::compare_curve_pair(a, ca, b, cb, o.curve, o.tol);
  return {a, b, r.units, r.c};
}

void print_line(const Pair& p, const CompareOptions& o) {
  const Comparison& c = p.c;
  const char* x = o.curve.x.c_str();
  std::printf("%s %s vs %s: %s [%s] on %s, overlap [%.6g, %.6g] (%zu A samples): max |diff| %.3g at %s = %.6g, "
              "rms %.3g, peak %.9g at %s = %.6g vs %.9g at %.6g (diff %.3g, position diff %.3g), final diff %.3g",
              c.within_tolerance() ? "ok  " : "FAIL", p.a.c_str(), p.b.c_str(), o.curve.y.c_str(), p.units.c_str(), x,
              c.overlap_begin, c.overlap_end, c.samples, c.max_abs_diff, x, c.x_of_max, c.rms_diff, c.peak_a, x,
              c.x_peak_a, c.peak_b, c.x_peak_b, c.peak_a - c.peak_b, c.x_peak_a - c.x_peak_b, c.final_diff);
  if (!c.within_tolerance())
    std::printf("; %zu samples beyond atol %.3g + rtol %.3g, first at %s = %.9g", c.failing_samples, o.tol.atol,
                o.tol.rtol, x, c.x_first_failure);
  std::printf("\n");
}

nlohmann::json to_json(const Pair& p) {
  const Comparison& c = p.c;
  return {{"a", p.a},
          {"b", p.b},
          {"units", p.units},
          {"overlap", {c.overlap_begin, c.overlap_end}},
          {"samples", c.samples},
          {"max_abs_diff", c.max_abs_diff},
          {"x_of_max", c.x_of_max},
          {"rms_diff", c.rms_diff},
          {"peak_a", c.peak_a},
          {"x_peak_a", c.x_peak_a},
          {"peak_b", c.peak_b},
          {"x_peak_b", c.x_peak_b},
          {"peak_diff", c.peak_a - c.peak_b},
          {"peak_position_diff", c.x_peak_a - c.x_peak_b},
          {"final_diff", c.final_diff},
          {"failing_samples", c.failing_samples},
          {"x_first_failure", c.failing_samples ? nlohmann::json(c.x_first_failure) : nlohmann::json(nullptr)},
          {"within_tolerance", c.within_tolerance()}};
}

int compare_all(const CompareOptions& o) {
  if (o.files.size() % 2 != 0)
    throw io::InputError(o.files.back(), "", "has no partner: compare takes pairs A.h5 B.h5 [A2.h5 B2.h5 ...]");
  // Read and compare everything before printing: bad input prints no results.
  std::vector<Pair> pairs;
  for (std::size_t i = 0; i < o.files.size(); i += 2) pairs.push_back(compare_pair(o.files[i], o.files[i + 1], o));
  bool ok = true;
  for (const auto& p : pairs) ok = ok && p.c.within_tolerance();
  if (o.json) {
    nlohmann::json out = {{"x", o.curve.x}, {"y", o.curve.y}, {"atol", o.tol.atol}, {"rtol", o.tol.rtol},
                          {"within_tolerance", ok}, {"pairs", nlohmann::json::array()}};
    for (const auto& p : pairs) out["pairs"].push_back(to_json(p));
    std::cout << out.dump(2) << "\n";
  } else {
    for (const auto& p : pairs) print_line(p, o);
  }
  return ok ? exit_ok : exit_check_failed;
}

}  // namespace

void add_compare_command(CLI::App& app, Runner& run) {
  auto o = std::make_shared<CompareOptions>();
  CLI::App* cmd = app.add_subcommand("compare", "compare traces: B interpolated onto A's x grid over their overlap");
  cmd->add_option("files", o->files, "pairs A B [A2 B2 ...], each an HDF5 trace or an OpenSim .sto/.mot file")
      ->required()
      ->expected(2, -1);
  cmd->add_option("--x", o->curve.x, "x axis: tau (default) or time")->check(CLI::IsMember({"tau", "time"}));
  cmd->add_option("--y", o->curve.y, "dataset: any 1-D one, or NAME[COLUMN] of a 2-D one (default force_normalized)");
  cmd->add_option("--label", o->label,
                  "column label of a .sto/.mot side (default: --y); its x is the column labelled as --x (time)");
  cmd->add_option("--atol", o->tol.atol, "absolute tolerance (default 1e-6)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--rtol", o->tol.rtol, "relative tolerance, times |A| (default 0)")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->callback([o, &run] { run = [o] { return compare_all(*o); }; });
}

}  // namespace dropsim::app
