// Mode verification runs: perturbed simulations and frequency measurement.
#include "dropsim/sim/modes_verify.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "dropsim/sim/multibody_simulate.hpp"

namespace dropsim {

double zero_crossing_frequency(const std::vector<double>& time, const std::vector<double>& signal) {
  std::vector<double> crossings;
  for (std::size_t k = 0; k + 1 < signal.size(); ++k) {
    const double a = signal[k], b = signal[k + 1];
    if ((a > 0.0) != (b > 0.0) && a != b) crossings.push_back(time[k] + a / (a - b) * (time[k + 1] - time[k]));
  }
  const std::size_t n = crossings.size();
  if (n < 3) return std::numeric_limits<double>::quiet_NaN();
  // Least-squares slope of crossing time against index: half a period per crossing.
  double mean_i = 0.5 * static_cast<double>(n - 1), mean_t = 0.0;
  for (double c : crossings) mean_t += c / static_cast<double>(n);
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double di = static_cast<double>(i) - mean_i;
    num += di * (crossings[i] - mean_t);
    den += di * di;
  }
  return std::numbers::pi / (num / den);
}

std::vector<ModeCheck> verify_modes(const MultibodyModel& model, const ModesAnalysis& analysis,
                                    const VerifySettings& settings) {
  std::vector<ModeCheck> checks;
  const Linearization& lin = analysis.lin;
  if (lin.contacts.empty()) return checks;
  const bool friction = lin.friction_damping.size() != 0;
  const std::vector<Mode>& modes = friction ? analysis.friction_modes : analysis.loaded_modes;
  // Friction's real rates can outrun the mode verified: keep the method stable
  // on them, by the limit `dropsim steplimit` predicts (frozen geometry: a
  // pose that would topple has a growing root no step keeps from growing).
  const double largest_step =
      friction ? 0.5 * integrators::step_limit(settings.method, lin.linear_system()).step
               : std::numeric_limits<double>::infinity();
  const double smallest_indentation = lin.indentation.minCoeff();
  for (std::size_t n = 0; n < modes.size(); ++n) {
    const Mode& mode = modes[n];
    const Eigen::RowVectorXd modal_row = (lin.M * mode.shape).transpose() / mode.shape.dot(lin.M * mode.shape);
    ModeCheck check;
    check.mode = static_cast<int>(n);
    check.predicted = mode.overdamped ? mode.omega : (mode.damped_omega > 0.0 ? mode.damped_omega : mode.omega);
    check.damping_ratio = mode.damping_ratio;
    const double period = 2.0 * std::numbers::pi / check.predicted;
    // A damped mode is measured while it stands above the others it leaks
    // into: until it has decayed a thousandfold (friction modes: exactly,
    // e^(-zeta omega t); the others as before, at least three periods).
    double duration = settings.periods * period;
    if (friction) {
      const double z = mode.damping_ratio;
      const double decay_periods = z > 0.0 ? std::log(1e3) * std::sqrt(1.0 - z * z) / (2.0 * std::numbers::pi * z)
                                           : settings.periods;
      check.too_damped = decay_periods < min_periods;
      duration = std::min(decay_periods, settings.periods) * period;
    } else if (mode.damping_ratio > 0.0) {
      const double decay_periods = std::log(1e3) / (2.0 * std::numbers::pi * mode.damping_ratio);
      duration = std::clamp(decay_periods, 3.0, settings.periods) * period;
    }
    if (check.too_damped) {
      checks.push_back(check);
      continue;
    }
    double amplitude = settings.amplitude_fraction * smallest_indentation;
    double step = std::min(period / settings.steps_per_period, largest_step);
    for (int level = 0; level < settings.levels; ++level, amplitude *= 0.5, step *= 0.5) {
      const double scale = amplitude / mode.gap_shape.cwiseAbs().maxCoeff();
      // The mode is measured against the unperturbed motion from the state
      // analysed: rest, or the steady creep regularised friction allows.
      Eigen::VectorXd x0 = analysis.x;
      advance_configuration(model, x0.head(model.nq), mode.shape * scale);
      if (mode.rate_shape.size() != 0) x0.tail(model.nu) += mode.rate_shape * scale;
      RunSettings run;
      run.duration = duration;
      run.output_interval = step;
      run.integrator.method = settings.method;
      run.integrator.step = step;
      const Trace trace = simulate_from(model, run, x0);
      const Trace reference = simulate_from(model, run, analysis.x);

      VerifyRun r;
      r.amplitude = amplitude;
      r.step = step;
      r.diverged = trace.stats.status == integrators::Status::diverged;
      std::vector<double> modal(trace.samples());
      const auto nc = static_cast<std::size_t>(trace.contacts);
      const auto nq = static_cast<std::size_t>(model.nq);
      for (std::size_t k = 0; k < trace.samples(); ++k) {
        for (int c : lin.contacts)
          if (!(trace.indentation[k * nc + static_cast<std::size_t>(c)] > 0.0)) r.contact_opened = true;
        const Eigen::Map<const Eigen::VectorXd> q(trace.q.data() + k * nq, model.nq);
        const Eigen::Map<const Eigen::VectorXd> q_ref(reference.q.data() + std::min(k, reference.samples() - 1) * nq, model.nq);
        modal[k] = modal_row * configuration_difference(model, q, q_ref);
      }
      r.omega = zero_crossing_frequency(trace.time, modal);
      r.relative_error = (r.omega - check.predicted) / check.predicted;
      check.runs.push_back(r);
    }
    checks.push_back(check);
  }
  return checks;
}

}  // namespace dropsim
