"""dropsim from Python against the command line: same files, same messages, same results."""
import copy
import json
import struct
import threading

import h5py
import numpy as np
import pytest

import dropsim
from conftest import PAPER, dropsim_cli


def without_wall_time(data: bytes, wall_time: float) -> bytes:
    """The file with the 8 bytes of its wall_time_s attribute zeroed: the one value that differs between runs."""
    packed = struct.pack("<d", wall_time)
    assert data.count(packed) == 1, "wall_time_s is not found exactly once"
    return data.replace(packed, bytes(8))


def test_paper_suite_writes_the_command_lines_files_bit_for_bit(tmp_path):
    assert len(PAPER) == 14
    cli_dir, py_dir = tmp_path / "cli", tmp_path / "py"
    py_dir.mkdir()
    r = dropsim_cli("run", "-o", cli_dir, *PAPER)
    assert r.returncode == 0, r.stderr
    for path in PAPER:
        trace = dropsim.run(dropsim.load_scenario(path))
        out = py_dir / (trace.name + ".h5")
        trace.write(out)
        cli_file = cli_dir / (trace.name + ".h5")
        cli_wall = dropsim.read_trace(cli_file)["attributes"]["wall_time_s"]
        assert without_wall_time(out.read_bytes(), trace.summary["wall_time"]) == without_wall_time(
            cli_file.read_bytes(), cli_wall
        ), path.name


def test_arrays_are_the_files_datasets_with_its_units(tmp_path):
    trace = dropsim.run(PAPER[0])
    trace.write(tmp_path / "t.h5")
    stored = dropsim.read_trace(tmp_path / "t.h5")
    assert list(stored["data"]) == trace.keys()
    for name in trace.keys():
        np.testing.assert_array_equal(trace[name], stored["data"][name], err_msg=name)
        assert trace.units[name] == stored["units"][name], name
    s = trace.summary
    a = stored["attributes"]
    for key in ("peak_force_normalized", "tau_of_peak", "equilibrium_indentation_relative", "steps", "rhs_evaluations"):
        assert s[key] == a[key], key
    assert s["status"] == a["status"] == "ok"
    # The summary's peak is the largest sample of the array.
    assert s["peak_force_normalized"] == trace["force_normalized"].max()


def test_arrays_are_views_of_the_traces_buffer():
    trace = dropsim.run(PAPER[0])
    a, b = trace["force_normalized"], trace["force_normalized"]
    assert a.base is trace and not a.flags.owndata and not a.flags.writeable
    # Two looks at one dataset see the same memory: no copy was made.
    assert a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
    f = trace["contact_force"]
    assert f.ndim == 2 and f.shape == (len(trace), 1) and f.base is trace
    assert f.__array_interface__["data"][0] != a.__array_interface__["data"][0]
    peak = float(a.max())
    del trace  # the array keeps the trace alive
    assert float(a.max()) == peak


def mouse_document():
    return json.loads(next(p for p in PAPER if p.name == "mouse_alpha-unscaled.json").read_text())


def test_bad_value_raises_input_error_naming_the_path_as_the_command_line(tmp_path):
    doc = mouse_document()
    doc["drop"]["mass"] = -1.0
    with pytest.raises(dropsim.InputError) as e:
        dropsim.Scenario(doc)
    assert isinstance(e.value, ValueError)
    assert e.value.json_path == "/drop/mass"
    assert e.value.file == "scenario dict"
    message = str(e.value)
    assert message.startswith("scenario dict: /drop/mass: ")
    # The command line says the same of the same document in a file.
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    r = dropsim_cli("run", "-o", tmp_path, tmp_path / "bad.json")
    assert r.returncode == 2
    assert message.removeprefix("scenario dict") in r.stderr


def test_unknown_key_and_non_json_values_are_refused():
    doc = mouse_document()
    doc["drop"]["mas"] = 1.0
    with pytest.raises(dropsim.InputError, match="/drop/mas"):
        dropsim.Scenario(doc)
    doc = mouse_document()
    doc["drop"]["mass"] = object()
    with pytest.raises(TypeError, match="/drop/mass"):
        dropsim.Scenario(doc)
    with pytest.raises(dropsim.InputError, match="step"):
        dropsim.run(mouse_document(), step=-1.0)


def test_numpy_values_in_a_dict_are_their_numbers():
    doc = mouse_document()
    plain = dropsim.run(doc).summary
    doc["drop"]["mass"] = np.float64(doc["drop"]["mass"])
    doc["drop"]["spheres"] = np.int64(doc["drop"]["spheres"])
    assert dropsim.run(doc).summary["peak_force_normalized"] == plain["peak_force_normalized"]


def test_two_python_threads_at_once_equal_one_after_the_other():
    scenarios = [dropsim.load_scenario(p) for p in PAPER[:6]]
    sequential = [dropsim.run(s) for s in scenarios]
    results = {}

    def work(k):
        results[k] = dropsim.run_many(scenarios[k::2], threads=1)

    threads = [threading.Thread(target=work, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    together = [None] * len(scenarios)
    together[0::2], together[1::2] = results[0], results[1]
    for one, other in zip(sequential, together):
        assert one.name == other.name
        for name in one.keys():
            np.testing.assert_array_equal(one[name], other[name], err_msg=name)


def test_run_many_keeps_the_order_given():
    traces = dropsim.run_many(PAPER[:4], threads=2)
    assert [t.name for t in traces] == [p.stem for p in PAPER[:4]]


def test_sweep_equals_the_command_lines_sweep(tmp_path):
    base = next(p for p in PAPER if p.name == "mouse_alpha-unscaled.json")
    r = dropsim_cli("sweep", base, "--vary", "/drop/mass=0.01:0.04:7", "-o", tmp_path / "s.h5", "-j", "2")
    assert r.returncode == 0, r.stderr
    # The command line's design, read back from its file (h5py), run from Python.
    with h5py.File(tmp_path / "s.h5") as f:
        cli = {name: f[name][()] for name in f}
    masses = cli["parameters"][:, 0]
    rows = dropsim.sweep(base, {"/drop/mass": masses}, threads=2)
    assert rows["run"].tolist() == list(range(7))
    np.testing.assert_array_equal(rows["/drop/mass"], masses)
    for column in ("equilibrium_indentation_relative", "peak_force_normalized", "tau_of_peak", "settling_time",
                   "status", "steps", "rhs_evaluations"):
        np.testing.assert_array_equal(rows[column], cli[column], err_msg=column)
    for i, m in enumerate(masses):
        doc = json.loads(base.read_text())
        doc["drop"]["mass"] = float(m)
        one = dropsim.run(doc, attribution=False).summary
        assert rows["peak_force_normalized"][i] == one["peak_force_normalized"]
        assert rows["steps"][i] == one["steps"]
    assert (rows["status"] == 0).all()


def test_sweep_refuses_unequal_columns_and_bad_points():
    base = PAPER[0]
    with pytest.raises(dropsim.InputError, match="one value per run"):
        dropsim.sweep(base, {"/drop/mass": [1.0, 2.0], "/drop/radius": [0.1]})
    with pytest.raises(dropsim.InputError, match="/drop/mass"):
        dropsim.sweep(base, {"/drop/mass": [1.0, -2.0]})


def test_memory_stays_flat_over_ten_thousand_runs():
    doc = mouse_document()
    doc["duration"] = 0.02  # a short run: the loop measures the bindings, not the physics

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1])

    def loop(n):
        for _ in range(n):
            t = dropsim.run(doc)
            t["force_normalized"].max()
            t.summary

    loop(500)  # allocator and caches warm
    before = rss()
    loop(10_000)
    after = rss()
    assert after <= before * 1.05, (before, after)
