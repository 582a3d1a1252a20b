// Test-only: a known extra cost per right-hand side, for measuring how well the
// timing A/B (scripts/bench-ab.sh) catches a slowdown (scripts/bench_calibrate.py).
// Compiled in only with -DDROPSIM_INJECT_RHS_COST=ON; the environment variable
// DROPSIM_INJECTED_RHS_SPINS sets the spins per evaluation (0 when unset).
#pragma once

#include <cstdlib>

namespace dropsim {

// Returns 0 by a chain of `spins` dependent multiply-adds that starts from `seed`;
// the caller adds it to a derivative, which puts the chain on the step's
// critical path: out-of-order execution cannot hide it beside other work.
inline double injected_rhs_cost(double seed) {
  static const long spins = [] {
    const char* text = std::getenv("DROPSIM_INJECTED_RHS_SPINS");
    return text ? std::atol(text) : 0L;
  }();
  double x = seed;
  for (long i = 0; i < spins; ++i) {
    x = x * 0.999999 + 1e-6;
    asm volatile("" : "+m"(x));  // through memory: never folded, on any target
  }
  return 0.0 * x;  // IEEE: 0 for any finite x, and no compiler may drop x
}

}  // namespace dropsim
