#!/usr/bin/env bash
# Contact modes: analyse every scenarios/modes file, verify by simulation the
# bar, the quadruped, the resting box with friction and every friction
# scenario at rest, and run the modes scenarios through `dropsim run`.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/bin/dropsim
mkdir -p results/modes  # scripts/figures.py draws the mode figure from these
for f in scenarios/modes/*.json; do
  "$bin" modes --json "$f" > "results/modes/$(basename "$f")"
done
"$bin" modes --verify scenarios/modes/bar_two_supports.json
"$bin" modes --verify scenarios/modes/quadruped_two_limbs.json
"$bin" modes --verify scenarios/modes/box_friction_rest.json
# With friction the damped modes are verified, about rest or the steady creep
# regularised friction allows on a slope. The slope past its friction angle
# has no state to perturb about (it slides, accelerating); --verify refuses it
# with exit 2 and a sentence, which is checked here too.
for f in $(find scenarios/friction -name '*.json' | sort); do
  case "$(basename "$f")" in
    slope_sliding.json)
      status=0
      "$bin" modes --verify "$f" >/dev/null 2>&1 || status=$?
      [ "$status" -eq 2 ] || { echo "ci-modes: $f: expected exit 2 (no state at rest), got $status" >&2; exit 1; }
      ;;
    *) "$bin" modes --verify "$f" ;;
  esac
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" run scenarios/modes/*.json -o "$out"
