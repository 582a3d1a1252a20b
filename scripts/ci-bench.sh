#!/usr/bin/env bash
# Short work-precision benchmark for CI: times are indicative, never a gate;
# it still writes the ratios to results/bench/work_precision.json (not tracked; the
# committed full run behind docs/performance.md's tables is docs/figures/work_precision.json).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
cmake --build "$BUILD" -j2 --target work_precision_bench
# Simbody (when built) runs only at 1e-4 … 1e-6 here (about a minute): its tight settings take minutes.
"$BUILD/bin/work_precision_bench" --benchmark_min_time=0.01 \
  --benchmark_filter='dropsim|floor|Hdf5WriteOnly|simbody_[a-z0-9_]+/1e-0[4-6]' \
  --json "${JSON:-results/bench/work_precision.json}"
