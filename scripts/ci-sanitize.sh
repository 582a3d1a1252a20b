#!/usr/bin/env bash
# Builds the tests in build-asan/ (clang, AddressSanitizer + UndefinedBehaviorSanitizer;
# scripts/configure-asan.sh) and runs the whole suite there; any sanitizer report
# fails (UBSan does not recover).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/configure-asan.sh
cmake --build build-asan -j"$(nproc)"
# halt_on_error: the first report fails the test that triggered it; the tests run dropsim
# as a subprocess, and these settings reach it through the environment.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0:strict_string_checks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# OpenMPI leaks its own start-up allocations (ompi_op_base_op_select, MCA plugins that are
# dlclose'd before LSan can symbolise them), so the two-rank sweep runs with leak detection
# off; ASan's memory-error checks and UBSan stay on for it.
mpi_tests='TwoMpiRanks'
ctest --test-dir build-asan --output-on-failure --no-tests=error -j"$(nproc)" -E "$mpi_tests"
# Without MPI the binary has no two-rank sweep and there is nothing to run.
if ctest --test-dir build-asan -N -R "$mpi_tests" | grep -q 'Total Tests: [1-9]'; then
  ASAN_OPTIONS="${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}" \
    ctest --test-dir build-asan --output-on-failure --no-tests=error -R "$mpi_tests"
fi
