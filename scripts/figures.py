#!/usr/bin/python3
"""Draws dropsim's figures (PNG and SVG, headless) into results/figures/, or with --update into docs/figures/.

    bash scripts/paper.sh                      # runs the paper suite and calls this script
    /usr/bin/python3 scripts/figures.py        # redraw into results/figures/ (not tracked)
    bash scripts/update-figures.sh             # remake every input, redraw into docs/figures/ (committed)

Fig. 3 of the scaling paper (F/(Mg) against tau and against time, alpha
unscaled and scaled) needs results/paper/*.h5. The other figures are drawn
when their inputs exist and skipped with a message otherwise:
  Fig. C.4       force against indentation       results/curves/*.h5 (dropsim scale --curve; scripts/paper.sh)
  step limits    predicted against measured      results/steplimits.json (scripts/ci-steplimits.sh)
  modes          bodies, springs, mode shapes    results/modes/*.json (scripts/ci-modes.sh) + scenarios/**
  transition velocity  what v_t buys            results/friction/transition_velocity.json (scripts/friction-study.sh)
  work-precision suite time against error        results/bench/work_precision.json (work_precision_bench),
                                                 else the committed full run docs/figures/work_precision.json
Every figure carries a footer naming the commands that made it. Axis units
come from each dataset's `units` attribute. Exit 0 when Fig. 3 was drawn, 2
when its input is missing. Needs Debian's python3-matplotlib, python3-h5py and
python3-numpy (run /usr/bin/python3: the python3 first on PATH may lack them).
"""
import argparse
import glob
import json
import math
import os
import shutil
import sys

import matplotlib

matplotlib.use("Agg")
import h5py  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Circle, Polygon  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
COMMITTED = os.path.join(ROOT, "docs", "figures")
# Same input, same SVG bytes: fixed element ids, no creation date.
plt.rcParams["svg.hashsalt"] = "dropsim"

# The paper's models, smallest first, so the legend reads mouse to giraffe.
MODEL_ORDER = ["mouse", "emu10", "emu2", "human62", "horse", "human500", "giraffe"]

FIGURE_COMMAND = "/usr/bin/python3 scripts/figures.py"  # set from argv in main()


def rel(path):
    return os.path.relpath(path, ROOT)


def units_of(dataset):
    u = dataset.attrs.get("units", "")
    return u.decode() if isinstance(u, bytes) else str(u)


def axis_label(name, units):
    return f"{name} (dimensionless)" if units in ("", "1") else f"{name} [{units}]"


def save(fig, out_dir, stem, data_command):
    """Writes STEM.png and STEM.svg with a footer: the command that made the data, then this script's."""
    fig.text(0.005, 0.0, f"data: {data_command}\nfigure: {FIGURE_COMMAND}", fontsize=7, color="0.35",
             ha="left", va="top", family="monospace")
    paths = []
    for ext in ("png", "svg"):
        path = os.path.join(out_dir, f"{stem}.{ext}")
        meta = {"Date": None} if ext == "svg" else {}
        fig.savefig(path, dpi=150 if ext == "png" else None, bbox_inches="tight", pad_inches=0.12, metadata=meta)
        paths.append(path)
    plt.close(fig)
    for p in paths:
        print(f"figures: wrote {rel(p)} ({os.path.getsize(p)} bytes)")


def skip(what, why):
    print(f"figures: skipped {what}: {why}")


# --- Fig. 3 and Fig. C.4 -------------------------------------------------------------------------------------


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


# --- Step limits --------------------------------------------------------------------------------------------


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
    from matplotlib.lines import Line2D
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


# --- Friction: the transition-velocity study -----------------------------------------------------------------


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


# --- Modes --------------------------------------------------------------------------------------------------


def find_scenario(name, hint_dirs):
    for d in hint_dirs:
        p = os.path.join(d, name + ".json")
        if os.path.exists(p):
            return p
    for p in sorted(glob.glob(os.path.join(ROOT, "scenarios", "**", "*.json"), recursive=True)):
        try:
            with open(p) as f:
                if json.load(f).get("name") == name:
                    return p
        except (OSError, ValueError):
            pass
    return None


def quat_matrix(w, x, y, z):
    n = math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def rotation_vector_matrix(v):
    """exp([v]x) by Rodrigues' formula."""
    a = float(np.linalg.norm(v))
    if a < 1e-300:
        return np.eye(3)
    k = np.asarray(v) / a
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(a) * kx + (1 - math.cos(a)) * kx @ kx


def matrix_quat(r):
    w = math.sqrt(max(1e-300, 1 + r[0, 0] + r[1, 1] + r[2, 2])) / 2
    return [w, (r[2, 1] - r[1, 2]) / (4 * w), (r[0, 2] - r[2, 0]) / (4 * w), (r[1, 0] - r[0, 1]) / (4 * w)]


class Scene:
    """A scenario's bodies and contacts, posed by a coordinate vector q (dropsim's order) and drawn in 2-D.

    Planar and vertical bodies draw in the x-y plane; a free body in an oblique view (depth z drawn down and
    to the left). Outlines come from the scenario: a planar body is a bar as long as its inertia says
    (I = m L^2 / 12) and at least as long as its contacts reach; a vertical body is a disc of its contact
    sphere's radius (a block standing on its contact point when it has none); a free body is the box with
    its three principal inertias, with a leg down to each contact sphere. Contacts are springs (with a
    dashpot for damped laws) drawn across a gap that is not to scale: the ground is drawn below the
    contacts and bodies touching each other are drawn apart."""

    def __init__(self, scenario):
        self.s = scenario
        self.bodies = []
        self.contacts = []
        if "bodies" in scenario:
            self._multibody()
        else:
            self._drop()
        self.free = any(b["joint"] == "free" for b in self.bodies)
        self._sizes()

    def _drop(self):
        d = self.s["drop"]
        c = self.s.get("contact", {})
        self.bodies.append({"name": "body", "joint": "vertical", "offset": 0, "uoffset": 0, "nq": 1, "nu": 1,
                            "mass": d["mass"], "x0": 0.0, "z0": 0.0})
        self.contacts.append({"type": "sphere_plane", "body": 0, "at": np.zeros(3), "radius": d["radius"],
                              "count": d.get("spheres", 1), "law": c.get("law", "hunt_crossley"),
                              "stiffness": c.get("stiffness"), "damped": c.get("law", "hunt_crossley") != "hertz"})

    def _multibody(self):
        oq = ou = 0
        index = {}
        for b in self.s["bodies"]:
            j = b.get("joint", "planar")
            nq, nu = {"vertical": (1, 1), "planar": (3, 3), "free": (7, 6)}[j]
            pos = list(b.get("position", [0.0, 0.0])) + [0.0] * 3
            index[b["name"]] = len(self.bodies)
            self.bodies.append({"name": b["name"], "joint": j, "offset": oq, "uoffset": ou, "nq": nq, "nu": nu,
                                "mass": b["mass"], "inertia": b.get("inertia"), "x0": pos[0], "z0": pos[2]})
            oq += nq
            ou += nu
        pad3 = lambda v: np.array(list(v) + [0.0] * (3 - len(v)))  # noqa: E731
        for c in self.s.get("contacts", []):
            law = c.get("law", "hertz")
            common = {"law": law, "stiffness": c.get("stiffness"), "count": c.get("count", 1),
                      "damped": law not in ("linear", "hertz") and c.get("dissipation", 1.0) != 0.0}
            if c.get("type") == "sphere_sphere":
                radii = c["radius"] if isinstance(c["radius"], list) else [c["radius"]] * 2
                self.contacts.append({"type": "sphere_sphere", "bodies": [index[n] for n in c["bodies"]],
                                      "at": [pad3(a) for a in c["at"]], "radius": radii, **common})
            else:
                self.contacts.append({"type": "sphere_plane", "body": index[c["body"]], "at": pad3(c.get("at", [0, 0])),
                                      "radius": c.get("radius", 0.0), **common})

    def _contacts_of(self, i):
        return [c for c in self.contacts if (c["type"] == "sphere_plane" and c["body"] == i)
                or (c["type"] == "sphere_sphere" and i in c["bodies"])]

    def _sizes(self):
        for i, b in enumerate(self.bodies):
            b["shift"] = np.zeros(3)
            mine = self._contacts_of(i)
            if b["joint"] == "planar":
                reach = max([abs(c["at"][0]) + c["radius"] for c in mine if c["type"] == "sphere_plane"] + [0.0])
                from_inertia = math.sqrt(12.0 * b["inertia"] / b["mass"]) if b.get("inertia") else 0.0
                b["length"] = max(2.0 * reach, from_inertia) or 0.1
                b["thickness"] = b["length"] / 10.0
            elif b["joint"] == "vertical":
                radii = [c["radius"] if c["type"] == "sphere_plane" else c["radius"][c["bodies"].index(i)] for c in mine]
                b["radius"] = max(radii + [0.0])
            else:
                inertia = b.get("inertia", 1.0)
                ix, iy, iz = inertia if isinstance(inertia, list) else [inertia] * 3
                m = b["mass"]
                # The box with these principal inertias: I_x = m (b^2 + c^2) / 12 and so on, for the squared edges.
                half_sum = 6.0 * (ix + iy + iz) / m
                edges = [math.sqrt(max(half_sum - 12.0 * k / m, 1e-6 * half_sum)) for k in (ix, iy, iz)]
                # No deeper than its feet hang below the centre, so the legs show.
                # At least as long and wide as its legs reach (as a planar bar spans its contacts), and
                # no deeper than its feet hang below the centre, so the legs show.
                legs = [c["at"] for c in mine if c["type"] == "sphere_plane"]
                if legs:
                    edges[0] = max(edges[0], 2.0 * max(abs(a[0]) for a in legs))
                    edges[2] = max(edges[2], 2.0 * max(abs(a[2]) for a in legs))
                    edges[1] = min(edges[1], 0.8 * abs(min(a[1] for a in legs)))
                b["box"] = edges
        # Point masses (no sphere): a block standing on the contact point, a quarter of the largest body.
        sizes = [b.get("length", 0.0) or 2 * b.get("radius", 0.0) or max(b.get("box", [0.0])) for b in self.bodies]
        self.nominal = max(sizes) / 2.0 if max(sizes) > 0 else 1.0
        for b in self.bodies:
            if b["joint"] == "vertical" and b["radius"] <= 0.0:
                b["block"] = self.nominal
        # Bodies pressed against each other are drawn apart, so the spring between them shows.
        for c in self.contacts:
            if c["type"] == "sphere_sphere":
                i, j = c["bodies"]
                upper = j if self.bodies[j].get("x0", 0) == self.bodies[i].get("x0", 0) else j
                self.bodies[upper]["shift"] = self.bodies[upper]["shift"] + np.array([0.0, 2.0 * self.size_hint(), 0.0])

    def size_hint(self):
        return max([b.get("length", 0.0) for b in self.bodies] + [2 * b.get("radius", 0.0) for b in self.bodies]
                   + [max(b["box"]) for b in self.bodies if "box" in b] + [b.get("block", 0.0) for b in self.bodies])

    # Poses ------------------------------------------------------------------
    def pose(self, q):
        """Per body: (centre (3,), rotation (3,3)) for coordinates q (dropsim's order), drawing shifts included."""
        out = []
        for b in self.bodies:
            o = b["offset"]
            if b["joint"] == "vertical":
                centre, rot = np.array([b["x0"], q[o], b.get("z0", 0.0)]), np.eye(3)
            elif b["joint"] == "planar":
                c, s = math.cos(q[o + 2]), math.sin(q[o + 2])
                centre, rot = np.array([q[o], q[o + 1], 0.0]), np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
            else:
                centre, rot = np.array(q[o:o + 3], dtype=float), quat_matrix(*q[o + 3:o + 7])
            out.append((centre + b["shift"], rot))
        return out

    def displaced(self, q, shape, s):
        """Coordinates q moved by s x a mode shape given in speeds (free bodies: body-frame angular velocity)."""
        q = np.array(q, dtype=float)
        for b in self.bodies:
            o, u = b["offset"], b["uoffset"]
            if b["joint"] == "free":
                q[o:o + 3] += s * np.asarray(shape[u:u + 3])
                r = quat_matrix(*q[o + 3:o + 7]) @ rotation_vector_matrix(s * np.asarray(shape[u + 3:u + 6]))
                q[o + 3:o + 7] = matrix_quat(r)
            else:
                q[o:o + b["nq"]] += s * np.asarray(shape[u:u + b["nu"]])
        return q

    # Projection -------------------------------------------------------------
    # Free bodies: an orthographic view from azimuth VIEW_AZIMUTH (about the vertical y) and VIEW_ELEVATION above.
    VIEW_AZIMUTH = math.radians(-30.0)
    VIEW_ELEVATION = math.radians(18.0)

    def project(self, p):
        p = np.atleast_2d(p)
        if not self.free:
            return p[:, :2]
        ca, sa = math.cos(self.VIEW_AZIMUTH), math.sin(self.VIEW_AZIMUTH)
        ce, se = math.cos(self.VIEW_ELEVATION), math.sin(self.VIEW_ELEVATION)
        x = ca * p[:, 0] + sa * p[:, 2]
        depth = -sa * p[:, 0] + ca * p[:, 2]  # towards the viewer
        return np.column_stack([x, ce * p[:, 1] - se * depth])

    def contact_points(self, poses):
        """World points per contact: sphere_plane (sphere centre, lowest point); sphere_sphere (the two surface
        points facing each other)."""
        pts = []
        for c in self.contacts:
            if c["type"] == "sphere_plane":
                centre, rot = poses[c["body"]]
                p = centre + rot @ c["at"]
                pts.append((p, p - np.array([0.0, c["radius"], 0.0])))
            else:
                (c0, r0), (c1, r1) = poses[c["bodies"][0]], poses[c["bodies"][1]]
                a, b = c0 + r0 @ c["at"][0], c1 + r1 @ c["at"][1]
                n = (b - a) / (np.linalg.norm(b - a) or 1.0)
                pts.append((a + n * c["radius"][0], b - n * c["radius"][1]))
        return pts

    def _block_corners(self, b, centre):
        h = b["block"]
        return [centre + np.array([sx * h / 2, sy, 0.0]) for sx, sy in ((-1, 0), (1, 0), (1, h), (-1, h))]

    def outline_points(self, poses):
        """World points on every outline: for the extent and for the mode amplitude."""
        pts = []
        for b, (centre, rot) in zip(self.bodies, poses):
            if b["joint"] == "planar":
                half = b["length"] / 2
                pts += [centre + rot @ np.array([sx * half, sy * b["thickness"] / 2, 0.0])
                        for sx in (-1, 1) for sy in (-1, 1)]
            elif "block" in b:
                pts += self._block_corners(b, centre)
            elif b["joint"] == "vertical":
                pts += [centre + np.array([dx, dy, 0.0]) * b["radius"] for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            else:
                a, h, c = (e / 2 for e in b["box"])
                pts += [centre + rot @ np.array([sx * a, sy * h, sz * c])
                        for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
        for p, low in self.contact_points(poses):
            pts += [p, low]
        return np.array(pts)

    def top_of(self, i, poses):
        """The top of body i's outline, projected: where its label goes."""
        centre, rot = poses[i]
        b = self.bodies[i]
        c2 = self.project(centre)[0]
        if b["joint"] == "planar":
            return c2 + [0, abs(rot[1, 1]) * b["thickness"] / 2 + abs(rot[1, 0]) * b["length"] / 2]
        if "block" in b:
            return c2 + [0, b["block"]]
        if b["joint"] == "vertical":
            return c2 + [0, b["radius"]]
        a, h, c = (e / 2 for e in b["box"])
        corners = [centre + rot @ np.array([sx * a, sy * h, sz * c]) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
        return np.array([c2[0], self.project(np.array(corners))[:, 1].max()])

    # Drawing ----------------------------------------------------------------
    def draw(self, ax, q, ground, color, lw=1.2, ls="-", fill=None, springs=True, labels=False, alpha=1.0,
             dashpots=True):
        poses = self.pose(q)
        zorder = 3 if fill else 2
        for i, (b, (centre, rot)) in enumerate(zip(self.bodies, poses)):
            c2 = self.project(centre)[0]
            if b["joint"] == "planar":
                half, t = b["length"] / 2, b["thickness"] / 2
                corners = [centre + rot @ np.array([sx * half, sy * t, 0.0]) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
                ax.add_patch(Polygon(self.project(np.array(corners)), closed=True, fc=fill or "none", ec=color,
                                     lw=lw, ls=ls, alpha=alpha, zorder=zorder))
            elif "block" in b:
                ax.add_patch(Polygon(self.project(np.array(self._block_corners(b, centre))), closed=True,
                                     fc=fill or "none", ec=color, lw=lw, ls=ls, alpha=alpha, zorder=zorder))
            elif b["joint"] == "vertical":
                ax.add_patch(Circle(c2, b["radius"], fc=fill or "none", ec=color, lw=lw, ls=ls, alpha=alpha,
                                    zorder=zorder))
            else:
                self._draw_box(ax, b, centre, rot, color, lw, ls, fill, alpha, zorder)
            ax.plot(*c2, marker="+", color=color, ms=5, mew=0.9, zorder=zorder + 1, alpha=alpha)
            if labels:
                text = f"{b['name']}, {b['mass']:g} kg" + (" (point mass)" if "block" in b else "")
                if b["joint"] == "vertical" and "block" not in b:
                    ax.annotate(text, c2 + [b["radius"], 0.0], xytext=(4, 0), textcoords="offset points", ha="left",
                                va="center", fontsize=6.5, color="0.15", zorder=6)
                else:
                    ax.annotate(text, self.top_of(i, poses), xytext=(0, 3), textcoords="offset points",
                                ha="center", va="bottom", fontsize=6.5, color="0.15", zorder=6)
        for c, (p, low) in zip(self.contacts, self.contact_points(poses)):
            if c["type"] == "sphere_plane":
                body = self.bodies[c["body"]]
                if body["joint"] == "free" and c["radius"] > 0:
                    # A leg from the trunk's underside down to the foot sphere.
                    centre, rot = poses[c["body"]]
                    top = centre + rot @ np.array([c["at"][0], -body["box"][1] / 2, c["at"][2]])
                    ax.plot(*self.project(np.array([top, p])).T, color=color, lw=lw * 0.9, ls=ls, alpha=alpha,
                            zorder=zorder)
                if c["radius"] > 0 and body["joint"] != "vertical":
                    ax.add_patch(Circle(self.project(p)[0], c["radius"], fc=fill or "none", ec=color, lw=lw * 0.8,
                                        ls=ls, alpha=alpha, zorder=zorder))
                elif c["radius"] <= 0 and "block" not in body:
                    ax.plot(*self.project(p)[0], marker="o", ms=3.5, color=color, alpha=alpha, zorder=zorder + 1)
                if springs:
                    low2 = self.project(low)[0]
                    base = self.project(np.array([low[0], ground, low[2]]))[0]
                    spring(ax, base, low2, color=color, damped=c["damped"] and dashpots, alpha=alpha)
            elif springs:
                spring(ax, self.project(p)[0], self.project(low)[0], color=color, damped=c["damped"] and dashpots,
                       alpha=alpha)

    def _draw_box(self, ax, b, centre, rot, color, lw, ls, fill, alpha, zorder):
        a, h, c = (e / 2 for e in b["box"])
        v = {(sx, sy, sz): centre + rot @ np.array([sx * a, sy * h, sz * c])
             for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)}
        # Faces seen in the oblique view (from +z, above, from the -x end).
        faces = [[(-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)],
                 [(-1, 1, -1), (1, 1, -1), (1, 1, 1), (-1, 1, 1)],
                 [(-1, -1, -1), (-1, 1, -1), (-1, 1, 1), (-1, -1, 1)]]
        if fill:
            for f in faces:
                ax.add_patch(Polygon(self.project(np.array([v[k] for k in f])), closed=True, fc=fill, ec="none",
                                     alpha=0.6 * alpha, zorder=zorder - 0.5))
        hidden_corner = (1, -1, -1)
        for p in v:
            for qk in v:
                if p < qk and sum(x != y for x, y in zip(p, qk)) == 1:
                    hidden = hidden_corner in (p, qk)
                    ax.plot(*self.project(np.array([v[p], v[qk]])).T, color=color, lw=lw * (0.5 if hidden else 1.0),
                            ls=":" if hidden else ls, alpha=alpha, zorder=zorder)


def spring(ax, a, b, color, damped=False, alpha=1.0, coils=4):
    """A zigzag spring from a to b (2-D points); a damped law adds a dashpot beside it."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = b - a
    length = float(np.linalg.norm(d))
    if length <= 0:
        return
    t = d / length
    n = np.array([-t[1], t[0]])
    w = 0.1 * length
    kw = dict(color=color, lw=0.8, alpha=alpha, zorder=1.5)
    if damped:
        # Spring and dashpot side by side between two cross bars.
        for end in (a, b):
            ax.plot(*np.array([end - 1.1 * w * n, end + 1.1 * w * n]).T, **kw)
        sa, sb = a - 1.1 * w * n, b - 1.1 * w * n
        da, db = a + 1.1 * w * n, b + 1.1 * w * n
        w *= 0.6
    else:
        sa, sb = a, b
    lead = 0.18
    fr = [0.0, lead] + [lead + (1 - 2 * lead) * (k + 0.5) / (2 * coils) for k in range(2 * coils)] + [1 - lead, 1.0]
    side = [0, 0] + [(1 if k % 2 == 0 else -1) for k in range(2 * coils)] + [0, 0]
    pts = np.array([sa + f * (sb - sa) + sd * w * n for f, sd in zip(fr, side)])
    ax.plot(pts[:, 0], pts[:, 1], **kw)
    if damped:
        # Cylinder open towards b, piston on a rod from b.
        c0 = da + 0.3 * d
        ax.plot(*np.array([da, c0]).T, **kw)
        ax.plot(*np.array([c0 + 0.45 * d - w * n, c0 - w * n, c0 + w * n, c0 + 0.45 * d + w * n]).T, **kw)
        piston = c0 + 0.3 * d
        ax.plot(*np.array([piston - 0.75 * w * n, piston + 0.75 * w * n]).T, color=color, lw=1.4, alpha=alpha,
                zorder=1.5)
        ax.plot(*np.array([piston, db]).T, **kw)


def ground_depth(scene):
    """Half the depth (z) of the ground patch drawn under free bodies."""
    return max(abs(b.get("z0", 0.0)) + 0.75 * b["box"][2] for b in scene.bodies if b["joint"] == "free")


def draw_ground(ax, scene, ground, xlo, xhi):
    if scene.free:
        depth = ground_depth(scene)
        corners = np.array([[xlo, ground, depth], [xhi, ground, depth], [xhi, ground, -depth], [xlo, ground, -depth]])
        ax.add_patch(Polygon(scene.project(corners), closed=True, fc="0.93", ec="0.6", lw=0.8, zorder=0))
        return
    ax.plot([xlo, xhi], [ground, ground], color="0.3", lw=1.0, zorder=1)
    step = (xhi - xlo) / 24
    for x in np.arange(xlo + step / 2, xhi, step):
        ax.plot([x, x - step * 0.7], [ground, ground - step * 0.7], color="0.6", lw=0.6, zorder=1)


def scene_layout(scene, q):
    """(ground height or None, size): the ground is drawn a gap below the lowest contact (not to scale)."""
    pts = scene.project(scene.outline_points(scene.pose(q)))
    size = float(np.ptp(pts, axis=0).max()) or 1.0
    lows = [low[1] for c, (_, low) in zip(scene.contacts, scene.contact_points(scene.pose(q)))
            if c["type"] == "sphere_plane"]
    if not lows:
        return None, size
    gap = 0.45 * size if not scene.free else 0.25 * size
    return min(lows) - gap, size


def shape_amplitude(scene, q, shape, size):
    """s so that the largest outline displacement (projected) is 15 % of the scene's size, and no spring
    between two bodies closes to less than half its drawn length."""
    base = scene.project(scene.outline_points(scene.pose(q)))
    probe = 1e-6
    moved = scene.project(scene.outline_points(scene.pose(scene.displaced(q, shape, probe))))
    d = float(np.max(np.linalg.norm(moved - base, axis=1)))
    s = 0.15 * size * probe / d if d > 0 else 0.0
    for c, (a0, b0), (a1, b1) in zip(scene.contacts, scene.contact_points(scene.pose(q)),
                                     scene.contact_points(scene.pose(scene.displaced(q, shape, probe)))):
        if c["type"] == "sphere_sphere":
            rate = abs(np.linalg.norm(b1 - a1) - np.linalg.norm(b0 - a0)) / probe
            if rate > 0:
                s = min(s, 0.5 * np.linalg.norm(b0 - a0) / rate)
    return s


def extent(scene, q_list, ground):
    pts = np.vstack([scene.project(scene.outline_points(scene.pose(q))) for q in q_list])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    if ground is not None:
        lo[1] = min(lo[1], ground)
        if scene.free:
            depth = ground_depth(scene)
            g = scene.project(np.array([[0, ground, depth], [0, ground, -depth]]))
            lo[1] = min(lo[1], g[:, 1].min())
    return lo, hi


def frame(ax, lo, hi, pad):
    ax.set_xlim(lo[0] - pad, hi[0] + pad)
    ax.set_ylim(lo[1] - pad, hi[1] + 1.6 * pad)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for s in ax.spines.values():
        s.set_visible(False)


def mode_title(k, m, loaded):
    f = m.get("frequency", m["omega"] / (2 * math.pi))
    period = m.get("period", 2 * math.pi / m["omega"])
    z = m.get("damping_ratio", 0.0)
    p = f"{period * 1e3:.3g} ms" if period < 1 else f"{period:.3g} s"
    lines = [f"mode {k + 1}:  {f:.4g} Hz  (ω {m['omega']:.4g} rad/s)",
             f"period {p},  damping ratio ζ {z:.2g}" + (" (overdamped)" if m.get("overdamped") else "")]
    if loaded is not None and abs(loaded["omega"] - m["omega"]) > 1e-3 * m["omega"]:
        lines.append(f"with load stiffness: {loaded['omega'] / (2 * math.pi):.4g} Hz, ζ {loaded['damping_ratio']:.2g}")
    return "\n".join(lines)


def setup_notes(scene, res):
    by_law = {}
    for c in scene.contacts:
        by_law.setdefault((c["law"], c["stiffness"]), 0)
        by_law[(c["law"], c["stiffness"])] += c.get("count", 1)
    parts = [f"{n} {law}" + (f", k {k:g} N/m" if k is not None and law.startswith("linear") else
                             f", E {k:g} Pa" if k is not None else "") for (law, k), n in by_law.items()]
    notes = ["contacts: " + "; ".join(parts)]
    free = res.get("free_motions", [])
    if free:
        notes.append(f"{len(free)} free motion{'s' * (len(free) != 1)} (no contact resists): not modes")
    return "\n".join(notes)


def figure_modes(modes_dir, out_dir, scenario_dirs):
    files = sorted(glob.glob(os.path.join(modes_dir, "*.json")))
    if not files:
        skip("modes", f"no {rel(modes_dir)}/*.json (bash scripts/ci-modes.sh writes them: "
             "build/bin/dropsim modes --json FILE > results/modes/NAME.json)")
        return
    entries = []
    for path in files:
        with open(path) as f:
            res = json.load(f)
        name = res.get("name", os.path.basename(path)[:-5])
        sc_path = find_scenario(name, scenario_dirs)
        if sc_path is None:
            skip(f"modes of {name}", "its scenario file is not under scenarios/")
            continue
        with open(sc_path) as f:
            scene = Scene(json.load(f))
        q = res["equilibrium"]["q"]
        ground, size = scene_layout(scene, q)
        panels = []
        loaded = res.get("loaded_modes", [])
        for k, m in enumerate(res.get("modes", [])):
            s = shape_amplitude(scene, q, m["shape"], size)
            panels.append((k, m, [scene.displaced(q, m["shape"], sgn * s) for sgn in (1, -1)],
                           loaded[k] if k < len(loaded) and len(loaded) == len(res["modes"]) else None))
        lo, hi = extent(scene, [q] + [qq for p in panels for qq in p[2]], ground)
        entries.append((name, scene, res, q, ground, size, panels, lo, hi))
    if not entries:
        return
    ncol = 1 + max(len(e[6]) for e in entries)
    col_w = 3.3
    # Each row as tall as its scene needs at the column width; between rows a fixed band for the notes
    # under the left panel and the mode titles above the next row.
    heights = [min(2.2, max(1.0, col_w * 0.85 * (e[8][1] - e[7][1]) / max(e[8][0] - e[7][0], 1e-12)))
               for e in entries]
    band, head = 0.75, 0.85
    ratios = [x for h in heights for x in (h, band)][:-1]
    total = sum(ratios) + head + 0.1
    total = sum(ratios) + head + 0.45
    fig = plt.figure(figsize=(col_w * ncol, total))
    gs = fig.add_gridspec(len(ratios), ncol, height_ratios=ratios, hspace=0.0, wspace=0.06,
                          top=1 - head / total, bottom=0.45 / total, left=0.01, right=0.99)
    for row, (name, scene, res, q, ground, size, panels, lo, hi) in enumerate(entries):
        pad = 0.08 * max(hi - lo)
        margin = 0.06 if scene.free else 0.2
        xlo, xhi = lo[0] - margin * size, hi[0] + margin * size
        # The scenario: bodies, contact points, springs (dashpots for damped laws) to the ground.
        ax = fig.add_subplot(gs[2 * row, 0])
        if ground is not None:
            draw_ground(ax, scene, ground, xlo, xhi)
        scene.draw(ax, q, ground, color="0.15", fill="#d6e4f0", labels=True)
        frame(ax, lo, hi, pad)
        at = "at static equilibrium" if res.get("equilibrium", {}).get("static") else "at the initial pose (frozen)"
        ax.set_title(f"{name}\n{at}", fontsize=8, loc="left", fontweight="bold")
        ax.text(0.0, -0.02, setup_notes(scene, res), transform=ax.transAxes, fontsize=6.3, va="top", color="0.3")
        # One panel per coupled mode: +shape (blue), -shape (orange dashed, flat scenes only), equilibrium (grey).
        for k, m, (q_plus, q_minus), lm in panels:
            ax = fig.add_subplot(gs[2 * row, 1 + k])
            if ground is not None:
                draw_ground(ax, scene, ground, xlo, xhi)
            if not scene.free:
                scene.draw(ax, q_minus, ground, color="tab:orange", lw=0.8, ls="--", springs=False, alpha=0.7)
            scene.draw(ax, q, ground, color="0.5", lw=0.8, ls="--", springs=False)
            scene.draw(ax, q_plus, ground, color="tab:blue", lw=1.3, fill="#d6e4f0", dashpots=False)
            # Arrows at the contacts: how each gap changes along the mode.
            for (_, l0), (_, l1) in zip(scene.contact_points(scene.pose(q)), scene.contact_points(scene.pose(q_plus))):
                a, b = scene.project(l0)[0], scene.project(l1)[0]
                if np.linalg.norm(b - a) > 0.03 * size:
                    ax.annotate("", b, a, arrowprops=dict(arrowstyle="-|>", color="tab:red", lw=1.0,
                                                          mutation_scale=7, shrinkA=0, shrinkB=0), zorder=7)
            frame(ax, lo, hi, pad)
            ax.set_title(mode_title(k, m, lm), fontsize=7, loc="left")
        for k in range(len(panels), ncol - 1):
            fig.add_subplot(gs[2 * row, 1 + k]).axis("off")
    fig.suptitle("Contact modes: each scenario on its contact springs (left) and each coupled mode as the displaced "
                 "body\nblue: +shape, orange dashed: −shape, grey dashed: equilibrium, red arrows: how the contact points "
                 "move. Amplitude exaggerated; springs and gaps not to scale.", fontsize=9, y=0.998, va="top")
    save(fig, out_dir, "modes", f"bash scripts/ci-modes.sh -> {rel(modes_dir)}/NAME.json  "
                                "(build/bin/dropsim modes --json scenarios/modes/NAME.json)")


# --- Work precision -----------------------------------------------------------------------------------------


# Each setting timed three times, interleaved at random with the others, the fastest kept (docs/performance.md).
FULL_WORK_PRECISION_RUN = ("build/bin/work_precision_bench --benchmark_min_time=0.2 --benchmark_repetitions=3 "
                           "--benchmark_enable_random_interleaving=true --json results/bench/work_precision.json")


def figure_work_precision(path, out_dir, update):
    if path is None:
        skip("work-precision", "no results/bench/work_precision.json (build/bin/work_precision_bench writes it) "
             "and no committed docs/figures/work_precision.json")
        return
    with open(path) as f:
        bench = json.load(f)
    committed = os.path.join(COMMITTED, "work_precision.json")
    if update and os.path.abspath(path) != os.path.abspath(committed):
        if bench.get("short_mode"):
            skip("work-precision", f"{rel(path)} is a short CI run; the committed figure keeps the full run "
                 f"({FULL_WORK_PRECISION_RUN})")
            return
        shutil.copyfile(path, committed)
        print(f"figures: copied {rel(path)} to {rel(committed)}")
    runs = [r for r in bench.get("runs", [])
            if isinstance(r.get("max_error"), (int, float)) and r["max_error"] > 0 and r.get("suite_seconds", 0) > 0]
    if not runs:
        skip("work-precision", f"{rel(path)} has no finite runs")
        return
    # The paper suite, and each multi-contact suite (<scenario>:<method>) beside it where the run has it.
    titles = {"box_on_edge": "box_on_edge: free box on 8 spheres with friction",
              "quadruped_friction": "quadruped_friction: posed trunk on 4 spheres with friction",
              "bar_rocking": "bar_rocking: bar on 2 spheres with friction"}
    paper = [r for r in runs if ":" not in r["method"]]
    suites = list(dict.fromkeys(r["method"].split(":")[0] for r in runs if ":" in r["method"]))
    fig, axes = plt.subplots(1, 1 + len(suites), figsize=(6.5 + 5.5 * len(suites), 5.6), squeeze=False)
    panels = [(axes[0][0], paper, "14 paper drops (1 DOF)", "max |F/(Mg) - reference| over the 14 paper runs")]
    for i, suite in enumerate(suites):
        panels.append((axes[0][1 + i], [r for r in runs if r["method"].startswith(suite + ":")],
                       titles.get(suite, suite), f"max |F_y/(Mg) - reference| over the {suite} run"))
    for ax, rows, title, xlabel in panels:
        # In the benchmark's order; past ten methods the colours repeat, so the markers tell them apart. A
        # Simbody integrator interpolating its samples is dashed, in the colour of the one stopping at them.
        lines = {}
        methods = sorted(dict.fromkeys(r["method"] for r in rows), key=lambda m: m.endswith("_interpolated"))
        for i, method in enumerate(methods):
            pts = sorted((r["max_error"], r["suite_seconds"] * 1e3) for r in rows if r["method"] == method)
            base = lines.get(method.removesuffix("_interpolated"))
            style = dict(ls="--", color=base.get_color(), marker=base.get_marker()) if base else \
                dict(ls="-", marker="os^vD"[i // 10 % 5])
            (lines[method],) = ax.loglog([e for e, _ in pts], [t for _, t in pts], ms=3,
                                         label=method.split(":")[-1], **style)
        for target in (1e-4, 1e-6):
            ax.axvline(target, color="k", lw=0.6, ls=":")
        ax.set_xlabel(xlabel + " (dimensionless)", fontsize=8)
        ax.set_ylabel("CPU per suite [ms]")
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=6, loc="best")
        ax.grid(alpha=0.3, which="both")
    fig.suptitle(f"work-precision, {bench.get('date', '?')}" + (" (short mode)" if bench.get("short_mode") else ""),
                 fontsize=9)
    save(fig, out_dir, "work_precision", f"{FULL_WORK_PRECISION_RUN}   (drawn from {rel(path)})")


def main():
    global FIGURE_COMMAND
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--paper", default=os.path.join(ROOT, "results", "paper"), help="directory of the paper runs' .h5")
    p.add_argument("--curves", default=os.path.join(ROOT, "results", "curves"), help="Fig. C.4 curve files")
    p.add_argument("--steplimits", default=os.path.join(ROOT, "results", "steplimits.json"))
    p.add_argument("--friction", default=os.path.join(ROOT, "results", "friction", "transition_velocity.json"),
                   help="the transition-velocity study (scripts/friction-study.sh)")
    p.add_argument("--modes", default=os.path.join(ROOT, "results", "modes"), help="dropsim modes --json outputs")
    p.add_argument("--work-precision", default=None,
                   help="default: results/bench/work_precision.json, else docs/figures/work_precision.json")
    p.add_argument("--update", action="store_true",
                   help="write the committed figures in docs/figures/ (instead of results/figures/)")
    p.add_argument("-o", "--out", default=None, help="output directory (default results/figures/)")
    a = p.parse_args()
    FIGURE_COMMAND = " ".join(["/usr/bin/python3", "scripts/figures.py"] + sys.argv[1:])
    out = a.out or (COMMITTED if a.update else os.path.join(ROOT, "results", "figures"))
    os.makedirs(out, exist_ok=True)
    wp = a.work_precision
    if wp is None:
        wp = next((c for c in (os.path.join(ROOT, "results", "bench", "work_precision.json"),
                               os.path.join(COMMITTED, "work_precision.json")) if os.path.exists(c)), None)
    ok = figure3(a.paper, out)
    figure_c4(a.curves, out)
    figure_step_limits(a.steplimits, out)
    figure_modes(a.modes, out, [os.path.join(ROOT, "scenarios", "modes")])
    figure_transition_velocity(a.friction, out)
    figure_work_precision(wp, out, a.update)
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
