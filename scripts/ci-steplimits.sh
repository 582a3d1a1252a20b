#!/usr/bin/env bash
# CI: the step-limit table (every integrator x every paper drop) -> results/steplimits.json,
# a short benchmark run -> results/bench_integrators.json; fails on physics counters, never on timing.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)" --target dropsim integrators_bench
mkdir -p results
PY=/usr/bin/python3  # has h5py/jsonschema; the first python3 on PATH may not

# Short benchmark pass: cost per step and work-precision counters (recorded, not judged on time).
./build/bin/integrators_bench --benchmark_min_time=0.01 \
  --benchmark_out=results/bench_integrators.json --benchmark_out_format=json >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
./build/bin/dropsim integrators --json >"$tmp/integrators.json"
for f in scenarios/paper/*.json; do
  ./build/bin/dropsim steplimit "$f" --json >"$tmp/$(basename "$f")"
done

"$PY" - "$tmp" bench/steplimits_reference.json results/steplimits.json results/bench_integrators.json <<'PYEOF'
import json, math, os, sys
tmp, ref_path, out_path, bench_path = sys.argv[1:5]
integ = json.load(open(os.path.join(tmp, "integrators.json")))
runs = [json.load(open(os.path.join(tmp, f))) for f in sorted(os.listdir(tmp)) if f != "integrators.json"]
json.dump({"integrators": integ["integrators"], "scenarios": runs}, open(out_path, "w"), indent=1)
ref = json.load(open(ref_path))
bad = []
def close(a, b, rel):
    if a is None or b is None: return a is None and b is None
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)
# 1. Undamped limits and predicted limits must not move.
for row in integ["integrators"]:
    if isinstance(row["undamped_limit"], str): continue  # CVODE (variable order and step), or not in this build
    want = ref["undamped_limit"][row["name"]]
    if not close(row["undamped_limit"], want, 1e-6): bad.append(f"undamped limit of {row['name']}: {row['undamped_limit']} != {want}")
for run in runs:
    for row in run["integrators"]:
        want = ref["predicted_step"][run["scenario"]][row["name"]]
        if not close(row["predicted_step"], want, 1e-6): bad.append(f"{run['scenario']} {row['name']}: predicted {row['predicted_step']} != {want}")
        # 2. Measured/predicted in range: no explicit method may beat its equilibrium prediction by > 2 %,
        #    and none may fall below 0.5 of it (unless the search stopped at its cap, duration/20).
        r = row["ratio"]
        if r is not None and not row["measured_at_cap"] and not (0.5 <= r <= 1.02): bad.append(f"{run['scenario']} {row['name']}: measured/predicted {r}")
        if row["name"] == "central_difference" and not row["between_predictions"]:
            bad.append(f"{run['scenario']} central_difference: measured {row['measured_step']} outside [peak, equilibrium] predictions")
        if not row["stable"]: bad.append(f"{run['scenario']} {row['name']}: no stable step found")
# 3. Benchmark physics counters: every fixed-step run of the drop at 0.5 ms completes.
for b in json.load(open(bench_path))["benchmarks"]:
    if b["name"].startswith("BM_WorkPrecision") and b.get("peak_force_error", -1) < 0:
        bad.append(f"{b['name']} ({b.get('label')}): diverged at 0.5 ms")
print(f"steplimits: {len(runs)} scenarios x {len(integ['integrators'])} integrators -> {out_path}")
for b in bad: print("FAIL:", b)
sys.exit(1 if bad else 0)
PYEOF
