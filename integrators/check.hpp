// DROPSIM_CHECK(condition, message): an invariant of dropsim's own code,
// checked in every build, Release included (as Drake's DRAKE_DEMAND). Bad
// input is never its business: that is io::InputError, exit 2, with the file,
// the path and the rule. A failed check is a bug in dropsim.
//
// It throws dropsim::InternalError rather than aborting: the stack unwinds, so
// the atomic writers remove their temporary files and nothing is left half
// written; `dropsim` reports the one line and exits 3 (internal error); a test
// checks a guard with EXPECT_THROW, no death test needed. It is a type of its
// own, derived from std::logic_error, so that no handler of bad input
// (InputError) or of I/O (IoError) takes it for theirs, and the fuzzers, which
// catch only those, stop on it.
//
// Here, in the lowest layer, so that every layer (integrators, sim, io, apps) can use it.
#pragma once

#include <stdexcept>
#include <string>

namespace dropsim {

class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// What DROPSIM_CHECK throws: "FILE:LINE: CONDITION failed: MESSAGE".
[[noreturn]] inline void check_failed(const char* file, int line, const char* condition, const std::string& message) {
  throw InternalError(std::string(file) + ":" + std::to_string(line) + ": " + condition + " failed: " + message);
}

}  // namespace dropsim

#define DROPSIM_CHECK(condition, message)                                               \
  do {                                                                                  \
    if (!(condition)) [[unlikely]]                                                      \
      ::dropsim::check_failed(__FILE__, __LINE__, "DROPSIM_CHECK(" #condition ")", message); \
  } while (false)
