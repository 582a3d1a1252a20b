// `dropsim osim modes MODEL.osim [--setup forward.xml]`: contact modes frozen and
// articulated, each integrator's step limit, and whether a setup's step budget covers it.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <optional>

#include "apps/json_values.hpp"
#include "apps/modes_report.hpp"
#include "apps/osim_common.hpp"
#include "dropsim/integrators/registry.hpp"
#include "dropsim/integrators/stability.hpp"
#include "dropsim/sim/articulated_analysis.hpp"
#include "dropsim/sim/format.hpp"
#include "dropsim/sim/modes.hpp"

namespace dropsim::app {

namespace {

using nlohmann::json;

struct ModesOptions {
  std::string file, setup, integrator = "all";
  std::vector<std::string> coordinates;
  bool json = false;
};

std::string describe(const Eigen::VectorXd& shape, const std::vector<std::string>& names) {
  std::string out;
  for (Eigen::Index i = 0; i < shape.size(); ++i)
    if (std::abs(shape[i]) >= 0.05) out += (out.empty() ? "" : ", ") + names[static_cast<std::size_t>(i)] + " " + significant(shape[i], 3);
  return out;
}

struct LimitRow {
  std::string method;
  double step = 0.0;
};

std::vector<LimitRow> step_limits(const ModesAnalysis& a, const std::vector<integrators::Method>& methods) {
  std::vector<LimitRow> rows;
  if (a.lin.J.rows() == 0) return rows;
  const auto system = a.lin.linear_system();
  for (const auto m : methods) rows.push_back({std::string(integrators::info(m).name), integrators::step_limit(m, system).step});
  return rows;
}

json analysis_json(const ModesAnalysis& a, const std::vector<std::string>& speeds, const std::vector<std::string>& contact_names,
                   const std::vector<LimitRow>& step_limit_rows) {
  json modes = json::array();
  for (const auto& m : a.modes) {
    const int c = dominant_contact(m);
    modes.push_back({{"omega", m.omega}, {"frequency", m.omega / (2.0 * std::numbers::pi)}, {"damping_ratio", m.damping_ratio},
                     {"overdamped", m.overdamped}, {"shape", values(m.shape)},
                     {"dominant_contact", c >= 0 ? json(contact_names[static_cast<std::size_t>(a.lin.contacts[static_cast<std::size_t>(c)])]) : json(nullptr)}});
  }
  json contacts = json::array();
  for (const auto& c : a.contacts)
    contacts.push_back({{"name", contact_names[static_cast<std::size_t>(c.contact)]}, {"indentation", c.indentation}, {"force", c.force},
                        {"stiffness", c.stiffness}, {"effective_mass", c.effective_mass}, {"omega_single", c.omega_single}});
  json limits = json::array();
  for (const auto& r : step_limit_rows) limits.push_back({{"integrator", r.method}, {"predicted_step", number_or_null(r.step)}});
  json out = {{"speeds", speeds}, {"contacts", contacts}, {"modes", modes}, {"omega_max", a.omega_max}, {"step_limits", limits}};
  if (!a.decay_rates.empty()) out["decay_rates"] = a.decay_rates;
  out["stiffest"] = a.friction_stiffest ? "friction" : "normal";
  add_friction_modes_json(a, out);
  return out;
}

void print_analysis(const char* title, const ModesAnalysis& a, const std::vector<std::string>& speeds,
                    const std::vector<std::string>& contact_names) {
  std::printf("\n%s: %zu contacts compressed, %zu modes\n", title, a.contacts.size(), a.modes.size());
  std::printf("  %-20s %11s %11s %12s %10s\n", "contact", "force_N", "m_eff_kg", "omega_1", "t_c_s");
  for (const auto& c : a.contacts)
    std::printf("  %-20s %11.5g %11.5g %12.5g %10.4g\n", contact_names[static_cast<std::size_t>(c.contact)].c_str(), c.force,
                c.effective_mass, c.omega_single, 1.0 / c.omega_single);
  std::printf("  %4s %12s %9s %9s  %-20s shape\n", "mode", "omega_rad/s", "f_Hz", "zeta", "dominant contact");
  for (std::size_t k = 0; k < a.modes.size(); ++k) {
    const Mode& m = a.modes[k];
    const int c = dominant_contact(m);
    std::printf("  %4zu %12.5g %9.4g %9.3g  %-20s %s\n", k + 1, m.omega, m.omega / (2.0 * std::numbers::pi), m.damping_ratio,
                c >= 0 ? contact_names[static_cast<std::size_t>(a.lin.contacts[static_cast<std::size_t>(c)])].c_str() : "-",
                describe(m.shape, speeds).c_str());
  }
  if (!a.decay_rates.empty())
    std::printf("  friction decay: fastest %.5g 1/s (%s sets the stiffness)\n", a.decay_rates.front(),
                a.friction_stiffest ? "friction" : "a normal mode");
  print_friction_modes(a, [&](const Eigen::VectorXd& shape) { return describe(shape, speeds); });
}

int run_modes(const ModesOptions& o) {
  const Posed p = load_posed(o.file, o.coordinates);
  const FrozenAnalysis frozen = model_or_fail(o.file, [&] { return analyse_frozen(p.osim.model, p.q); });
  // Contact modes need the forces of a model at rest: a stance that was not
  // found has none worth analysing, and is reported without numbers.
  if (!frozen.at_equilibrium && !frozen.vertical.at_equilibrium)
    throw io::InputError(o.file, "/OpenSimDocument/Model",
                         "no static equilibrium on the vertical slider (" + frozen.vertical.no_equilibrium +
                             ") nor with every joint locked (" + frozen.no_equilibrium +
                             "); the contact modes need forces at rest: pose the model so that it stands (--coordinate NAME=VALUE)");
  std::optional<io::ForwardSettings> setup;
  if (!o.setup.empty()) setup = io::read_forward_setup(o.setup);
  const std::vector<integrators::Method> methods = chosen_methods(o.integrator);
  const auto contact_names = [](const MultibodyModel& m) {
    std::vector<std::string> names;
    for (const auto& c : m.contacts) names.push_back(c.name);
    return names;
  };
  std::vector<std::string> names;
  for (const auto& c : p.osim.model.contacts) names.push_back(c.name);

  // The paper's protocol: one vertical degree of freedom.
  std::optional<ModesAnalysis> vertical;
  if (frozen.vertical.at_equilibrium) vertical = analyse_modes(frozen.vertical.model, frozen.vertical.equilibrium.x);
  const auto vertical_limits = vertical ? step_limits(*vertical, methods) : std::vector<LimitRow>{};
  std::optional<ModelModes> modes;
  if (frozen.at_equilibrium) modes = model_or_fail(o.file, [&] { return analyse_model_modes(p.osim.model, p.q, frozen); });
  const auto frozen_limits = modes ? step_limits(modes->frozen, methods) : std::vector<LimitRow>{};
  const auto articulated_limits = modes ? step_limits(modes->articulated, methods) : std::vector<LimitRow>{};

  // Budget: an explicit run needs at least duration / min(limit, max step) steps.
  const auto budget = [&](double limit) -> json {
    if (!setup) return nullptr;
    const double h = std::isfinite(limit) ? std::min(limit, setup->max_step) : setup->max_step;
    const double steps = (setup->final_time - setup->initial_time) / h;
    return {{"min_steps", steps}, {"covered", steps <= setup->max_steps}};
  };
  if (o.json) {
    json out = {{"file", p.osim.file}, {"model", p.osim.model.name}, {"equilibrium", {{"found", frozen.at_equilibrium}}},
                {"vertical_equilibrium", {{"found", frozen.vertical.at_equilibrium}}}, {"warnings", frozen.warnings}};
    if (vertical)
      out["vertical"] = analysis_json(*vertical, frozen.vertical.model.speed_names(), contact_names(frozen.vertical.model), vertical_limits);
    if (modes) {
      out["frozen"] = analysis_json(modes->frozen, frozen.model.speed_names(), contact_names(frozen.model), frozen_limits);
      out["articulated"] = analysis_json(modes->articulated, modes->articulated_speeds, names, articulated_limits);
      out["articulated"]["pose"] = values(modes->pose);
      out["articulated"]["pose_at_equilibrium"] = modes->pose_at_equilibrium;
    }
    if (setup) {
      out["setup"] = {{"file", setup->file}, {"accuracy", setup->accuracy}, {"min_step", setup->min_step}, {"max_step", setup->max_step},
                      {"max_steps", setup->max_steps}, {"duration", setup->final_time - setup->initial_time}};
      for (std::size_t i = 0; i < articulated_limits.size(); ++i) out["articulated"]["step_limits"][i]["budget"] = budget(articulated_limits[i].step);
    }
    std::cout << out.dump(2) << "\n";
    return exit_ok;
  }
  std::printf("%s: contact modes at the %s pose (contact forces at rest)\n", p.osim.file.c_str(),
              o.coordinates.empty() ? "default" : "given");
  for (const auto& w : frozen.warnings) std::printf("warning: %s\n", w.c_str());
  if (vertical)
    print_analysis("vertical (the scaling paper's drop: the model on its vertical translation alone)", *vertical,
                   frozen.vertical.model.speed_names(), contact_names(frozen.vertical.model));
  if (modes) {
    print_analysis("frozen (every joint locked: one rigid body)", modes->frozen, frozen.model.speed_names(), contact_names(frozen.model));
    print_analysis(modes->pose_at_equilibrium ? "articulated (M(q) of the unlocked coordinates, at the frozen equilibrium's pose)"
                                              : "articulated (M(q) of the unlocked coordinates, at the pose given: the roots are not Free joints)",
                   modes->articulated, modes->articulated_speeds, names);
  } else {
    std::printf("\nno frozen equilibrium: no frozen or articulated modes (%s)\n", frozen.no_equilibrium.c_str());
  }
  std::printf("\npredicted largest stable fixed step (amplification of the linearised system):\n");
  std::printf("  %-20s %14s %14s %14s", "integrator", "vertical_s", "frozen_s", "articulated_s");
  if (setup && modes) std::printf("  %s", "min steps for the setup's run");
  std::printf("\n");
  const auto show = [](const std::vector<LimitRow>& rows, std::size_t i) {
    if (i >= rows.size()) return std::string("-");
    return std::isinf(rows[i].step) ? std::string("unconditional") : significant(rows[i].step, 5);
  };
  for (std::size_t i = 0; i < methods.size(); ++i) {
    std::printf("  %-20s %14s %14s %14s", std::string(integrators::info(methods[i]).name).c_str(), show(vertical_limits, i).c_str(),
                show(frozen_limits, i).c_str(), show(articulated_limits, i).c_str());
    if (setup && i < articulated_limits.size()) {
      const json b = budget(articulated_limits[i].step);
      std::printf("  %s%s", significant(b["min_steps"].get<double>(), 4).c_str(),
                  b["covered"].get<bool>() ? "" : (" > " + std::to_string(setup->max_steps) + ": the budget cannot cover it").c_str());
    }
    std::printf("\n");
  }
  if (setup)
    std::printf("setup %s: %g s at accuracy %g, steps %g to %g s, at most %d steps. An adaptive method takes at least "
                "the explicit limit's steps (more where accuracy binds).\n",
                setup->file.c_str(), setup->final_time - setup->initial_time, setup->accuracy, setup->min_step, setup->max_step,
                setup->max_steps);
  return exit_ok;
}

}  // namespace

void add_osim_modes(CLI::App* osim, Runner& run) {
  auto o = std::make_shared<ModesOptions>();
  CLI::App* cmd = osim->add_subcommand("modes", "contact modes frozen and articulated, and the step limit of each integrator");
  add_model_options(cmd, o->file, o->coordinates);
  cmd->add_flag("--json", o->json, "one JSON object on stdout");
  cmd->add_option("--setup", o->setup, "ForwardTool settings file: does its step budget cover the run?");
  cmd->add_option("--integrator", o->integrator, "integrator name or all (default): whose step limits to predict");
  cmd->callback([o, &run] { run = [o] { return run_modes(*o); }; });
}

}  // namespace dropsim::app
