// libFuzzer harness: any byte string through the scenario parser, validator and resource guard
// must end in a Scenario or an InputError, never a crash, hang, sanitizer report or other exception.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "dropsim/io/input_error.hpp"
#include "dropsim/io/run_budget.hpp"
#include "dropsim/io/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const dropsim::io::Scenario s = dropsim::io::parse_scenario(text, "fuzz.json");
    // What was accepted must reproduce itself (docs/interface.md: the `scenario` attribute of a
    // file reproduces the run), so the resolved form must parse again; if it does not, the
    // validator let through a value it cannot represent (an overflow to inf, say).
    try {
      (void)dropsim::io::parse_scenario(s.resolved.dump(), "fuzz.json (resolved)");
    } catch (const dropsim::io::InputError& e) {
      std::fprintf(stderr, "accepted scenario does not reproduce itself: %s\n", e.what());
      std::abort();
    }
    // The resource guard sees every accepted scenario before it runs.
    dropsim::io::check_run_budget(s);
  } catch (const dropsim::io::InputError&) {
    // Refusing bad input with a sentence is the expected outcome.
  }
  return 0;
}
