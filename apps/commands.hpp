// The dropsim subcommands: each registers itself on the CLI11 app and runs when chosen.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "dropsim/integrators/registry.hpp"

namespace dropsim::app {

// Exit statuses (docs/interface.md#exit-status): 0 ok, 1 a check failed or a run
// diverged, 2 bad input or an I/O failure, 3 an internal error (a bug: please report it).
enum ExitCode : int { exit_ok = 0, exit_check_failed = 1, exit_bad_input = 2, exit_internal_error = 3 };

// `--integrator NAME|all`: the methods a command reports on; InputError for an unknown name.
std::vector<integrators::Method> chosen_methods(const std::string& name);

// Each add_* registers a subcommand and sets `run` to its body when parsed.
using Runner = std::function<int()>;
void add_run_command(CLI::App& app, Runner& run);
void add_compare_command(CLI::App& app, Runner& run);
void add_scale_command(CLI::App& app, Runner& run);
void add_sweep_command(CLI::App& app, Runner& run);
void add_merge_command(CLI::App& app, Runner& run);
void add_integrators_command(CLI::App& app, Runner& run);
void add_steplimit_command(CLI::App& app, Runner& run);
void add_modes_command(CLI::App& app, Runner& run);
void add_osim_command(CLI::App& app, Runner& run);

// `dropsim --version`: version, git commit, and the optional parts this build has.
std::string version_text();
void add_version_flag(CLI::App& app);

}  // namespace dropsim::app
