#!/usr/bin/env bash
# The documentation gate: no citation of documents outside the repository, every
# relative link and #anchor in README.md, docs/*.md and scenarios/**/README.md
# resolves, README.md stays short. The documents' numbers stay true: the tables
# of docs/performance.md are those the committed benchmark run gives, every test
# a document names exists and every claim of docs/validation.md that states a
# number names one, and the counts the documents state (integrators, paper runs,
# corpora, the soak) are the repository's. Each of those checkers is first fed a
# document made wrong on purpose and must fail on it (scripts/docs/selftest.py).
# Then, if built, the interface test that keeps the scenario parser, the JSON
# Schema and docs/interface.md in step.
set -euo pipefail
cd "$(dirname "$0")/.."
/usr/bin/python3 scripts/check-docs.py
/usr/bin/python3 scripts/docs/selftest.py
/usr/bin/python3 scripts/docs/perf_tables.py
/usr/bin/python3 scripts/docs/check_test_names.py
/usr/bin/python3 scripts/docs/check_counts.py
if [ -x build/bin/io_tests ]; then
  build/bin/io_tests --gtest_filter='InterfaceDoc*' --gtest_brief=1
fi
