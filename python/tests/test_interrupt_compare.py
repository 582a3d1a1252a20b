"""Ctrl-C during a sweep, and compare against OpenSim storage files from Python."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import dropsim
from conftest import PAPER, dropsim_cli


def test_ctrl_c_stops_a_sweep():
    # A sweep of far more runs than the test waits for; SIGINT once it runs.
    script = textwrap.dedent(
        f"""
        import sys, numpy as np, dropsim
        print("running", flush=True)
        try:
            dropsim.sweep({str(PAPER[0])!r}, {{"/drop/mass": np.linspace(0.01, 0.03, 1_000_000)}}, threads=2)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        """
    )
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    assert p.stdout.readline().strip() == "running"
    time.sleep(2.0)  # well inside the sweep: a million drops take minutes
    p.send_signal(signal.SIGINT)
    try:
        code = p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        pytest.fail("the sweep did not stop on SIGINT")
    assert code == 3
    assert p.stdout.read().strip() == "interrupted"


@pytest.fixture(scope="module")
def mouse(tmp_path_factory):
    d = tmp_path_factory.mktemp("sto")
    r = dropsim_cli("run", "--sto", "-o", d, next(p for p in PAPER if p.name == "mouse_alpha-unscaled.json"))
    assert r.returncode == 0, r.stderr
    return d / "mouse_alpha-unscaled.h5", d / "mouse_alpha-unscaled.sto"


def test_compare_a_trace_with_its_storage_file(mouse):
    h5, sto = mouse
    c = dropsim.compare(h5, sto, x="time", y="force", label="contact.body.force.Y")
    assert c["within_tolerance"] and c["max_abs_diff"] == 0.0 and c["units"] == "N"
    # The ground's force is the opposite: beyond any tolerance, peak for peak.
    c = dropsim.compare(h5, sto, x="time", y="force", label="contact.ground.force.Y")
    assert not c["within_tolerance"]
    assert c["max_abs_diff"] == pytest.approx(2 * c["peak_a"], rel=1e-12)


def test_compare_refuses_a_missing_label_naming_file_and_line(mouse):
    h5, sto = mouse
    with pytest.raises(dropsim.InputError, match=r"\.sto: line 7: no column is labelled \"nope\""):
        dropsim.compare(h5, sto, x="time", y="force", label="nope")


def test_compare_says_what_the_command_line_says(tmp_path):
    pair = [p for p in PAPER if p.name.startswith("mouse_")]
    r = dropsim_cli("run", "-o", tmp_path, *pair)
    assert r.returncode == 0, r.stderr
    a, b = (tmp_path / (p.stem + ".h5") for p in pair)
    r = dropsim_cli("compare", "--json", "--atol", "1e-3", a, b)
    cli = json.loads(r.stdout)["pairs"][0]
    py = dropsim.compare(a, b, atol=1e-3)
    assert r.returncode == (0 if py["within_tolerance"] else 1)
    for key in ("max_abs_diff", "x_of_max", "rms_diff", "peak_a", "peak_b", "failing_samples", "samples"):
        assert py[key] == cli[key], key
