#!/usr/bin/env bash
# CI: HEAD against its parent commit on the paper suite and the work-precision
# suite at 1e-6 (scripts/bench-ab.sh defaults: about a minute of benchmark time
# when nothing is suspected, twice that when a suspect must be confirmed). HEAD's
# programs are those scripts/test.sh built in build/; the parent's are built in
# build-ab/. Fails on a confirmed slowdown beyond 10 % that bench/allowed-slowdowns.json
# does not allow. The report is printed here and kept in results/bench/ab/.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! git rev-parse --verify --quiet 'HEAD~1^{commit}' >/dev/null; then
  echo "ci-bench-ab: this checkout has no parent commit (a shallow clone): no timing comparison" >&2
  exit 0
fi
bash scripts/build.sh paper_suite_bench work_precision_bench
status=0
bash scripts/bench-ab.sh HEAD~1 HEAD --b-build build --pin-cpu 0 || status=$?
cat results/bench/ab/report.md 2>/dev/null || true
exit "$status"
