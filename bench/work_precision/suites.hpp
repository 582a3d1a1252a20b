// The work-precision benchmark's suites (bench/work_precision_bench.cpp): the
// 14 paper drops and the multi-contact scenes, each with its tight reference,
// and the tolerances every method runs at.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "bench/floor/floor_dopri5.hpp"
#include "bench/floor/floor_free_body.hpp"
#include "dropsim/io/scenario.hpp"
#ifdef DROPSIM_HAVE_SIMBODY
#include "bench/peers/simbody/simbody_contact.hpp"
#endif

namespace work_precision {

using dropsim::io::Scenario;

constexpr double reference_rtol = 1e-12;  // the tight run every error is measured against
const std::vector<double> targets = {1e-4, 1e-6};

struct Suite {
  std::vector<Scenario> scenarios;
  std::vector<std::vector<double>> grids;
  std::vector<std::vector<double>> reference;  // F/(Mg) on each grid
};
Suite& suite();  // built once, on first use: the references are outside every timing

// Max |F/(Mg) - reference| over one run's grid; infinite when the run fell short.
double max_error(const std::vector<double>& fn, const std::vector<double>& ref);

// The paper drop `s` as the hand-written floor runs it at rtol.
dropsim::floor::Drop floor_drop(const Scenario& s, double rtol);

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
std::vector<ContactSuite>& contact_suites();

// The tolerances every method runs at (dropsim's and the floors' rtol, Simbody's accuracy): 1, 2 and 5 per
// decade from 1e-3 to 1e-10. A method's matched setting is the fastest within a target, and with a decade
// between settings it hung on which side of the target an error fell (the bar at rtol 1e-8 misses 1e-6 by
// 14 % and paid the next decade). No looser than 1e-3: CPodes at accuracy 1e-1 aborts inside Simbody.
std::vector<double> tolerance_grid();

}  // namespace work_precision
