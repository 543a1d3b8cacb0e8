#!/usr/bin/env bash
# Installs the Debian 12 packages hsalite and kfdemu need to build and test.
# Idempotent: packages already present are left alone, so CI and a fresh
# machine run the same script.  Needs root (or sudo) for apt-get.
set -euo pipefail

pkgs=(
  # build
  build-essential cmake pkg-config
  # runtime dependencies (through pkg-config)
  libdrm-dev libnuma-dev libelf-dev libmsgpack-dev
  # tests
  check libsubunit-dev
  # GPU code objects: clang-14 builds gfx90a, clang-19 gfx942 (code object v5)
  clang lld llvm clang-19 lld-19 llvm-19
  # ROCm's device libraries (ocml/ockl bitcode) for math calls in test kernels
  rocm-device-libs
  # the peers: Debian's ROCr 5.2.3, its thunk, rocminfo and the HSA headers
  rocminfo libhsa-runtime64-1 libhsakmt1 libhsa-runtime-dev
  # the HIP corpus (test/hip): Debian's HIP 5.2.3 and real libraries on it
  # (rocSPARSE; rocRAND's XORWOW and rocPRIM's reduce, 5.3.3)
  hipcc libamdhip64-dev librocsparse-dev librocrand-dev librocprim-dev
  # tools used by tests: memcheck, and libFuzzer's runtime for clang-14
  valgrind libclang-rt-14-dev
  # the dispatch benchmark's --plot histograms
  gnuplot-nox
  # the Python package (python/hsalite), its examples and its pytest suite;
  # venv, setuptools and wheel to pip-install it offline into a fresh
  # virtual environment (docs/python.md, test/python/venv.sh)
  python3-numpy python3-msgpack python3-pytest
  python3-venv python3-setuptools python3-wheel
)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
