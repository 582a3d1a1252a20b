#!/usr/bin/python3
"""Validates scenario JSON files against scenarios/schema/scenario.schema.json.

Usage: check-scenario-schema.py FILE...   Prints one line per error as
"FILE: /json/pointer: message" (the C++ validator's shape); exit 0 when all
files are valid, 1 when one is not, 2 when a file cannot be read or parsed.
Run with Debian's /usr/bin/python3 (python3-jsonschema).
"""
import json
import os
import sys

import jsonschema

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scenarios", "schema", "scenario.schema.json")


def pointer(path):
    return "/" + "/".join(str(p) for p in path)


def main(files):
    with open(SCHEMA) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    status = 0
    for name in files:
        try:
            with open(name) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{name}: /: cannot read JSON: {e}")
            status = 2
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
        for e in errors:
            print(f"{name}: {pointer(e.absolute_path)}: {e.message}")
        if errors and status == 0:
            status = 1
    return status


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
