"""A 1 000-point sweep from Python: peak F/(Mg) of the human drop over mass and dissipation (docs/python.md)."""
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import dropsim

base = pathlib.Path(__file__).resolve().parents[2] / "scenarios" / "paper" / "human62_alpha-unscaled.json"
out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "sweep_from_python.png")

# A Cartesian design of 40 masses x 25 Hunt-Crossley dissipations, as numpy arrays of one value per run.
mass, alpha = np.meshgrid(np.linspace(40.0, 120.0, 40), np.linspace(0.5, 5.0, 25), indexing="ij")
rows = dropsim.sweep(base, {"/drop/mass": mass.ravel(), "/contact/scaled_from/dissipation": alpha.ravel()})
assert (rows["status"] == 0).all(), "a run diverged"

peak = rows["peak_force_normalized"].reshape(mass.shape)
fig, ax = plt.subplots(figsize=(6, 4.5))
image = ax.pcolormesh(mass, alpha, peak, shading="auto")
ax.set(xlabel="mass [kg]", ylabel="dissipation alpha [s/m]", title=f"peak F/(Mg), {peak.size} drops")
fig.colorbar(image, ax=ax, label="peak F/(Mg) [1]")
fig.savefig(out, dpi=120)
print(f"sweep: {peak.size} runs, peak F/(Mg) from {peak.min():.3f} to {peak.max():.3f}; wrote {out}")
