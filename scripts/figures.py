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
  modes          bodies, springs, mode shapes    results/modes/*.json (scripts/ci-modes.sh)
  transition velocity  what v_t buys            results/friction/transition_velocity.json (scripts/friction-study.sh)
  work-precision suite time against error        results/bench/work_precision.json (work_precision_bench),
                                                 else the committed full run docs/figures/work_precision.json;
                                                 every integrator, and a summary (each family's best, the default)
One module a figure family in scripts/dropsim_figures/; the modes figure draws
each scenario as dropsim resolved it (the `scenario` key of `dropsim modes --json`),
with no defaults of its own. Every figure carries a footer naming the commands that made it. Axis units
come from each dataset's `units` attribute. Exit 0 when Fig. 3 was drawn, 2
when its input is missing. Needs Debian's python3-matplotlib, python3-h5py and
python3-numpy (run /usr/bin/python3: the python3 first on PATH may lack them).
"""
import argparse
import os
import sys

from dropsim_figures import common, friction, modes, paper, step_limits, work_precision
from dropsim_figures.common import COMMITTED, ROOT


def main():
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
    common.figure_command[0] = " ".join(["/usr/bin/python3", "scripts/figures.py"] + sys.argv[1:])
    out = a.out or (COMMITTED if a.update else os.path.join(ROOT, "results", "figures"))
    os.makedirs(out, exist_ok=True)
    wp = a.work_precision
    if wp is None:
        wp = next((c for c in (os.path.join(ROOT, "results", "bench", "work_precision.json"),
                               os.path.join(COMMITTED, "work_precision.json")) if os.path.exists(c)), None)
    ok = paper.figure3(a.paper, out)
    paper.figure_c4(a.curves, out)
    step_limits.figure_step_limits(a.steplimits, out)
    modes.figure_modes(a.modes, out)
    friction.figure_transition_velocity(a.friction, out)
    work_precision.figure_work_precision(wp, out, a.update)
    work_precision.figure_work_precision_summary(wp, out)
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
