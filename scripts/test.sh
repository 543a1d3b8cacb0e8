#!/usr/bin/env bash
# Builds hsalite and kfdemu with ASan+UBSan and -Werror, then runs every
# test suite with ctest.  This is the README's test command and what
# .ci/run calls.  BUILD_DIR overrides the build directory.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

build=${BUILD_DIR:-build/asan}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug \
      -DHSALITE_WERROR=ON -DHSALITE_SANITIZE=address,undefined
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
