#!/usr/bin/python3
"""The A/B verdict (scripts/bench_verdict.py) on tiny synthetic Google Benchmark files.

Exits 77 (ctest: skipped, with the reason) where Google Benchmark's tools or
scipy are missing: scripts/install-ci-tools.sh installs them.
"""
import json
import random
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import bench_verdict  # noqa: E402

if bench_verdict.calc_utest is None:
    print(f"skipped: {bench_verdict.GBENCH_IMPORT_ERROR} "
          "(Debian libbenchmark-tools and python3-scipy: scripts/install-ci-tools.sh)")
    sys.exit(77)


def write_turns(folder, tag, turn_times_ms, counters=None, name="BM_Suite"):
    """One file per turn (a process of the A/B runner), each with two repetitions near its time."""
    return [write_run(folder, f"{tag}{i}", [t, t * 1.001], counters, name) for i, t in enumerate(turn_times_ms)]


def write_run(folder, tag, times_ms, counters=None, name="BM_Suite"):
    """A Google Benchmark JSON file: one iteration run per time, as --benchmark_repetitions writes."""
    runs = []
    for i, t in enumerate(times_ms):
        run = {"name": name, "run_name": name, "run_type": "iteration", "repetitions": len(times_ms),
               "repetition_index": i, "threads": 1, "iterations": 10, "real_time": t, "cpu_time": t,
               "time_unit": "ms"}
        for k, v in (counters or {}).items():
            run[k] = v(i) if callable(v) else v
        runs.append(run)
    # The mean an --benchmark_repetitions run adds: aggregates are not samples.
    runs.append({"name": name + "_mean", "run_name": name, "run_type": "aggregate", "aggregate_name": "mean",
                 "real_time": 1e9, "cpu_time": 1e9, "time_unit": "ms", "iterations": 1})
    path = Path(folder) / f"{tag}.json"
    path.write_text(json.dumps({"context": {}, "benchmarks": runs}))
    return path


class Verdict(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.rng = random.Random(1)

    def tearDown(self):
        self.dir.cleanup()

    def noisy(self, centre, n=12, spread=0.02):
        return [centre * (1.0 + self.rng.uniform(-spread, spread)) for _ in range(n)]

    def only_row(self, a, b, **kw):
        rows = bench_verdict.compare(a, b, **kw)
        self.assertEqual(len(rows), 1)
        return rows[0]

    def test_equal_samples_are_no_regression(self):
        times = self.noisy(10.0)
        row = self.only_row(write_turns(self.dir.name, "a", times), write_turns(self.dir.name, "b", times))
        self.assertEqual(row["verdict"], "same")
        self.assertEqual(row["change"], 0.0)
        lo, hi = row["change_ci95"]
        self.assertLessEqual(lo, 0.0)
        self.assertGreaterEqual(hi, 0.0)
        self.assertGreater(row["p_value"], 0.5)
        self.assertEqual(row["samples"], [12, 12])  # a sample a turn; the aggregate is not one

    def test_slower_sample_is_a_regression_with_a_positive_change(self):
        a = write_turns(self.dir.name, "a", self.noisy(10.0))
        b = write_turns(self.dir.name, "b", self.noisy(12.5))
        row = self.only_row(a, b)
        self.assertEqual(row["verdict"], "slower")
        self.assertAlmostEqual(row["change"], 0.25, delta=0.03)
        lo, hi = row["change_ci95"]
        self.assertTrue(0.20 < lo < 0.25 < hi < 0.30, row["change_ci95"])
        self.assertLess(row["p_value"], 1e-4)

    def test_faster_sample_is_not_a_regression(self):
        row = self.only_row(write_turns(self.dir.name, "a", self.noisy(10.0)),
                            write_turns(self.dir.name, "b", self.noisy(8.0)))
        self.assertEqual(row["verdict"], "faster")
        self.assertLess(row["change"], -0.15)

    def test_a_significant_change_below_the_threshold_passes(self):
        row = self.only_row(write_turns(self.dir.name, "a", self.noisy(10.0, spread=0.005)),
                            write_turns(self.dir.name, "b", self.noisy(10.5, spread=0.005)))
        self.assertLess(row["p_value"], 1e-4)
        self.assertEqual(row["verdict"], "same")

    def test_a_large_change_that_is_noise_is_not_significant(self):
        # Two turns each: no U test can reject at 1 %, whatever the medians say.
        row = self.only_row(write_turns(self.dir.name, "a", [10.0, 14.0]), write_turns(self.dir.name, "b", [12.0, 16.0]))
        self.assertGreater(row["change"], 0.10)
        self.assertEqual(row["verdict"], "same")

    def test_repetitions_within_one_turn_are_not_independent_samples(self):
        # One process per build, eighteen repetitions each, 25 % apart: one sample a side, no verdict.
        a = [write_run(self.dir.name, "a", self.noisy(10.0, n=18))]
        b = [write_run(self.dir.name, "b", self.noisy(12.5, n=18))]
        row = self.only_row(a, b)
        self.assertEqual(row["samples"], [1, 1])
        self.assertAlmostEqual(row["change"], 0.25, delta=0.03)
        self.assertEqual(row["verdict"], "same")

    def test_a_changed_counter_is_reported_and_a_rate_is_not(self):
        times = self.noisy(10.0)
        a = write_turns(self.dir.name, "a", times, {"rhs_per_suite": 8978.0, "steps_per_s": lambda i: 1e5 + i})
        b = write_turns(self.dir.name, "b", times, {"rhs_per_suite": 8990.0, "steps_per_s": lambda i: 2e5 + i})
        row = self.only_row(a, b)
        self.assertEqual(row["counter_changes"], [{"counter": "rhs_per_suite", "a": 8978.0, "b": 8990.0}])
        self.assertIn("rhs_per_suite changed: 8978 -> 8990", bench_verdict.table([row]))

    def test_an_unchanged_counter_is_not_reported(self):
        times = self.noisy(10.0)
        a = write_turns(self.dir.name, "a", times, {"max_error": 1.5e-5})
        b = write_turns(self.dir.name, "b", times, {"max_error": 1.5e-5})
        self.assertEqual(self.only_row(a, b)["counter_changes"], [])

    def test_a_benchmark_on_one_side_only_is_named(self):
        a = write_turns(self.dir.name, "a", self.noisy(10.0), name="BM_Old")
        b = write_turns(self.dir.name, "b", self.noisy(10.0), name="BM_New")
        rows = bench_verdict.compare(a, b)
        self.assertEqual([(r["benchmark"], r["verdict"]) for r in rows],
                         [("BM_New", "only in B"), ("BM_Old", "only in A")])

    def test_an_allowance_covers_its_benchmark_up_to_its_bound(self):
        a = write_turns(self.dir.name, "a", self.noisy(10.0))
        b = write_turns(self.dir.name, "b", self.noisy(12.5))
        rows = bench_verdict.compare(a, b)
        allow = [{"benchmark": "^BM_Suite$", "max_slowdown": 0.30, "reason": "exact friction costs time"}]
        self.assertEqual(bench_verdict.apply_allowances(rows, allow)[0]["verdict"], "allowed")
        rows = bench_verdict.compare(a, b)
        tight = [dict(allow[0], max_slowdown=0.15)]
        self.assertEqual(bench_verdict.apply_allowances(rows, tight)[0]["verdict"], "slower")

    def test_a_file_that_is_not_benchmark_json_is_named(self):
        bad = Path(self.dir.name) / "bad.json"
        bad.write_text("{\"context\": {}}")
        with self.assertRaisesRegex(bench_verdict.VerdictInputError, "bad.json"):
            bench_verdict.compare([bad], [bad])


if __name__ == "__main__":
    unittest.main()
