#!/usr/bin/env bash
# What CI needs beyond scripts/install-deps.sh: clang and its runtime for the
# sanitizer tree and the libFuzzer harnesses (scripts/configure-asan.sh), and
# Google Benchmark's tools with scipy for the timing A/B's U test
# (scripts/bench-ab.sh), and ccache, so that the A/B's build of the parent commit
# compiles only what the commit changed. The optional peers (Simbody, OpenMPI) come from
# scripts/install-peers.sh.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends clang libclang-rt-dev libbenchmark-tools python3-scipy ccache
