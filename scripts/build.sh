#!/usr/bin/env bash
# Configures (once) and builds Release into build/; the binary is build/bin/dropsim.
# Usage: scripts/build.sh [TARGET...]   (no target: everything, tests and benchmarks included)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}"
