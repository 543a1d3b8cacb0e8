#!/usr/bin/env bash
# The KFD ioctls one vector_add run makes, counted from kfdemu's log, held
# to a ceiling (docs/benchmarks.md, "KFD ioctls per vector_add").
#   count_ioctls.sh <kfdemu> <gpus> <ceiling> <vector_add> [vector_add args...]
# Runs vector_add on kfdemu's mi210 with <gpus> GPUs and KFDEMU_LOG=debug,
# where every /dev/kfd ioctl logs one "<NAME> in:" line (render-node ioctls
# log otherwise and are not counted).  WAIT_EVENTS is left out: how many
# waits a run makes depends on how long the kernel takes (vector_add waits
# in 100 ms slices, the queue service thread in 1 s ones), so the count is
# the same on every run and build.  Prints the count by ioctl; fails when
# vector_add does not pass or the count is above <ceiling>.  Another program
# may be counted the same way: COUNT_IOCTLS_PASS is the regular expression
# its output must match to pass (vector_add's "PASSED" by default).
set -euo pipefail
kfdemu=$1 gpus=$2 ceiling=$3 prog=$4
shift 4
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
KFDEMU_LOG=debug "$kfdemu" --preset mi210 --gpus "$gpus" -- "$prog" "$@" >"$log" 2>&1 || status=$?
if [[ $status -ne 0 ]] || ! grep -qE "${COUNT_IOCTLS_PASS:-PASSED}" "$log"; then
  grep -v "debug:" "$log" >&2 || true
  echo "FAIL: $(basename "$prog") did not pass (exit $status)" >&2
  exit 1
fi
names=$(sed -nE 's/.*debug: ([A-Z][A-Z0-9_]+) in:.*/\1/p' "$log")
echo "$names" | sort | uniq -c | sort -rn
waits=$(echo "$names" | grep -c '^WAIT_EVENTS$' || true)
count=$(echo "$names" | grep -vc '^WAIT_EVENTS$' || true)
echo "count_ioctls.sh: $gpus GPU(s): $count KFD ioctls besides $waits WAIT_EVENTS (ceiling $ceiling)"
if (( count > ceiling )); then
  echo "FAIL: $count KFD ioctls, more than $ceiling" >&2
  exit 1
fi
