#!/usr/bin/env bash
# Optional peers for the work-precision benchmark, the MPI sweep build, the
# SUNDIALS integrators and the Python module (not needed to build or test
# dropsim): Simbody 3.7, OpenMPI, SUNDIALS 6.4 and pybind11 2.10, from Debian 12. libsundials-dev pulls PETSc, hypre
# and an MPI build of HDF5; dropsim's build still finds the serial HDF5 (h5cc).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
packages=(
  libsimbody-dev     # bench/peers/simbody: the Simbody peer in work_precision_bench
  libopenmpi-dev openmpi-bin  # optional MPI build of dropsim sweep
  libsundials-dev    # integrators/sundials.cpp: cvode_bdf, cvode_adams, arkode_erk, arkode_dirk
  pybind11-dev python3-dev python3-pytest  # python/: the module dropsim for /usr/bin/python3, and its tests
)
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${packages[@]}"
