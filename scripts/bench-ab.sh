#!/usr/bin/env bash
# Interleaved A/B timing of two revisions: scripts/bench-ab.sh BASE [HEAD] [options].
# Builds each revision's benchmark programs in build-ab/<commit>/, runs them in
# turns and fails (exit 1) only on a confirmed, significant slowdown beyond the
# threshold (docs/performance.md#ab-comparison). --help lists the options.
set -euo pipefail
cd "$(dirname "$0")/.."
exec /usr/bin/python3 scripts/bench_ab.py "$@"
