// The friction modes' JSON and table, shared by `modes` and `osim modes`.
#include "apps/modes_report.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

#include "apps/json_values.hpp"
#include "dropsim/integrators/stability.hpp"
#include "dropsim/sim/format.hpp"

namespace dropsim::app {

namespace {

// rk4's predicted step limit on the damped problem the friction modes solve
// and on the frozen-geometry system `dropsim steplimit` uses.
struct StepLimits {
  double friction = 0.0, frozen = 0.0;  // s
};
// None (NaN) on a pose that would topple: no step keeps a growing root from growing.
StepLimits rk4_step_limits(const ModesAnalysis& a) {
  const double frozen = integrators::step_limit(integrators::Method::rk4, a.lin.linear_system()).step;
  if (!a.friction_growth_rates.empty()) return {std::numeric_limits<double>::quiet_NaN(), frozen};
  return {integrators::step_limit(integrators::Method::rk4, friction_system(a)).step, frozen};
}

bool has_friction_modes(const ModesAnalysis& a) { return !a.friction_modes.empty() || !a.friction_decay_rates.empty(); }

}  // namespace

void add_friction_modes_json(const ModesAnalysis& a, nlohmann::json& out) {
  if (!has_friction_modes(a)) return;
  out["friction_modes"] = nlohmann::json::array();
  for (const auto& m : a.friction_modes)
    out["friction_modes"].push_back({{"omega", m.omega}, {"damped_omega", m.damped_omega},
                                     {"frequency", m.damped_omega / (2.0 * std::numbers::pi)},
                                     {"damping_ratio", m.damping_ratio}, {"shape", values(m.shape)},
                                     {"rate_shape", values(m.rate_shape)}, {"gap_shape", values(m.gap_shape)}});
  out["friction_decay_rates"] = a.friction_decay_rates;
  out["friction_growth_rates"] = a.friction_growth_rates;
  out["friction_fastest"] = a.friction_fastest;
  const StepLimits h = rk4_step_limits(a);
  out["rk4_step_limit"] = number_or_null(h.friction);
  out["rk4_step_limit_frozen"] = h.frozen;
}

void print_friction_modes(const ModesAnalysis& a, const std::function<std::string(const Eigen::VectorXd&)>& describe) {
  if (!has_friction_modes(a)) return;
  std::printf("\nwith friction (damped quadratic problem (M s^2 + D s + K) x = 0, D = J^T C J + friction's damping:\n"
              "the modes a run shows, friction's damping holding the contact points back):\n");
  std::printf("  %4s %13s %11s %9s  shape (real part)\n", "#", "omega_d_rad/s", "|s|_rad/s", "zeta");
  for (std::size_t k = 0; k < a.friction_modes.size(); ++k) {
    const Mode& m = a.friction_modes[k];
    std::printf("  %4zu %13.6g %11.6g %9.4g  %s\n", k + 1, m.damped_omega, m.omega, m.damping_ratio, describe(m.shape).c_str());
  }
  std::printf("  real roots (overdamped), decay rate_1/s:");
  for (const double r : a.friction_decay_rates) std::printf(" %.6g", r);
  std::printf("%s\n", a.friction_decay_rates.empty() ? " none" : "");
  if (!a.friction_growth_rates.empty()) {
    std::printf("  UNSTABLE: real roots grow at");
    for (const double r : a.friction_growth_rates) std::printf(" %.6g", r);
    std::printf(" 1/s: the pose would topple\n");
  }
  const StepLimits h = rk4_step_limits(a);
  std::printf("  fastest |s| %.6g 1/s; rk4 step limit predicted: %s on these modes, %.6g s on the frozen geometry "
              "(as steplimit)\n",
              a.friction_fastest,
              std::isfinite(h.friction) ? (significant(h.friction, 6) + " s").c_str() : "none (a root grows)", h.frozen);
}

}  // namespace dropsim::app
