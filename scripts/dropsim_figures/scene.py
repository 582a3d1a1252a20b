"""A resolved scenario's bodies and contacts, posed by a coordinate vector and drawn in 2-D."""
import math

import numpy as np
from matplotlib.patches import Circle, Polygon


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


def dissipates(contact):
    """Whether a resolved contact's law dissipates: a dashpot beside its spring. The resolved scenario names
    the law and its coefficient; the elastic laws (linear, hertz) have none."""
    if contact["law"] in ("linear", "hertz"):
        return False
    if "restitution" in contact:
        return contact["restitution"] < 1.0
    coefficient = "damping" if contact["law"] == "linear_damped" else "dissipation"
    return contact[coefficient] != 0.0


class Scene:
    """A resolved scenario's bodies and contacts, posed by a coordinate vector q (dropsim's order) and drawn
    in 2-D. The scenario is the one dropsim ran, every default filled in (`dropsim modes --json` prints it
    as `scenario`, a trace carries it as its `scenario` attribute): the figure assumes no default of its own.

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
        d, c = self.s["drop"], self.s["contact"]
        self.bodies.append({"name": "body", "joint": "vertical", "offset": 0, "uoffset": 0, "nq": 1, "nu": 1,
                            "mass": d["mass"], "x0": 0.0, "z0": 0.0})
        self.contacts.append({"type": "sphere_plane", "body": 0, "at": np.zeros(3), "radius": d["radius"],
                              "count": d["spheres"], "law": c["law"], "stiffness": c["stiffness"],
                              "damped": dissipates(c)})

    def _multibody(self):
        oq = ou = 0
        index = {}
        for b in self.s["bodies"]:
            j = b["joint"]
            nq, nu = {"vertical": (1, 1), "planar": (3, 3), "free": (7, 6)}[j]
            pos = list(b["position"]) + [0.0] * 3
            index[b["name"]] = len(self.bodies)
            self.bodies.append({"name": b["name"], "joint": j, "offset": oq, "uoffset": ou, "nq": nq, "nu": nu,
                                "mass": b["mass"], "inertia": b.get("inertia"), "x0": pos[0], "z0": pos[2]})
            oq += nq
            ou += nu
        pad3 = lambda v: np.array(list(v) + [0.0] * (3 - len(v)))  # noqa: E731
        for c in self.s["contacts"]:
            common = {"law": c["law"], "stiffness": c["stiffness"], "count": c["count"], "damped": dissipates(c)}
            if c["type"] == "sphere_sphere":
                self.contacts.append({"type": "sphere_sphere", "bodies": [index[n] for n in c["bodies"]],
                                      "at": [pad3(a) for a in c["at"]], "radius": list(c["radius"]), **common})
            else:
                self.contacts.append({"type": "sphere_plane", "body": index[c["body"]], "at": pad3(c["at"]),
                                      "radius": c["radius"], **common})

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
