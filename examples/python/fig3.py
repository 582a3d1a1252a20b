"""Fig. 3 of the scaling paper from Python: F/(Mg) against tau, alpha unscaled and scaled (docs/python.md)."""
import pathlib, sys
import matplotlib; matplotlib.use("Agg")
import matplotlib.pyplot as plt
import dropsim

paper = pathlib.Path(__file__).resolve().parents[2] / "scenarios" / "paper"
out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "fig3_from_python.png")
fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
for ax, kind in zip(axes, ("unscaled", "scaled")):
    for trace in dropsim.run_many(sorted(paper.glob(f"*_alpha-{kind}.json"))):
        keep = trace["tau"] <= 25.0
        ax.plot(trace["tau"][keep], trace["force_normalized"][keep], lw=1.0, label=trace.name.split("_")[0])
    ax.set(title=f"alpha {kind}", xlabel="tau [1]")
axes[0].set_ylabel("F/(Mg) [1]"), axes[1].legend(fontsize=8)
fig.savefig(out, dpi=120)
print(f"fig3: wrote {out}")
