#!/usr/bin/env bash
# The main job: the scaling paper's 14 drop tests -> results/paper/*.h5, a
# summary table, and the paper's Fig. 3 in results/figures/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
./build/bin/dropsim run scenarios/paper/*.json -o results/paper
/usr/bin/python3 scripts/figures.py
