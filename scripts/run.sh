#!/usr/bin/env bash
# The main job: build hsalite and kfdemu (release) and run the sample.
# On a machine without /dev/kfd the sample runs on kfdemu, the emulated GPU.
#
# Until the code-object loader lands, the sample is Debian's stock rocminfo
# running against our libhsa-runtime64.so.1; examples/vector_add replaces it
# when it exists.  Extra arguments go to the sample.
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
export LD_LIBRARY_PATH="$PWD/$build/src${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [[ -x "$build/examples/vector_add" ]]; then
  exec "${run[@]}" "$build/examples/vector_add" "$@"
fi
exec "${run[@]}" rocminfo "$@"
