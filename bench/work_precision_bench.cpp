// BM_WorkPrecision/<method>/<tolerance>: the 14-run paper suite's time against its
// max error in F/(Mg) (vs a tight dropsim reference) for dropsim, the
// hand-written floor and (when built) Simbody; the same for the multi-contact
// suites (<scenario>:<method>: a free box on eight spheres, the posed
// quadruped on four and a bar on two, all with friction) against their own hand-written floor
// and Simbody; then the matched-accuracy table and its ratios, printed and
// written to JSON.
//
//   work_precision_bench [--json PATH] [google-benchmark flags]   (PATH: results/bench/work_precision.json)
// CI: --benchmark_min_time=0.01 (scripts/ci-bench.sh) still writes the JSON. A full run
// (docs/performance.md#reproduce) repeats each setting and keeps its fastest timing.
#include <benchmark/benchmark.h>
#include <sys/utsname.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "bench/floor/floor_dopri5.hpp"
#include "bench/floor/floor_free_body.hpp"
#include "dropsim/integrators/sundials.hpp"
#include "dropsim/io/hdf5_trace.hpp"
#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/combining.hpp"
#include "dropsim/sim/multibody_system.hpp"
#include "dropsim/sim/run.hpp"
#include "bench/peers/simbody/simbody_integrator.hpp"  // no Simbody header: names the integrators in every build
#ifdef DROPSIM_HAVE_SIMBODY
#include "bench/peers/simbody/simbody_contact.hpp"
#include "bench/peers/simbody/simbody_drop.hpp"
#endif

namespace {

using dropsim::io::Scenario;
using Clock = std::chrono::steady_clock;

constexpr double reference_rtol = 1e-12;  // the tight run every error is measured against
const std::vector<double> targets = {1e-4, 1e-6};

struct Suite {
  std::vector<Scenario> scenarios;
  std::vector<std::vector<double>> grids;
  std::vector<std::vector<double>> reference;  // F/(Mg) on each grid
};

Suite& suite() {
  static Suite s = [] {
    Suite out;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(DROPSIM_SOURCE_DIR "/scenarios/paper"))
      if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      Scenario sc = dropsim::io::load_scenario(f.string());
      out.grids.push_back(dropsim::integrators::output_grid(0.0, sc.run.duration, sc.run.output_interval));
      dropsim::RunSettings tight = sc.run;
      tight.integrator.rtol = reference_rtol;
      out.reference.push_back(dropsim::simulate(sc.drop(), tight).force_normalized);
      out.scenarios.push_back(std::move(sc));
    }
    return out;
  }();
  return s;
}

// Max |F/(Mg) - reference| over one run's grid; infinite when the run fell short.
double max_error(const std::vector<double>& fn, const std::vector<double>& ref) {
  if (fn.size() != ref.size()) return std::numeric_limits<double>::infinity();
  double worst = 0.0;
  for (std::size_t i = 0; i < fn.size(); ++i) worst = std::max(worst, std::abs(fn[i] - ref[i]));
  return std::isfinite(worst) ? worst : std::numeric_limits<double>::infinity();
}

dropsim::floor::Drop floor_drop(const Scenario& s, double rtol) {
  const auto& m = s.drop();
  dropsim::floor::Drop d;
  d.mass = m.mass;
  d.gravity = m.gravity;
  d.k = m.spheres * (4.0 / 3.0) * m.law.effective_modulus * std::sqrt(m.law.radius);
  d.alpha = m.law.kind == dropsim::ContactLawKind::hertz ? 0.0 : m.law.dissipation;
  d.y0 = m.initial_height;
  d.v0 = m.initial_velocity;
  const auto atol = dropsim::DropSystem(m).model_scaled_atol(rtol);
  d.atol_y = atol[0];
  d.atol_v = atol[1];
  return d;
}

// What the Simbody peer and the floor both take: one free body with principal
// inertia on one sphere per contact, on the ground y = 0, every sphere of one
// radius and one law. Throws naming `who` otherwise.
void require_free_body_on_equal_spheres(const dropsim::MultibodyModel& m, const std::string& who) {
  const auto& body = m.bodies.at(0);
  const auto& first = m.contacts.at(0);
  for (const auto& c : m.contacts) {
    const auto &law = c.law, &f = first.law;
    const bool same_law = law.kind == f.kind && law.effective_modulus == f.effective_modulus &&
                          law.radius == f.radius && law.dissipation == f.dissipation &&
                          law.friction.static_coefficient == f.friction.static_coefficient &&
                          law.friction.dynamic_coefficient == f.friction.dynamic_coefficient &&
                          law.friction.viscous_coefficient == f.friction.viscous_coefficient &&
                          law.friction.transition_velocity == f.friction.transition_velocity;
    if (m.bodies.size() != 1 || body.joint != dropsim::Joint::free || !body.inertia.isDiagonal() ||
        c.type != dropsim::ContactType::sphere_plane || c.count != 1 || !same_law || c.radius[0] != first.radius[0] ||
        c.plane_normal != Eigen::Vector3d::UnitY() || !c.plane_point.isZero())
      throw std::logic_error(who + " takes one free body with principal inertia on equal spheres on the ground y = 0");
  }
}

#ifdef DROPSIM_HAVE_SIMBODY
// A free body on spheres as Simbody's landing peer takes it.
dropsim::peers::SimbodyLanding simbody_landing_of(const dropsim::MultibodyModel& m) {
  require_free_body_on_equal_spheres(m, "the Simbody landing peer");
  const auto& body = m.bodies.at(0);
  const auto& first = m.contacts.at(0);
  dropsim::peers::SimbodyLanding out;
  out.law = first.law;
  out.radius = first.radius[0];
  out.mass = body.mass;
  out.gravity = m.gravity;
  out.principal_inertia = body.inertia.diagonal();
  out.position = body.position;
  out.orientation = body.orientation;
  out.velocity = body.velocity;
  out.angular_velocity = body.angular_velocity;
  for (const auto& c : m.contacts) out.spheres.push_back(c.at[0]);
  return out;
}
#endif

// A free body on spheres as the free-body floor takes it, its spheres
// Hunt-Crossley; atol is dropsim's model-scaled atol at rtol 1 (it scales with rtol).
dropsim::floor::FreeBody floor_free_body_of(const dropsim::MultibodyModel& m) {
  require_free_body_on_equal_spheres(m, "the free-body floor");
  const auto& body = m.bodies.at(0);
  const auto& law = m.contacts.at(0).law;
  if (law.kind != dropsim::ContactLawKind::hunt_crossley)
    throw std::logic_error("the free-body floor takes Hunt-Crossley spheres");
  dropsim::floor::FreeBody out;
  out.mass = body.mass;
  out.gravity = m.gravity;
  out.inertia = body.inertia.diagonal();
  out.radius = law.radius;
  out.modulus = law.effective_modulus;
  out.dissipation = law.dissipation;
  out.mu_s = law.friction.static_coefficient;
  out.mu_d = law.friction.dynamic_coefficient;
  out.mu_v = law.friction.viscous_coefficient;
  out.v_t = law.friction.transition_velocity;
  out.x0 = m.initial_state();
  out.atol = dropsim::MultibodySystem(m).model_scaled_atol(1.0);
  for (const auto& c : m.contacts) out.spheres.push_back(c.at[0]);
  return out;
}

// The multi-contact suites, each one scenario run by dropsim's multibody
// engine, by Simbody built as OpenSim builds it (a free MobilizedBody, the
// spheres and the ground on a GeneralContactSubsystem, one HuntCrossleyForce),
// and by the hand-written floor of bench/floor/floor_free_body.hpp. Error: max
// |F_y/(Mg) - reference| over the scenario's output grid, the reference
// dropsim's dopri5 at reference_rtol.
//   box_on_edge: a free 1 kg box landing on an edge on eight spheres, mu 0.8 / 0.6, v_t 1 cm/s;
//   quadruped_friction: the posed 30 kg trunk rocking on four spheres of two diagonal feet, mu 0.8, v_t 0.2 m/s;
//   bar_rocking: a 2 kg bar landing on one end of two and rocking onto the other, mu 0.8, v_t 0.2 m/s.
struct ContactSuite {
  std::string name;  // the scenario's: the prefix of its families' names
  Scenario scenario;
  std::vector<double> grid;
  std::vector<double> reference;
  dropsim::floor::FreeBody floor;  // the same body for the floor, its atol at rtol 1
#ifdef DROPSIM_HAVE_SIMBODY
  dropsim::peers::SimbodyLanding landing;  // the same body for Simbody
#endif
};

std::vector<ContactSuite>& contact_suites() {
  static std::vector<ContactSuite> suites = [] {
    std::vector<ContactSuite> out;
    for (const char* file : {"box_on_edge", "quadruped_friction", "bar_rocking"}) {
      ContactSuite s;
      s.scenario = dropsim::io::load_scenario(DROPSIM_SOURCE_DIR "/scenarios/friction/" + std::string(file) + ".json");
      s.name = s.scenario.name;
      dropsim::RunSettings tight = s.scenario.run;
      tight.integrator.rtol = reference_rtol;
      s.reference = dropsim::simulate(s.scenario.model, tight).force_normalized;
      s.grid = dropsim::integrators::output_grid(0.0, s.scenario.run.duration, s.scenario.run.output_interval);
      s.floor = floor_free_body_of(*s.scenario.multibody());
#ifdef DROPSIM_HAVE_SIMBODY
      s.landing = simbody_landing_of(*s.scenario.multibody());
#endif
      out.push_back(std::move(s));
    }
    return out;
  }();
  return suites;
}

// The tolerances every method runs at (dropsim's and the floors' rtol, Simbody's accuracy): 1, 2 and 5 per
// decade from 1e-3 to 1e-10. A method's matched setting is the fastest within a target, and with a decade
// between settings it hung on which side of the target an error fell (the bar at rtol 1e-8 misses 1e-6 by
// 14 % and paid the next decade). No looser than 1e-3: CPodes at accuracy 1e-1 aborts inside Simbody.
std::vector<double> tolerance_grid() {
  std::vector<double> out = {1e-3};
  // Exact powers of ten and correctly rounded quotients: the same doubles as the literals 5e-4, 2e-4, ...
  for (double decade = 1e4; decade <= 1e10; decade *= 10.0)
    for (double mantissa : {5.0, 2.0, 1.0}) out.push_back(mantissa / decade);
  return out;
}

// One way of running the suite at one tolerance.
enum class Family {
  dropsim,
  // The same run recording the state alone (RunSettings::record_states_only), then F/(M g) derived from it:
  // what floor+reports records, where dropsim_dopri5 records every column as `dropsim run` does. Without the
  // stiffness attribution, which the floor does not compute either (as the multi-contact suites' comparison).
  dropsim_states,
  dropsim_summary,
  dropsim_hdf5,
  floor,
  floor_reports,
  // Simbody's integrators (bench/peers/simbody/simbody_integrator.hpp): its best is the fastest of them.
  simbody_rkmerson,
  simbody_cpodes,
  simbody_rk3,
  dropsim_rk_merson,  // against simbody_rkmerson: the same method and error control
  dropsim_cvode_bdf,  // against simbody_cpodes: CVODE's BDF and its descendant (SUNDIALS builds only)
  dropsim_cvode_adams,  // the other SUNDIALS methods, where they stand against dopri5
  dropsim_arkode_erk,
  dropsim_arkode_dirk,
  // A multi-contact suite (contact_suites()): dropsim's multibody engine, its floor and Simbody's. These stay
  // last: multi_contact() is the enum's tail from here.
  contact_dropsim_dopri5,
  // The same run without the stiffness attribution (RunSettings::attribute_stiffness false, as sweeps run and
  // `dropsim run --no-attribution`): a Jacobian per accepted step, and its eigenvalues where the step may be
  // stability-bound, which Simbody and the floor do not compute.
  contact_dropsim_no_attribution,
  contact_floor,
  contact_simbody_rkmerson,
  contact_simbody_cpodes,
  contact_simbody_rk3,
  contact_simbody_rkfeldberg,
  // The same four stepping past the samples and interpolating them.
  contact_simbody_rkmerson_interpolated,
  contact_simbody_cpodes_interpolated,
  contact_simbody_rk3_interpolated,
  contact_simbody_rkfeldberg_interpolated,
};
// In the order of the tables and the figure's legend.
constexpr Family all_families[] = {
    Family::dropsim,           Family::dropsim_states,    Family::dropsim_summary,    Family::dropsim_hdf5,
    Family::floor,
    Family::floor_reports,     Family::simbody_rkmerson,   Family::simbody_cpodes,     Family::simbody_rk3,
    Family::dropsim_rk_merson, Family::dropsim_cvode_bdf,  Family::dropsim_cvode_adams, Family::dropsim_arkode_erk,
    Family::dropsim_arkode_dirk, Family::contact_dropsim_dopri5, Family::contact_dropsim_no_attribution,
    Family::contact_floor,     Family::contact_simbody_rkmerson, Family::contact_simbody_cpodes,
    Family::contact_simbody_rk3, Family::contact_simbody_rkfeldberg, Family::contact_simbody_rkmerson_interpolated,
    Family::contact_simbody_cpodes_interpolated, Family::contact_simbody_rk3_interpolated,
    Family::contact_simbody_rkfeldberg_interpolated,
};
bool multi_contact(Family f) { return f >= Family::contact_dropsim_dopri5; }
// Simbody's families, the integrator each runs, and whether it interpolates the samples of a multi-contact
// suite; its best is the fastest of a suite's. The paper suite's peer samples as Simbody's TimeStepper does
// by default. RungeKuttaFeldberg is not run there: it tunnels through the ground in those drops.
struct SimbodyFamily {
  Family family;
  dropsim::peers::SimbodyIntegrator integrator;
  bool interpolate_samples = false;
};
using dropsim::peers::SimbodyIntegrator;
constexpr SimbodyFamily simbody_table[] = {
    {Family::simbody_rkmerson, SimbodyIntegrator::runge_kutta_merson},
    {Family::simbody_cpodes, SimbodyIntegrator::cpodes},
    {Family::simbody_rk3, SimbodyIntegrator::runge_kutta_3},
    {Family::contact_simbody_rkmerson, SimbodyIntegrator::runge_kutta_merson},
    {Family::contact_simbody_cpodes, SimbodyIntegrator::cpodes},
    {Family::contact_simbody_rk3, SimbodyIntegrator::runge_kutta_3},
    {Family::contact_simbody_rkfeldberg, SimbodyIntegrator::runge_kutta_feldberg},
    {Family::contact_simbody_rkmerson_interpolated, SimbodyIntegrator::runge_kutta_merson, true},
    {Family::contact_simbody_cpodes_interpolated, SimbodyIntegrator::cpodes, true},
    {Family::contact_simbody_rk3_interpolated, SimbodyIntegrator::runge_kutta_3, true},
    {Family::contact_simbody_rkfeldberg_interpolated, SimbodyIntegrator::runge_kutta_feldberg, true},
};
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

struct Config {
  Family family;
  double tolerance;  // rtol, or Simbody's accuracy
  std::size_t contact_suite = 0;  // multi-contact families: which of contact_suites()
  double error = 0.0;
  long steps = 0, rhs = 0;
  double seconds = 0.0;       // CPU per suite, filled in by the reporter
  double wall_seconds = 0.0;  // wall per suite, for the record
  bool measured = false;
};
std::vector<Config> configs;

// A family's name in the tables and the JSON: <scenario>:<method> for the multi-contact suites.
std::string name(Family f, std::size_t contact_suite) {
  return multi_contact(f) ? contact_suites()[contact_suite].name + ":" + name(f) : name(f);
}
std::string name(const Config& c) { return name(c.family, c.contact_suite); }

// Runs the suite once; returns (max error, steps, rhs) when `measure`.
struct Outcome {
  double error = 0.0;
  long steps = 0, rhs = 0;
};

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

void BM_WorkPrecision(benchmark::State& state, std::size_t index) {
  Config& c = configs[index];
  const auto h5_dir = std::filesystem::temp_directory_path() / "dropsim_work_precision";
  std::filesystem::create_directories(h5_dir);
  const Outcome measured = run_suite(c, true, h5_dir);  // error from the recorded run, outside the timing
  c.error = measured.error;
  c.steps = measured.steps;
  c.rhs = measured.rhs;
  for (auto _ : state) run_suite(c, false, h5_dir);
  state.counters["config"] = static_cast<double>(index);
  state.counters["max_error"] = c.error;
  state.counters["steps_per_suite"] = static_cast<double>(c.steps);
  state.counters["rhs_per_suite"] = static_cast<double>(c.rhs);
  state.counters["ns_per_rhs"] = benchmark::Counter(static_cast<double>(c.rhs) * 1e-9,
                                                    benchmark::Counter::kIsIterationInvariantRate |
                                                        benchmark::Counter::kInvert);
}

// Writing the 14 files alone: the traces are recorded once at an rtol that
// meets 1e-6 (1e-8; every tolerance has the same grid, so the same bytes),
// then each iteration writes them. The "+hdf5" family's difference from the
// recording family says the same, but as the difference of two noisy timings.
constexpr double write_only_rtol = 1e-8;
double hdf5_write_only_seconds = -1.0;  // CPU per suite, filled in by the reporter

void BM_Hdf5WriteOnly(benchmark::State& state) {
  Suite& s = suite();
  std::vector<dropsim::Trace> traces(s.scenarios.size());
  for (std::size_t i = 0; i < traces.size(); ++i) {
    dropsim::RunSettings run = s.scenarios[i].run;
    run.integrator.rtol = write_only_rtol;
    dropsim::simulate(s.scenarios[i].drop(), run, traces[i]);
  }
  const auto h5_dir = std::filesystem::temp_directory_path() / "dropsim_work_precision";
  std::filesystem::create_directories(h5_dir);
  for (auto _ : state)
    for (std::size_t i = 0; i < traces.size(); ++i)
      dropsim::io::write_trace_hdf5((h5_dir / (s.scenarios[i].name + ".h5")).string(), s.scenarios[i], traces[i]);
  state.counters["hdf5_write_only"] = 1.0;
}

// Catches each run's time per suite on its way to the console.
class Collector : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
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
};

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

}  // namespace

int main(int argc, char** argv) {
  std::string json_path = "results/bench/work_precision.json";  // not tracked: generated output
  bool short_mode = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json" && i + 1 < argc) json_path = argv[++i];
    else if (a.rfind("--json=", 0) == 0) json_path = a.substr(7);
    else args.push_back(argv[i]);
    // CI's short mode (scripts/ci-bench.sh: 0.01 s); a full run uses 0.2 s, three times (docs/performance.md).
    if (a.rfind("--benchmark_min_time=", 0) == 0) short_mode = std::atof(a.c_str() + 21) < 0.1;
    // With these, Google Benchmark hands the reporter only the aggregates: no timing would reach the table.
    for (const char* flag : {"--benchmark_report_aggregates_only", "--benchmark_display_aggregates_only"})
      if (a.rfind(flag, 0) == 0 && a != std::string(flag) + "=false") {
        std::fprintf(stderr, "work_precision_bench: %s: the table needs every repetition's timing (of repeated "
                             "timings it keeps the fastest); leave it out\n", flag);
        return 2;
      }
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());

  const std::vector<double> rtols = tolerance_grid();
  for (Family f : {Family::dropsim, Family::dropsim_states, Family::dropsim_summary, Family::dropsim_hdf5,
                   Family::floor, Family::floor_reports})
    for (double r : rtols) configs.push_back({f, r});
  for (double r : rtols) configs.push_back({Family::dropsim_rk_merson, r});
  if (dropsim::integrators::sundials_available())
    for (Family f : {Family::dropsim_cvode_bdf, Family::dropsim_cvode_adams, Family::dropsim_arkode_erk,
                     Family::dropsim_arkode_dirk})
      for (double r : rtols) configs.push_back({f, r});
#ifdef DROPSIM_HAVE_SIMBODY
  for (Family f : simbody_families(false))
    for (double a : rtols) configs.push_back({f, a});
#endif
  // The box's error is erratic from one rtol to the next (it bounces, and the worst sample hangs on one
  // touchdown's timing): on the multi-contact suites dropsim and its floor also run at 1e-11, so that both
  // reach 1e-6 somewhere.
  std::vector<double> contact_rtols = rtols;
  contact_rtols.push_back(1e-11);
  for (std::size_t k = 0; k < contact_suites().size(); ++k) {
    for (Family f : {Family::contact_dropsim_dopri5, Family::contact_dropsim_no_attribution, Family::contact_floor})
      for (double r : contact_rtols) configs.push_back({f, r, k});
#ifdef DROPSIM_HAVE_SIMBODY
    for (Family f : simbody_families(true))
      for (double a : rtols) configs.push_back({f, a, k});
#endif
  }
  for (std::size_t i = 0; i < configs.size(); ++i) {
    char label[96];
    std::snprintf(label, sizeof label, "BM_WorkPrecision/%s/%.0e", name(configs[i]).c_str(), configs[i].tolerance);
    auto* b = benchmark::RegisterBenchmark(label, BM_WorkPrecision, i)->Unit(benchmark::kMillisecond);
    // Simbody runs take seconds: one timed suite each is plenty at its scale.
    if (simbody_family(configs[i].family)) b->Iterations(1);
  }
  benchmark::RegisterBenchmark("BM_Hdf5WriteOnly", BM_Hdf5WriteOnly)->Unit(benchmark::kMillisecond);
  suite();  // the references, before any timing
  contact_suites();
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::Shutdown();

  const nlohmann::json out = summarize(short_mode);
  const std::filesystem::path path(json_path);
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << out.dump(2) << "\n";
  std::printf("wrote %s\n", json_path.c_str());
  return 0;
}
