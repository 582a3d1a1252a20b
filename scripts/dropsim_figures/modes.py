"""The contact-modes figure: each scenario on its contact springs and each coupled mode as the displaced body."""
import glob
import json
import math
import os

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Polygon

from .common import rel, save, skip
from .scene import Scene


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


def figure_modes(modes_dir, out_dir):
    files = sorted(glob.glob(os.path.join(modes_dir, "*.json")))
    if not files:
        skip("modes", f"no {rel(modes_dir)}/*.json (bash scripts/ci-modes.sh writes them: "
             "build/bin/dropsim modes --json FILE > results/modes/NAME.json)")
        return
    entries = []
    for path in files:
        with open(path) as f:
            res = json.load(f)
        name = res["name"]
        if "scenario" not in res:
            skip(f"modes of {name}", f"{rel(path)} has no resolved scenario (written by an older dropsim): "
                 "rerun bash scripts/ci-modes.sh")
            continue
        scene = Scene(res["scenario"])
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
