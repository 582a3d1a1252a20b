"""Fig. 3 of the scaling paper (F/(Mg) against tau and against time) and Fig. C.4 (force against indentation)."""
import glob
import os

import h5py
import matplotlib.pyplot as plt

from .common import axis_label, rel, save, skip, units_of

# The paper's models, smallest first, so the legend reads mouse to giraffe.
MODEL_ORDER = ["mouse", "emu10", "emu2", "human62", "horse", "human500", "giraffe"]


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
        skip("Fig. 3", f"no {rel(paper_dir)}/*_alpha-*.h5; run "
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
        save(fig, out_dir, stem, f"build/bin/dropsim run scenarios/paper/*.json -o {rel(paper_dir)}"
                                 "   (bash scripts/paper.sh)")
    return True


def figure_c4(curves_dir, out_dir):
    files = sorted(glob.glob(os.path.join(curves_dir, "*.h5")))
    if not files:
        skip("Fig. C.4", f"no {rel(curves_dir)}/*.h5 (force-indentation curves, written by "
             "dropsim scale --curve in scripts/paper.sh)")
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
    save(fig, out_dir, "figC4_force_vs_indentation",
         f"build/bin/dropsim scale --from scenarios/paper/human62_alpha-unscaled.json ... --curve {rel(curves_dir)}/"
         "NAME.h5   (bash scripts/paper.sh)")
