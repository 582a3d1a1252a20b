// Mode verification runs: perturbed simulations and frequency measurement.
#include "sim/modes_verify.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include "sim/multibody_simulate.hpp"

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
  const double smallest_indentation = lin.indentation.minCoeff();
  for (std::size_t n = 0; n < analysis.modes.size(); ++n) {
    const Mode& mode = analysis.modes[n];
    ModeCheck check;
    check.mode = static_cast<int>(n);
    check.predicted = mode.overdamped ? mode.omega : (mode.damped_omega > 0.0 ? mode.damped_omega : mode.omega);
    const double period = 2.0 * std::numbers::pi / check.predicted;
    double amplitude = settings.amplitude_fraction * smallest_indentation;
    double step = period / settings.steps_per_period;
    for (int level = 0; level < settings.levels; ++level, amplitude *= 0.5, step *= 0.5) {
      Eigen::VectorXd x0 = analysis.x;
      x0.tail(model.nu).setZero();
      advance_configuration(model, x0.head(model.nq), mode.shape * (amplitude / mode.gap_shape.cwiseAbs().maxCoeff()));
      RunSettings run;
      run.duration = settings.periods * period;
      run.output_interval = step;
      run.integrator.method = settings.method;
      run.integrator.step = step;
      const Trace trace = simulate_from(model, run, x0);

      VerifyRun r;
      r.amplitude = amplitude;
      r.step = step;
      r.diverged = trace.stats.status == integrators::Status::diverged;
      std::vector<double> modal(trace.samples());
      const auto nc = static_cast<std::size_t>(trace.contacts);
      for (std::size_t s = 0; s < trace.samples(); ++s) {
        double value = 0.0;
        for (std::size_t i = 0; i < lin.contacts.size(); ++i) {
          const double now = trace.indentation[s * nc + static_cast<std::size_t>(lin.contacts[i])];
          if (!(now > 0.0)) r.contact_opened = true;
          // gap - gap0 = -(indentation - indentation0)
          value -= mode.modal_row[static_cast<Eigen::Index>(i)] * (now - lin.indentation[static_cast<Eigen::Index>(i)]);
        }
        modal[s] = value;
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
