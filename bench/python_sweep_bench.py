#!/usr/bin/env python3
"""Benchmark: a sweep of 10^5 drops from Python (dropsim.sweep) against the command line's
`dropsim sweep` of the same design, in one run, interleaved (CLI, Python, CLI, Python, ...).

The design is the command line's: its summary file's parameters are what Python sweeps,
and both summaries must agree run for run (else exit 1). Prints the wall times and the
ratio Python / command line (median over repeats) and writes them as JSON. Not a test:
times are measurements, never a gate (docs/python.md#speed).

Usage: bench/python_sweep_bench.py [--runs N] [--repeats R] [--threads T] [--json PATH]
(run by `cmake --build build --target python_sweep_bench`, with PYTHONPATH and DROPSIM set).
"""
import argparse
import json
import math
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

import dropsim

SOURCE = pathlib.Path(__file__).resolve().parents[1]
BASE = SOURCE / "scenarios" / "paper" / "mouse_alpha-unscaled.json"
COLUMNS = ("equilibrium_indentation_relative", "peak_force_normalized", "tau_of_peak", "settling_time", "status",
           "steps", "rhs_evaluations")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=100_000)
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--json", default=str(SOURCE / "results" / "bench" / "python_sweep.json"))
    p.add_argument("--dropsim", default=os.environ.get("DROPSIM", str(SOURCE / "build" / "bin" / "dropsim")))
    a = p.parse_args()
    # Two axes whose product is the run count: masses x radii.
    n_mass = int(math.sqrt(a.runs))
    while a.runs % n_mass:
        n_mass -= 1
    vary = [f"/drop/mass=0.01:0.04:{n_mass}", f"/drop/radius=0.0015:0.003:{a.runs // n_mass}"]
    cli_times, py_times = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.repeats):
            out = pathlib.Path(tmp) / f"sweep{r}.h5"
            cmd = [a.dropsim, "sweep", str(BASE), "-j", str(a.threads), "-o", str(out)]
            for v in vary:
                cmd += ["--vary", v]
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            cli_times.append(time.perf_counter() - start)
            with h5py.File(out) as f:
                cli = {c: f[c][()] for c in ("parameters",) + COLUMNS}
            values = {"/drop/mass": cli["parameters"][:, 0], "/drop/radius": cli["parameters"][:, 1]}
            start = time.perf_counter()
            rows = dropsim.sweep(BASE, values, threads=a.threads)
            py_times.append(time.perf_counter() - start)
            for c in COLUMNS:
                if not np.array_equal(rows[c], cli[c]):
                    print(f"python_sweep_bench: column {c} differs between Python and the command line", file=sys.stderr)
                    return 1
    result = {
        "runs": a.runs,
        "threads": a.threads,
        "base": str(BASE.relative_to(SOURCE)),
        "vary": vary,
        "command_line_s": cli_times,
        "python_s": py_times,
        "ratio_python_over_command_line": statistics.median(p / c for p, c in zip(py_times, cli_times)),
    }
    pathlib.Path(a.json).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(a.json).write_text(json.dumps(result, indent=2) + "\n")
    print(f"{a.runs} drops on {a.threads} threads: command line {statistics.median(cli_times):.2f} s, "
          f"Python {statistics.median(py_times):.2f} s, ratio {result['ratio_python_over_command_line']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
