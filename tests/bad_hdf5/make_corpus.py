#!/usr/bin/python3
"""The bad-HDF5 corpus: structurally bad traces (for `dropsim compare`) and sweep
shards (for `dropsim merge`), each made from a good file by one mutation.

Usage: make_corpus.py GOOD_TRACE GOOD_SHARD_0 GOOD_SHARD_1 OUT_DIR
Writes OUT_DIR/<case>.h5 (or other files) and OUT_DIR/cases.json: a list of
{name, command, path, message}. `command` is the dropsim argument list with
GOOD (the good trace), SHARD0, SHARD1 and OUTPUT placeholders; every case must
exit 2 with "FILE: PATH: ...MESSAGE..." on stderr and write nothing.
"""
import json
import os
import shutil
import sys

import h5py
import numpy as np

good_trace, shard0, shard1, out = sys.argv[1:5]
os.makedirs(out, exist_ok=True)
cases = []


def case(name, command, path, message, source=good_trace, mutate=None, suffix=".h5"):
    target = os.path.join(out, name + suffix)
    if source is not None:
        shutil.copyfile(source, target)
        if mutate is not None:
            with h5py.File(target, "r+") as h:
                mutate(h)
    cases.append({"name": name, "file": target, "command": [c.replace("BAD", target) for c in command],
                  "path": path, "message": message})
    return target


def compare(*extra):
    return ["compare", "GOOD", "BAD", *extra]


def replace(h, name, data, units=None, dtype=None):
    old_units = h[name].attrs.get("units")
    del h[name]
    d = h.create_dataset(name, data=data, dtype=dtype)
    if units is not None or old_units is not None:
        d.attrs["units"] = units if units is not None else old_units


# --- traces: dropsim compare GOOD BAD (force_normalized against tau) --------------------------------------------
n = None
with h5py.File(good_trace, "r") as h:
    n = h["tau"].shape[0]
    tau = h["tau"][:]
    force = h["force_normalized"][:]

case("not_hdf5", compare(), "", "not an HDF5 file", source=None)
with open(os.path.join(out, "not_hdf5.h5"), "w") as f:
    f.write("time,force\n0,1\n")
case("empty_file", compare(), "", "not an HDF5 file", source=None)
open(os.path.join(out, "empty_file.h5"), "w").close()
t = case("truncated", compare(), "", "truncated or damaged")
with open(t, "r+b") as f:
    f.truncate(os.path.getsize(t) // 2)
case("missing_dataset", compare(), "/force_normalized", "no such dataset", mutate=lambda h: h.__delitem__("force_normalized"))
case("missing_x", compare(), "/tau", "no such dataset", mutate=lambda h: h.__delitem__("tau"))
case("group_not_dataset", compare(), "/force_normalized", "no such dataset",
     mutate=lambda h: (h.__delitem__("force_normalized"), h.create_group("force_normalized")))
case("rank_three", compare(), "/force_normalized", "must be 1-D or 2-D",
     mutate=lambda h: replace(h, "force_normalized", force.reshape(n, 1, 1)))
case("scalar", compare(), "/force_normalized", "must be 1-D or 2-D",
     mutate=lambda h: replace(h, "force_normalized", 1.0))
case("strings", compare(), "/force_normalized", "not numeric",
     mutate=lambda h: replace(h, "force_normalized", np.array([b"1.0"] * n)))
case("compound", compare(), "/force_normalized", "not numeric",
     mutate=lambda h: replace(h, "force_normalized", np.zeros(n, dtype=[("a", "f8"), ("b", "f8")])))
case("empty_dataset", compare(), "/force_normalized", "fewer than 2 samples",
     mutate=lambda h: (replace(h, "force_normalized", np.zeros(0)), replace(h, "tau", np.zeros(0))))
case("single_sample", compare(), "/force_normalized", "fewer than 2 samples",
     mutate=lambda h: (replace(h, "force_normalized", force[:1]), replace(h, "tau", tau[:1])))
case("lengths_differ", compare(), "/force_normalized", "differ in length",
     mutate=lambda h: replace(h, "force_normalized", force[:-5]))
bad_tau = tau.copy()
bad_tau[10] = bad_tau[9] - 1e-3
case("time_backwards", compare(), "/tau", "not strictly increasing at sample 10",
     mutate=lambda h: replace(h, "tau", bad_tau))
repeated = tau.copy()
repeated[20] = repeated[19]
case("time_repeated", compare(), "/tau", "not strictly increasing at sample 20",
     mutate=lambda h: replace(h, "tau", repeated))
nan_force = force.copy()
nan_force[7] = np.nan
case("nan_value", compare(), "/force_normalized", "non-finite value at sample 7",
     mutate=lambda h: replace(h, "force_normalized", nan_force))
inf_tau = tau.copy()
inf_tau[-1] = np.inf
case("inf_time", compare(), "/tau", f"non-finite value at sample {n - 1}",
     mutate=lambda h: replace(h, "tau", inf_tau))
case("units_differ", compare(), "/force_normalized", "units \"N\" differ",
     mutate=lambda h: h["force_normalized"].attrs.__setitem__("units", "N"))
case("units_not_text", compare(), "/force_normalized", "units attribute must be text",
     mutate=lambda h: h["force_normalized"].attrs.__setitem__("units", 3.0))
case("units_two_strings", compare(), "/force_normalized", "units attribute must be text, one string",
     mutate=lambda h: h["force_normalized"].attrs.__setitem__("units", ["1", "1"]))
case("x_units_differ", compare(), "/tau", "units \"s\" differ",
     mutate=lambda h: h["tau"].attrs.__setitem__("units", "s"))
case("no_overlap", compare(), "/force_normalized(tau)", "do not overlap",
     mutate=lambda h: replace(h, "tau", tau + 1e3))
# Requests a file cannot answer (the first file is read first):
case("column_out_of_range", ["compare", "BAD", "GOOD", "--y", "contact_force[3]"], "/contact_force",
     "column 3 out of range")
case("two_d_without_column", ["compare", "BAD", "GOOD", "--y", "contact_force"], "/contact_force", "choose one")
case("one_d_with_column", ["compare", "BAD", "GOOD", "--y", "force_normalized[0]"], "/force_normalized",
     "drop the [column]")
case("a_directory", compare(), "", "no such file", source=None, suffix="")
os.makedirs(os.path.join(out, "a_directory"), exist_ok=True)
case("missing_file", compare(), "", "no such file", source=None, suffix=".absent")

# --- sweep shards: dropsim merge SHARD0 BAD -o OUTPUT ----------------------------------------------------------


def merge(first="SHARD0"):
    return ["merge", first, "BAD", "-o", "OUTPUT"]


with h5py.File(shard1, "r") as h:
    rows = h["run"].shape[0]
case("shard_missing_run", merge(), "/run", "no such dataset", source=shard1,
     mutate=lambda h: h.__delitem__("run"))
case("shard_missing_status", merge(), "/status", "no such dataset", source=shard1,
     mutate=lambda h: h.__delitem__("status"))
case("shard_short_column", merge(), "/peak_force_normalized", f"rows, expected {rows}", source=shard1,
     mutate=lambda h: replace(h, "peak_force_normalized", h["peak_force_normalized"][:-1]))
case("shard_parameters_rank", merge(), "/parameters", "must be 2-D", source=shard1,
     mutate=lambda h: replace(h, "parameters", h["parameters"][:, 0]))
case("shard_run_as_float", merge(), "/run", "must hold integers", source=shard1,
     mutate=lambda h: replace(h, "run", h["run"][:].astype(float)))
case("shard_run_out_of_range", merge(), "/run", "is outside the sweep's 0 to", source=shard1,
     mutate=lambda h: replace(h, "run", h["run"][:] + 1000))
case("shard_status_unknown", merge(), "/status", "must be 0 (ok) or 1 (diverged)", source=shard1,
     mutate=lambda h: replace(h, "status", np.full(rows, 7, dtype=np.int8)))
case("shard_missing_attribute", merge(), "/", "attribute \"total_runs\" is missing", source=shard1,
     mutate=lambda h: h.attrs.__delitem__("total_runs"))
case("shard_total_not_a_number", merge(), "/", "attribute \"total_runs\"", source=shard1,
     mutate=lambda h: h.attrs.__setitem__("total_runs", "many"))
case("shard_axes_not_json", merge(), "/", "attribute \"axes\"", source=shard1,
     mutate=lambda h: h.attrs.__setitem__("axes", "[not json"))
case("shard_attribute_two_strings", merge(), "/", "attribute \"axes\" must be text, one string", source=shard1,
     mutate=lambda h: h.attrs.__setitem__("axes", ["a", "b"]))
case("shard_rows_beyond_total", merge(), "/run", "more than the sweep's 1 runs", source=shard1,
     mutate=lambda h: h.attrs.__setitem__("total_runs", "1"))
case("shard_of_other_design", merge(), "", "a different sweep", source=shard1,
     mutate=lambda h: h.attrs.__setitem__("axes", json.dumps(["/contact/dissipation=1:3:4"])))
case("shard_twice", merge(), "/run", "appears twice", source=shard0)
case("shard_missing", ["merge", "BAD", "-o", "OUTPUT"], "/run", "missing", source=shard1)
case("trace_as_shard", merge(), "/", "attribute \"base_scenario\" is missing", source=good_trace)
case("shard_not_hdf5", merge(), "", "not an HDF5 file", source=None)
with open(os.path.join(out, "shard_not_hdf5.h5"), "w") as f:
    f.write("run,peak\n")

with open(os.path.join(out, "cases.json"), "w") as f:
    json.dump(cases, f, indent=1)
print(f"make_corpus: {len(cases)} cases in {out}")
