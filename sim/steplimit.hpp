// Step limits of the drop: predicted from the one-mode linearisation, measured by bisection on the nonlinear run.
#pragma once

#include <algorithm>
#include <functional>

#include <cmath>
#include <limits>

#include "dropsim/integrators/registry.hpp"
#include "dropsim/integrators/stability.hpp"
#include "dropsim/sim/drop.hpp"
#include "dropsim/sim/equilibrium.hpp"
#include "dropsim/sim/linearization.hpp"
#include "dropsim/sim/multibody.hpp"
#include "dropsim/sim/simulate.hpp"

namespace dropsim {

// Largest indentation of the run (reference integrator as given), refined
// between samples by a parabola through the three around the largest.
double peak_indentation(const DropModel& model, const RunSettings& reference);

// Where the stiffness depends on the indentation (Hertz family) the peak prediction exists.
bool has_peak_prediction(const ContactLaw& law);

struct StepLimitOptions {
  double growth_tolerance = integrators::default_growth_tolerance;  // predicted: see StepLimit
  double settle_tolerance = 0.01;  // measured: |x - x_eq| <= this * x_eq over the last tenth of the run
  double precision = 1e-3;         // measured: relative bracket width
};

struct StepLimitReport {
  integrators::Method method;
  double predicted_step = 0.0;       // s, at equilibrium; 0 unstable at every step, inf unconditional
  double predicted_step_peak = 0.0;  // s, at peak indentation (NaN where not defined)
  double measured_step = 0.0;        // s, largest step found bounded and settling (0: none)
  bool measured_at_cap = false;      // still stable at the largest step tried (duration / 20)
  // Drop only, the two regimes kept apart (docs/physics.md#measured-step-limit):
  // linear: from the equilibrium with a small kick, the largest step whose
  // energy stays within 100 kicks over 500 periods (what the prediction describes);
  // impact: the largest step with which the full drop does not diverge,
  // settled or not (measured_step is the largest that also settles).
  double measured_linear_step = 0.0;
  bool measured_linear_at_cap = false;
  // The prediction at the linear run's own tolerance: the largest step whose
  // predicted growth over that run stays within ten times the kick's
  // amplitude. Where growth beyond the limit is slow, the run cannot see it
  // until this step (docs/physics.md#measured-step-limit).
  double predicted_linear_run_step = 0.0;
  double bounded_step = 0.0;
  bool bounded_at_cap = false;
  double tolerance = 0.0;            // growth tolerance of the prediction
  bool limited_by_friction = false;  // friction's damping, not a normal mode, sets the predicted step
  // measured / predicted (equilibrium); NaN where the prediction is 0 or unconditional.
  double ratio() const { return of_prediction(measured_step); }
  // The same for the linear-regime limit.
  double linear_ratio() const { return of_prediction(measured_linear_step); }
  // The linear limit beyond a finite prediction by more than 2 %, but within
  // the prediction at the linear run's tolerance: growth the run was too short to see.
  bool linear_growth_unseen() const {
    return linear_ratio() > 1.02 && measured_linear_step <= 1.02 * predicted_linear_run_step;
  }
  // Drop only: the measured limit lies between the peak and the equilibrium
  // predictions, 2 % either way (both finite).
  bool between_predictions() const {
    const double lo = std::min(predicted_step, predicted_step_peak);
    const double hi = std::max(predicted_step, predicted_step_peak);
    return std::isfinite(hi) && measured_step >= 0.98 * lo && measured_step <= 1.02 * hi;
  }

 private:
  double of_prediction(double step) const {
    return predicted_step > 0.0 && std::isfinite(predicted_step) ? step / predicted_step
                                                                  : std::numeric_limits<double>::quiet_NaN();
  }
};

// Runs `method` with fixed step h over the whole scenario: true when the run
// stays bounded (not diverged) and settles to the equilibrium.
bool settles_with_step(const DropModel& model, const RunSettings& run, integrators::Method method, double h,
                       double equilibrium, double settle_tolerance);

// The drop from its static equilibrium with a kick moving it by 1e-5 of the
// rest indentation, over max(duration, 500 periods): true when its mechanical
// energy stays within 100 kick energies of where it started.
bool linear_regime_bounded(const DropModel& model, const RunSettings& run, integrators::Method method, double h);

// The drop's one mode linearised at rest at an indentation: from the
// linearised system's stiffness and damping over the mass, the angular
// frequency omega = sqrt(k / m) (rad/s) and the damping ratio c / (2 m omega).
struct DropMode {
  double indentation = 0.0;  // m
  integrators::LinearSystem system;
  double omega = 0.0;
  double damping_ratio = 0.0;
};
DropMode drop_mode_at(const DropModel& model, double indentation);
// Where the drop's step limits are predicted: at the equilibrium indentation
// and at the run's peak indentation (peak_indentation()).
struct DropModes {
  DropMode equilibrium, peak;
};
DropModes drop_modes(const DropModel& model, const RunSettings& run);

// Predicted (equilibrium and peak) and measured limits of one method. `peak`
// is peak_indentation() of the scenario's own run (computed once per scenario).
StepLimitReport drop_step_limit(const DropModel& model, const RunSettings& run, integrators::Method method, double peak,
                              const StepLimitOptions& options = {});

// The measured limits' search: the largest h in (0, cap] with ok(h), bracketed
// from `guess` (a prediction) and bisected to relative width `precision`.
struct MeasuredStep {
  double step = 0.0;    // 0: nothing good down to 1e-7 s
  bool at_cap = false;  // still good at the cap
};
MeasuredStep largest_good_step(const std::function<bool(double)>& ok, double guess, double cap, double precision);

// A velocity kick from equilibrium that excites every coupled contact mode of
// `lin`, each gap moving by about `displacement` (m).
Eigen::VectorXd mode_exciting_kick(const Linearization& lin, double displacement);

// A multi-contact model at rest: its static equilibrium from the initial
// state, and the model linearised there, which step limits are predicted about
// and measured from. Throws EquilibriumError where there is none, or where
// regularised friction holds the body only by creeping.
struct RestState {
  Equilibrium equilibrium;
  Linearization linearization;
};
RestState rest_state(const MultibodyModel& model);

// Multi-contact scenarios. Predicted: the coupled modes at static equilibrium
// (linearize(): all compressed contacts, K and C). Measured: from equilibrium
// with mode_exciting_kick(), the largest fixed step whose run stays bounded
// (mechanical energy within 1e4 kick energies of its start) over at least 500
// periods of the fastest mode. No settling test: undamped supports never settle.
StepLimitReport multibody_step_limit(const MultibodyModel& model, const RunSettings& run, integrators::Method method,
                                     const StepLimitOptions& options = {});

}  // namespace dropsim
