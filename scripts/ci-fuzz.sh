#!/usr/bin/env bash
# Fuzzes the scenario parser and validator for a bounded time (default 60 s); a crash,
# hang (>10 s per input), sanitizer report or leak fails. Usage: scripts/ci-fuzz.sh [SECONDS]
# Needs clang and libclang-rt-dev (libFuzzer); builds in build-fuzz/, apart from build/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DDROPSIM_FUZZ=ON -DDROPSIM_BUILD_TESTS=OFF -DDROPSIM_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target scenario_fuzz
# Seeds: every scenario we ship and every bad input of the corpus; new finds go to corpus/.
rm -rf build-fuzz/seeds && mkdir -p build-fuzz/seeds build-fuzz/corpus build-fuzz/artifacts
find scenarios tests/bad_inputs -name '*.json' -exec cp -t build-fuzz/seeds {} + 2>/dev/null || true
./build-fuzz/bin/scenario_fuzz -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -dict=fuzz/scenario.dict -artifact_prefix=build-fuzz/artifacts/ -print_final_stats=1 \
  build-fuzz/corpus build-fuzz/seeds
