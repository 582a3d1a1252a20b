// The reporter and the summary (report.hpp).
#include "bench/work_precision/report.hpp"

#include <sys/utsname.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <thread>

#include "bench/work_precision/families.hpp"

namespace work_precision {

double hdf5_write_only_seconds = -1.0;

void Collector::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& r : runs) {
    if (r.run_type != Run::RT_Iteration || r.error_occurred) continue;
    // CPU time: the machines are shared, and wall time there measures the neighbours. Of repeated
    // timings (--benchmark_repetitions) the fastest: a neighbour only ever slows a timing.
    const double seconds = r.cpu_accumulated_time / static_cast<double>(r.iterations);
    if (r.counters.count("hdf5_write_only")) {
      if (hdf5_write_only_seconds < 0.0 || seconds < hdf5_write_only_seconds) hdf5_write_only_seconds = seconds;
      continue;
    }
    const auto it = r.counters.find("config");
    if (it == r.counters.end()) continue;
    Config& c = configs[static_cast<std::size_t>(it->second.value)];
    if (c.measured && c.seconds <= seconds) continue;
    c.seconds = seconds;
    c.wall_seconds = r.real_accumulated_time / static_cast<double>(r.iterations);
    c.measured = true;
  }
  ConsoleReporter::ReportRuns(runs);
}

namespace {

// The fastest configuration of a family (of one multi-contact suite) within `target`.
std::optional<Config> best(Family f, std::size_t contact_suite, double target) {
  std::optional<Config> b;
  for (const Config& c : configs)
    if (c.family == f && c.contact_suite == contact_suite && c.measured && c.error <= target &&
        (!b || c.seconds < b->seconds))
      b = c;
  return b;
}

std::string machine() {
  std::string cpu = "unknown cpu";
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);)
    if (line.rfind("model name", 0) == 0) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  utsname u{};
  uname(&u);
  return cpu + ", " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " cores, " + u.sysname +
         " " + u.release;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return buf;
}

}  // namespace

nlohmann::json summarize(bool short_mode) {
  using nlohmann::json;
  json out{{"date", utc_now()}, {"machine", machine()}, {"short_mode", short_mode},
           {"reference", {{"integrator", "dropsim dopri5"}, {"rtol", reference_rtol}}},
           {"error", "max over the 14 paper runs and their output grids of |F/(Mg) - reference|"},
           {"multi_contact_error", "<scenario>:* runs: max over the scenario's output grid of |F_y/(Mg) - "
                                   "reference|, the vertical contact force, against dropsim dopri5 at the "
                                   "reference rtol"},
           {"time", "CPU seconds per suite (thread CPU time, the fastest of the --benchmark_repetitions; the machines "
                    "are shared)"}};
  for (const Config& c : configs)
    if (c.measured)
      out["runs"].push_back({{"method", name(c)}, {"tolerance", c.tolerance}, {"suite_seconds", c.seconds},
                             {"suite_wall_seconds", c.wall_seconds},
                             {"max_error", std::isfinite(c.error) ? json(c.error) : json(nullptr)},
                             {"steps", c.steps}, {"rhs_evaluations", c.rhs}});
  std::printf("\nMatched accuracy (fastest setting with max error in F/(Mg) <= target), 14-run paper suite "
              "and the multi-contact suites:\n");
  std::printf("%-8s %-48s %10s %12s %12s\n", "target", "method", "tolerance", "suite_ms", "max_error");
  for (double target : targets) {
    char key[16];
    std::snprintf(key, sizeof key, "%.0e", target);
    json m = json::object();
    for (Family f : all_families)
      for (std::size_t k = 0; k < (multi_contact(f) ? contact_suites().size() : 1); ++k) {
        const auto b = best(f, k, target);
        if (!b) continue;
        const std::string n = name(*b);
        m[n] = {{"tolerance", b->tolerance}, {"suite_seconds", b->seconds}, {"max_error", b->error}};
        std::printf("%-8s %-48s %10.0e %12.4f %12.3g\n", key, n.c_str(), b->tolerance, b->seconds * 1e3, b->error);
      }
    // Simbody's best: the fastest of its integrators within the target, on each suite.
    auto add_simbody_best = [&](const std::string& prefix, bool contact) {
      std::optional<std::string> fastest;
      for (Family f : simbody_families(contact)) {
        const std::string n = prefix + name(f);
        if (m.contains(n) && (!fastest || m[n]["suite_seconds"] < m[*fastest]["suite_seconds"])) fastest = n;
      }
      if (!fastest) return;
      json b = m[*fastest];
      b["method"] = *fastest;
      m[prefix + "simbody_best"] = b;
      std::printf("%-8s %-48s %10.0e %12.4f %12.3g  (%s)\n", key, (prefix + "simbody_best").c_str(),
                  b["tolerance"].get<double>(), b["suite_seconds"].get<double>() * 1e3, b["max_error"].get<double>(),
                  fastest->c_str());
    };
    add_simbody_best("", false);
    for (const ContactSuite& suite : contact_suites()) add_simbody_best(suite.name + ":", true);
    json ratios = json::object();
    auto ratio = [&](const std::string& label, const std::string& num, const std::string& den) {
      if (!m.contains(num) || !m.contains(den)) return;
      const double r = m[num]["suite_seconds"].get<double>() / m[den]["suite_seconds"].get<double>();
      ratios[label] = r;
      std::printf("  %-64s %10.2f\n", label.c_str(), r);
    };
    ratio("dropsim / floor", "dropsim_dopri5", "floor+reports");
    ratio("dropsim / floor (no reports)", "dropsim_dopri5", "floor");
    ratio("dropsim --no-attribution recording the state, F/(Mg) derived / floor", "dropsim_dopri5_states",
          "floor+reports");
    ratio("dropsim summary-only (sweeps) / floor", "dropsim_dopri5_summary", "floor+reports");
    ratio("dropsim+hdf5 / floor", "dropsim_dopri5+hdf5", "floor+reports");
    ratio("simbody best / dropsim", "simbody_best", "dropsim_dopri5");
    ratio("simbody_cpodes / dropsim", "simbody_cpodes", "dropsim_dopri5");
    ratio("simbody_rkmerson / dropsim", "simbody_rkmerson", "dropsim_dopri5");
    // The same methods on both sides: what the implementation, not the method, costs.
    ratio("simbody_rkmerson / dropsim_rk_merson", "simbody_rkmerson", "dropsim_rk_merson");
    ratio("simbody_cpodes / dropsim_cvode_bdf", "simbody_cpodes", "dropsim_cvode_bdf");
    ratio("dropsim_cvode_bdf / dropsim_dopri5", "dropsim_cvode_bdf", "dropsim_dopri5");
    ratio("dropsim_cvode_adams / dropsim_dopri5", "dropsim_cvode_adams", "dropsim_dopri5");
    ratio("dropsim_arkode_erk / dropsim_dopri5", "dropsim_arkode_erk", "dropsim_dopri5");
    ratio("dropsim_arkode_dirk / dropsim_dopri5", "dropsim_arkode_dirk", "dropsim_dopri5");
    // The multi-contact engine against its floor and its peer, on each suite.
    for (std::size_t k = 0; k < contact_suites().size(); ++k) {
      const std::string suite = contact_suites()[k].name;
      const std::string floor = name(Family::contact_floor, k), simbody = suite + ":simbody_best";
      for (const Family f : {Family::contact_dropsim_dopri5, Family::contact_dropsim_no_attribution}) {
        const std::string dropsim = name(f, k);
        ratio(suite + ": " + name(f) + " / floor", dropsim, floor);
        if (!m.contains(dropsim)) continue;
        // At one rtol the floor takes dropsim's steps to within 1 % where both are accurate (rtol <= 1e-8: the
        // same method, norm and switch landing), while the box's error moves by up to 40x over rtols a few %
        // apart: at one rtol the ratio is the code's alone, at matched accuracy it swings with that luck.
        const double tol = m[dropsim]["tolerance"].get<double>();
        for (const Config& a : configs)
          for (const Config& b : configs)
            if (a.family == f && b.family == Family::contact_floor && a.contact_suite == k && b.contact_suite == k &&
                a.measured && b.measured && a.tolerance == tol && b.tolerance == tol) {
              const std::string label_same = suite + ": " + name(f) + " / floor, same rtol";
              ratios[label_same] = a.seconds / b.seconds;
              std::printf("  %-64s %10.2f\n", label_same.c_str(), a.seconds / b.seconds);
            }
      }
      for (const Family f : {Family::contact_dropsim_dopri5, Family::contact_dropsim_no_attribution})
        ratio(suite + ": simbody best / " + name(f), simbody, name(f, k));
      ratio(suite + ": simbody best / floor", simbody, floor);
    }
    if (m.contains("dropsim_dopri5") && m.contains("dropsim_dopri5+hdf5")) {
      // Same tolerance both ways: the cost of writing the 14 files.
      for (const Config& a : configs)
        for (const Config& b : configs)
          if (a.family == Family::dropsim && b.family == Family::dropsim_hdf5 && a.measured && b.measured &&
              a.tolerance == m["dropsim_dopri5"]["tolerance"].get<double>() && b.tolerance == a.tolerance) {
            ratios["hdf5_write_seconds"] = b.seconds - a.seconds;
            std::printf("  %-64s %10.2f ms\n", "writing the 14 HDF5 files adds", (b.seconds - a.seconds) * 1e3);
          }
    }
    out["matched"][key] = {{"best", m}, {"ratios", ratios}};
  }
  if (hdf5_write_only_seconds >= 0.0) {
    out["hdf5_write_only"] = {{"rtol", write_only_rtol}, {"suite_seconds", hdf5_write_only_seconds}};
    std::printf("Writing the 14 HDF5 files alone (traces at rtol %.0e):     %10.2f ms\n", write_only_rtol,
                hdf5_write_only_seconds * 1e3);
  }
  return out;
}

}  // namespace work_precision
