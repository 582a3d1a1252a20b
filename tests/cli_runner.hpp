// Runs the built `dropsim` (DROPSIM_BINARY) in a shell and captures exit status, stdout and stderr.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace dropsim::testing {

struct CliResult {
  int exit_code = -1;  // the shell reports death by signal N as 128 + N
  std::string out, err;
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

// A fresh empty directory under the system temp dir, unique per process and call.
inline std::filesystem::path fresh_directory(const std::string& stem) {
  static std::atomic<int> counter{0};
  const auto dir = std::filesystem::temp_directory_path() /
                   ("dropsim-" + stem + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// `prefix` goes before the binary in the shell command (e.g. "ulimit -f 4;").
inline CliResult run_dropsim(const std::vector<std::string>& args, const std::string& prefix = "") {
  const auto scratch = fresh_directory("cli");
  std::string cmd = prefix + " " + shell_quote(DROPSIM_BINARY);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " >" + shell_quote((scratch / "out").string()) + " 2>" + shell_quote((scratch / "err").string());
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(scratch / "out");
  r.err = slurp(scratch / "err");
  std::filesystem::remove_all(scratch);
  return r;
}

inline std::vector<std::filesystem::path> directory_entries(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> entries;
  for (const auto& e : std::filesystem::directory_iterator(dir)) entries.push_back(e.path());
  return entries;
}

}  // namespace dropsim::testing
