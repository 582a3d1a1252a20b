#!/usr/bin/env bash
# Contact modes: analyse every scenarios/modes file, verify the bar and the
# quadruped by simulation, and run them all through `dropsim run`.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/bin/dropsim
mkdir -p results/modes  # scripts/figures.py draws the mode figure from these
for f in scenarios/modes/*.json; do
  "$bin" modes --json "$f" > "results/modes/$(basename "$f")"
done
"$bin" modes --verify scenarios/modes/bar_two_supports.json
"$bin" modes --verify scenarios/modes/quadruped_two_limbs.json
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" run scenarios/modes/*.json -o "$out"
