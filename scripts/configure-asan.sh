#!/usr/bin/env bash
# Configures build-asan/, the one instrumented tree CI builds: clang with ASan,
# UBSan and libFuzzer coverage, so the whole test suite (scripts/ci-sanitize.sh)
# and the fuzz harnesses (scripts/ci-fuzz.sh) share every compiled object.
# -O1 with line tables only: the sanitizers' usual setting, and far quicker to
# compile and link than -O2 -g. Needs clang (scripts/install-ci-tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang++ >/dev/null; then
  echo "configure-asan: clang++ not found; scripts/install-ci-tools.sh installs it" >&2
  exit 2
fi
# A tree configured by an older version of this script with GCC cannot switch compilers.
if [ -f build-asan/CMakeCache.txt ] && ! grep -q '^CMAKE_CXX_COMPILER:.*clang++' build-asan/CMakeCache.txt; then
  echo "configure-asan: build-asan/ was configured with another compiler; starting it afresh with clang" >&2
  rm -rf build-asan
fi
source scripts/opensim-models.sh
models=()
if [ -n "${DROPSIM_OPENSIM_MODELS:-}" ]; then models=(-DDROPSIM_OPENSIM_MODELS="$DROPSIM_OPENSIM_MODELS"); fi
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# The Simbody peer tests stay in the main build: Simbody itself is not
# instrumented, and its headers are the slowest files to compile.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DDROPSIM_FUZZ=ON -DDROPSIM_BUILD_TESTS=ON -DDROPSIM_BUILD_BENCH=OFF -DDROPSIM_PEER_TESTS=OFF \
  "${models[@]}" "${launcher[@]}" >/dev/null
