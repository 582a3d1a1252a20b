#!/usr/bin/python3
"""Feeds each documentation checker a document made wrong on purpose; fails unless each checker fails on it.

    /usr/bin/python3 scripts/docs/selftest.py

  - perf_tables.py: docs/performance.md with one suite time in the paper-suite
    table changed by one digit;
  - check_test_names.py: docs/validation.md naming a test that does not exist,
    and with a claim whose test name is removed;
  - check_counts.py: docs/integrators.md stating one integrator more than the
    registry has.
Each wrong document is written to a temporary folder; the repository is not touched.
Python 3 standard library only.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def run(script, *args):
    p = subprocess.run([sys.executable, os.path.join(HERE, script)] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout


def expect_failure(name, script, args, needle):
    code, out = run(script, *args)
    if code != 1 or needle not in out:
        print("selftest: %s: %s exited %d without '%s':\n%s" % (name, script, code, needle, out))
        return False
    print("selftest: %s: caught (%s)" % (name, out.strip().split("\n")[0][:140]))
    return True


def mutated(tmp, source, name, change):
    with open(os.path.join(ROOT, source), encoding="utf-8") as f:
        text = f.read()
    wrong = change(text)
    if wrong == text:
        raise SystemExit("selftest: %s: the mutation did not apply to %s" % (name, source))
    path = os.path.join(tmp, name, os.path.basename(source))
    os.makedirs(os.path.dirname(path))
    with open(path, "w", encoding="utf-8") as f:
        f.write(wrong)
    return path


def one_digit_off(text):
    """The suite time of the first row of the paper-suite table, its last digit changed."""
    start = text.index("<!-- generated: paper-suite")
    row = re.compile(r"^(\| [^|]+ \| [^|]+ \| [^|]+ \| \d+\.?\d*?)(\d)( \|)", re.M)
    m = row.search(text, start)
    digit = str((int(m.group(2)) + 1) % 10)
    return text[:m.start(2)] + digit + text[m.end(2):]


def main():
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        doc = mutated(tmp, "docs/performance.md", "perf", one_digit_off)
        ok &= expect_failure("a wrong number in a performance table", "perf_tables.py", ["--doc", doc], "differs")
        doc = mutated(tmp, "docs/validation.md", "names",
                      lambda t: t.replace("`PaperSuite.AgreesWithAnIndependentIntegration`",
                                          "`PaperSuite.AgreesWithNothingAtAll`", 1))
        ok &= expect_failure("a test name that does not exist", "check_test_names.py", ["--doc", doc],
                             "PaperSuite.AgreesWithNothingAtAll")
        doc = mutated(tmp, "docs/validation.md", "unnamed",
                      lambda t: t.replace("| `DropEnergy.HertzBouncingConservesEnergy` |", "| |", 1))
        ok &= expect_failure("a claim that names no test", "check_test_names.py", ["--doc", doc], "names no test")
        doc = mutated(tmp, "docs/integrators.md", "counts",
                      lambda t: re.sub(r"offers (\d+) integrators", lambda m: "offers %d integrators" % (int(m.group(1)) + 1),
                                       t, count=1))
        ok &= expect_failure("a wrong count", "check_counts.py", ["--doc", doc], "integrators")
    print("selftest: %s" % ("every checker failed on its wrong document" if ok else "a checker passed a wrong document"),
          file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
