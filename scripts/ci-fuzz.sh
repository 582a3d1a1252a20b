#!/usr/bin/env bash
# Fuzzes each reader for a bounded time: the scenario parser and validator, then the
# trace reader behind compare, then the OpenSim model reader, then the OpenSim storage reader (default 60 s each). A crash, hang (>10 s per input),
# sanitizer report or leak fails. Usage: scripts/ci-fuzz.sh [SECONDS]
# Needs clang and libclang-rt-dev (libFuzzer); builds in build-asan/ (scripts/configure-asan.sh),
# whose objects the sanitizer test run shares. New finds go to build-asan/fuzz-run/<harness>/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
bash scripts/configure-asan.sh
cmake --build build-asan -j"$(nproc)" --target scenario_fuzz trace_fuzz osim_fuzz storage_fuzz
run=build-asan/fuzz-run
fuzz() {  # harness, then libFuzzer's options and corpus folders
  local harness=$1
  shift
  mkdir -p "$run/$harness/corpus" "$run/$harness/artifacts"
  echo "ci-fuzz: $harness for $seconds s" >&2
  "./build-asan/bin/$harness" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$run/$harness/artifacts/" -print_final_stats=1 "$@"
}
# Scenario seeds: every scenario we ship and every bad input of the corpus.
rm -rf "$run/seeds" && mkdir -p "$run/seeds"
find scenarios tests/bad_inputs -name '*.json' -exec cp -t "$run/seeds" {} +
fuzz scenario_fuzz -dict=fuzz/scenario.dict "$run/scenario_fuzz/corpus" "$run/seeds"
# The trace harness decodes any bytes into two traces: it needs no seeds, and long inputs
# from the start (each byte chooses part of a layout).
fuzz trace_fuzz -max_len=2048 -len_control=0 "$run/trace_fuzz/corpus"
# OpenSim seeds: the models written for the tests and the malformed-model corpus.
rm -rf "$run/osim-seeds" && mkdir -p "$run/osim-seeds"
find tests/data/osim tests/bad_inputs/osim -name '*.osim' -exec cp -t "$run/osim-seeds" {} +
fuzz osim_fuzz -dict=fuzz/osim.dict -max_len=16384 "$run/osim_fuzz/corpus" "$run/osim-seeds"
# Storage seeds: the malformed .sto/.mot files of the tests.
fuzz storage_fuzz -max_len=4096 "$run/storage_fuzz/corpus" tests/bad_inputs/storage
