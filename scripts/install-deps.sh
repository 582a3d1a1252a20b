#!/usr/bin/env bash
# Installs exactly the Debian 12 packages dropsim needs to build, test and draw figures.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
packages=(
  cmake make g++                      # toolchain
  libboost-dev                        # Boost.Odeint steppers (header-only)
  libeigen3-dev                       # linear algebra: mass matrices, Jacobians, eigenvalues
  libhdf5-dev                         # trace files (C++ API and the HL dimension scales)
  nlohmann-json3-dev                  # scenario files and --json output
  libcli11-dev                        # the command line
  libpugixml-dev                      # OpenSim model files
  libgtest-dev                        # tests
  libbenchmark-dev                    # benchmarks
  python3 python3-h5py python3-numpy python3-matplotlib python3-jsonschema  # figures, schema checks
  hdf5-tools                          # h5dump/h5diff for users and tests
)
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${packages[@]}"
