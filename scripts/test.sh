#!/usr/bin/env bash
# Builds everything if needed (dropsim, the tests and the benchmarks) and runs the whole test suite with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure --no-tests=error -j"$(nproc)"
