// The tests' one way to run programs: the built `dropsim` (DROPSIM_BINARY), a
// shell line or Debian's python3, with exit status, stdout and stderr captured.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace dropsim::test {

struct CliResult {
  int exit_code = -1;  // the shell reports death by signal N as 128 + N
  std::string out, err;
  std::string output() const { return out + err; }
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string source_path(const std::string& relative) { return std::string(DROPSIM_SOURCE_DIR) + "/" + relative; }
inline std::string paper_scenario_path(const std::string& stem) { return source_path("scenarios/paper/" + stem + ".json"); }

// A fresh empty directory under the system temp dir, unique per process and call.
inline std::filesystem::path fresh_directory(const std::string& stem) {
  static std::atomic<int> counter{0};
  const auto dir = std::filesystem::temp_directory_path() /
                   ("dropsim-" + stem + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// A scratch directory per test process, removed at exit.
inline const std::filesystem::path& scratch() {
  struct Dir {
    std::filesystem::path path = fresh_directory("scratch");
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
}

inline std::vector<std::filesystem::path> directory_entries(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> entries;
  for (const auto& e : std::filesystem::directory_iterator(dir)) entries.push_back(e.path());
  return entries;
}

// Runs a shell command line; `prefix` goes before it (e.g. "ulimit -f 4;").
inline CliResult run_command(const std::string& line, const std::string& prefix = "") {
  const auto dir = fresh_directory("cli");
  const std::string cmd = prefix + " " + line + " >" + shell_quote((dir / "out").string()) + " 2>" +
                          shell_quote((dir / "err").string());
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  std::filesystem::remove_all(dir);
  return r;
}

// `dropsim ARGS`, each argument quoted here.
inline CliResult run_dropsim(const std::vector<std::string>& args, const std::string& prefix = "") {
  std::string line = shell_quote(DROPSIM_BINARY);
  for (const auto& a : args) line += " " + shell_quote(a);
  return run_command(line, prefix);
}

// `dropsim ARGS` with ARGS a shell fragment, already quoted where needed.
inline CliResult dropsim(const std::string& args) { return run_command(shell_quote(DROPSIM_BINARY) + " " + args); }

// Runs a Python script with Debian's python3 (and its h5py, numpy).
inline CliResult run_python(const std::string& script) { return run_command("/usr/bin/python3 -c " + shell_quote(script)); }

// Writes `scenario` to the scratch directory, runs it, returns the trace path ("" on failure).
inline std::string run_scenario(const nlohmann::json& scenario) {
  const std::string name = scenario.at("name");
  const auto file = scratch() / (name + ".json");
  std::ofstream(file) << scenario.dump();
  const CliResult r = dropsim("run -j 1 -o " + shell_quote(scratch().string()) + " " + shell_quote(file.string()));
  return r.exit_code == 0 ? (scratch() / (name + ".h5")).string() : std::string();
}

}  // namespace dropsim::test
