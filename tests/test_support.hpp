// Helpers shared by the tests: paths into the repository and running the built binary.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "io/scenario.hpp"

namespace dropsim::test {

inline std::string source_path(const std::string& relative) { return std::string(DROPSIM_SOURCE_DIR) + "/" + relative; }

inline io::Scenario paper_scenario(const std::string& stem) {
  return io::load_scenario(source_path("scenarios/paper/" + stem + ".json"));
}

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs a shell command line, capturing stdout and stderr.
inline CommandResult run_command(const std::string& line) {
  CommandResult r;
  const std::string command = line + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) r.output += buffer;
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Runs `dropsim ARGS` through the shell; ARGS must already be quoted.
inline CommandResult run_dropsim(const std::string& args) { return run_command(std::string(DROPSIM_BINARY) + " " + args); }

// Runs a Python script with Debian's python3 (and its h5py, numpy).
inline CommandResult run_python(const std::string& script) {
  std::string quoted = "'";
  for (char c : script) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return run_command("/usr/bin/python3 -c " + quoted + "'");
}

}  // namespace dropsim::test
