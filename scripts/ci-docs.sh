#!/usr/bin/env bash
# The documentation gate: no citation of documents outside the repository, every
# relative link and #anchor in README.md, docs/*.md and scenarios/**/README.md
# resolves, README.md stays short. Then, if built, the interface test that keeps
# the scenario parser, the JSON Schema and docs/interface.md in step.
set -euo pipefail
cd "$(dirname "$0")/.."
/usr/bin/python3 scripts/check-docs.py
if [ -x build/bin/io_tests ]; then
  build/bin/io_tests --gtest_filter='InterfaceDoc*' --gtest_brief=1
fi
