#!/usr/bin/env bash
# The installed library works for another CMake project: `cmake --install` into
# a scratch prefix, then examples/ configured against it with HDF5,
# nlohmann_json and CLI11 hidden from CMake, built and run. dropsim::sim
# consumers must need none of them: no header of theirs may be compiled in and
# no library of theirs linked.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
# The Python module too where the build has it (pybind11 found): it is installed beside the rest.
targets=(dropsim)
if grep -qxF '... dropsim_python' <<<"$(cmake --build "$BUILD" --target help)"; then targets+=(dropsim_python); fi
cmake --build "$BUILD" -j"$(nproc)" --target "${targets[@]}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$BUILD" --prefix "$work/prefix" >/dev/null
cmake -S examples -B "$work/example" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_DISABLE_FIND_PACKAGE_HDF5=ON -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON >/dev/null
cmake --build "$work/example" -j"$(nproc)"
# Every header the example's object was compiled with (the compiler's own dependency list).
deps=$(find "$work/example" -name '*.o.d' -exec cat {} +)
if grep -E -q 'hdf5|H5Cpp|nlohmann|CLI/' <<<"$deps"; then
  echo "ci-install: the dropsim::sim example compiled headers of an I/O dependency:" >&2
  grep -E -o '[^ ]*(hdf5|H5Cpp|nlohmann|CLI/)[^ ]*' <<<"$deps" | sort -u >&2
  exit 1
fi
if ldd "$work/example/own_contact_law" | grep -E -q 'hdf5|CLI'; then
  echo "ci-install: the dropsim::sim example links an I/O library:" >&2
  ldd "$work/example/own_contact_law" >&2
  exit 1
fi
"$work/example/own_contact_law"
[ -x "$work/prefix/bin/dropsim" ] || { echo "ci-install: dropsim was not installed" >&2; exit 1; }
if [[ " ${targets[*]} " == *" dropsim_python "* ]]; then
  # /usr/bin/python3 imports the installed package from the prefix's dist-packages and runs a drop with it.
  site=$(find "$work/prefix" -type d -path '*dist-packages/dropsim' -printf '%h\n' | head -n 1)
  [ -n "$site" ] || { echo "ci-install: the Python package dropsim was not installed" >&2; exit 1; }
  PYTHONPATH="$site" /usr/bin/python3 -c "
import dropsim, sys
t = dropsim.run('scenarios/paper/mouse_alpha-scaled.json')
assert t.summary['status'] == 'ok' and t['force_normalized'].base is t
print('ci-install: installed Python module runs a drop from', dropsim.__file__)"
fi
echo "ci-install: installed dropsim::sim builds and runs in examples/ without HDF5, JSON or CLI11"
