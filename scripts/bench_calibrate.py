#!/usr/bin/python3
"""How often the timing A/B cries wolf, and how often it catches a real slowdown
(docs/performance.md#calibration).

    scripts/bench_calibrate.py [--rounds N] [--spins S ...] [-- bench_ab options]

Builds two Release trees of this checkout in build-calib/: plain, and with the
test-only cost per right-hand side (-DDROPSIM_INJECT_RHS_COST=ON). Then runs
the whole A/B procedure of scripts/bench_ab.py (first round, confirmation
round, verdict) N times plain against plain (A/A: every failure is a false
alarm), and N times plain against the injected build for each spin count S.
Each benchmark's true slowdown at S is the median change pooled over all of
its rounds. Writes results/bench/calibration.json and prints the rates.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

from bench_ab import build_benchmarks, write_whole
from bench_verdict import median

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ["paper_suite_bench", "work_precision_bench"]


def progress(msg):
    print(f"bench-calibrate: {msg}", file=sys.stderr, flush=True)


def build(name, extra, skip):
    d = ROOT / "build-calib" / name
    if skip:
        return d
    progress(f"building {d}")
    return build_benchmarks(ROOT, d, PROGRAMS, extra)


def one_round(a, b, spins, out, ab_args):
    cmd = ["/usr/bin/python3", str(ROOT / "scripts/bench_ab.py"), "--a-build", str(a), "--b-build", str(b),
           "--out", str(out), *ab_args]
    if spins is not None:
        cmd += ["--b-env", f"DROPSIM_INJECTED_RHS_SPINS={spins}"]
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()[-600:]}")
    report = json.loads((out / "report.json").read_text())
    return done.returncode == 1, report


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=100, help="A/B procedures per setting (default 100)")
    ap.add_argument("--spins", type=int, nargs="*", default=[], help="injected spins per right-hand side")
    ap.add_argument("--skip-aa", action="store_true", help="only the injected settings")
    ap.add_argument("--no-build", action="store_true", help="use build-calib/ as it is (a second calibration "
                    "running beside a first)")
    ap.add_argument("--json", default="results/bench/calibration.json")
    ap.add_argument("--rounds-at", action="append", default=[], metavar="SPINS=N",
                    help="a different number of procedures for one spin count")
    a, ab_args = ap.parse_known_args(argv)
    ab_args = [x for x in ab_args if x != "--"]
    plain = build("plain", [], a.no_build)
    injected = build("injected", ["-DDROPSIM_INJECT_RHS_COST=ON"], a.no_build) if a.spins else None
    settings = ([] if a.skip_aa else [("A/A", plain, None)]) + [(f"spins {s}", injected, s) for s in a.spins]
    results = []
    rounds_at = {int(k): int(v) for k, v in (x.split("=", 1) for x in a.rounds_at)}
    scratch = ROOT / "build-calib" / ("ab-" + Path(a.json).stem)  # apart, so that two calibrations can run at once
    for label, b, spins in settings:
        failures, changes, caught, procedures = 0, {}, {}, []
        rounds = rounds_at.get(spins, a.rounds)
        for r in range(rounds):
            failed, report = one_round(plain, b, spins, scratch, ab_args)
            failures += failed
            procedures.append({"failed": failed, "benchmarks": [
                {k: row.get(k) for k in ("benchmark", "verdict", "change", "p_value", "confirmation")}
                for row in report["benchmarks"]]})
            for row in report["benchmarks"]:
                if "change" in row:
                    changes.setdefault(row["benchmark"], []).append(row["change"])
                    caught[row["benchmark"]] = caught.get(row["benchmark"], 0) + (row["verdict"] == "slower")
            progress(f"{label}: round {r + 1}/{rounds}, {failures} failed so far")
        results.append({"setting": label, "spins": spins, "rounds": rounds, "failed_rounds": failures,
                        "benchmarks": {name: {"true_change": median(cs), "flagged_rounds": caught[name],
                                              "changes": cs}
                                       for name, cs in sorted(changes.items())},
                        "procedures": procedures})
        print(f"{label}: {failures} of {rounds} rounds failed", flush=True)
        for name, cs in sorted(changes.items()):
            print(f"  {name:<52} median change {100 * median(cs):+6.1f} %, flagged in {caught[name]} rounds")
    out = ROOT / a.json
    out.parent.mkdir(parents=True, exist_ok=True)
    write_whole(out, json.dumps({"settings": ab_args, "results": results}, indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
