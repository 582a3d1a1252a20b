#!/usr/bin/env bash
# CI: draw the figures from the paper runs and the transition-velocity study (into
# results/figures/, not tracked) and check that Fig. 3, the study's figure and the work-precision
# summary exist and are non-empty there and in docs/figures/ (the committed copies), and that the
# README shows them.
set -euo pipefail
cd "$(dirname "$0")/.."
DROPSIM=${DROPSIM:-build/bin/dropsim}
[ -x "$DROPSIM" ] || { echo "ci-figures: $DROPSIM not built" >&2; exit 2; }
"$DROPSIM" run scenarios/paper/*.json -o results/paper >/dev/null 2>&1
DROPSIM="$DROPSIM" bash scripts/friction-study.sh >/dev/null  # fails on a step-limit prediction gone wrong
/usr/bin/python3 scripts/figures.py
status=0
for stem in fig3_force_vs_tau fig3_force_vs_time transition_velocity work_precision_summary; do
  for dir in results/figures docs/figures; do
    for ext in png svg; do
      f="$dir/$stem.$ext"
      if [ ! -s "$f" ] || [ "$(stat -c %s "$f")" -lt 10000 ]; then
        echo "ci-figures: $f missing or nearly empty" >&2
        status=1
      fi
    done
  done
  grep -q "docs/figures/$stem.png" README.md 2>/dev/null ||
    { echo "ci-figures: docs/figures/$stem.png is not linked from the README" >&2; status=1; }
done
exit $status
