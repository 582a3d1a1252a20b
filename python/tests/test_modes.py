"""dropsim.modes against `dropsim modes --json`: the same analysis, number for number."""
import json

import numpy as np
import pytest

import dropsim
from conftest import PAPER, SOURCE, dropsim_cli

SCENARIOS = [PAPER[0]] + sorted((SOURCE / "scenarios" / "modes").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_modes_equal_the_command_lines(path):
    r = dropsim_cli("modes", "--json", path)
    if r.returncode == 2:  # no equilibrium: Python refuses it with the same sentence
        with pytest.raises(dropsim.InputError) as e:
            dropsim.modes(path)
        assert str(e.value) in r.stderr
        return
    assert r.returncode == 0, r.stderr
    cli = json.loads(r.stdout)
    py = dropsim.modes(path)
    assert [m["omega"] for m in py["modes"]] == [m["omega"] for m in cli["modes"]]
    assert [m["omega"] for m in py["loaded_modes"]] == [m["omega"] for m in cli["loaded_modes"]]
    for p, c in zip(py["modes"], cli["modes"]):
        np.testing.assert_array_equal(p["shape"], c["shape"])
        assert p["damping_ratio"] == c["damping_ratio"]
    for key in ("stiffness", "effective_mass", "omega_single", "force", "indentation"):
        assert [c[key] for c in py["contacts"]] == [c[key] for c in cli["contacts"]], key
    if cli.get("equilibrium") is not None and py["equilibrium"] is not None:
        assert py["equilibrium"]["iterations"] == cli["equilibrium"]["iterations"]
        assert py["equilibrium"]["residual"] == cli["equilibrium"]["residual"]
