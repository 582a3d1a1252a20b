#!/usr/bin/env bash
# CI: draw the figures from the paper runs and check they exist, are non-empty and are linked from the README section.
set -euo pipefail
cd "$(dirname "$0")/.."
DROPSIM=${DROPSIM:-build/bin/dropsim}
[ -x "$DROPSIM" ] || { echo "ci-figures: $DROPSIM not built" >&2; exit 2; }
"$DROPSIM" run scenarios/paper/*.json -o results/paper >/dev/null 2>&1
/usr/bin/python3 scripts/figures.py
status=0
for stem in fig3_force_vs_tau fig3_force_vs_time; do
  for ext in png svg; do
    f="results/figures/$stem.$ext"
    if [ ! -s "$f" ] || [ "$(stat -c %s "$f")" -lt 10000 ]; then
      echo "ci-figures: $f missing or nearly empty" >&2
      status=1
    fi
  done
  grep -q "results/figures/$stem.png" README.md 2>/dev/null ||
    { echo "ci-figures: results/figures/$stem.png is not linked from the README" >&2; status=1; }
done
exit $status
