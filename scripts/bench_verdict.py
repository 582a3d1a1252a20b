#!/usr/bin/python3
"""The A/B verdict of scripts/bench-ab.sh: Google Benchmark JSON of two builds
in, one verdict per benchmark out (docs/performance.md#ab-comparison).

Each file is one turn of one build (one process), and a turn is the unit of
independence: on a shared machine a process as a whole runs fast or slow (its
memory layout, its neighbours), so repetitions within one turn agree with each
other far better than turns do. The samples are therefore the turns' median
CPU times per iteration, and per benchmark the verdict gives:
- the change of the median over turns, B against A;
- its 95 % confidence interval: Hodges-Lehmann's, the order statistics of the
  pairwise log ratios b_j / a_i that the Mann-Whitney distribution allows
  (distribution-free, no resampling, so the same files give the same verdict);
- the Mann-Whitney U test's p-value, computed by Google Benchmark's own
  tools (gbench.report.calc_utest, Debian's libbenchmark-tools);
- every counter whose repetitions agree within each build (steps, right-hand
  sides, errors) compared exactly: a counter that changes is a finding.
  Counters that vary between repetitions (rates) are timings and are skipped.

A slowdown is suspected when the change exceeds the threshold and the U test
rejects at alpha; bench-ab.sh confirms a suspect with a second interleaved
round before it fails.
"""
import json
import math
import re
import sys
from dataclasses import dataclass, field

sys.path.append("/usr/share/benchmark")  # libbenchmark-tools: gbench
try:
    from gbench.report import calc_utest  # noqa: E402  (needs python3-scipy)
except ImportError as e:  # pragma: no cover - said once, loudly, by the caller
    calc_utest = None
    GBENCH_IMPORT_ERROR = str(e)

# Fields of a Google Benchmark run that are not counters.
STANDARD_FIELDS = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
    "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "label",
    "aggregate_name", "aggregate_unit", "error_occurred", "error_message",
}
UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
Z_975 = 1.959963984540054  # two-sided 95 %


class VerdictInputError(Exception):
    """A benchmark file that cannot be read as Google Benchmark JSON."""


@dataclass
class Samples:
    cpu: list = field(default_factory=list)   # seconds per iteration, the median of each turn
    real: list = field(default_factory=list)
    counters: dict = field(default_factory=dict)  # name -> [value per repetition]


def load_samples(paths):
    """name -> Samples: one sample per file (turn), the median of its repetitions."""
    out = {}
    for path in paths:
        turn = load_turn(path)
        for name, s in turn.items():
            pooled = out.setdefault(name, Samples())
            pooled.cpu.append(median(s.cpu))
            pooled.real.append(median(s.real))
            for key, values in s.counters.items():
                pooled.counters.setdefault(key, []).extend(values)
    return out


def load_turn(path):
    """name -> Samples of one file, a value per repetition."""
    try:
        with open(path) as f:
            runs = json.load(f)["benchmarks"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise VerdictInputError(f"{path}: not Google Benchmark JSON ({e})") from e
    out = {}
    for run in runs:
        if run.get("run_type", "iteration") != "iteration" or run.get("error_occurred"):
            continue
        try:
            scale = UNIT_SECONDS[run["time_unit"]]
            s = out.setdefault(run.get("run_name", run["name"]), Samples())
            s.cpu.append(float(run["cpu_time"]) * scale)
            s.real.append(float(run["real_time"]) * scale)
        except (KeyError, ValueError, TypeError) as e:
            raise VerdictInputError(f"{path}: benchmark {run.get('name')!r}: {e}") from e
        for key, value in run.items():
            if key not in STANDARD_FIELDS and isinstance(value, (int, float)):
                s.counters.setdefault(key, []).append(float(value))
    return out


def median(xs):
    ys = sorted(xs)
    n = len(ys)
    return ys[n // 2] if n % 2 else 0.5 * (ys[n // 2 - 1] + ys[n // 2])


def hodges_lehmann_interval(a, b):
    """95 % interval of the relative change B/A - 1, from the pairwise log ratios."""
    d = sorted(math.log(y) - math.log(x) for x in a for y in b)
    n, m = len(a), len(b)
    k = int(math.floor(n * m / 2.0 - Z_975 * math.sqrt(n * m * (n + m + 1) / 12.0)))
    if k < 1:  # too few samples for a 95 % interval
        return (-math.inf, math.inf)
    return (math.expm1(d[k - 1]), math.expm1(d[len(d) - k]))


def deterministic_counter_changes(a, b):
    """[(counter, value in A, value in B)] for counters constant within each build that differ."""
    changes = []
    for name in sorted(set(a.counters) & set(b.counters)):
        va, vb = a.counters[name], b.counters[name]
        if len(set(va)) == 1 and len(set(vb)) == 1 and va[0] != vb[0]:
            changes.append((name, va[0], vb[0]))
    return changes


def compare(a_paths, b_paths, threshold=0.10, alpha=0.05):
    """The report: one entry per benchmark found in either build."""
    if calc_utest is None:
        raise VerdictInputError("the U test needs Google Benchmark's tools (Debian libbenchmark-tools) "
                                f"and python3-scipy: {GBENCH_IMPORT_ERROR}")
    a, b = load_samples(a_paths), load_samples(b_paths)
    rows = []
    for name in sorted(set(a) | set(b)):
        if name not in a or name not in b:
            rows.append({"benchmark": name, "verdict": "only in " + ("B" if name in b else "A")})
            continue
        sa, sb = a[name], b[name]
        ma, mb = median(sa.cpu), median(sb.cpu)
        change = mb / ma - 1.0
        lo, hi = hodges_lehmann_interval(sa.cpu, sb.cpu)
        _, p_cpu, _ = calc_utest([sa.cpu, sb.cpu], [sa.real, sb.real])
        p = 1.0 if p_cpu is None else float(p_cpu)
        significant = p < alpha
        if significant and change > threshold:
            verdict = "slower"
        elif significant and change < -threshold:
            verdict = "faster"
        else:
            verdict = "same"
        rows.append({
            "benchmark": name, "verdict": verdict, "samples": [len(sa.cpu), len(sb.cpu)],
            "median_cpu_s": [ma, mb], "change": change, "change_ci95": [lo, hi], "p_value": p,
            "counter_changes": [{"counter": c, "a": x, "b": y}
                                for c, x, y in deterministic_counter_changes(sa, sb)],
        })
    return rows


def apply_allowances(rows, allowances):
    """Marks slowdowns an allow-list entry covers: {benchmark: regex, max_slowdown, reason}."""
    for row in rows:
        if row["verdict"] != "slower":
            continue
        for entry in allowances:
            if re.search(entry["benchmark"], row["benchmark"]) and row["change"] <= entry["max_slowdown"]:
                row["verdict"] = "allowed"
                row["allowed_because"] = entry["reason"]
                break
    return rows


def _pct(x):
    return "n/a" if not math.isfinite(x) else f"{100.0 * x:+.1f} %"


def table(rows):
    """Plain-text table for a terminal or a CI log."""
    lines = [f"{'benchmark':<52} {'A ms':>9} {'B ms':>9} {'change':>9} {'95 % interval':>21} {'p':>9}  verdict"]
    for r in rows:
        if "median_cpu_s" not in r:
            lines.append(f"{r['benchmark']:<52} {'':>60}  {r['verdict']}")
            continue
        lo, hi = r["change_ci95"]
        lines.append(f"{r['benchmark']:<52} {1e3 * r['median_cpu_s'][0]:9.3f} {1e3 * r['median_cpu_s'][1]:9.3f} "
                     f"{_pct(r['change']):>9} {'[' + _pct(lo) + ', ' + _pct(hi) + ']':>21} {r['p_value']:9.2g}  "
                     f"{r['verdict']}" + (f" ({r['allowed_because']})" if "allowed_because" in r else ""))
        for c in r.get("counter_changes", []):
            lines.append(f"    counter {c['counter']} changed: {c['a']:.17g} -> {c['b']:.17g}")
    return "\n".join(lines)


def markdown(rows, title):
    """The same, for a pull request or a CI summary."""
    out = [f"### {title}", "", "| benchmark | A (ms) | B (ms) | change | 95 % interval | p | verdict |",
           "|---|---:|---:|---:|---|---:|---|"]
    for r in rows:
        if "median_cpu_s" not in r:
            out.append(f"| `{r['benchmark']}` | | | | | | {r['verdict']} |")
            continue
        lo, hi = r["change_ci95"]
        verdict = r["verdict"] + (f": {r['allowed_because']}" if "allowed_because" in r else "")
        out.append(f"| `{r['benchmark']}` | {1e3 * r['median_cpu_s'][0]:.3f} | {1e3 * r['median_cpu_s'][1]:.3f} | "
                   f"{_pct(r['change'])} | {_pct(lo)} … {_pct(hi)} | {r['p_value']:.2g} | {verdict} |")
    changes = [(r["benchmark"], c) for r in rows for c in r.get("counter_changes", [])]
    if changes:
        out += ["", "Deterministic counters that changed:", ""]
        out += [f"- `{name}` {c['counter']}: {c['a']:.17g} → {c['b']:.17g}" for name, c in changes]
    return "\n".join(out) + "\n"
