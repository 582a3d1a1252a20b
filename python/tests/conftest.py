"""Shared paths of the Python tests: the dropsim binary and the source tree (set by ctest)."""
import os
import pathlib
import subprocess

import pytest

SOURCE = pathlib.Path(os.environ.get("DROPSIM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
BINARY = os.environ.get("DROPSIM_BINARY", str(SOURCE / "build" / "bin" / "dropsim"))
PAPER = sorted((SOURCE / "scenarios" / "paper").glob("*.json"))


def dropsim_cli(*args):
    """The command line, as a finished process (stdout, stderr as text)."""
    return subprocess.run([BINARY, *map(str, args)], capture_output=True, text=True)


@pytest.fixture(scope="session")
def cli():
    return dropsim_cli
