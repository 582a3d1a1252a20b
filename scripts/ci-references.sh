#!/usr/bin/env bash
# CI gate: rerun the 14 paper scenarios and compare each to results/reference/ (atol 1e-8 on F/(Mg) against tau).
#
# Usage: scripts/ci-references.sh [OUTPUT_DIR]   (default: a temporary directory)
# Exit 0 when every run matches its reference, 1 when one moved, 2 on missing
# files. A trace that moves on purpose: scripts/regenerate-references.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
DROPSIM=${DROPSIM:-build/bin/dropsim}
[ -x "$DROPSIM" ] || { echo "ci-references: $DROPSIM not built (cmake --build build --target dropsim)" >&2; exit 2; }

if [ $# -ge 1 ]; then
  out=$1
  mkdir -p "$out"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
# The run's table and progress go to a log, shown only when a run fails.
if ! "$DROPSIM" run scenarios/paper/*.json -o "$out" >"$out/run.log" 2>&1; then
  cat "$out/run.log" >&2
  echo "ci-references: dropsim run failed" >&2
  exit 1
fi

pairs=()
for scenario in scenarios/paper/*.json; do
  name=$(basename "$scenario" .json)
  ref="results/reference/$name.h5"
  [ -f "$ref" ] || { echo "ci-references: $ref missing; run scripts/regenerate-references.sh" >&2; exit 2; }
  # The reference is A: its tau samples lie on the run's grid, so B is taken as sampled.
  pairs+=("$ref" "$out/$name.h5")
done
exec "$DROPSIM" compare --x tau --y force_normalized --atol 1e-8 --rtol 0 "${pairs[@]}"
