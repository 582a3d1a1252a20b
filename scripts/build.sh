#!/usr/bin/env bash
# Configures (once) and builds Release into build/; the binary is build/bin/dropsim.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
