#!/usr/bin/python3
"""Checks that the tests the documents name exist, and that validation.md names one for each claim.

    /usr/bin/python3 scripts/docs/check_test_names.py [--root ROOT] [--doc DOC ...] [--list]

A test is named in a document inside a code span, as
  - `Suite.Name` or `Suite.*`: a GoogleTest test (TEST, TEST_F, TEST_P,
    TYPED_TEST, TYPED_TEST_P in tests/, bench/ or fuzz/) or a ctest name given
    by add_test(NAME ...) in a CMakeLists.txt; `Suite.*` needs the suite;
  - `name_test` or `name_test.cpp`: a test source tests/<layer>/name_test.cpp;
  - `bash scripts/NAME.sh` or `scripts/NAME.sh`: a script of the repository.
Fails (exit 1), printing DOC:LINE: message, when
  - a document (README.md, docs/*.md and scenarios/**/README.md by default)
    names a test, a test source or a script that does not exist;
  - in docs/validation.md, a table row, list item or paragraph that states a
    number (a digit outside its code spans and links) names no GoogleTest or
    ctest test (`Suite.Name`, `Suite.*`) and no script. The page's opening
    paragraphs, before its first section, are exempt.
--list prints every test name found in the sources. Python 3 standard library only.
"""
import argparse
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GTEST = re.compile(r"\b(?:TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P)\(\s*(\w+)\s*,\s*(\w+)\s*\)")
ADD_TEST = re.compile(r"add_test\(\s*NAME\s+([\w.]+)")
SPAN = re.compile(r"`([^`]+)`")
NAME = re.compile(r"(?<![\w/.])([A-Z][A-Za-z0-9]*)\.(\*|[A-Z]\w*)(?![\w.])")
SOURCE = re.compile(r"(?<![\w/])(\w+_test)(?:\.cpp)?(?![\w.])")
SCRIPT = re.compile(r"(?<![\w/])(scripts/[\w./-]+\.(?:sh|py))")


def known_tests(root):
    names = set()
    for pattern in ("tests/**/*.cpp", "tests/**/*.hpp", "bench/**/*.cpp", "fuzz/**/*.cpp"):
        for path in glob.glob(os.path.join(root, pattern), recursive=True):
            with open(path, encoding="utf-8", errors="replace") as f:
                names.update("%s.%s" % m for m in GTEST.findall(f.read()))
    for folder, subfolders, files in os.walk(root):
        # Not into build trees (the A/B worktrees among them) or .git: walking them takes minutes.
        subfolders[:] = [d for d in subfolders if not d.startswith(("build", "."))]
        if "CMakeLists.txt" in files:
            with open(os.path.join(folder, "CMakeLists.txt"), encoding="utf-8", errors="replace") as f:
                names.update(ADD_TEST.findall(f.read()))
    return names


def test_sources(root):
    return {os.path.splitext(os.path.basename(p))[0] for p in glob.glob(os.path.join(root, "tests/**/*_test.cpp"),
                                                                         recursive=True)}


def outside_fences(lines):
    fence = None
    for number, line in enumerate(lines, 1):
        stripped = line.lstrip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            yield number, None
            continue
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            yield number, None
            continue
        yield number, line


def named(line, tests, sources, root):
    """(tests named, problems) of one line's code spans."""
    found, problems = [], []
    for span in SPAN.findall(line):
        for suite, case in NAME.findall(span):
            name = "%s.%s" % (suite, case)
            ok = any(t.startswith(suite + ".") for t in tests) if case == "*" else name in tests
            if ok:
                found.append(name)
            else:
                problems.append("names test %s, which no test source or add_test defines" % name)
        for source in SOURCE.findall(span):
            if source not in sources:
                problems.append("names %s, which is not a test source under tests/" % source)
        for script in SCRIPT.findall(span):
            if os.path.isfile(os.path.join(root, script)):
                found.append(script)
            else:
                problems.append("names %s, which is not in the repository" % script)
    return found, problems


def claims(lines):
    """Yields (first line number, text) of each table row, list item and paragraph after the first section."""
    block, start, in_section = [], None, False
    for number, line in outside_fences(lines):
        if line is not None and (line.startswith("    ") or line.startswith("\t")):
            line = None  # an indented code block: commands, not claims
        if line is not None and line.startswith("## "):
            in_section = True
        item = line is not None and (line.startswith("|") or re.match(r"^\s*[-*] ", line))
        if line is None or not line.strip() or line.startswith("#") or item:
            if block and in_section:
                yield start, " ".join(block)
            block, start = [], None
        if item and in_section and not re.match(r"^\|[-:| ]+\|$", line):
            block, start = [line], number
        elif line is not None and line.strip() and not line.startswith("#"):
            if start is None:
                start = number
            block.append(line)
    if block and in_section:
        yield start, " ".join(block)


def states_a_number(text):
    text = SPAN.sub(" ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)  # link targets
    return re.search(r"\d", text) is not None


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--root", default=ROOT)
    parser.add_argument("--doc", action="append", help="document to check (default README.md and docs/*.md)")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args(argv)
    root = os.path.abspath(args.root)
    tests, sources = known_tests(root), test_sources(root)
    if args.list:
        print("\n".join(sorted(tests)))
        return 0
    docs = args.doc or [os.path.join(root, "README.md")] + sorted(
        glob.glob(os.path.join(root, "docs/*.md")) + glob.glob(os.path.join(root, "scenarios/**/README.md"), recursive=True))
    failures = []
    for doc in docs:
        with open(doc, encoding="utf-8") as f:
            lines = f.read().split("\n")
        shown = os.path.relpath(doc, root) if doc.startswith(root) else doc
        for number, line in outside_fences(lines):
            if line is None:
                continue
            for problem in named(line, tests, sources, root)[1]:
                failures.append("%s:%d: %s" % (shown, number, problem))
        if os.path.basename(doc) == "validation.md":
            for number, text in claims(lines):
                if states_a_number(text) and not named(text, tests, sources, root)[0]:
                    failures.append("%s:%d: states a number but names no test (`Suite.Name`, `Suite.*`) or script "
                                    "that checks it: %s" % (shown, number, text[:100]))
    for f in failures:
        print(f)
    print("check_test_names: %d failure(s) in %d documents, %d tests known" % (len(failures), len(docs), len(tests)),
          file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
