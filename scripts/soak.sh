#!/usr/bin/env bash
# The soak: N random valid drops (default 1e6; every law and integrator) in one process, Release, all
# cores. Fails on a crash, an exception, a non-finite summary, a blow-up not reported as diverged, or
# memory that grows by more than 5 % (docs/reliability.md#soak). Usage: scripts/soak.sh [N [SEED]]
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target dropsim_soak
./build/bin/dropsim_soak --runs "${1:-1000000}" --seed "${2:-1}"
