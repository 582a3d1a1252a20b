#!/usr/bin/python3
"""Checks the counts the documents state against the repository.

    /usr/bin/python3 scripts/docs/check_counts.py [--root ROOT] [--doc DOC ...]

Each count is taken from where it is defined, never typed here:
  - integrators: the entries of the method table in integrators/registry.hpp
    ("N integrators"), those of SUNDIALS among them ("N from SUNDIALS",
    "N of them from SUNDIALS"), the explicit ones ("N explicit methods"), and the rows of docs/integrators.md's first
    table, which must name exactly the registry's methods;
  - the paper suite: scenarios/paper/*.json ("the N paper runs", "the N drops",
    "the paper's N drops", "N HDF5 files", "the N traces", "the N scenarios",
    "the N runs" and the like);
  - the bad-HDF5 corpus: the case(...) calls of tests/bad_hdf5/make_corpus.py
    ("the N bad cases");
  - the fuzzers: fuzz/*_fuzz.cpp ("N libFuzzer harnesses", in digits or words);
  - the soak test: the --runs and --seed of Soak.TwoThousandRandomDrops in
    tests/CMakeLists.txt, wherever a document gives `dropsim_soak --runs N
    --seed S` or the test's row gives "N runs, seed S".
Numbers may be written with thin-space groups ("2 000"). Fails (exit 1),
printing DOC:LINE: message, on a count that differs. README.md, docs/*.md and
scenarios/**/README.md by default; docs/history/ states dated counts and is
not checked.
Python 3 standard library only.
"""
import argparse
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10, "eleven": 11, "twelve": 12}
NUMBER = r"(\d{1,3}(?: \d{3})+|\d+|" + "|".join(WORDS) + r")"


def value(text):
    text = text.lower()
    return WORDS[text] if text in WORDS else int(text.replace(" ", ""))


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def registry_methods(root):
    return re.findall(r"\{Method::\w+,\s*\"(\w+)\"", read(root, "integrators/registry.hpp"))


def counts(root):
    methods = registry_methods(root)
    soak = re.search(r"add_test\(NAME Soak\.\w+\s+COMMAND dropsim_soak --runs (\d+) --seed (\d+)",
                     read(root, "tests/CMakeLists.txt"))
    corpus = re.findall(r"^(?!def ).*\bcase\(", read(root, "tests/bad_hdf5/make_corpus.py"), re.M)
    return {
        "integrators": len(methods),
        "sundials": sum(m.startswith(("cvode_", "arkode_")) for m in methods),
        "explicit": len(re.findall(r"\{Method::\w+,\s*\"\w+\",\s*\d+,\s*(?:true|false),\s*false\b",
                                   read(root, "integrators/registry.hpp"))),
        "paper": len(glob.glob(os.path.join(root, "scenarios/paper/*.json"))),
        "bad_hdf5": len(corpus),
        "fuzzers": len(glob.glob(os.path.join(root, "fuzz/*_fuzz.cpp"))),
        "soak_runs": int(soak.group(1)) if soak else None,
        "soak_seed": int(soak.group(2)) if soak else None,
    }


# (pattern, which count its first group states, what is counted)
RULES = [
    (r"\b%s integrators\b" % NUMBER, "integrators", "integrators in integrators/registry.hpp"),
    (r"\b%s (?:of them )?from SUNDIALS\b" % NUMBER, "sundials", "SUNDIALS methods in integrators/registry.hpp"),
    (r"\b%s explicit methods\b" % NUMBER, "explicit", "explicit methods (not implicit) in integrators/registry.hpp"),
    (r"\b%s paper (?:runs|drops|scenarios)\b" % NUMBER, "paper", "paper scenarios in scenarios/paper/"),
    (r"\bthe %s (?:drops|runs|scenarios|traces)\b" % NUMBER, "paper", "paper scenarios in scenarios/paper/"),
    (r"\bpaper's %s drops\b" % NUMBER, "paper", "paper scenarios in scenarios/paper/"),
    (r"\bsame %s drops\b" % NUMBER, "paper", "paper scenarios in scenarios/paper/"),
    (r"\b(\d+) HDF5 (?:files|traces)\b", "paper", "paper scenarios in scenarios/paper/"),
    (r"\b%s-run paper suite\b" % NUMBER, "paper", "paper scenarios in scenarios/paper/"),
    (r"\bthe %s bad cases\b" % NUMBER, "bad_hdf5", "cases in tests/bad_hdf5/make_corpus.py"),
    (r"\b%s libFuzzer harnesses\b" % NUMBER, "fuzzers", "harnesses fuzz/*_fuzz.cpp"),
    (r"dropsim_soak --runs %s\b" % NUMBER, "soak_runs", "runs of Soak.* in tests/CMakeLists.txt"),
    (r"dropsim_soak --runs \d+ --seed %s\b" % NUMBER, "soak_seed", "seed of Soak.* in tests/CMakeLists.txt"),
    (r"`Soak\.\w+`.*?\b%s runs, seed" % NUMBER, "soak_runs", "runs of Soak.* in tests/CMakeLists.txt"),
    (r"`Soak\.\w+`.*?\bruns, seed %s\b" % NUMBER, "soak_seed", "seed of Soak.* in tests/CMakeLists.txt"),
]


def integrator_table(root, doc, methods, failures):
    """The first table of docs/integrators.md names exactly the registry's methods."""
    rows, started = [], False
    for number, line in enumerate(read(root, doc).split("\n"), 1):
        if line.startswith("| name |"):
            started = True
            continue
        if started:
            if not line.startswith("|"):
                break
            m = re.match(r"^\| `(\w+)` \|", line)
            if m:
                rows.append(m.group(1))
    if sorted(rows) != sorted(methods):
        failures.append("%s: the integrator table lists %s; integrators/registry.hpp has %s"
                        % (doc, ", ".join(rows), ", ".join(methods)))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--root", default=ROOT)
    parser.add_argument("--doc", action="append", help="document to check (default README.md and docs/*.md)")
    args = parser.parse_args(argv)
    root = os.path.abspath(args.root)
    truth = counts(root)
    docs = args.doc or ["README.md"] + sorted(os.path.relpath(p, root) for p in
                                              glob.glob(os.path.join(root, "docs/*.md")) +
                                              glob.glob(os.path.join(root, "scenarios/**/README.md"), recursive=True))
    failures, checked = [], 0
    for doc in docs:
        for number, line in enumerate(read(root, doc).split("\n"), 1):
            for pattern, key, what in RULES:
                for m in re.finditer(pattern, line, re.I):
                    checked += 1
                    if truth[key] is None or value(m.group(1)) != truth[key]:
                        failures.append("%s:%d: \"%s\" states %s, but there are %s %s"
                                        % (doc, number, m.group(0), m.group(1), truth[key], what))
        if doc == "docs/integrators.md" or doc.endswith("/docs/integrators.md"):
            integrator_table(root, doc, registry_methods(root), failures)
    for f in failures:
        print(f)
    print("check_counts: %d failure(s), %d counts checked in %d documents" % (len(failures), checked, len(docs)),
          file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
