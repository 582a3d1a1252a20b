// Checking predicted modes by simulation: perturb along a mode, measure its frequency (penalty-mode notes).
#pragma once

#include <vector>

#include "dropsim/integrators/registry.hpp"
#include "dropsim/sim/modes.hpp"

namespace dropsim {

struct VerifySettings {
  double amplitude_fraction = 0.05;  // largest gap change / smallest equilibrium indentation
  int steps_per_period = 50;         // first level; each further level halves step and amplitude
  double periods = 20.0;             // simulated per run (damped modes: until decayed 1000x)
  int levels = 3;
  integrators::Method method = integrators::Method::rk4;
};

struct VerifyRun {
  double amplitude = 0.0;       // m, largest gap change at the start
  double step = 0.0;            // s
  double omega = 0.0;           // rad/s measured; NaN if fewer than 3 zero crossings
  double relative_error = 0.0;  // (measured - predicted) / predicted
  bool contact_opened = false;  // an active contact lost contact during the run
  bool diverged = false;
};

struct ModeCheck {
  int mode = 0;            // index into ModesAnalysis::loaded_modes, or friction_modes with friction
  double predicted = 0.0;  // rad/s: the damped frequency where damped, else omega
  double damping_ratio = 0.0;
  // Decays a thousandfold within min_periods: too few zero crossings stand
  // above the other modes to count, so no run is made (runs empty).
  bool too_damped = false;
  std::vector<VerifyRun> runs;
};

// Periods a verified mode must last before it has decayed a thousandfold.
constexpr double min_periods = 2.0;

// The analysis must have been made at a static equilibrium. Checks the modes of
// the full linearisation: without friction ModesAnalysis::loaded_modes (the
// frozen-geometry modes plus load stiffness; the same where weight acts at
// contact height), each run starting at rest from equilibrium displaced along
// the mode shape. With friction ModesAnalysis::friction_modes, the damped
// quadratic problem's: each run starts on the mode alone (displaced along its
// shape, moving at its rate_shape), lasts until the mode has decayed a
// thousandfold, and its step stays below half the method's predicted limit on
// that damped system. Runs integrate with a fixed step and measure the
// frequency of the modal coordinate (shape^T M dq) from its zero crossings
// (linear interpolation, least-squares slope).
std::vector<ModeCheck> verify_modes(const MultibodyModel& model, const ModesAnalysis& analysis,
                                    const VerifySettings& settings = {});

// Angular frequency from the zero crossings of a sampled signal; NaN if fewer than 3.
double zero_crossing_frequency(const std::vector<double>& time, const std::vector<double>& signal);

}  // namespace dropsim
