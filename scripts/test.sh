#!/usr/bin/env bash
# Builds everything if needed (dropsim, the tests and the benchmarks) and runs the whole test suite with ctest;
# the OpenSim-model tests too where ../shared/osim is beside the checkout (or DROPSIM_OPENSIM_MODELS names a folder).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/opensim-models.sh  # ../shared/osim beside the checkout, where it is (CI)
bash scripts/build.sh
ctest --test-dir build --output-on-failure --no-tests=error -j"$(nproc)"
