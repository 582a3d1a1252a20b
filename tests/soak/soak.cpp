// The soak: many randomly drawn valid drop scenarios (every contact law, every
// integrator, masses from 10 g to 2 t, tolerances loose to tight, fixed steps
// up to beyond stability) run back to back in one process. Nothing may crash
// or throw, no finished run may have a non-finite summary, every blown-up run
// must say it diverged, and memory must stay flat: the peak RSS of the last
// tenth of the runs within 5 % of the first tenth's (docs/reliability.md#soak).
// Every eighth run is also run recorded, and its summary must equal the
// summary-only run's to the bit.
//
//   dropsim_soak [--runs N] [--first I] [--seed S] [--threads T] [--show-diverged INTEGRATOR]
//                [--memory-check on|off]   (off under AddressSanitizer, whose quarantine
//                                           holds freed memory by design; LeakSanitizer
//                                           checks for leaks there)
//
// Run i is drawn from (seed, i) alone, so a failing run can be replayed by
// itself with --first i --runs 10. Prints a table per integrator; exit 1 on any
// failure, 0 otherwise.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "dropsim/integrators/registry.hpp"
#include "dropsim/integrators/sundials.hpp"
#include "dropsim/io/run_budget.hpp"
#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/run.hpp"
#include "tests/support/summary.hpp"

namespace {

using nlohmann::json;

constexpr double gravity = 9.80665;
constexpr double max_steps = 2e5;  // runs estimated beyond this are drawn again: the soak is about many runs

struct Options {
  long runs = 10000, first = 0;
  unsigned long long seed = 1;
  unsigned threads = 0;
  std::string show;  // print the scenario of every diverged run of this integrator
  bool memory_check = true;
};

double log_uniform(std::mt19937_64& r, double lo, double hi) {
  return std::exp(std::uniform_real_distribution<double>(std::log(lo), std::log(hi))(r));
}
double uniform(std::mt19937_64& r, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(r); }

// One valid drop scenario. The contact is sized by the relative indentation
// it would rest at, xh, so every draw is a plausible contact whatever its scale.
json draw_scenario(std::mt19937_64& r, long index) {
  const auto& laws = dropsim::contact_law_names;
  const auto law = laws[std::uniform_int_distribution<std::size_t>(0, laws.size() - 1)(r)];
  // Every method this build runs (SUNDIALS' only where it was found).
  static const std::vector<dropsim::integrators::MethodInfo> runnable = [] {
    std::vector<dropsim::integrators::MethodInfo> out;
    for (const auto& m : dropsim::integrators::methods)
      if (dropsim::integrators::available(m)) out.push_back(m);
    return out;
  }();
  const auto& method = runnable[std::uniform_int_distribution<std::size_t>(0, runnable.size() - 1)(r)];
  const double mass = log_uniform(r, 0.01, 2000.0), radius = log_uniform(r, 1e-3, 0.1);
  const int spheres = std::uniform_int_distribution<int>(1, 8)(r);
  const double xh = log_uniform(r, 0.01, 0.5), height = uniform(r, 0.05, 2.0);
  const double weight_per_sphere = mass * gravity / spheres;
  json contact = {{"law", std::string(law.name)}};
  const bool linear = law.value == dropsim::ContactLawKind::linear || law.value == dropsim::ContactLawKind::linear_damped;
  if (linear) {
    const double k = weight_per_sphere / (xh * radius);
    contact["stiffness"] = k;
    if (law.value == dropsim::ContactLawKind::linear_damped)
      contact["damping"] = 2.0 * uniform(r, 0.0, 1.5) * std::sqrt(k * mass / spheres);
  } else {
    // n (4/3) E* sqrt(R) (xh R)^1.5 = m g, E* the composite modulus.
    contact["combining"] = "none";
    contact["stiffness"] = weight_per_sphere / (4.0 / 3.0 * std::sqrt(radius) * std::pow(xh * radius, 1.5));
    switch (law.value) {
      case dropsim::ContactLawKind::hertz: break;
      case dropsim::ContactLawKind::hunt_crossley:
      case dropsim::ContactLawKind::smooth_hunt_crossley: contact["dissipation"] = uniform(r, 0.0, 10.0); break;
      default:  // the restitution laws
        contact["restitution"] = uniform(r, 0.05, 1.0);
        contact["impact_speed"] = std::sqrt(2.0 * gravity * height * radius);
    }
  }
  // A few periods of the contact at rest (Hertz: omega^2 = 1.5 g / (xh R)).
  const double omega = std::sqrt((linear ? 1.0 : 1.5) * gravity / (xh * radius));
  const double period = 2.0 * std::acos(-1.0) / omega;
  json integrator = {{"name", std::string(method.name)}};
  if (method.adaptive) integrator["rtol"] = log_uniform(r, 1e-10, 1e-3);
  else integrator["step"] = log_uniform(r, 1e-3, 0.7) * period;  // up to beyond most explicit limits
  return {{"name", "soak_" + std::to_string(index)},
          {"duration", uniform(r, 3.0, 30.0) * period + std::sqrt(2.0 * height * radius / gravity)},
          {"drop", {{"mass", mass}, {"spheres", spheres}, {"radius", radius}, {"height_over_radius", height}}},
          {"contact", contact},
          {"integrator", integrator},
          {"output", {{"interval_tau", 0.05}}}};
}

long resident_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return 0;
}

// Equal to the bit (NaN equal to NaN).
bool same(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

bool same_summary(const dropsim::TraceSummary& p, const dropsim::TraceSummary& q) {
  return p.samples == q.samples && same(p.equilibrium_indentation_relative, q.equilibrium_indentation_relative) &&
         same(p.peak_force_normalized, q.peak_force_normalized) && same(p.tau_of_peak, q.tau_of_peak) &&
         same(p.settling_time, q.settling_time);
}

// Summary, status and counts.
bool same_summary(const dropsim::Trace& a, const dropsim::Trace& b) {
  return same_summary(a.summary, b.summary) && a.stats.status == b.stats.status &&
         a.stats.steps == b.stats.steps && a.stats.rhs_evaluations == b.stats.rhs_evaluations &&
         same(a.stats.end_time, b.stats.end_time);
}

struct Tally {
  long runs = 0, diverged = 0;
};

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--runs") o.runs = std::atol(value.c_str());
    else if (key == "--first") o.first = std::atol(value.c_str());
    else if (key == "--seed") o.seed = std::strtoull(value.c_str(), nullptr, 10);
    else if (key == "--threads") o.threads = static_cast<unsigned>(std::atoi(value.c_str()));
    else if (key == "--show-diverged") o.show = value;
    else if (key == "--memory-check") o.memory_check = value != "off";
    else {
      std::fprintf(stderr, "dropsim_soak: unknown option %s (--runs N --first I --seed S --threads T --show-diverged INTEGRATOR --memory-check on|off)\n", key.c_str());
      return 2;
    }
  }
  if (argc % 2 == 0 || o.runs < 10) {
    std::fprintf(stderr, "dropsim_soak: --runs N needs N >= 10, and every option a value\n");
    return 2;
  }
  const unsigned threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  const auto& methods = dropsim::integrators::methods;
  std::vector<Tally> tally(methods.size());
  std::atomic<long> next{0}, failures{0}, redrawn{0};
  std::mutex lock;
  std::vector<long> rss_first, rss_last;  // KiB, sampled in the first and last tenth
  const long tenth = o.runs / 10;
  const auto start = std::chrono::steady_clock::now();

  auto fail = [&](long i, const std::string& what) {
    std::lock_guard guard(lock);
    if (failures++ < 20) std::fprintf(stderr, "dropsim_soak: run %ld: %s\n", o.first + i, what.c_str());
  };
  auto worker = [&] {
    dropsim::Trace trace;  // reused run after run, as sweeps do
    for (long i; (i = next++) < o.runs;) {
      std::seed_seq seq{static_cast<unsigned long long>(o.seed), static_cast<unsigned long long>(o.first + i)};
      std::mt19937_64 r(seq);
      try {
        dropsim::io::Scenario s;
        for (int draw = 0;; ++draw) {
          s = dropsim::io::parse_scenario_json(draw_scenario(r, o.first + i), "soak");
          if (dropsim::estimate_run(s.model, s.run).steps <= max_steps) break;
          ++redrawn;
        }
        s.run.record_samples = false;
        dropsim::simulate(s.model, s.run, trace);
        const dropsim::TraceSummary& m = trace.summary;
        const bool diverged = trace.stats.status == dropsim::integrators::Status::diverged;
        // Every eighth run again, recorded: both runs skip the law where it cannot change
        // the summary, and must still give, to the bit, the summary of the recorded
        // columns, where it is evaluated at every sample.
        if (i % 8 == 0) {
          dropsim::io::Scenario recorded_run = s;
          recorded_run.run.record_samples = true;
          const dropsim::Trace recorded = dropsim::simulate(recorded_run.model, recorded_run.run);
          if (!same_summary(recorded, trace)) fail(i, "summary-only run differs from the recorded one: " + s.resolved.dump());
          if (!same_summary(recorded.summary, dropsim::test::summary_of_columns(recorded)))
            fail(i, "summary differs from that of the recorded columns: " + s.resolved.dump());
        }
        if (diverged && trace.stats.reason.empty()) fail(i, "diverged without a reason");
        if (diverged && !o.show.empty() && s.resolved["integrator"]["name"] == o.show) {
          std::lock_guard guard(lock);
          std::printf("diverged: run %ld: %s: %s\n", o.first + i, trace.stats.reason.c_str(), s.resolved.dump().c_str());
        }
        if (!diverged && !(std::isfinite(m.peak_force_normalized) && std::isfinite(m.tau_of_peak) &&
                           std::isfinite(m.equilibrium_indentation_relative) && std::isfinite(m.settling_time)))
          fail(i, "finished with a non-finite summary: " + s.resolved.dump());
        if (!diverged && m.samples == 0) fail(i, "finished without a sample: " + s.resolved.dump());
        const auto k = static_cast<std::size_t>(
            std::find_if(methods.begin(), methods.end(),
                         [&](const auto& info) { return info.method == s.run.integrator.method; }) -
            methods.begin());
        std::lock_guard guard(lock);
        ++tally[k].runs;
        tally[k].diverged += diverged;
      } catch (const std::exception& e) {
        fail(i, std::string("threw: ") + e.what());
      }
      if (i % std::max(1L, o.runs / 1000) == 0) {
        const long kib = resident_kib();
        std::lock_guard guard(lock);
        if (i < tenth) rss_first.push_back(kib);
        if (i >= o.runs - tenth) rss_last.push_back(kib);
        if (i % std::max(1L, o.runs / 20) == 0) std::fprintf(stderr, "dropsim_soak: %ld of %ld runs\n", i, o.runs);
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::printf("%-20s %10s %10s\n", "integrator", "runs", "diverged");
  long total = 0, diverged = 0;
  for (std::size_t k = 0; k < methods.size(); ++k) {
    std::printf("%-20s %10ld %10ld\n", std::string(methods[k].name).c_str(), tally[k].runs, tally[k].diverged);
    total += tally[k].runs;
    diverged += tally[k].diverged;
  }
  const long first_peak = rss_first.empty() ? 0 : *std::max_element(rss_first.begin(), rss_first.end());
  const long last_peak = rss_last.empty() ? 0 : *std::max_element(rss_last.begin(), rss_last.end());
  const double drift = first_peak > 0 ? static_cast<double>(last_peak - first_peak) / static_cast<double>(first_peak) : 0.0;
  std::printf("runs %ld (seed %llu, from %ld), diverged %ld, failures %ld, redrawn over %.0g steps %ld; "
              "%.0f runs/s on %u threads; peak RSS first tenth %ld KiB, last tenth %ld KiB (%+.1f %%)\n",
              total, o.seed, o.first, diverged, failures.load(), max_steps, redrawn.load(), static_cast<double>(total) / seconds, threads,
              first_peak, last_peak, 100.0 * drift);
  const bool memory_ok = !o.memory_check || drift <= 0.05;
  if (!memory_ok) std::fprintf(stderr, "dropsim_soak: memory grew by %.1f %% (limit 5 %%)\n", 100.0 * drift);
  return failures == 0 && total == o.runs && memory_ok ? 0 : 1;
}
