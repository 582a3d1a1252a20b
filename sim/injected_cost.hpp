// Test-only: a known extra cost per right-hand side, for measuring how well the
// timing A/B (scripts/bench-ab.sh) catches a slowdown (scripts/bench-calibrate.sh).
// Compiled in only with -DDROPSIM_INJECT_RHS_COST=ON; the environment variable
// DROPSIM_INJECTED_RHS_SPINS sets the spins per evaluation (0 when unset).
#pragma once

#include <cstdlib>

namespace dropsim {

inline void injected_rhs_cost() {
  static const long spins = [] {
    const char* text = std::getenv("DROPSIM_INJECTED_RHS_SPINS");
    return text ? std::atol(text) : 0L;
  }();
  // A dependent chain the compiler may not fold: each spin costs one multiply-add's latency.
  double x = 1.0;
  for (long i = 0; i < spins; ++i) {
    x = x * 0.999999 + 1e-6;
    asm volatile("" : "+m"(x));
  }
}

}  // namespace dropsim
