// The ways the work-precision benchmark runs a suite (Family), one timed
// setting of each (Config), and the runs themselves.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/peers/simbody/simbody_integrator.hpp"  // no Simbody header: names the integrators in every build
#include "bench/work_precision/suites.hpp"
#include "dropsim/integrators/registry.hpp"

namespace work_precision {

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
inline bool multi_contact(Family f) { return f >= Family::contact_dropsim_dopri5; }
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
const SimbodyFamily* simbody_family(Family f);
// Simbody's families of the paper suite, or of a multi-contact suite.
std::vector<Family> simbody_families(bool contact);
const char* name(Family f);
// The integrator a dropsim family runs.
dropsim::integrators::Method method_of(Family f);

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
extern std::vector<Config> configs;  // every timed setting, in the order registered

// A family's name in the tables and the JSON: <scenario>:<method> for the multi-contact suites.
std::string name(Family f, std::size_t contact_suite);
std::string name(const Config& c);

// Runs the suite once; returns (max error, steps, rhs) when `measure`.
struct Outcome {
  double error = 0.0;
  long steps = 0, rhs = 0;
};
// A multi-contact suite's one run at c's tolerance.
Outcome run_contact_suite(const Config& c, bool measure);
// The suite of c's family once (the paper's 14 drops, or c's multi-contact suite); h5_dir takes the files
// of the family that writes them.
Outcome run_suite(const Config& c, bool measure, const std::filesystem::path& h5_dir);

}  // namespace work_precision
