#!/usr/bin/env bash
# The main job: the scaling paper's 14 drop tests -> results/paper/*.h5, a
# summary table, and the paper's Fig. 3 and Fig. C.4 in results/figures/ (not tracked;
# the committed figures are docs/figures/, refreshed by scripts/update-figures.sh).
# Builds only the dropsim program: tests and benchmarks build in scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh dropsim
./build/bin/dropsim run scenarios/paper/*.json -o results/paper
# Fig. C.4 data: Hertz, OpenSim-default and scaled smoothing at R = 15 mm and 2 mm.
mkdir -p results/curves
for target in "emu_R0.015 37.8 10 0.015" "mouse_R0.002 0.02 4 0.002"; do
  read -r stem mass spheres radius <<<"$target"
  ./build/bin/dropsim scale --from scenarios/paper/human62_alpha-unscaled.json --to-mass "$mass" \
    --to-spheres "$spheres" --to-radius "$radius" --scale-dissipation --curve "results/curves/$stem.h5" >/dev/null
done
/usr/bin/python3 scripts/figures.py
