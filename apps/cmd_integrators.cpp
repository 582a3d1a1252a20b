// `dropsim integrators [--json]`: every integrator by name, its order and kind, and its undamped step limit.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "dropsim/integrators/stability.hpp"
#include "dropsim/integrators/sundials.hpp"

namespace dropsim::app {

namespace {

int list_integrators(bool as_json) {
  using namespace integrators;
  // 0 where unstable at every step, null where unconditionally stable.
  auto limit_json = [](const StepLimit& limit) {
    return limit.unconditional() ? nlohmann::json(nullptr) : nlohmann::json(limit.step);
  };
  nlohmann::json rows = nlohmann::json::array();
  if (!as_json)
    std::printf("%-20s %5s %-8s %-8s %14s  %s\n", "name", "order", "step", "kind", "undamped_h*w", "notes");
  for (const auto& m : methods) {
    nlohmann::json row = {{"name", m.name},         {"order", m.order},
                          {"adaptive", m.adaptive}, {"implicit", m.implicit},
                          {"description", m.description},
                          {"library", m.library == Library::sundials ? "sundials" : "dropsim"},
                          {"available", available(m)}};
    char value[32];
    if (!has_fixed_step_limit(m) || !available(m)) {
      // CVODE: variable order and step; `dropsim steplimit` gives each BDF / Adams order's stability.
      row["undamped_limit"] = available(m) ? "variable" : "not in this build";
      std::snprintf(value, sizeof value, "%s", available(m) ? "variable" : "-");
    } else {
      const StepLimit limit = undamped_limit(m.method);  // ARKODE's: of its default table
      row["undamped_limit"] = limit_json(limit);
      if (limit.unconditional()) std::snprintf(value, sizeof value, "unconditional");
      else if (limit.step == 0.0) std::snprintf(value, sizeof value, "unstable");
      else std::snprintf(value, sizeof value, "%.6f", limit.step);
    }
    if (m.method == Method::arkode_erk || m.method == Method::arkode_dirk) {
      nlohmann::json tables = nlohmann::json::array();
      for (const ButcherTable& t : butcher_tables(m.method))
        tables.push_back({{"name", t.name},
                          {"order", t.order},
                          {"embedded_order", t.embedded_order},
                          {"stages", t.stages},
                          {"undamped_limit", limit_json(step_limit(t, unit_oscillator()))}});
      row["butcher_tables"] = tables;
    }
    rows.push_back(row);
    if (!as_json) {
      const std::string note = available(m) ? std::string(m.description)
                                            : std::string(m.description) + " [not in this build: bash scripts/install-peers.sh]";
      std::printf("%-20s %5d %-8s %-8s %14s  %s\n", std::string(m.name).c_str(), m.order,
                  m.adaptive ? "adaptive" : "fixed", m.implicit ? "implicit" : "explicit", value, note.c_str());
    }
  }
  if (as_json) {
    std::cout << nlohmann::json{{"integrators", rows}, {"growth_tolerance", default_growth_tolerance}}.dump(2) << "\n";
  } else {
    std::printf("undamped_h*w: largest h*omega on q'' = -omega^2 q with spectral radius growth <= %g per radian\n",
                default_growth_tolerance);
  }
  return exit_ok;
}

}  // namespace

void add_integrators_command(CLI::App& app, Runner& run) {
  auto as_json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("integrators", "list the integrators: order, kind, undamped step limit h*omega");
  cmd->add_flag("--json", *as_json, "one JSON object on stdout");
  cmd->callback([as_json, &run] { run = [as_json] { return list_integrators(*as_json); }; });
}

}  // namespace dropsim::app
