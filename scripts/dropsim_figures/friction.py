"""The transition-velocity study: what friction's v_t buys in step limit, cost and slide."""
import json
import os

import matplotlib.pyplot as plt
import numpy as np

from .common import rel, save, skip


def figure_transition_velocity(path, out_dir):
    """What v_t buys: step limits (friction's real-axis limit against the normal modes'), the adaptive run's cost,
    and what it changes in the slide."""
    if not os.path.exists(path):
        skip("transition-velocity study", f"no {rel(path)} (bash scripts/friction-study.sh writes it)")
        return
    with open(path) as f:
        rows = json.load(f)["scenarios"]
    vt = np.array([r["transition_velocity"] for r in rows])
    fig, (a, b, c) = plt.subplots(1, 3, figsize=(14.5, 4.3))
    colors = {"euler": "tab:gray", "velocity_verlet": "tab:green", "rk4": "tab:blue", "dopri5": "tab:orange",
              "fehlberg78": "tab:purple"}
    for name, color in colors.items():
        lims = [{x["name"]: x for x in r["steplimit"]}.get(name) for r in rows]
        if any(x is None for x in lims):
            continue
        a.loglog(vt, [x["predicted_step"] for x in lims], color=color, lw=1.2, label=f"{name}: predicted")
        for v, x in zip(vt, lims):
            friction = x["limited_by"] == "friction"
            a.plot(v, x["measured_step"], marker="o", ms=6, ls="none", mec=color,
                   mfc=color if friction else "white", zorder=3)
    a.plot([], [], marker="o", ls="none", mfc="0.3", mec="0.3", label="measured, set by friction")
    a.plot([], [], marker="o", ls="none", mfc="white", mec="0.3", label="measured, set by a normal mode")
    a.set_xlabel("transition velocity $v_t$ [m/s]")
    a.set_ylabel("largest stable fixed step [s]")
    a.set_title("(a) step limit: friction's decay rate $\\propto 1/v_t$\nsets it until the normal modes take over",
                fontsize=9)
    a.legend(fontsize=7, frameon=False)
    a.grid(alpha=0.25, which="both")

    evals = [r["adaptive"]["rhs_evaluations"] for r in rows]
    steps = [r["adaptive"]["steps"] for r in rows]
    adaptive = rows[0]["adaptive"]
    b.loglog(vt, evals, marker="o", color="tab:orange", label="right-hand-side evaluations")
    b.loglog(vt, steps, marker="s", color="tab:orange", ls="--", mfc="white", label="accepted steps")
    for v, e in zip(vt, evals):
        b.annotate(f"{e}", (v, e), textcoords="offset points", xytext=(4, 4), fontsize=7)
    b.set_xlabel("transition velocity $v_t$ [m/s]")
    b.set_ylabel("cost of the 0.5 s landing")
    b.set_title(f"(b) adaptive {adaptive['integrator']} at rtol {adaptive['rtol']:g}: the cost follows the\n"
                "step limit while friction holds the box still", fontsize=9)
    b.legend(fontsize=7, frameon=False)
    b.grid(alpha=0.25, which="both")

    cmap = plt.get_cmap("viridis")
    for k, r in enumerate(rows):
        slide = r["slide"]
        c.plot(r["trace"]["time"], r["trace"]["sliding_speed"], color=cmap(k / max(1, len(rows) - 1)), lw=1.3,
               label=f"$v_t$ = {r['transition_velocity']:g} m/s: slid {1000 * slide['distance']:.1f} mm, "
                     f"friction up to {slide['peak_friction_ratio']:.2f} $F_n$")
    c.set_xlabel("time [s]")
    c.set_ylabel("sliding speed of the box [m/s]")
    c.set_title("(c) what it changes: the slide ($\\mu_s$ 0.8, $\\mu_d$ 0.5); a large $v_t$\n"
                "stretches the Stribeck peak over the slow end of the slide", fontsize=9)
    c.legend(fontsize=7, frameon=False)
    c.grid(alpha=0.25)
    fig.suptitle("Transition velocity study: a 2 kg box on four Hunt–Crossley spheres lands sliding at 1 m/s",
                 fontsize=10)
    fig.tight_layout()
    save(fig, out_dir, "transition_velocity", f"bash scripts/friction-study.sh -> {rel(path)}")
