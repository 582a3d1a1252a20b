// Test support: run the built `dropsim` in a scratch directory and capture its exit status and output.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace dropsim::test {

struct CliResult {
  int code = -1;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A scratch directory per test process, removed at exit.
inline const std::filesystem::path& scratch() {
  struct Dir {
    std::filesystem::path path = std::filesystem::temp_directory_path() / ("dropsim_test_" + std::to_string(::getpid()));
    Dir() { std::filesystem::create_directories(path); }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
}

// Runs `dropsim ARGS` (ARGS already shell-quoted where needed).
inline CliResult dropsim(const std::string& args) {
  const auto out = scratch() / "stdout.txt", err = scratch() / "stderr.txt";
  const std::string cmd = std::string("'") + DROPSIM_BINARY + "' " + args + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

inline std::string quoted(const std::string& s) { return "'" + s + "'"; }

inline std::string paper_scenario(const std::string& name) {
  return std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper/" + name + ".json";
}

// Writes `scenario` to the scratch directory, runs it, returns the trace path ("" on failure).
inline std::string run_scenario(const nlohmann::json& scenario) {
  const std::string name = scenario.at("name");
  const auto file = scratch() / (name + ".json");
  std::ofstream(file) << scenario.dump();
  const CliResult r = dropsim("run -j 1 -o " + quoted(scratch().string()) + " " + quoted(file.string()));
  return r.code == 0 ? (scratch() / (name + ".h5")).string() : std::string();
}

}  // namespace dropsim::test
