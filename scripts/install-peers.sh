#!/usr/bin/env bash
# Optional peers for the work-precision benchmark and the MPI sweep build (not
# needed to build or test dropsim): Simbody 3.7 and OpenMPI, from Debian 12.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
packages=(
  libsimbody-dev     # bench/peers/simbody: the Simbody peer in work_precision_bench
  libopenmpi-dev openmpi-bin  # optional MPI build of dropsim sweep
)
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${packages[@]}"
