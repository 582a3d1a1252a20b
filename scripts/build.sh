#!/usr/bin/env bash
# Configures (once) and builds Release into build/. With no arguments it builds
# everything (tests and benchmarks too); `build.sh dropsim` builds only the
# command line, build/bin/dropsim. DROPSIM_WERROR=ON (CI) makes warnings errors;
# DROPSIM_OPENSIM_MODELS=DIR gives the tests OpenSim's example models.
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache, where installed (CI installs it): files shared with another checkout laid out the
# same way, such as the timing A/B's parent in build-ab/, compile once (scripts/bench_ab.py).
export CCACHE_BASEDIR="$PWD"
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}"
# DROPSIM_OPENSIM_MODELS (scripts/test.sh sets it): the folder of OpenSim's example models the tests read.
models=()
if [ -n "${DROPSIM_OPENSIM_MODELS:-}" ]; then models=(-DDROPSIM_OPENSIM_MODELS="$DROPSIM_OPENSIM_MODELS"); fi
cmake -S . -B build -DDROPSIM_WERROR="${DROPSIM_WERROR:-OFF}" "${models[@]}" >/dev/null
if [ $# -gt 0 ]; then
  cmake --build build -j"$(nproc)" --target "$@"
else
  cmake --build build -j"$(nproc)"
fi
