#!/usr/bin/env bash
# What CI needs beyond scripts/install-deps.sh: clang and its runtime for the
# libFuzzer harness (scripts/ci-fuzz.sh). The optional peers (Simbody, OpenMPI)
# come from scripts/install-peers.sh.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends clang libclang-rt-dev
