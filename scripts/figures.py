#!/usr/bin/python3
"""Draws dropsim's figures from its output files into results/figures/ (PNG and SVG, headless).

    build/bin/dropsim run scenarios/paper/*.json -o results/paper
    /usr/bin/python3 scripts/figures.py

Fig. 3 of the scaling paper (F/(Mg) against tau and against time, alpha
unscaled and scaled) needs results/paper/*.h5. The other figures are drawn
when their inputs exist and skipped with a message otherwise:
  Fig. C.4   force against indentation   results/curves/*.h5 (dropsim scale --curve)
  step limits predicted against measured  results/steplimits.json
  modes      frequencies and shapes        results/modes/*.json (dropsim modes FILE --json)
  work–precision suite time against error  results/work_precision.json (bench/work_precision_bench)
Axis units come from each dataset's `units` attribute. Exit 0 when Fig. 3 was
drawn, 2 when its input is missing. Needs Debian's python3-matplotlib and
python3-h5py (run /usr/bin/python3: the python3 first on PATH may lack them).
"""
import argparse
import glob
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import h5py  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# The paper's models, smallest first, so the legend reads mouse to giraffe.
MODEL_ORDER = ["mouse", "emu10", "emu2", "human62", "horse", "human500", "giraffe"]


def units_of(dataset):
    u = dataset.attrs.get("units", "")
    return u.decode() if isinstance(u, bytes) else str(u)


def axis_label(name, units):
    return f"{name} (dimensionless)" if units in ("", "1") else f"{name} [{units}]"


def save(fig, out_dir, stem):
    paths = []
    for ext in ("png", "svg"):
        path = os.path.join(out_dir, f"{stem}.{ext}")
        fig.savefig(path, dpi=150 if ext == "png" else None, bbox_inches="tight")
        paths.append(path)
    plt.close(fig)
    for p in paths:
        print(f"figures: wrote {os.path.relpath(p, ROOT)} ({os.path.getsize(p)} bytes)")


def skip(what, why):
    print(f"figures: skipped {what}: {why}")


def read_paper_traces(paper_dir):
    """{'scaled'|'unscaled': [(model, {tau, time, force_normalized, units...})]}"""
    runs = {"scaled": [], "unscaled": []}
    for path in sorted(glob.glob(os.path.join(paper_dir, "*_alpha-*.h5"))):
        stem = os.path.basename(path)[:-3]
        model, kind = stem.split("_alpha-", 1)
        if kind not in runs:
            continue
        with h5py.File(path, "r") as f:
            run = {k: f[k][:] for k in ("tau", "time", "force_normalized")}
            run["units"] = {k: units_of(f[k]) for k in ("tau", "time", "force_normalized")}
        runs[kind].append((model, run))
    for kind in runs:
        runs[kind].sort(key=lambda mr: (MODEL_ORDER.index(mr[0]) if mr[0] in MODEL_ORDER else 99, mr[0]))
    return runs


def figure3(paper_dir, out_dir):
    runs = read_paper_traces(paper_dir)
    if not runs["scaled"] and not runs["unscaled"]:
        skip("Fig. 3", f"no {os.path.relpath(paper_dir, ROOT)}/*_alpha-*.h5; run "
             "build/bin/dropsim run scenarios/paper/*.json -o results/paper")
        return False
    # tau up to 25 shows the mouse's unscaled oscillation dying out; 0.4 s covers every contact phase.
    for x, limit, stem in (("tau", 25.0, "fig3_force_vs_tau"), ("time", 0.4, "fig3_force_vs_time")):
        fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
        for ax, kind, title in ((axes[0], "unscaled", r"$\alpha$ unscaled (2 s/m)"),
                                (axes[1], "scaled", r"$\alpha$ scaled, $\alpha \sqrt{R}$ constant (van Bijlert eq. 15)")):
            for k, (model, run) in enumerate(runs[kind]):
                keep = run[x] <= limit
                # Alternate dashes: emu10 and emu2 share n E* and so coincide exactly.
                ax.plot(run[x][keep], run["force_normalized"][keep], lw=1.0, ls="-" if k % 2 == 0 else "--", label=model)
            ax.set_title(title)
            if runs[kind]:
                ax.set_xlabel(axis_label(x, runs[kind][0][1]["units"][x]))
            ax.set_xlim(0.0, limit)
            ax.grid(alpha=0.3)
        any_run = (runs["unscaled"] or runs["scaled"])[0][1]
        axes[0].set_ylabel(axis_label("F/(Mg)", any_run["units"]["force_normalized"]))
        axes[1].legend(fontsize=8, loc="upper right")
        fig.suptitle(f"Drop tests: normalised ground force against {x}")
        save(fig, out_dir, stem)
    return True


def figure_c4(curves_dir, out_dir):
    files = sorted(glob.glob(os.path.join(curves_dir, "*.h5")))
    if not files:
        skip("Fig. C.4", f"no {os.path.relpath(curves_dir, ROOT)}/*.h5 (force-indentation curves of the scaling issue)")
        return
    fig, axes = plt.subplots(1, len(files), figsize=(5.5 * len(files), 4), squeeze=False)
    for ax, path in zip(axes[0], files):
        with h5py.File(path, "r") as f:
            xname = next((k for k in ("indentation", "indentation_relative") if k in f), None)
            if xname is None:
                skip(f"Fig. C.4 panel {os.path.basename(path)}", "no indentation dataset")
                continue
            xs = f[xname][:]
            for name, d in f.items():
                if name.startswith("force") and isinstance(d, h5py.Dataset) and d.shape == xs.shape:
                    ax.plot(xs, d[:], label=name)
                    ax.set_ylabel(axis_label("force", units_of(d)))
            ax.set_xlabel(axis_label(xname, units_of(f[xname])))
            radius = f.attrs.get("radius")
            ax.set_title(f"R = {float(radius):g} m" if radius is not None else os.path.basename(path))
            ax.legend(fontsize=8)
            ax.grid(alpha=0.3)
    save(fig, out_dir, "figC4_force_vs_indentation")


def step_records(node, scenario=None):
    """Every {name, predicted_step, measured_step} in a step-limit JSON, wherever it sits."""
    if isinstance(node, dict):
        if "predicted_step" in node and "measured_step" in node:
            yield scenario, node
        label = node.get("scenario", node.get("file", scenario))
        for value in node.values():
            yield from step_records(value, label)
    elif isinstance(node, list):
        for value in node:
            yield from step_records(value, scenario)


def figure_step_limits(path, out_dir):
    if not os.path.exists(path):
        skip("step limits", f"no {os.path.relpath(path, ROOT)} (the step-limit issue writes it)")
        return
    with open(path) as f:
        records = [r for _, r in step_records(json.load(f))
                   if isinstance(r.get("predicted_step"), (int, float)) and isinstance(r.get("measured_step"), (int, float))
                   and r["predicted_step"] > 0 and r["measured_step"] > 0]
    if not records:
        skip("step limits", f"{os.path.relpath(path, ROOT)} has no finite predicted/measured pairs")
        return
    fig, ax = plt.subplots(figsize=(5.5, 5))
    for name in sorted({r.get("name", "?") for r in records}):
        pts = [(r["predicted_step"], r["measured_step"]) for r in records if r.get("name", "?") == name]
        ax.loglog([p for p, _ in pts], [m for _, m in pts], "o", ms=4, label=name)
    lo = min(min(r["predicted_step"], r["measured_step"]) for r in records)
    hi = max(max(r["predicted_step"], r["measured_step"]) for r in records)
    ax.loglog([lo, hi], [lo, hi], "k--", lw=0.8, label="measured = predicted")
    ax.set_xlabel("predicted largest stable step [s]")
    ax.set_ylabel("measured largest stable step [s]")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3, which="both")
    save(fig, out_dir, "step_limits")


def figure_modes(modes_dir, out_dir):
    files = sorted(glob.glob(os.path.join(modes_dir, "*.json")))
    if not files:
        skip("modes", f"no {os.path.relpath(modes_dir, ROOT)}/*.json "
             "(write them with: build/bin/dropsim modes FILE --json > results/modes/NAME.json)")
        return
    fig, axes = plt.subplots(len(files), 2, figsize=(10, 2.8 * len(files)), squeeze=False)
    for (ax_f, ax_s), path in zip(axes, files):
        with open(path) as f:
            modes = json.load(f).get("modes", [])
        name = os.path.basename(path)[:-5]
        omegas = [m.get("omega", math.nan) for m in modes]
        ax_f.bar(range(len(omegas)), [w / (2 * math.pi) for w in omegas])
        ax_f.set_xlabel("mode")
        ax_f.set_ylabel("frequency [Hz]")
        ax_f.set_title(f"{name}: frequencies")
        for k, m in enumerate(modes):
            shape = m.get("shape") or []
            ax_s.plot(range(len(shape)), shape, "o-", label=f"mode {k} ({m.get('omega', math.nan):.4g} rad/s)")
        ax_s.set_xlabel("coordinate")
        ax_s.set_title(f"{name}: shapes")
        ax_s.legend(fontsize=7)
        ax_f.grid(alpha=0.3)
        ax_s.grid(alpha=0.3)
    fig.tight_layout()
    save(fig, out_dir, "modes")


def figure_work_precision(path, out_dir):
    if not os.path.exists(path):
        skip("work-precision", f"no {os.path.relpath(path, ROOT)} (build/bin/work_precision_bench writes it)")
        return
    with open(path) as f:
        bench = json.load(f)
    runs = [r for r in bench.get("runs", [])
            if isinstance(r.get("max_error"), (int, float)) and r["max_error"] > 0 and r.get("suite_seconds", 0) > 0]
    if not runs:
        skip("work-precision", f"{os.path.relpath(path, ROOT)} has no finite runs")
        return
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for method in dict.fromkeys(r["method"] for r in runs):  # in the benchmark's order
        pts = sorted((r["max_error"], r["suite_seconds"] * 1e3) for r in runs if r["method"] == method)
        ax.loglog([e for e, _ in pts], [t for _, t in pts], "o-", ms=3, label=method)
    for target in (1e-4, 1e-6):
        ax.axvline(target, color="k", lw=0.6, ls=":")
    ax.set_xlabel("max |F/(Mg) - reference| over the 14 paper runs (dimensionless)")
    ax.set_ylabel("CPU per suite [ms]")
    ax.set_title(f"work-precision, {bench.get('date', '?')}" + (" (short mode)" if bench.get("short_mode") else ""),
                 fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3, which="both")
    save(fig, out_dir, "work_precision")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--paper", default=os.path.join(ROOT, "results", "paper"), help="directory of the paper runs' .h5")
    p.add_argument("--curves", default=os.path.join(ROOT, "results", "curves"), help="Fig. C.4 curve files")
    p.add_argument("--steplimits", default=os.path.join(ROOT, "results", "steplimits.json"))
    p.add_argument("--modes", default=os.path.join(ROOT, "results", "modes"), help="dropsim modes --json outputs")
    p.add_argument("--work-precision", default=os.path.join(ROOT, "results", "work_precision.json"))
    p.add_argument("-o", "--out", default=os.path.join(ROOT, "results", "figures"))
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    ok = figure3(a.paper, a.out)
    figure_c4(a.curves, a.out)
    figure_step_limits(a.steplimits, a.out)
    figure_modes(a.modes, a.out)
    figure_work_precision(a.work_precision, a.out)
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
