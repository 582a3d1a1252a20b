#!/usr/bin/env bash
# Regenerates results/reference/: the 14 paper runs at rtol 1e-12, recorded every 0.1 in tau, repacked compactly.
#
# Run this on purpose, after a physics change that is meant to move the traces,
# and commit the new files with the reason. scripts/ci-references.sh compares
# every paper run against these files at atol 1e-8 on F/(Mg) against tau.
set -euo pipefail
cd "$(dirname "$0")/.."
DROPSIM=${DROPSIM:-build/bin/dropsim}
PYTHON=/usr/bin/python3  # Debian's, with h5py; the python3 first on PATH may lack it
if [ ! -x "$DROPSIM" ]; then
  [ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
  cmake --build build -j2 --target dropsim
fi
command -v h5repack >/dev/null || { echo "regenerate-references: h5repack missing (Debian package hdf5-tools)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scenarios" "$tmp/full"
# Same scenarios, decimated output: tau = 0, 0.1, 0.2, ... lies on the paper
# grid (interval_tau 0.01), so the gate compares samples, never interpolates.
"$PYTHON" - "$tmp/scenarios" scenarios/paper/*.json <<'PY'
import json, os, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    with open(path) as f:
        s = json.load(f)
    s["output"] = {"interval_tau": 0.1}
    with open(os.path.join(out, os.path.basename(path)), "w") as f:
        json.dump(s, f, indent=2)
PY
"$DROPSIM" run "$tmp"/scenarios/*.json -o "$tmp/full" --rtol 1e-12
mkdir -p results/reference
rm -f results/reference/*.h5
# -L: the 1.10 file format's single-chunk index instead of one B-tree per
# dataset (a 223-sample trace shrinks from 60 kB to 30 kB).
for f in "$tmp"/full/*.h5; do
  h5repack -L -f SHUF -f GZIP=9 "$f" "results/reference/$(basename "$f")"
done
du -cb results/reference/*.h5 | tail -1 | awk '{printf "results/reference: %d files, %.0f kB\n", '"$(ls results/reference/*.h5 | wc -l)"', $1 / 1024}'
