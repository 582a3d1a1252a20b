"""dropsim from Python: the library the ``dropsim`` command line runs on.

Scenarios are validated by the command line's own validator, runs go through
its own pipeline, and results come back as numpy arrays and dicts
(docs/python.md)::

    import dropsim
    trace = dropsim.run(dropsim.load_scenario("scenarios/paper/fig3_mouse.json"))
    trace["tau"], trace["force_normalized"], trace.summary["peak_force_normalized"]
"""
from ._dropsim import (  # noqa: F401
    InputError,
    Scenario,
    Trace,
    compare,
    integrators,
    load_scenario,
    modes,
    read_trace,
    run,
    run_many,
    sweep,
)

__all__ = [
    "InputError",
    "Scenario",
    "Trace",
    "compare",
    "integrators",
    "load_scenario",
    "modes",
    "read_trace",
    "run",
    "run_many",
    "sweep",
]
