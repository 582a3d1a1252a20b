// Progress on stderr, for terminals and for logs alike.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>

namespace dropsim::app {

inline bool stderr_is_terminal() {
  static const bool terminal = isatty(STDERR_FILENO) != 0;
  return terminal;
}

// One status line: redrawn in place on a terminal; in a log (CI, a file) each
// update is a line of its own, since carriage returns pile up into one line there.
inline void print_progress(const std::string& line, bool last) {
  if (stderr_is_terminal()) std::fprintf(stderr, "\r%s%s", line.c_str(), last ? "\n" : "");
  else std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace dropsim::app
