// Numbers in messages and text files, one way everywhere.
#pragma once

#include <cstdio>
#include <string>

namespace dropsim {

// `digits` significant digits in printf's %g style; 17 reads back as the same double.
inline std::string significant(double value, int digits) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, value);
  return buf;
}

}  // namespace dropsim
