// `dropsim integrators [--json]`: every integrator by name, its order and kind, and its undamped step limit.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "dropsim/integrators/stability.hpp"

namespace dropsim::app {

namespace {

int list_integrators(bool as_json) {
  using namespace integrators;
  nlohmann::json rows = nlohmann::json::array();
  if (!as_json)
    std::printf("%-20s %5s %-8s %-8s %14s  %s\n", "name", "order", "step", "kind", "undamped_h*w", "notes");
  for (const auto& m : methods) {
    const StepLimit limit = undamped_limit(m.method);
    nlohmann::json row = {{"name", m.name},         {"order", m.order},
                          {"adaptive", m.adaptive}, {"implicit", m.implicit},
                          {"description", m.description}};
    // 0 where unstable at every step, null where unconditionally stable.
    row["undamped_limit"] = limit.unconditional() ? nlohmann::json(nullptr) : nlohmann::json(limit.step);
    rows.push_back(row);
    if (!as_json) {
      char value[32];
      if (limit.unconditional()) std::snprintf(value, sizeof value, "unconditional");
      else if (limit.step == 0.0) std::snprintf(value, sizeof value, "unstable");
      else std::snprintf(value, sizeof value, "%.6f", limit.step);
      std::printf("%-20s %5d %-8s %-8s %14s  %s\n", std::string(m.name).c_str(), m.order,
                  m.adaptive ? "adaptive" : "fixed", m.implicit ? "implicit" : "explicit", value,
                  std::string(m.description).c_str());
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
