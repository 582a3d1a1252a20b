#!/usr/bin/env bash
# Remakes every figure's input and redraws the committed figures in docs/figures/ (PNG and SVG).
# Run it on purpose, after a change that should show in the figures, and commit docs/figures/
# with the reason. The work-precision figure is redrawn only from a full benchmark run in
# results/bench/work_precision.json (docs/performance.md#reproduce gives the command); otherwise it
# keeps the committed run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/paper.sh >/dev/null         # results/paper/*.h5, results/curves/*.h5
bash scripts/ci-modes.sh >/dev/null      # results/modes/*.json
bash scripts/ci-steplimits.sh            # results/steplimits.json
bash scripts/friction-study.sh           # results/friction/transition_velocity.json
/usr/bin/python3 scripts/figures.py --update
git status --short docs/figures
