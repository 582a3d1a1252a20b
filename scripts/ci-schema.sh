#!/usr/bin/env bash
# CI: every scenario file under scenarios/ validates against scenarios/schema/scenario.schema.json.
# Needs Debian's python3-jsonschema (/usr/bin/python3). Exit 0 all valid, 1 one is not, 2 unreadable.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(find scenarios -name '*.json' -not -path 'scenarios/schema/*' | sort)
[ ${#files[@]} -gt 0 ] || { echo "ci-schema: no scenario files under scenarios/" >&2; exit 2; }
/usr/bin/python3 scripts/check-scenario-schema.py "${files[@]}"
echo "ci-schema: ${#files[@]} scenario files valid"
