#!/usr/bin/python3
"""Interleaved A/B timing of two builds of dropsim (docs/performance.md#ab-comparison).

    scripts/bench-ab.sh BASE [HEAD]          two revisions, each built in build-ab/<commit>/
    scripts/bench_ab.py --a-build D1 --b-build D2   two existing build folders (calibration)

Runs the benchmark programs of A and B in turns, A B B A A B ..., each turn
with repetitions, so that drift of a shared machine falls on both; takes each
turn's median as one sample per benchmark and gives a verdict
(scripts/bench_verdict.py). A
suspected slowdown is measured again in a second interleaved round and fails
(exit 1) only when that round confirms it. A slowdown an entry of
bench/allowed-slowdowns.json covers, where HEAD adds the entry, is reported
as allowed. Bad arguments exit 2; a report (table on stdout, report.json,
report.md) is written whole or not at all.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import bench_verdict

ROOT = Path(__file__).resolve().parent.parent
ALLOW_LIST = "bench/allowed-slowdowns.json"
# What CI compares: the paper suite end to end and the work-precision suite at 1e-6,
# recording and summary-only (docs/performance.md#ab-comparison).
DEFAULT_BENCHES = [
    "paper_suite_bench=^BM_PaperSuite$",
    "work_precision_bench=^BM_WorkPrecision/(dropsim_dopri5|dropsim_dopri5_summary)/1e-06$",
]


class UsageError(Exception):
    pass


def progress(msg):
    print(f"bench-ab: {msg}", file=sys.stderr, flush=True)


def git(*args, cwd=ROOT):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def resolve(rev):
    try:
        return git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except subprocess.CalledProcessError:
        raise UsageError(f"'{rev}' is not a commit of {ROOT} (a shallow clone lacks older commits)")


def build_revision(sha, programs):
    """build-ab/<sha>/build with the benchmark programs of that commit, checked out in build-ab/<sha>.

    The checkout and its build/ sit as the clone and its build/ do, so that with
    ccache (CCACHE_BASEDIR, scripts/build.sh) every file the commits share is
    compiled once: the parent's build then costs a link, not a compile."""
    src = ROOT / "build-ab" / sha[:12]
    if not (src / ".git").exists():
        if src.exists():  # an older layout, or a checkout cut short
            shutil.rmtree(src)
            git("worktree", "prune")
        progress(f"checking out {sha[:12]} in {src}")
        src.parent.mkdir(parents=True, exist_ok=True)
        git("worktree", "add", "--force", "--detach", str(src), sha)
    progress(f"building {', '.join(programs)} of {sha[:12]}")
    return build_benchmarks(src, src / "build", programs)


def build_benchmarks(src, build, programs, extra_flags=()):
    """Configures and builds `programs` of the tree `src` in `build`: Release, as scripts/build.sh."""
    flags = ["-DCMAKE_BUILD_TYPE=Release", "-DDROPSIM_BUILD_TESTS=OFF", "-DDROPSIM_BUILD_BENCH=ON",
             f"-DDROPSIM_WERROR={os.environ.get('DROPSIM_WERROR', 'OFF')}", *extra_flags]  # the flags of build/
    env = dict(os.environ)
    if shutil.which("ccache"):
        flags.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        env["CCACHE_BASEDIR"] = str(ROOT)  # paths relative to the build: the same in every checkout
    subprocess.run(["cmake", "-S", str(src), "-B", str(build), *flags], check=True, stdout=subprocess.DEVNULL, env=env)
    subprocess.run(["cmake", "--build", str(build), f"-j{os.cpu_count() or 2}", "--target", *programs],
                   check=True, stdout=subprocess.DEVNULL, env=env)
    return build


def checked_build_dir(path, programs):
    d = Path(path)
    for p in programs:
        if not os.access(d / "bin" / p, os.X_OK):
            raise UsageError(f"{d}: no bin/{p} (build it first: scripts/build.sh {p})")
    return d


def allowances(base_sha, head_sha):
    """The allow-list entries HEAD's tree has and BASE's has not."""
    def read(sha):
        if sha is None:
            return []
        try:
            text = git("show", f"{sha}:{ALLOW_LIST}")
        except subprocess.CalledProcessError:
            return []
        where = f"{ALLOW_LIST} at {sha[:12]}"
        try:
            entries = json.loads(text)["allowances"]
        except (ValueError, KeyError, TypeError) as e:
            raise UsageError(f"{where}: expected {{\"allowances\": [...]}} ({e})")
        for i, e in enumerate(entries):
            ok = (isinstance(e, dict) and isinstance(e.get("benchmark"), str) and isinstance(e.get("reason"), str)
                  and e["reason"].strip() and isinstance(e.get("max_slowdown"), (int, float)) and e["max_slowdown"] > 0)
            if not ok:
                raise UsageError(f"{where}: /allowances/{i}: needs benchmark (a regex), max_slowdown (> 0, "
                                 "a fraction) and a non-empty reason")
            try:
                re.compile(e["benchmark"])
            except re.error as err:
                raise UsageError(f"{where}: /allowances/{i}/benchmark: not a regular expression ({err})")
        return entries
    old = read(base_sha)
    return [e for e in read(head_sha) if e not in old]


def run_rounds(builds, benches, rounds, repetitions, min_time, out_dir, tag, env_b, pin_cpu):
    """Every turn's JSON, per side: {'A': [paths], 'B': [paths]}; benches = [(program, filter)]."""
    files = {"A": [], "B": []}
    # Turn 0 warms the machine, the page cache and the CPU's frequency up and is not counted:
    # the first process of a run was 5-50 % slower than the rest when measured.
    for r in range(rounds + 1):
        for side in ("AB" if r % 2 == 0 else "BA"):
            for program, flt in benches:
                progress(f"{tag} turn {r}/{rounds}: {side} {program}")
                out = out_dir / f"{tag}_{r:02d}_{side}_{program}.json"
                pin = ["taskset", "-c", str(pin_cpu)] if pin_cpu is not None else []
                cmd = pin + [str(builds[side] / "bin" / program), f"--benchmark_filter={flt}",
                       f"--benchmark_repetitions={repetitions}", f"--benchmark_min_time={min_time}",
                       f"--benchmark_out={out}", "--benchmark_out_format=json"]
                if program == "work_precision_bench":
                    cmd.append(f"--json={out_dir / 'work_precision_summary.json'}")  # its own report, unused here
                env = dict(os.environ, **(env_b if side == "B" else {}))
                done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                if done.returncode != 0:
                    raise RuntimeError(f"{' '.join(cmd[:len(pin) + 1])} exited {done.returncode}: "
                                       f"{done.stderr.strip()[-400:]}")
                if not out.exists() or out.stat().st_size == 0:
                    raise RuntimeError(f"{program}: the filter {flt!r} matched no benchmark")
                if r > 0:
                    files[side].append(out)
    return files


def program_of(files):
    """benchmark name -> program, from the first round's files."""
    out = {}
    for path in files:
        program = path.stem.split("_", 3)[3]
        for run in json.loads(path.read_text())["benchmarks"]:
            out[run.get("run_name", run["name"])] = program
    return out


def regex_literal(name):
    """name as a regular expression matching only itself, in the syntax of any regex engine
    Google Benchmark may be built with (POSIX extended or ECMAScript): only their shared
    special characters are escaped (Python's re.escape escapes '-', which POSIX leaves undefined)."""
    return re.sub(r"([.\[\]()*+?{}|^$\\])", r"\\\1", name)


def write_whole(path, text):
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", nargs="?", help="revision A (a commit)")
    ap.add_argument("head", nargs="?", default="HEAD", help="revision B (default HEAD)")
    ap.add_argument("--a-build", help="use this build folder (of BASE, if given) instead of building BASE")
    ap.add_argument("--b-build", help="use this build folder (of HEAD, if given) instead of building HEAD")
    ap.add_argument("--b-env", action="append", default=[], metavar="K=V", help="environment of B's programs")
    ap.add_argument("--bench", action="append", metavar="PROGRAM=FILTER",
                    help="benchmark program and filter (repeatable; default: the paper and work-precision suites)")
    ap.add_argument("--rounds", type=int, default=10, help="counted turns per build in one interleaved round "
                    "(default 10)")
    ap.add_argument("--repetitions", type=int, default=1, help="repetitions per turn (default 1)")
    ap.add_argument("--min-time", type=float, default=0.05, help="seconds per repetition (default 0.05)")
    ap.add_argument("--threshold", type=float, default=0.10, help="slowdown that fails (default 0.10)")
    ap.add_argument("--alpha", type=float, default=0.05, help="U test level of the first round (default 0.05)")
    ap.add_argument("--alpha-confirm", type=float, default=0.05,
                    help="U test level of the confirming round (default 0.05)")
    ap.add_argument("--out", default="results/bench/ab", help="folder for the JSON and the report")
    ap.add_argument("--pin-cpu", type=int, help="run every benchmark process on this CPU (taskset)")
    a = ap.parse_args(argv)
    try:
        benches = [tuple(b.split("=", 1)) for b in (a.bench or DEFAULT_BENCHES)]
        if any(len(b) != 2 or not b[0] or not b[1] for b in benches):
            raise UsageError("--bench wants PROGRAM=FILTER")
        programs = sorted({p for p, _ in benches})
        if (a.rounds < 2 or a.repetitions < 1 or a.min_time <= 0 or a.threshold <= 0 or not 0 < a.alpha < 1
                or not 0 < a.alpha_confirm < 1):
            raise UsageError("--rounds >= 2, --repetitions >= 1, --min-time > 0, --threshold > 0, "
                             "0 < --alpha < 1, 0 < --alpha-confirm < 1")
        env_b = dict(kv.split("=", 1) for kv in a.b_env)
        base_sha = head_sha = None
        if a.base is not None:
            base_sha, head_sha = resolve(a.base), resolve(a.head)
        elif a.a_build is None or a.b_build is None:
            raise UsageError("give BASE (a commit), or both --a-build and --b-build")
        allowed = allowances(base_sha, head_sha)
        builds = {
            "A": checked_build_dir(a.a_build, programs) if a.a_build else build_revision(base_sha, programs),
            "B": checked_build_dir(a.b_build, programs) if a.b_build else build_revision(head_sha, programs),
        }
    except UsageError as e:
        print(f"bench-ab: {e}", file=sys.stderr)
        return 2

    out_dir = ROOT / a.out if not Path(a.out).is_absolute() else Path(a.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    scratch = out_dir / "turns"  # every turn's JSON, kept for a look afterwards
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    try:
        first = run_rounds(builds, benches, a.rounds, a.repetitions, a.min_time, scratch, "first", env_b,
                           a.pin_cpu)
        rows = bench_verdict.apply_allowances(
            bench_verdict.compare(first["A"], first["B"], a.threshold, a.alpha), allowed)
        suspects = [r["benchmark"] for r in rows if r["verdict"] == "slower"]
        if suspects:
            owner = program_of(first["A"] + first["B"])
            confirm_benches = []
            for program in programs:
                names = [regex_literal(s) for s in suspects if owner.get(s) == program]
                if names:
                    confirm_benches.append((program, "^(" + "|".join(names) + ")$"))
            progress(f"{len(suspects)} suspected slowdown(s); a second interleaved round to confirm")
            second = run_rounds(builds, confirm_benches, a.rounds, a.repetitions, a.min_time, scratch, "confirm",
                                env_b, a.pin_cpu)
            # The second round confirms at the laxer alpha_confirm: a false alarm must pass both
            # (alpha x alpha_confirm, the rounds being independent), a real slowdown passes each easily.
            again = {r["benchmark"]: r
                     for r in bench_verdict.compare(second["A"], second["B"], a.threshold, a.alpha_confirm)}
            for r in rows:
                if r["benchmark"] in again:
                    r["confirmation"] = {k: again[r["benchmark"]][k] for k in ("verdict", "change", "p_value")}
                    if again[r["benchmark"]]["verdict"] != "slower":
                        r["verdict"] = "unconfirmed"
        regressions = [r for r in rows if r["verdict"] == "slower"]
        label_a = base_sha[:12] if base_sha else str(builds["A"])
        label_b = head_sha[:12] if head_sha else str(builds["B"])
        title = f"Timing A/B: A = {label_a}, B = {label_b}"
        report = {"a": label_a, "b": label_b, "settings": {
            "rounds": a.rounds, "repetitions": a.repetitions, "min_time": a.min_time, "threshold": a.threshold,
            "alpha": a.alpha, "alpha_confirm": a.alpha_confirm, "benches": [f"{p}={f}" for p, f in benches]},
            "allowances": allowed, "benchmarks": rows, "regression": bool(regressions)}
        write_whole(out_dir / "report.json", json.dumps(report, indent=2) + "\n")
        write_whole(out_dir / "report.md", bench_verdict.markdown(rows, title))
    except (RuntimeError, bench_verdict.VerdictInputError) as e:
        print(f"bench-ab: {e}", file=sys.stderr)
        return 3
    print(title)
    print(bench_verdict.table(rows))
    if regressions:
        print(f"bench-ab: {len(regressions)} confirmed slowdown(s) beyond {100 * a.threshold:.0f} %: "
              + ", ".join(r["benchmark"] for r in regressions))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
