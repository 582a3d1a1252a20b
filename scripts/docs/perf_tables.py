#!/usr/bin/python3
"""The tables of docs/performance.md, generated from the committed benchmark run.

    /usr/bin/python3 scripts/docs/perf_tables.py [--write] [--doc DOC] [--json JSON]

Each table in DOC stands between the lines

    <!-- generated: NAME (scripts/docs/perf_tables.py) -->
    <!-- end generated: NAME -->

and is rebuilt here from JSON (default docs/figures/work_precision.json, the run
scripts/figures.py --update commits). Without --write the script checks: it
exits 1, printing DOC:LINE and both versions of the first differing line,
when a table differs from what the JSON gives, when a block is missing, or
when a block names no table this script makes, or when DOC is longer than
300 lines. --write rewrites the blocks.
Python 3 standard library only.
"""
import argparse
import glob
import json
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PAPER_RUNS = len(glob.glob(os.path.join(ROOT, "scenarios/paper/*.json")))
MAX_LINES = 300
BEGIN = re.compile(r"^<!-- generated: ([a-z0-9-]+) \(scripts/docs/perf_tables\.py\) -->$")
END = "<!-- end generated: %s -->"

PAPER_METHODS = [
    ("dropsim_dopri5", "dropsim `dopri5`, every column recorded (`dropsim run`)"),
    ("dropsim_dopri5_states", "dropsim `dopri5`, state recorded, `F/(M g)` derived"),
    ("dropsim_dopri5_summary", "dropsim `dopri5`, summary only (sweeps)"),
    ("dropsim_dopri5+hdf5", "dropsim `dopri5` + %d HDF5 files" % PAPER_RUNS),
    ("floor", "floor, no reports"),
    ("floor+reports", "floor + reports"),
    ("dropsim_rk_merson", "dropsim `rk_merson`"),
    ("dropsim_cvode_bdf", "dropsim `cvode_bdf`"),
    ("dropsim_cvode_adams", "dropsim `cvode_adams`"),
    ("dropsim_arkode_erk", "dropsim `arkode_erk`"),
    ("dropsim_arkode_dirk", "dropsim `arkode_dirk`"),
    ("simbody_cpodes", "Simbody CPodes"),
    ("simbody_rk3", "Simbody RungeKutta3"),
    ("simbody_rkmerson", "Simbody RungeKuttaMerson"),
]
SUITES = [("box_on_edge", "box"), ("quadruped_friction", "quadruped"), ("bar_rocking", "bar")]
SIMBODY_NAMES = {
    "simbody_cpodes": "CPodes", "simbody_rk3": "RungeKutta3", "simbody_rkmerson": "RungeKuttaMerson",
    "simbody_rkfeldberg": "RungeKuttaFeldberg",
}


def ms(seconds):
    value = seconds * 1e3
    if value >= 100:
        return "%.0f" % value
    if value >= 10:
        return "%.1f" % value
    if value >= 1:
        return "%.2f" % value
    return "%.3f" % value


def sci(x):
    return "%.1e" % x


def ratio(x):
    return ("%.0f×" if x >= 100 else "%.2f×" if x < 10 else "%.1f×") % x


def targets(data):
    return sorted(data["matched"], key=float, reverse=True)


def target_label(t):
    return "≤ %.0e" % float(t)


def simbody_name(method):
    base = method.split(":")[-1]
    interpolated = base.endswith("_interpolated")
    name = SIMBODY_NAMES[base.replace("_interpolated", "")]
    return name + (" interpolated" if interpolated else "")


def cell(text):
    return str(text).replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def tol(x):
    short = "%.0e" % x
    return short if float(short) == x else "%g" % x


def table_run(data):
    ref = data["reference"]
    rows = [("date", data["date"]), ("machine", data["machine"]),
            ("reference", "%s at rtol %s" % (ref["integrator"], tol(ref["rtol"]))),
            ("time", data["time"]), ("error", data["error"]), ("multi-contact error", data["multi_contact_error"])]
    return ["| the committed run | |", "|---|---|"] + ["| %s | %s |" % (k, cell(v)) for k, v in rows]


def table_paper(data):
    lines = ["| target | method | setting | suite CPU ms | max error | / dropsim `dopri5` |",
             "|---|---|---|---:|---:|---:|"]
    for t in targets(data):
        best = data["matched"][t]["best"]
        base = best["dropsim_dopri5"]["suite_seconds"]
        for key, label in PAPER_METHODS:
            if key not in best:
                ran = any(r["method"] == key for r in data["runs"])
                lines.append("| %s | %s | %s | | | |" % (target_label(t), label, "not reached" if ran else "not run"))
                continue
            b = best[key]
            setting = ("accuracy %s" if key.startswith("simbody") else "rtol %s") % tol(b["tolerance"])
            lines.append("| %s | %s | %s | %s | %s | %s |" % (target_label(t), label, setting, ms(b["suite_seconds"]),
                                                             sci(b["max_error"]), ratio(b["suite_seconds"] / base)))
    return lines


def table_multi(data):
    lines = ["| target | suite | dropsim `--no-attribution` | dropsim, attribution | floor | Simbody's best | "
             "Simbody's best / dropsim `--no-attribution` | dropsim `--no-attribution` / floor |",
             "|---|---|---|---|---|---|---:|---:|"]
    for t in targets(data):
        best = data["matched"][t]["best"]
        for suite, label in SUITES:
            def cell(key):
                b = best.get("%s:%s" % (suite, key))
                return None if b is None else b
            lean, full, floor, simbody = (cell("dropsim_dopri5_no_attribution"), cell("dropsim_dopri5"),
                                          cell("floor"), cell("simbody_best"))
            def run(b):
                return "not reached or not run" if b is None else "rtol %s: %s ms, %s" % (tol(b["tolerance"]), ms(b["suite_seconds"]),
                                                                               sci(b["max_error"]))
            if simbody is None:
                ran = any(r["method"].startswith(suite + ":simbody") for r in data["runs"])
                sim = "not reached" if ran else "not run"
            else:
                sim = "%s %s: %s ms, %s" % (simbody_name(simbody["method"]), tol(simbody["tolerance"]),
                                            ms(simbody["suite_seconds"]), sci(simbody["max_error"]))
            over = ratio(simbody["suite_seconds"] / lean["suite_seconds"]) if simbody and lean else "—"
            under = ratio(lean["suite_seconds"] / floor["suite_seconds"]) if lean and floor else "—"
            lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (target_label(t), label, run(lean), run(full),
                                                                     run(floor), sim, over, under))
    return lines


def table_hdf5(data):
    h = data["hdf5_write_only"]
    return ["| `BM_Hdf5WriteOnly`: the %d traces of rtol %s written, CPU ms |" % (PAPER_RUNS, tol(h["rtol"])), "|---:|",
            "| %s |" % ms(h["suite_seconds"])]


TABLES = {"run": table_run, "paper-suite": table_paper, "multi-contact": table_multi, "hdf5": table_hdf5}


def blocks(lines):
    """Yields (name, first line index inside, end line index) of each generated block."""
    i = 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        if m:
            name = m.group(1)
            for j in range(i + 1, len(lines)):
                if lines[j] == END % name:
                    yield name, i + 1, j
                    i = j
                    break
            else:
                yield name, i + 1, None
        i += 1


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--doc", default=os.path.join(ROOT, "docs/performance.md"))
    parser.add_argument("--json", default=os.path.join(ROOT, "docs/figures/work_precision.json"))
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    with open(args.json, encoding="utf-8") as f:
        data = json.load(f)
    with open(args.doc, encoding="utf-8") as f:
        lines = f.read().split("\n")
    failures, seen, out, last = [], set(), [], 0
    for name, start, end in blocks(lines):
        if end is None:
            failures.append("%s:%d: generated block %s has no end line" % (args.doc, start, name))
            continue
        if name not in TABLES:
            failures.append("%s:%d: no table is generated under the name %s" % (args.doc, start, name))
            continue
        seen.add(name)
        expected = TABLES[name](data)
        out += lines[last:start] + expected
        last = end
        have = lines[start:end]
        for k in range(max(len(have), len(expected))):
            a = have[k] if k < len(have) else "(nothing)"
            b = expected[k] if k < len(expected) else "(nothing)"
            if a != b:
                failures.append("%s:%d: table %s differs from %s:\n  document: %s\n  the JSON: %s"
                                % (args.doc, start + k + 1, name, os.path.relpath(args.json, ROOT), a, b))
                break
    out += lines[last:]
    count = len("\n".join(lines).rstrip("\n").split("\n"))
    if count > MAX_LINES:
        failures.append("%s:%d: %d lines, more than %d: the page states the current state; history goes to "
                        "docs/history/" % (args.doc, count, count, MAX_LINES))
    for name in sorted(set(TABLES) - seen):
        failures.append("%s: no generated block %s (the JSON's table is not shown)" % (args.doc, name))
    if args.write:
        with open(args.doc, "w", encoding="utf-8") as f:
            f.write("\n".join(out))
        failures = [x for x in failures if "differs" not in x]
    for f in failures:
        print(f)
    print("perf_tables: %d failure(s), %d tables" % (len(failures), len(seen)), file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
