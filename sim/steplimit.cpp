// Predicted and measured step limits of the 1-DOF drop.
#include "sim/steplimit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dropsim {

double equilibrium_indentation(const DropModel& model) {
  const double per_sphere = model.mass * model.gravity / model.spheres;
  auto force = [&](double x) { return contact_response(model.law, x, 0.0).force; };
  double lo = 0.0, hi = model.law.radius > 0.0 ? 1e-3 * model.law.radius : 1e-6;
  while (force(hi) < per_sphere) {
    lo = hi;
    hi *= 2.0;
  }
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (force(mid) < per_sphere ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

integrators::LinearSystem linearize_drop(const DropModel& model, double indentation) {
  const ContactResponse c = contact_response(model.law, indentation, 0.0);
  const Eigen::MatrixXd m = Eigen::MatrixXd::Constant(1, 1, model.mass);
  return {m, Eigen::MatrixXd::Constant(1, 1, model.spheres * c.stiffness),
          Eigen::MatrixXd::Constant(1, 1, model.spheres * c.damping)};
}

double peak_indentation(const DropModel& model, const RunSettings& reference) {
  const Trace trace = simulate(model, reference);
  const auto& x = trace.indentation;
  if (x.empty()) return 0.0;
  const auto k = static_cast<std::size_t>(std::max_element(x.begin(), x.end()) - x.begin());
  if (k == 0 || k + 1 >= x.size()) return x[k];
  // Vertex of the parabola through three equally spaced samples.
  const double a = x[k - 1], b = x[k], c = x[k + 1], curvature = a - 2.0 * b + c;
  if (!(curvature < 0.0)) return b;
  const double s = 0.5 * (a - c) / curvature;
  return b - 0.25 * (a - c) * s;
}

bool has_peak_prediction(const ContactLaw& law) {
  return law.kind == ContactLawKind::hertz || law.kind == ContactLawKind::hunt_crossley;
}

bool settles_with_step(const DropModel& model, const RunSettings& run, integrators::Method method, double h,
                       double equilibrium, double settle_tolerance) {
  RunSettings r = run;
  r.integrator.method = method;
  r.integrator.fixed = true;
  r.integrator.step = h;
  // Sample every k steps (k whole, so the steps are exactly h) and keep ~4000 samples.
  r.output_interval = h * std::max(1.0, std::floor(run.duration / (4000.0 * h)));
  const Trace trace = simulate(model, r);
  if (trace.stats.status != integrators::Status::ok || trace.samples() < 2) return false;
  const std::size_t n = trace.samples(), from = n - std::max<std::size_t>(1, n / 10);
  for (std::size_t i = from; i < n; ++i)
    if (!(std::abs(trace.indentation[i] - equilibrium) <= settle_tolerance * equilibrium)) return false;
  return true;
}

DropStepLimit drop_step_limit(const DropModel& model, const RunSettings& run, integrators::Method method, double peak,
                              const StepLimitOptions& options) {
  DropStepLimit out;
  out.method = method;
  out.tolerance = options.growth_tolerance;
  const double x_eq = equilibrium_indentation(model);
  out.predicted_step = integrators::step_limit(method, linearize_drop(model, x_eq), options.growth_tolerance).step;
  out.predicted_step_peak =
      has_peak_prediction(model.law)
          ? integrators::step_limit(method, linearize_drop(model, peak), options.growth_tolerance).step
          : std::numeric_limits<double>::quiet_NaN();

  auto ok = [&](double h) { return settles_with_step(model, run, method, h, x_eq, options.settle_tolerance); };
  const double cap = run.duration / 20.0;
  // A stable lower end: from below both predictions, halving down to 1e-7 s.
  double guess = out.predicted_step;
  if (std::isfinite(out.predicted_step_peak)) guess = std::min(guess, out.predicted_step_peak);
  if (!(guess > 0.0) || !std::isfinite(guess)) guess = out.predicted_step > 0.0 ? cap : 1e-4;
  double lo = std::min(0.5 * guess, cap);
  while (!ok(lo)) {
    lo *= 0.5;
    if (lo < 1e-7) return out;  // nothing stable in reach: measured 0
  }
  // An unstable upper end: doubling up to the cap.
  double hi = std::min(std::max(2.0 * lo, 1.5 * guess), cap);
  while (hi <= cap && ok(hi)) {
    lo = hi;
    if (hi == cap) {
      out.measured_step = cap;
      out.measured_at_cap = true;
      return out;
    }
    hi = std::min(2.0 * hi, cap);
  }
  while (hi - lo > options.precision * hi) {
    const double mid = 0.5 * (lo + hi);
    (ok(mid) ? lo : hi) = mid;
  }
  out.measured_step = lo;
  return out;
}

}  // namespace dropsim
