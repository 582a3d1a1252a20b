"""Work-precision: CPU per suite against the error. The full figure has every integrator; the summary, which
the README shows, each family's best and dropsim's default."""
import json
import os
import shutil

import matplotlib.pyplot as plt

from .common import COMMITTED, rel, save, skip


# Each setting timed three times, interleaved at random with the others, the fastest kept (docs/performance.md).
FULL_WORK_PRECISION_RUN = ("build/bin/work_precision_bench --benchmark_min_time=0.2 --benchmark_repetitions=3 "
                           "--benchmark_enable_random_interleaving=true --json results/bench/work_precision.json")


def read_work_precision(path, update):
    """(bench, runs with a finite error and time), or None after saying why. With update, a full run is copied
    to docs/figures/work_precision.json, the committed input."""
    if path is None:
        skip("work-precision", "no results/bench/work_precision.json (build/bin/work_precision_bench writes it) "
             "and no committed docs/figures/work_precision.json")
        return None
    with open(path) as f:
        bench = json.load(f)
    committed = os.path.join(COMMITTED, "work_precision.json")
    if update and os.path.abspath(path) != os.path.abspath(committed):
        if bench.get("short_mode"):
            skip("work-precision", f"{rel(path)} is a short CI run; the committed figure keeps the full run "
                 f"({FULL_WORK_PRECISION_RUN})")
            return None
        shutil.copyfile(path, committed)
        print(f"figures: copied {rel(path)} to {rel(committed)}")
    runs = [r for r in bench.get("runs", [])
            if isinstance(r.get("max_error"), (int, float)) and r["max_error"] > 0 and r.get("suite_seconds", 0) > 0]
    if not runs:
        skip("work-precision", f"{rel(path)} has no finite runs")
        return None
    return bench, runs


# The paper suite, and each multi-contact suite (<scenario>:<method>) beside it where the run has it.
SUITE_TITLES = {"box_on_edge": "box_on_edge: free box on 8 spheres with friction",
                "quadruped_friction": "quadruped_friction: posed trunk on 4 spheres with friction",
                "bar_rocking": "bar_rocking: bar on 2 spheres with friction"}


def suites_of(runs):
    """[(title, x label, rows)]: the paper suite first, then each multi-contact suite."""
    paper = [r for r in runs if ":" not in r["method"]]
    out = [("14 paper drops (1 DOF)", "max |F/(Mg) - reference| over the 14 paper runs", paper)]
    for suite in dict.fromkeys(r["method"].split(":")[0] for r in runs if ":" in r["method"]):
        out.append((SUITE_TITLES.get(suite, suite), f"max |F_y/(Mg) - reference| over the {suite} run",
                    [r for r in runs if r["method"].startswith(suite + ":")]))
    return out


def points(rows, method):
    """(error, CPU ms per suite) of one method's runs, by error."""
    return sorted((r["max_error"], r["suite_seconds"] * 1e3) for r in rows if r["method"] == method)


def decorate(ax, title, xlabel, legend_size):
    for target in (1e-4, 1e-6):
        ax.axvline(target, color="k", lw=0.6, ls=":")
    ax.set_xlabel(xlabel + " (dimensionless)", fontsize=8)
    ax.set_ylabel("CPU per suite [ms]")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=legend_size, loc="best")
    ax.grid(alpha=0.3, which="both")


def figure_work_precision(path, out_dir, update):
    read = read_work_precision(path, update)
    if read is None:
        return
    bench, runs = read
    suites = suites_of(runs)
    fig, axes = plt.subplots(1, len(suites), figsize=(6.5 + 5.5 * (len(suites) - 1), 5.6), squeeze=False)
    for ax, (title, xlabel, rows) in zip(axes[0], suites):
        # In the benchmark's order; past ten methods the colours repeat, so the markers tell them apart. A
        # Simbody integrator interpolating its samples is dashed, in the colour of the one stopping at them.
        lines = {}
        methods = sorted(dict.fromkeys(r["method"] for r in rows), key=lambda m: m.endswith("_interpolated"))
        for i, method in enumerate(methods):
            pts = points(rows, method)
            base = lines.get(method.removesuffix("_interpolated"))
            style = dict(ls="--", color=base.get_color(), marker=base.get_marker()) if base else \
                dict(ls="-", marker="os^vD"[i // 10 % 5])
            (lines[method],) = ax.loglog([e for e, _ in pts], [t for _, t in pts], ms=3,
                                         label=method.split(":")[-1], **style)
        decorate(ax, title, xlabel, 6)
    fig.suptitle(f"work-precision, {bench.get('date', '?')}" + (" (short mode)" if bench.get("short_mode") else ""),
                 fontsize=9)
    save(fig, out_dir, "work_precision", f"{FULL_WORK_PRECISION_RUN}   (drawn from {rel(path)})")


# dropsim's default: the integrator a scenario runs when it names none (dopri5).
DEFAULT_METHOD = "dropsim_dopri5"
# The integrator families of the summary, by the benchmark's method name. Variants that time the recording
# (_states, _summary, +hdf5, _no_attribution) are dropsim's default at other output settings, not integrators.
FAMILIES = (("dropsim Runge-Kutta", ("dropsim_dopri5", "dropsim_rk_merson")),
            ("SUNDIALS CVODE", ("dropsim_cvode_bdf", "dropsim_cvode_adams")),
            ("SUNDIALS ARKODE", ("dropsim_arkode_erk", "dropsim_arkode_dirk")),
            ("Simbody", ("simbody_rkmerson", "simbody_rkfeldberg", "simbody_rk3", "simbody_cpodes",
                         "simbody_rkmerson_interpolated", "simbody_rkfeldberg_interpolated",
                         "simbody_rk3_interpolated", "simbody_cpodes_interpolated")),
            ("hand-written floor", ("floor",)))
SUMMARY_TARGET = 1e-4  # the error a family's best is chosen at


def best_of(rows, members):
    """The member with the least CPU at an error of at most SUMMARY_TARGET (else the smallest error), or None."""
    scored = []
    for method in members:
        pts = points(rows, method)
        if not pts:
            continue
        within = [t for e, t in pts if e <= SUMMARY_TARGET]
        scored.append(((0, min(within)) if within else (1, pts[0][0]), method))
    return min(scored)[1] if scored else None


def figure_work_precision_summary(path, out_dir):
    """Per suite, each family's best integrator and dropsim's default: a figure readable at page width."""
    read = read_work_precision(path, update=False)
    if read is None:
        return
    bench, runs = read
    suites = suites_of(runs)
    ncol = 2 if len(suites) > 1 else 1
    nrow = (len(suites) + ncol - 1) // ncol
    fig, axes = plt.subplots(nrow, ncol, figsize=(5.2 * ncol, 4.3 * nrow), squeeze=False)
    colors = dict(zip((f for f, _ in FAMILIES), ("tab:blue", "tab:purple", "tab:green", "tab:red", "0.45")))
    for ax, (title, xlabel, rows) in zip(axes.flat, suites):
        prefix = rows[0]["method"].split(":")[0] + ":" if ":" in rows[0]["method"] else ""
        for family, members in FAMILIES:
            best = best_of(rows, [prefix + m for m in members])
            if best is None:
                continue
            pts = points(rows, best)
            name = best.split(":")[-1]
            ax.loglog([e for e, _ in pts], [t for _, t in pts], marker="o", ms=3.5, lw=1.4, color=colors[family],
                      label=f"{family}: {name}")
        pts = points(rows, prefix + DEFAULT_METHOD)
        if pts:
            ax.loglog([e for e, _ in pts], [t for _, t in pts], marker="s", ms=5, lw=0, mfc="none", mec="k",
                      mew=1.2, label=f"dropsim's default: {DEFAULT_METHOD.removeprefix('dropsim_')}")
        decorate(ax, title, xlabel, 7.5)
    for ax in axes.flat[len(suites):]:
        ax.axis("off")
    fig.suptitle(f"work-precision, {bench.get('date', '?')}" + (" (short mode)" if bench.get("short_mode") else "")
                 + f": each integrator family's best (least CPU at error ≤ {SUMMARY_TARGET:g}) and dropsim's "
                 "default\nevery integrator: docs/figures/work_precision.png", fontsize=9)
    fig.tight_layout()
    save(fig, out_dir, "work_precision_summary", f"{FULL_WORK_PRECISION_RUN}   (drawn from {rel(path)})")
