"""dropsim's figures, one module a family; scripts/figures.py draws them all.

common          paths, axis labels, the footer naming the commands that made a figure
paper           Fig. 3 and Fig. C.4 of the scaling paper, from the paper runs' traces
step_limits     predicted against measured step limits (dropsim steplimit --json)
friction        the transition-velocity study (scripts/friction-study.sh)
scene, modes    the contact-modes figure, drawn from the resolved scenario dropsim modes --json prints
work_precision  CPU against error, every integrator and a summary of each family's best
"""
