#!/usr/bin/env bash
# Fuzzes the scenario parser and validator for a bounded time (default 60 s); a crash,
# hang (>10 s per input), sanitizer report or leak fails. Usage: scripts/ci-fuzz.sh [SECONDS]
# Needs clang and libclang-rt-dev (libFuzzer); builds in build-asan/ (scripts/configure-asan.sh),
# whose objects the sanitizer test run shares.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
bash scripts/configure-asan.sh
cmake --build build-asan -j"$(nproc)" --target scenario_fuzz
# Seeds: every scenario we ship and every bad input of the corpus; new finds go to corpus/.
rm -rf build-asan/fuzz-run/seeds && mkdir -p build-asan/fuzz-run/seeds build-asan/fuzz-run/corpus build-asan/fuzz-run/artifacts
find scenarios tests/bad_inputs -name '*.json' -exec cp -t build-asan/fuzz-run/seeds {} + 2>/dev/null || true
./build-asan/bin/scenario_fuzz -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -dict=fuzz/scenario.dict -artifact_prefix=build-asan/fuzz-run/artifacts/ -print_final_stats=1 \
  build-asan/fuzz-run/corpus build-asan/fuzz-run/seeds
