"""What every figure shares: the repository's paths, axis labels, the footer naming the commands that made it."""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
COMMITTED = os.path.join(ROOT, "docs", "figures")
# Same input, same SVG bytes: fixed element ids, no creation date.
plt.rcParams["svg.hashsalt"] = "dropsim"

# The command that draws the figures, as given (scripts/figures.py sets it from argv).
figure_command = ["/usr/bin/python3 scripts/figures.py"]


def rel(path):
    return os.path.relpath(path, ROOT)


def units_of(dataset):
    u = dataset.attrs.get("units", "")
    return u.decode() if isinstance(u, bytes) else str(u)


def axis_label(name, units):
    return f"{name} (dimensionless)" if units in ("", "1") else f"{name} [{units}]"


def save(fig, out_dir, stem, data_command):
    """Writes STEM.png and STEM.svg with a footer: the command that made the data, then this script's."""
    fig.text(0.005, 0.0, f"data: {data_command}\nfigure: {figure_command[0]}", fontsize=7, color="0.35",
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
