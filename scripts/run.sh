#!/usr/bin/env bash
# The main job: build hsalite and kfdemu (release) and run the sample,
# examples/vector_add: load vadd.cl's code object (built by clang next to
# the binary), dispatch it on the first GPU and check every element.
# On a machine without /dev/kfd the sample runs on kfdemu, the emulated GPU.
# Prints one line, e.g.
#   vector_add: n=1048576 agent=gfx90a PASSED (dispatch 1.234 ms, total 12.3 ms)
# and exits with its status.  Extra arguments go to the sample (-h lists
# them: -n N elements, --co FILE, -t SECONDS).
#   PRESET=mi210|mi300x  GPUS=n  BUILD_DIR=dir
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

build=${BUILD_DIR:-build/release}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" -j"$(nproc)"

run=()
if [[ ! -e /dev/kfd ]]; then
  echo "run.sh: no /dev/kfd here; running on kfdemu (preset ${PRESET:-mi210})" >&2
  run=("$build/emu/kfdemu" --preset "${PRESET:-mi210}" --gpus "${GPUS:-1}" --)
fi
# vector_add finds our library through its RUNPATH; say it explicitly so
# that a libhsa-runtime64.so.1 elsewhere on LD_LIBRARY_PATH does not win.
export LD_LIBRARY_PATH="$PWD/$build/src${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "${run[@]}" "$build/examples/vector_add" "$@"
