"""Per integrator: the largest stable fixed step predicted from the linearised contact against the measured one."""
import json
import math
import os

import matplotlib.pyplot as plt
from matplotlib.lines import Line2D

from .common import rel, save, skip


def figure_step_limits(path, out_dir):
    """Per integrator: measured against predicted largest stable step, one point per scenario."""
    if not os.path.exists(path):
        skip("step limits", f"no {rel(path)} (bash scripts/ci-steplimits.sh writes it)")
        return
    with open(path) as f:
        data = json.load(f)
    scenarios = data.get("scenarios", [])
    names = [row["name"] for row in data.get("integrators", [])]
    if not names:
        names = list(dict.fromkeys(r["name"] for s in scenarios for r in s.get("integrators", [])))
    rows = {n: [] for n in names}
    for s in scenarios:
        for r in s.get("integrators", []):
            rows.setdefault(r["name"], []).append((s.get("scenario", "?"), r))
    rows = {n: rs for n, rs in rows.items() if rs}  # SUNDIALS' methods: no fixed-step limit
    if not rows:
        skip("step limits", f"{rel(path)} has no scenario rows")
        return
    kinds = {row["name"]: row for row in data.get("integrators", [])}

    finite = [v for rs in rows.values() for _, r in rs for v in (r.get("predicted_step"), r.get("measured_step"))
              if isinstance(v, (int, float)) and v > 0 and math.isfinite(v)]
    lo, hi = min(finite) / 2.5, max(finite) * 2.5
    ncol = 4
    nrow = math.ceil(len(rows) / ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(3.1 * ncol, 2.9 * nrow), squeeze=False)
    scaled = lambda sc: sc.endswith("alpha-scaled")  # noqa: E731
    for ax, (name, rs) in zip(axes.flat, rows.items()):
        ax.loglog([lo, hi], [lo, hi], color="0.5", lw=0.8, ls="--", zorder=1)
        ax.fill_between([lo, hi], [0.5 * lo, 0.5 * hi], [1.02 * lo, 1.02 * hi], color="0.85", zorder=0, lw=0)
        caps = sorted({r["measured_step"] for _, r in rs if r.get("measured_at_cap")})
        for cap in caps:
            ax.axhline(cap, color="tab:red", lw=0.8, ls=":", zorder=1)
            ax.text(lo * 1.15, cap * 1.12, f"search cap {cap:g} s (duration/20)", color="tab:red", fontsize=6.5,
                    va="bottom")
        unconditional = []
        for sc, r in rs:
            p, m = r.get("predicted_step"), r.get("measured_step")
            if not isinstance(m, (int, float)) or m <= 0:
                continue
            if not isinstance(p, (int, float)) or not math.isfinite(p):
                unconditional.append((sc, r))
                continue
            at_cap = bool(r.get("measured_at_cap"))
            # The linear regime (from equilibrium, small kick) apart from the full drop's impact.
            lin = r.get("measured_linear_step")
            if isinstance(lin, (int, float)) and lin > 0 and not r.get("measured_linear_at_cap"):
                ax.plot(p, lin, marker="x", ms=4, ls="none", color="tab:orange", zorder=4)
            ax.plot(p, m, marker="^" if at_cap else "o", ms=5 if at_cap else 4, ls="none",
                    mfc="tab:red" if at_cap else ("tab:blue" if scaled(sc) else "white"),
                    mec="tab:red" if at_cap else "tab:blue", zorder=3)
        # Implicit methods have no predicted limit: their measured steps sit at the right edge.
        for sc, r in unconditional:
            at_cap = bool(r.get("measured_at_cap"))
            ax.plot(hi / 1.6, r["measured_step"], marker="^" if at_cap else ">", ms=5, ls="none",
                    mfc="tab:red" if at_cap else "tab:green", mec="tab:red" if at_cap else "tab:green", zorder=3)
        if unconditional:
            ax.text(hi / 1.9, lo * 1.3, "predicted: unconditionally\nstable (no limit); measured\n"
                    "limits at the right edge", fontsize=6.5, ha="right", va="bottom", color="tab:green")
        ratios = [r["ratio"] for _, r in rs if isinstance(r.get("ratio"), (int, float)) and not r.get("measured_at_cap")]
        k = kinds.get(name, {})
        sub = ", ".join(x for x in (f"order {k['order']}" if "order" in k else "",
                                    "implicit" if k.get("implicit") else "") if x)
        title = name + (f" ({sub})" if sub else "")
        if ratios:
            title += f"\nmeasured/predicted {min(ratios):.2f}–{max(ratios):.2f}"
        ax.set_title(title, fontsize=8)
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.25, which="major")
    for ax in axes.flat[len(rows):]:
        ax.axis("off")
    for ax in axes.flat[:len(rows)]:
        ax.set_xlabel("predicted step limit [s]", fontsize=7)
    for ax in axes[:, 0]:
        ax.set_ylabel("measured step limit [s]", fontsize=8)
    # One legend for all panels, in the first empty slot or below.
    handles = [
        Line2D([], [], marker="o", ls="none", mfc="white", mec="tab:blue", label=r"paper drop, $\alpha$ unscaled"),
        Line2D([], [], marker="o", ls="none", mfc="tab:blue", mec="tab:blue", label=r"paper drop, $\alpha$ scaled"),
        Line2D([], [], marker="^", ls="none", mfc="tab:red", mec="tab:red",
               label="still stable at the search cap:\nthe true limit is higher"),
        Line2D([], [], marker=">", ls="none", mfc="tab:green", mec="tab:green", label="no predicted limit (implicit)"),
        Line2D([], [], marker="x", ls="none", color="tab:orange",
               label="linear regime: from equilibrium,\nsmall kick (no touchdown)"),
        Line2D([], [], color="0.5", ls="--", label="measured = predicted"),
        plt.Rectangle((0, 0), 1, 1, color="0.85", label="CI's accepted band 0.5–1.02"),
    ]
    spare = list(axes.flat[len(rows):])
    if spare:
        spare[0].legend(handles=handles, loc="center", fontsize=7.5, frameon=False)
    else:
        fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=7.5, frameon=False)
    fig.suptitle("Largest stable fixed step per integrator: predicted from the linearised contact (equilibrium)\n"
                 "against measured by bisection on the nonlinear drop (circles) and from equilibrium (crosses),\n"
                 "one point per paper scenario: the gap between them is the touchdown's cost", fontsize=10)
    fig.tight_layout()
    save(fig, out_dir, "step_limits", f"bash scripts/ci-steplimits.sh -> {rel(path)}  "
                                      "(dropsim steplimit scenarios/paper/NAME.json --json)")
