// `dropsim modes FILE [--json] [--verify]`: equilibrium, effective masses, coupled modes, time scales.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <numbers>

#include "apps/commands.hpp"
#include "apps/json_values.hpp"
#include "apps/modes_report.hpp"
#include "dropsim/io/scenario.hpp"
#include "dropsim/sim/equilibrium.hpp"
#include "dropsim/sim/format.hpp"
#include "dropsim/sim/modes.hpp"
#include "dropsim/sim/modes_verify.hpp"

namespace dropsim::app {

namespace {

using nlohmann::json;

struct ModesOptions {
  std::string file;
  bool json = false;
  bool verify = false;
};

// A verified mode fails when its finest run misses the prediction by more than this.
constexpr double verify_tolerance = 0.005;

std::string contact_name(const MultibodyModel& m, int i) { return m.contacts[static_cast<std::size_t>(i)].name; }

// A measured frequency, or what stopped the measurement: never a number that was not measured.
std::string measured(double omega) { return std::isfinite(omega) ? significant(omega, 6) : "unmeasured"; }
std::string error_percent(double relative) {
  if (!std::isfinite(relative)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", 100.0 * relative);
  return text;
}

json to_json(const MultibodyModel& model, const io::Scenario& s, const Equilibrium* eq, const ModesAnalysis& a,
             const std::vector<ModeCheck>& checks) {
  json out;
  out["name"] = s.name;
  out["modes_at"] = s.modes_at;
  out["scenario"] = s.resolved;  // what a figure draws the bodies and contacts from
  out["equilibrium"] = {{"q", values(a.x.head(model.nq))}, {"coordinates", model.position_names()},
                        {"static", eq != nullptr}};
  if (eq) {
    out["equilibrium"]["iterations"] = eq->iterations;
    out["equilibrium"]["residual"] = eq->residual;
    out["equilibrium"]["creep_speed"] = eq->creep_speed;
    if (eq->creep_speed > 0.0) out["equilibrium"]["u"] = values(eq->x.tail(model.nu));
  }
  out["speeds"] = model.speed_names();
  json a_rows = json::array();
  for (Eigen::Index i = 0; i < a.A.rows(); ++i) a_rows.push_back(values(a.A.row(i).transpose()));
  out["A"] = a_rows;
  out["contacts"] = json::array();
  for (const auto& c : a.contacts)
    out["contacts"].push_back({{"index", c.contact}, {"name", contact_name(model, c.contact)},
                               {"indentation", c.indentation}, {"force", c.force}, {"stiffness", c.stiffness},
                               {"damping", c.damping}, {"effective_mass", c.effective_mass},
                               {"omega_single", c.omega_single}, {"t_c", 1.0 / c.omega_single},
                               {"period", 2.0 * std::numbers::pi / c.omega_single}});
  out["modes"] = json::array();
  for (const auto& m : a.modes)
    out["modes"].push_back({{"omega", m.omega}, {"frequency", m.omega / (2.0 * std::numbers::pi)},
                            {"t_c", 1.0 / m.omega}, {"period", 2.0 * std::numbers::pi / m.omega},
                            {"damping_ratio", m.damping_ratio}, {"damped_omega", m.damped_omega},
                            {"overdamped", m.overdamped}, {"shape", values(m.shape)},
                            {"gap_shape", values(m.gap_shape)}});
  out["loaded_modes"] = json::array();
  for (const auto& m : a.loaded_modes)
    out["loaded_modes"].push_back({{"omega", m.omega}, {"damping_ratio", m.damping_ratio},
                                   {"damped_omega", m.damped_omega}, {"overdamped", m.overdamped},
                                   {"shape", values(m.shape)}});
  out["unstable_loaded"] = a.unstable_loaded;
  out["redundant"] = a.redundant;
  out["free_motions"] = json::array();
  for (Eigen::Index k = 0; k < a.free_motions.cols(); ++k) out["free_motions"].push_back(values(a.free_motions.col(k)));
  out["omega_max"] = a.omega_max;
  out["t_c"] = a.t_c;
  out["period"] = a.period;
  out["step_20_per_period"] = a.step_20;
  if (!a.decay_rates.empty()) {
    out["decay_rates"] = a.decay_rates;
    out["stiffest"] = a.friction_stiffest ? "friction" : "normal";
  }
  add_friction_modes_json(a, out);
  if (!checks.empty()) {
    out["verification"] = json::array();
    for (const auto& c : checks) {
      json runs = json::array();
      for (const auto& r : c.runs)
        runs.push_back({{"amplitude", r.amplitude}, {"step", r.step},
                        {"omega", number_or_null(r.omega)},
                        {"relative_error", number_or_null(r.relative_error)},
                        {"contact_opened", r.contact_opened}, {"diverged", r.diverged}});
      out["verification"].push_back({{"mode", c.mode}, {"predicted", c.predicted},
                                     {"damping_ratio", c.damping_ratio}, {"too_damped", c.too_damped},
                                     {"runs", runs}});
    }
  }
  return out;
}

void print_text(const MultibodyModel& model, const io::Scenario& s, const Equilibrium* eq, const ModesAnalysis& a,
                const std::vector<ModeCheck>& checks) {
  if (eq)
    std::printf("%s: modes at static equilibrium (%d Newton iterations, force imbalance %.2g of the weight)\n",
                s.name.c_str(), eq->iterations, eq->residual);
  if (eq && eq->creep_speed > 0.0)
    std::printf("creeping: regularised friction holds the body only while it slips; steady creep at %.6g m/s "
                "(the fastest contact), u: %s\n",
                eq->creep_speed, describe_motion(model, eq->x.tail(model.nu)).c_str());
  if (!eq)
    std::printf("%s: modes at the initial configuration (frozen, not an equilibrium)\n", s.name.c_str());
  const auto qn = model.position_names();
  std::printf("q:");
  for (int i = 0; i < model.nq; ++i) std::printf("  %s %.6g", qn[static_cast<std::size_t>(i)].c_str(), a.x[i]);
  std::printf("\n\ncontacts: %zu of %zu compressed\n", a.contacts.size(), model.contacts.size());
  std::printf("  %-12s %13s %11s %13s %10s %10s %12s\n", "name", "indentation_m", "force_N", "stiffness_N/m",
              "m_eff_kg", "omega_1", "t_c_s");
  for (const auto& c : a.contacts)
    std::printf("  %-12s %13.5g %11.5g %13.5g %10.5g %10.5g %12.5g\n", contact_name(model, c.contact).c_str(),
                c.indentation, c.force, c.stiffness, c.effective_mass, c.omega_single, 1.0 / c.omega_single);
  std::printf("  (omega_1: each contact alone, rad/s; force per sphere; stiffness with count)\n\n");
  const auto un = model.speed_names();
  std::printf("coupled modes (K^1/2 A K^1/2):\n  %4s %11s %10s %11s %11s %9s %11s  shape\n", "#", "omega_rad/s", "f_Hz",
              "period_s", "t_c_s", "zeta", "omega_d");
  for (std::size_t k = 0; k < a.modes.size(); ++k) {
    const Mode& m = a.modes[k];
    std::printf("  %4zu %11.5g %10.5g %11.5g %11.5g %9.4g %11.5g  %s%s\n", k + 1, m.omega,
                m.omega / (2.0 * std::numbers::pi), 2.0 * std::numbers::pi / m.omega, 1.0 / m.omega, m.damping_ratio,
                m.damped_omega, describe_motion(model, m.shape).c_str(), m.overdamped ? " (overdamped)" : "");
  }
  std::printf("redundant gap coordinates (zero eigenvalues, not modes): %d\n", a.redundant);
  std::printf("with load stiffness (full tangent -df/dq: weight and contact points move with the pose):\n  omega_rad/s:");
  for (const auto& m : a.loaded_modes) std::printf(" %.5g", m.omega);
  std::printf("%s\n", a.unstable_loaded ? "  UNSTABLE: the pose would topple" : "");
  std::printf("free motions (J du = 0, no contact stiffness): %s\n", a.free_motions.cols() ? "" : "none");
  for (Eigen::Index k = 0; k < a.free_motions.cols(); ++k)
    std::printf("  %s\n", describe_motion(model, a.free_motions.col(k)).c_str());
  if (a.omega_max > 0.0)
    std::printf("\nfastest mode: omega %.5g rad/s, t_c %.5g s, period %.5g s; 20 steps a period: h <= %.5g s\n",
                a.omega_max, a.t_c, a.period, a.step_20);
  if (!a.decay_rates.empty()) {
    std::printf("friction (and overdamped) decay, real eigenvalues: rate_1/s (time constant_s):");
    for (const double r : a.decay_rates) std::printf(" %.6g (%.3g)", r, 1.0 / r);
    std::printf("\nstiffest: %s (fastest decay %.6g 1/s against omega_max %.6g rad/s)\n",
                a.friction_stiffest ? "friction" : "a normal mode", a.decay_rates.front(), a.omega_max);
  }
  const bool friction = a.lin.friction_damping.size() != 0;
  if (friction) print_friction_modes(a, [&](const Eigen::VectorXd& shape) { return describe_motion(model, shape); });
  if (checks.empty()) return;
  if (friction)
    std::printf("\nverification of the friction modes (rk4 at fixed step, from equilibrium started on the mode alone:\n"
                "displaced along its shape, moving at Re(s v); until it decays 1000x, up to 20 periods; measured:\n"
                "zero crossings of the modal coordinate, against the damped frequency Im s)%s:\n",
                a.friction_growth_rates.empty() ? ""
                                                : ";\nthe pose would topple: a run started on one mode alone leaves the toppling unexcited to first order");
  else
    std::printf("\nverification of the modes with load stiffness (rk4 at fixed step, from rest at equilibrium +\n"
                "amplitude x mode shape, up to 20 periods; measured: zero crossings of the modal coordinate):\n");
  std::printf("  %4s %11s %12s %11s %11s %10s  %s\n", "mode", "predicted", "amplitude_m", "step_s", "measured",
              "error_%", "contacts");
  for (const auto& c : checks) {
    if (c.too_damped)
      std::printf("  %4d %11.6g  too damped to measure: zeta %.3g, decays 1000x within %.3g periods (not counted)\n",
                  c.mode + 1, c.predicted, c.damping_ratio, min_periods);
    for (const auto& r : c.runs)
      std::printf("  %4d %11.6g %12.4g %11.4g %11s %10s  %s\n", c.mode + 1, c.predicted, r.amplitude, r.step,
                  measured(r.omega).c_str(),
                  error_percent(r.relative_error).c_str(),
                  r.diverged ? "diverged" : r.contact_opened ? "a contact OPENED" : "stayed closed");
  }
}

int run_modes(const ModesOptions& o) {
  const io::Scenario s = io::load_scenario(o.file);
  const MultibodyModel model = s.multibody() ? *s.multibody() : multibody_from_drop(s.drop());
  const bool at_equilibrium = s.modes_at == "equilibrium";
  Equilibrium eq;
  Eigen::VectorXd x = model.initial_state();
  if (at_equilibrium) {
    try {
      eq = static_equilibrium(model, x);
    } catch (const EquilibriumError& e) {
      throw io::InputError(s.file, "/modes_at", e.what());
    }
    x = eq.x;
  } else if (o.verify) {
    throw io::InputError(s.file, "/modes_at", "--verify perturbs about static equilibrium: it needs modes_at \"equilibrium\"");
  }
  const ModesAnalysis analysis = analyse_modes(model, x);
  const std::vector<ModeCheck> checks = o.verify ? verify_modes(model, analysis) : std::vector<ModeCheck>{};
  const Equilibrium* eq_ptr = at_equilibrium ? &eq : nullptr;
  if (o.json) std::cout << to_json(model, s, eq_ptr, analysis, checks).dump(2) << "\n";
  else print_text(model, s, eq_ptr, analysis, checks);

  int code = exit_ok;
  for (const auto& c : checks) {
    if (c.too_damped) continue;  // reported as such, nothing was measured
    const VerifyRun& finest = c.runs.back();
    if (!std::isfinite(finest.omega)) {
      std::fprintf(stderr, "dropsim: %s: mode %d (%.6g rad/s predicted) could not be measured: fewer than 3 zero crossings\n",
                   s.file.c_str(), c.mode + 1, c.predicted);
      code = exit_check_failed;
    } else if (!(std::abs(finest.relative_error) <= verify_tolerance)) {
      std::fprintf(stderr, "dropsim: %s: mode %d measured %.6g rad/s against %.6g predicted (beyond %.2g %%)\n",
                   s.file.c_str(), c.mode + 1, finest.omega, c.predicted, 100.0 * verify_tolerance);
      code = exit_check_failed;
    }
  }
  return code;
}

}  // namespace

void add_modes_command(CLI::App& app, Runner& run) {
  auto o = std::make_shared<ModesOptions>();
  CLI::App* cmd = app.add_subcommand("modes", "equilibrium, effective mass per contact, coupled contact modes");
  cmd->add_option("file", o->file, "scenario JSON file")->required();
  cmd->add_flag("--json", o->json, "one JSON object on stdout");
  cmd->add_flag("--verify", o->verify, "measure each mode's frequency by simulation and compare");
  cmd->callback([o, &run] { run = [o] { return run_modes(*o); }; });
}

}  // namespace dropsim::app
