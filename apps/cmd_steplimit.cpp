// `dropsim steplimit FILE [--integrator NAME|all] [--json]`: predicted and measured largest stable steps.
#include <cmath>
#include <cstdio>
#include <limits>
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/json_values.hpp"
#include "dropsim/integrators/multistep_stability.hpp"
#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/format.hpp"
#include "dropsim/sim/steplimit.hpp"

namespace dropsim::app {

namespace {

struct StepLimitCommand {
  std::string file;
  std::string integrator = "all";
  bool json = false;
};

std::string format_step(double v) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return "unconditional";
  if (v == 0.0) return "unstable";
  return significant(v, 6);
}

// The fixed orders a variable-order code (CVODE: BDF 1-5, Adams 1-12) moves
// between, on the modes linearised at equilibrium: which are stable at every
// step, and the steps where the others grow (docs/physics.md#multistep-methods).
nlohmann::json multistep_orders(const integrators::LinearSystem& modes, bool print) {
  nlohmann::json rows = nlohmann::json::array();
  std::string stable_everywhere;
  for (const integrators::MultistepMethod& m : integrators::cvode_orders()) {
    const integrators::MultistepStability s = integrators::multistep_stability(m, modes);
    nlohmann::json bands = nlohmann::json::array();
    std::string text;
    for (const integrators::StepBand& b : s.unstable) {
      bands.push_back({b.from, number_or_null(b.to)});
      text += (text.empty() ? "" : ", ") + ("(" + significant(b.from, 4) + ", " +
                                            (std::isinf(b.to) ? std::string("inf") : significant(b.to, 6)) + ")");
    }
    rows.push_back({{"name", m.name()}, {"unconditionally_stable", s.unconditional()}, {"unstable_steps", bands}});
    if (!print) continue;
    if (s.unconditional()) stable_everywhere += (stable_everywhere.empty() ? "" : " ") + m.name();
    else std::printf("  %-8s unstable for h in %s s\n", m.name().c_str(), text.c_str());
  }
  if (print) std::printf("  stable at every step: %s\n", stable_everywhere.empty() ? "none" : stable_everywhere.c_str());
  return rows;
}

// Multi-contact scenarios: coupled modes at equilibrium against a kicked nonlinear run.
int multibody_step_limits(const StepLimitCommand& o, const io::Scenario& s,
                          const std::vector<integrators::Method>& chosen) {
  nlohmann::json rows = nlohmann::json::array();
  if (!o.json)
    std::printf("%-20s %14s %14s %9s  %s\n", "integrator", "predicted_s", "measured_s", "meas/pred", "limited_by");
  for (const auto m : chosen) {
    StepLimitReport r;
    try {
      r = multibody_step_limit(*s.multibody(), s.run, m);
    } catch (const EquilibriumError& e) {
      // The limits are predicted and measured about a body at rest.
      throw io::InputError(s.file, "", e.what());
    }
    rows.push_back({{"name", integrators::info(m).name},
                    {"predicted_step", number_or_null(r.predicted_step)},
                    {"predicted_step_peak", nullptr},
                    {"unconditionally_stable", std::isinf(r.predicted_step)},
                    {"measured_step", r.measured_step},
                    {"measured_at_cap", r.measured_at_cap},
                    {"ratio", number_or_null(r.ratio())},
                    {"stable", r.measured_step > 0.0},
                    {"limited_by", r.limited_by_friction ? "friction" : "normal"}});
    if (!o.json)
      std::printf("%-20s %14s %14s %9s  %s\n", std::string(integrators::info(m).name).c_str(),
                  format_step(r.predicted_step).c_str(),
                  (format_step(r.measured_step) + (r.measured_at_cap ? "+" : "")).c_str(),
                  std::isfinite(r.ratio()) ? std::to_string(r.ratio()).substr(0, 6).c_str() : "-",
                  r.limited_by_friction ? "friction" : "normal");
  }
  if (!o.json) {
    std::printf("measured: from equilibrium, kicked in every contact mode; largest fixed step whose mechanical "
                "energy stays within 1e4 kick energies over >= 500 periods (bisection, 0.1 %%)\n");
    std::printf("CVODE's fixed orders on the coupled modes at equilibrium (growth <= %g per radian):\n",
                integrators::default_growth_tolerance);
  }
  const nlohmann::json orders = multistep_orders(rest_state(*s.multibody()).linearization.linear_system(), !o.json);
  if (o.json)
    std::cout << nlohmann::json{{"scenario", s.name},
                                {"growth_tolerance", integrators::default_growth_tolerance},
                                {"integrators", rows},
                                {"multistep_orders", orders}}
                     .dump(2)
              << "\n";
  return exit_ok;
}

int step_limits(const StepLimitCommand& o) {
  const io::Scenario s = io::load_scenario(o.file);
  const std::vector<integrators::Method> chosen = chosen_methods(o.integrator);

  if (s.multibody()) return multibody_step_limits(o, s, chosen);

  const DropModel& drop = s.drop();
  const DropModes modes = drop_modes(drop, s.run);
  const double x_eq = modes.equilibrium.indentation, x_peak = modes.peak.indentation;
  const double omega_eq = modes.equilibrium.omega, omega_peak = modes.peak.omega;
  const double zeta_eq = modes.equilibrium.damping_ratio;

  nlohmann::json rows = nlohmann::json::array();
  if (!o.json) {
    std::printf("%s: equilibrium indentation %.6g m (omega %.6g rad/s, damping ratio %.4g), peak %.6g m (omega %.6g rad/s)\n",
                s.name.c_str(), x_eq, omega_eq, zeta_eq, x_peak, omega_peak);
    std::printf("%-20s %14s %14s %14s %9s %14s %9s %14s  %s\n", "integrator", "predicted_s", "predicted_peak",
                "measured_s", "meas/pred", "linear_s", "lin/pred", "bounded_s", "bracketed by");
  }
  for (const auto m : chosen) {
    const StepLimitReport r = drop_step_limit(drop, s.run, m, x_peak);
    const bool stable = r.measured_step > 0.0;
    const bool bracketed = r.between_predictions();
    const double linear_ratio = r.linear_ratio();
    const bool slow_growth = r.linear_growth_unseen();
    rows.push_back({{"name", integrators::info(m).name},
                    {"predicted_step", number_or_null(r.predicted_step)},
                    {"predicted_step_peak", number_or_null(r.predicted_step_peak)},
                    {"unconditionally_stable", std::isinf(r.predicted_step)},
                    {"measured_step", r.measured_step},
                    {"measured_at_cap", r.measured_at_cap},
                    {"ratio", number_or_null(r.ratio())},
                    {"between_predictions", bracketed},
                    {"stable", stable},
                    {"measured_linear_step", r.measured_linear_step},
                    {"measured_linear_at_cap", r.measured_linear_at_cap},
                    {"linear_ratio", number_or_null(linear_ratio)},
                    {"predicted_linear_run_step", number_or_null(r.predicted_linear_run_step)},
                    {"slow_growth", slow_growth},
                    {"bounded_step", r.bounded_step},
                    {"bounded_at_cap", r.bounded_at_cap}});
    if (!o.json)
      std::printf("%-20s %14s %14s %14s %9s %14s %9s %14s  %s\n", std::string(integrators::info(m).name).c_str(),
                  format_step(r.predicted_step).c_str(), format_step(r.predicted_step_peak).c_str(),
                  (format_step(r.measured_step) + (r.measured_at_cap ? "+" : "")).c_str(),
                  std::isfinite(r.ratio()) ? std::to_string(r.ratio()).substr(0, 6).c_str() : "-",
                  (format_step(r.measured_linear_step) + (r.measured_linear_at_cap ? "+" : "")).c_str(),
                  std::isfinite(linear_ratio)
                      ? (std::to_string(linear_ratio).substr(0, 6) + (slow_growth ? "*" : "")).c_str()
                      : "-",
                  (format_step(r.bounded_step) + (r.bounded_at_cap ? "+" : "")).c_str(),
                  bracketed ? "peak..equilibrium" : "-");
  }
  if (!o.json) {
    std::printf("measured: largest fixed step that stays bounded and settles within 1 %% of the equilibrium "
                "(bisection, 0.1 %%); '+' = still stable at duration/20\n"
                "linear: from the equilibrium with a small kick, energy within 100 kicks over 500 periods; "
                "bounded: the full drop does not diverge, settled or not; '*' = beyond the prediction, growth too "
                "slow to reach ten kick amplitudes over the linear run\n");
    std::printf("CVODE's fixed orders on the mode at equilibrium (growth <= %g per radian):\n",
                integrators::default_growth_tolerance);
  }
  const nlohmann::json orders = multistep_orders(modes.equilibrium.system, !o.json);
  if (o.json) {
    std::cout << nlohmann::json{{"scenario", s.name},
                                {"equilibrium_indentation", x_eq},
                                {"peak_indentation", x_peak},
                                {"omega_equilibrium", omega_eq},
                                {"omega_peak", omega_peak},
                                {"damping_ratio_equilibrium", zeta_eq},
                                {"growth_tolerance", integrators::default_growth_tolerance},
                                {"settle_tolerance", StepLimitOptions{}.settle_tolerance},
                                {"integrators", rows},
                                {"multistep_orders", orders}}
                     .dump(2)
              << "\n";
  }
  return exit_ok;
}

}  // namespace

std::vector<integrators::Method> chosen_methods(const std::string& name) {
  std::vector<integrators::Method> chosen;
  if (name == "all") {
    for (const auto& m : integrators::methods)
      if (integrators::has_fixed_step_limit(m) && integrators::available(m)) chosen.push_back(m.method);
  } else if (const auto* m = integrators::find_method(name)) {
    if (!integrators::has_fixed_step_limit(*m))
      throw io::InputError("--integrator", "", std::string(m->name) +
                                                   " chooses its own step and order: no fixed-step limit (the drop's "
                                                   "table of BDF and Adams orders says which orders are stable)");
    if (!integrators::available(*m)) throw io::InputError("--integrator", "", integrators::unavailable_message(m->name));
    chosen.push_back(m->method);
  } else {
    throw io::InputError("--integrator", "", "unknown integrator \"" + name + "\"");
  }
  return chosen;
}

void add_steplimit_command(CLI::App& app, Runner& run) {
  auto o = std::make_shared<StepLimitCommand>();
  CLI::App* cmd = app.add_subcommand("steplimit", "predicted (linearised) and measured (nonlinear) largest stable step");
  cmd->add_option("file", o->file, "scenario JSON file (drop or multi-contact form)")->required();
  cmd->add_option("--integrator", o->integrator, "integrator name or all (default)");
  cmd->add_flag("--json", o->json, "one JSON object on stdout");
  cmd->callback([o, &run] { run = [o] { return step_limits(*o); }; });
}

}  // namespace dropsim::app
