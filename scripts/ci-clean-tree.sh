#!/usr/bin/env bash
# CI: the jobs before this one must leave the checkout as they found it. Fails, listing the
# files, when `git status --porcelain` shows a tracked file changed or an untracked file that
# .gitignore does not cover (generated output belongs in build*/ or an ignored results/ folder).
set -euo pipefail
cd "$(dirname "$0")/.."
changes=$(git status --porcelain --untracked-files=all)
if [ -n "$changes" ]; then
  echo "ci-clean-tree: the jobs changed the checkout (generated output must go to an ignored path):" >&2
  printf '%s\n' "$changes" >&2
  exit 1
fi
echo "ci-clean-tree: the checkout is unchanged"
