#!/usr/bin/env bash
# examples/vector_add beside a peer runtime under kfdemu: what one run costs
# besides its kernel (docs/benchmarks.md, "vector_add beside ROCr 1.18").
#
#   scripts/bench-vector-add.sh [--build DIR] [--peer LIBDIR] [--rounds N] [--gpus N]
#
# --build: a build tree of this repository (default build/release: its
# kfdemu, vector_add and libhsa-runtime64.so.1); --peer: the directory of
# the peer's libhsa-runtime64.so.1 (default Debian's ROCr 5.2.3; for ROCr
# 1.18, the lib directory of a build made outside the tree).  Each round
# runs vector_add once on each runtime, alternating which goes first, and
# takes per run:
#   - start-up + shutdown: vector_add's "total" less its "dispatch" time
#     (hsa_init, agent and pool queries, allocations, code load, queue
#     creation, and the teardown after the kernel);
#   - peak RSS of the process (/usr/bin/time %M: the launcher and the
#     program; kfdemu's own memory is the same on both sides);
#   - KFD ioctls (KFDEMU_IOCTL_RECORD), WAIT_EVENTS and SET_EVENT apart
#     (their count follows thread timing);
# and, in one more run per runtime under strace, the threads the process
# creates (clone with CLONE_THREAD: the runtime's and the emulated
# engines' kfdemu starts per queue, so a runtime with more queues also gets
# more engine threads).  Prints the medians and ours/peer ratios measured in
# this one invocation; a tool, not a test (times follow the host's load).
set -euo pipefail

build=build/release
peer=/usr/lib/x86_64-linux-gnu
rounds=5
gpus=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --peer) peer=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --gpus) gpus=$2; shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--peer LIBDIR] [--rounds N] [--gpus N]" >&2; exit 2 ;;
  esac
done
kfdemu=$build/emu/kfdemu
prog=$build/examples/vector_add
ours=$build/src
for f in "$kfdemu" "$prog" "$ours/libhsa-runtime64.so.1" "$peer/libhsa-runtime64.so.1"; do
  [[ -e $f ]] || { echo "$0: $f is missing" >&2; exit 1; }
done
[[ -x /usr/bin/time ]] || { echo "$0: needs /usr/bin/time" >&2; exit 1; }

# ROCr 1.18's code loading writes VRAM through the BAR with no HDP flush
# kfdemu sees before the CP reads it (docs/kfdemu.md, "HDP"): its strict
# model stops that queue.  warn reports it and lets both runtimes run alike.
export KFDEMU_HDP=${KFDEMU_HDP:-warn}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_one <libdir> <tag> <round>: appends "startup_ms rss_kib ioctls waits sets"
# to $tmp/<tag>.rows; fails when vector_add does not pass.
run_one() {
  local lib=$1 tag=$2 round=$3 out=$tmp/$2.$3
  LD_LIBRARY_PATH=$lib KFDEMU_IOCTL_RECORD=$out.rec ASAN_OPTIONS=detect_leaks=0 \
    /usr/bin/time -f "%M" -o "$out.rss" \
    "$kfdemu" --preset mi210 --gpus "$gpus" -- "$prog" -t 100 >"$out.out" 2>&1 || true
  if ! grep -q PASSED "$out.out"; then
    echo "$0: vector_add failed on $tag:" >&2
    cat "$out.out" >&2
    exit 1
  fi
  local total dispatch
  total=$(sed -nE 's/.*total ([0-9.]+) ms.*/\1/p' "$out.out")
  dispatch=$(sed -nE 's/.*dispatch ([0-9.]+) ms.*/\1/p' "$out.out")
  local kfd waits sets
  kfd=$(awk '$4 == "kfd"' "$out.rec" | wc -l)
  waits=$(awk '$4 == "kfd" && $5 == "WAIT_EVENTS"' "$out.rec" | wc -l)
  sets=$(awk '$4 == "kfd" && $5 == "SET_EVENT"' "$out.rec" | wc -l)
  echo "$(awk -v t="$total" -v d="$dispatch" 'BEGIN { printf "%.1f", t - d }') \
$(tail -1 "$out.rss") $kfd $waits $sets" >>"$tmp/$tag.rows"
}

threads_of() {
  local lib=$1 out=$tmp/threads.$2
  LD_LIBRARY_PATH=$lib ASAN_OPTIONS=detect_leaks=0 \
    strace -f -qq -e trace=clone,clone3 -o "$out" \
    "$kfdemu" --preset mi210 --gpus "$gpus" -- "$prog" -t 100 >/dev/null 2>&1 || true
  grep -c CLONE_THREAD "$out" || true
}

for ((r = 0; r < rounds; r++)); do
  if ((r % 2)); then
    run_one "$peer" peer "$r"; run_one "$ours" ours "$r"
  else
    run_one "$ours" ours "$r"; run_one "$peer" peer "$r"
  fi
done

# median <tag> <column>
median() {
  cut -d' ' -f"$2" "$tmp/$1.rows" | sort -n | awk '{ v[NR] = $1 } END {
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

t_ours=$(threads_of "$ours" ours)
t_peer=$(threads_of "$peer" peer)
echo "vector_add on kfdemu mi210 x$gpus, $rounds rounds; peer: $peer"
printf "%-34s %12s %12s %10s\n" "" "hsalite" "peer" "ours/peer"
row() { printf "%-34s %12s %12s %10s\n" "$1" "$2" "$3" "$(ratio "$2" "$3")"; }
row "start-up + shutdown, ms (median)" "$(median ours 1)" "$(median peer 1)"
row "peak RSS, KiB (median)" "$(median ours 2)" "$(median peer 2)"
row "KFD ioctls, all (median)" "$(median ours 3)" "$(median peer 3)"
o=$(paste -d' ' <(cut -d' ' -f3 "$tmp/ours.rows") <(cut -d' ' -f4,5 "$tmp/ours.rows") |
    awk '{ print $1 - $2 - $3 }' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
p=$(paste -d' ' <(cut -d' ' -f3 "$tmp/peer.rows") <(cut -d' ' -f4,5 "$tmp/peer.rows") |
    awk '{ print $1 - $2 - $3 }' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
row "KFD ioctls besides WAIT/SET_EVENT" "$o" "$p"
row "threads created (one run)" "$t_ours" "$t_peer"
