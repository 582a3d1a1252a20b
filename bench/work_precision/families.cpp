// The families' names and integrators, and one run of a suite by each
// (families.hpp): dropsim, the hand-written floor, Simbody.
#include "bench/work_precision/families.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "dropsim/io/hdf5_trace.hpp"
#include "dropsim/sim/run.hpp"
#ifdef DROPSIM_HAVE_SIMBODY
#include "bench/peers/simbody/simbody_contact.hpp"
#include "bench/peers/simbody/simbody_drop.hpp"
#endif

namespace work_precision {

using Clock = std::chrono::steady_clock;

std::vector<Config> configs;

const SimbodyFamily* simbody_family(Family f) {
  for (const SimbodyFamily& s : simbody_table)
    if (s.family == f) return &s;
  return nullptr;
}
// Simbody's families of the paper suite, or of a multi-contact suite.
std::vector<Family> simbody_families(bool contact) {
  std::vector<Family> out;
  for (const SimbodyFamily& s : simbody_table)
    if (multi_contact(s.family) == contact) out.push_back(s.family);
  return out;
}
const char* name(Family f) {
  switch (f) {
    case Family::dropsim: return "dropsim_dopri5";
    case Family::dropsim_states: return "dropsim_dopri5_states";
    case Family::dropsim_summary: return "dropsim_dopri5_summary";
    case Family::dropsim_hdf5: return "dropsim_dopri5+hdf5";
    case Family::floor: return "floor";
    case Family::floor_reports: return "floor+reports";
    case Family::simbody_rkmerson: return "simbody_rkmerson";
    case Family::simbody_cpodes: return "simbody_cpodes";
    case Family::simbody_rk3: return "simbody_rk3";
    case Family::dropsim_rk_merson: return "dropsim_rk_merson";
    case Family::dropsim_cvode_bdf: return "dropsim_cvode_bdf";
    case Family::dropsim_cvode_adams: return "dropsim_cvode_adams";
    case Family::dropsim_arkode_erk: return "dropsim_arkode_erk";
    case Family::dropsim_arkode_dirk: return "dropsim_arkode_dirk";
    case Family::contact_dropsim_dopri5: return "dropsim_dopri5";
    case Family::contact_dropsim_no_attribution: return "dropsim_dopri5_no_attribution";
    case Family::contact_floor: return "floor";
    case Family::contact_simbody_rkmerson: return "simbody_rkmerson";
    case Family::contact_simbody_cpodes: return "simbody_cpodes";
    case Family::contact_simbody_rk3: return "simbody_rk3";
    case Family::contact_simbody_rkfeldberg: return "simbody_rkfeldberg";
    case Family::contact_simbody_rkmerson_interpolated: return "simbody_rkmerson_interpolated";
    case Family::contact_simbody_cpodes_interpolated: return "simbody_cpodes_interpolated";
    case Family::contact_simbody_rk3_interpolated: return "simbody_rk3_interpolated";
    case Family::contact_simbody_rkfeldberg_interpolated: return "simbody_rkfeldberg_interpolated";
  }
  return "?";
}

// The integrator a dropsim family runs.
dropsim::integrators::Method method_of(Family f) {
  using dropsim::integrators::Method;
  if (f == Family::dropsim_rk_merson) return Method::rk_merson;
  if (f == Family::dropsim_cvode_bdf) return Method::cvode_bdf;
  if (f == Family::dropsim_cvode_adams) return Method::cvode_adams;
  if (f == Family::dropsim_arkode_erk) return Method::arkode_erk;
  if (f == Family::dropsim_arkode_dirk) return Method::arkode_dirk;
  return Method::dopri5;
}

std::string name(Family f, std::size_t contact_suite) {
  return multi_contact(f) ? contact_suites()[contact_suite].name + ":" + name(f) : name(f);
}
std::string name(const Config& c) { return name(c.family, c.contact_suite); }

// A multi-contact suite's one run at c's tolerance.
Outcome run_contact_suite(const Config& c, bool measure) {
  const ContactSuite& s = contact_suites()[c.contact_suite];
  Outcome o;
  std::vector<double> fn;
  if (c.family == Family::contact_dropsim_dopri5 || c.family == Family::contact_dropsim_no_attribution) {
    dropsim::RunSettings run = s.scenario.run;
    run.integrator.rtol = c.tolerance;
    run.record_samples = true;  // as a user's run: the trace is the result
    run.attribute_stiffness = c.family == Family::contact_dropsim_dopri5;
    static dropsim::Trace t;    // its buffers kept across iterations, as in the paper suite
    dropsim::simulate(s.scenario.model, run, t);
    benchmark::DoNotOptimize(t.force.data());
    o.steps = t.stats.steps;
    o.rhs = t.stats.rhs_evaluations;
    if (t.stats.status == dropsim::integrators::Status::ok) fn = t.force_normalized;
  } else if (c.family == Family::contact_floor) {
    // F_y/(Mg) always recorded on the grid, as the dropsim run's trace, into a result kept across
    // iterations as dropsim's trace is. One copy of each suite's body, its atol set per run.
    static std::vector<dropsim::floor::FreeBody> bodies = [] {
      std::vector<dropsim::floor::FreeBody> out;
      for (const ContactSuite& suite : contact_suites()) out.push_back(suite.floor);
      return out;
    }();
    static std::vector<dropsim::floor::Result> results(contact_suites().size());
    dropsim::floor::FreeBody& body = bodies[c.contact_suite];
    dropsim::floor::Result& r = results[c.contact_suite];
    body.atol = s.floor.atol * c.tolerance;
    dropsim::floor::simulate(body, s.grid, c.tolerance, r);
    benchmark::DoNotOptimize(r.force_normalized.data());
    o.steps = r.steps;
    o.rhs = r.rhs;
    if (measure) fn = r.force_normalized;
  } else {
#ifdef DROPSIM_HAVE_SIMBODY
    const auto& landing = s.landing;
    dropsim::peers::SimbodyLandingCounts counts;
    const SimbodyFamily& simbody = *simbody_family(c.family);
    const auto samples =
        dropsim::peers::simbody_landing(landing, s.scenario.run.duration, s.scenario.run.output_interval, c.tolerance,
                                        simbody.integrator, simbody.interpolate_samples, &counts);
    benchmark::DoNotOptimize(samples.data());
    o.steps = counts.steps;
    o.rhs = counts.realizations;
    for (const auto& sample : samples) fn.push_back(sample.contact.force.y() / (landing.mass * landing.gravity));
#endif
  }
  if (measure) o.error = max_error(fn, s.reference);
  return o;
}

Outcome run_suite(const Config& c, bool measure, const std::filesystem::path& h5_dir) {
  if (multi_contact(c.family)) return run_contact_suite(c, measure);
  Suite& s = suite();
  Outcome o;
  for (std::size_t i = 0; i < s.scenarios.size(); ++i) {
    const Scenario& sc = s.scenarios[i];
    std::vector<double> fn;
    switch (c.family) {
      case Family::dropsim:
      case Family::dropsim_states:
      case Family::dropsim_summary:
      case Family::dropsim_hdf5:
      case Family::dropsim_rk_merson:
      case Family::dropsim_cvode_bdf:
      case Family::dropsim_cvode_adams:
      case Family::dropsim_arkode_erk:
      case Family::dropsim_arkode_dirk: {
        dropsim::RunSettings run = sc.run;
        run.integrator.method = method_of(c.family);
        run.integrator.rtol = c.tolerance;
        // What a sweep runs: the summary metrics (peak F/(Mg), settling,
        // equilibrium) from every grid sample, no samples stored, and no
        // stiffness attribution (a sweep's rows have no column for it). Its
        // error is that of the recorded run: the same trajectory, bit for bit.
        run.record_samples = measure || c.family != Family::dropsim_summary;
        if (c.family == Family::dropsim_summary || c.family == Family::dropsim_states) run.attribute_stiffness = false;
        run.record_states_only = c.family == Family::dropsim_states;
        // One trace per run kept across iterations, as a batch tool would keep
        // its buffers (a fresh 0.5 MB trace per run costs page faults, not physics).
        static std::vector<dropsim::Trace> traces(s.scenarios.size());
        dropsim::Trace& t = traces[i];
        dropsim::simulate(sc.drop(), run, t);
        if (c.family == Family::dropsim_states) dropsim::derive_force_normalized(sc.drop(), t);
        if (c.family == Family::dropsim_hdf5)
          dropsim::io::write_trace_hdf5((h5_dir / (sc.name + ".h5")).string(), sc, t);
        benchmark::DoNotOptimize(t.force_normalized.data());
        o.steps += t.stats.steps;
        o.rhs += t.stats.rhs_evaluations;
        if (measure) fn = t.force_normalized;
        break;
      }
      case Family::floor:
      case Family::floor_reports: {
        // One result per run kept across iterations, as dropsim's traces are: on a machine where page faults
        // are dear, a fresh output per run timed the kernel, not the floor.
        static std::vector<dropsim::floor::Result> results(s.scenarios.size());
        dropsim::floor::Result& r = results[i];
        dropsim::floor::simulate(floor_drop(sc, c.tolerance), s.grids[i], c.tolerance,
                                 measure || c.family == Family::floor_reports, r);
        benchmark::DoNotOptimize(r.force_normalized.data());
        o.steps += r.steps;
        o.rhs += r.rhs;
        if (measure) fn = r.force_normalized;
        break;
      }
      case Family::contact_dropsim_dopri5:
      case Family::contact_dropsim_no_attribution:
      case Family::contact_floor:
      case Family::contact_simbody_rkmerson:
      case Family::contact_simbody_cpodes:
      case Family::contact_simbody_rk3:
      case Family::contact_simbody_rkfeldberg:
      case Family::contact_simbody_rkmerson_interpolated:
      case Family::contact_simbody_cpodes_interpolated:
      case Family::contact_simbody_rk3_interpolated:
      case Family::contact_simbody_rkfeldberg_interpolated:
        break;  // run_contact_suite
      case Family::simbody_rkmerson:
      case Family::simbody_cpodes:
      case Family::simbody_rk3: {
#ifdef DROPSIM_HAVE_SIMBODY
        const auto which = simbody_family(c.family)->integrator;
        // Always with reports on the output grid, as OpenSim's reporters run:
        // Simbody ends steps on report times, so timing it without them would
        // time a different (less accurate) run than the one whose error is shown.
        auto r = dropsim::peers::simbody_drop(sc.drop(), s.grids[i], which, c.tolerance, true);
        o.steps += r.steps;
        o.rhs += r.realizations;
        if (!r.ok) r.force_normalized.clear();
        fn = std::move(r.force_normalized);
#endif
        break;
      }
    }
    if (measure) o.error = std::max(o.error, max_error(fn, s.reference[i]));
  }
  return o;
}

}  // namespace work_precision
