#!/usr/bin/env bash
# The main job: the scaling paper's 14 drop tests -> results/paper/*.h5 and a summary table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
./build/bin/dropsim run scenarios/paper/*.json -o results/paper
