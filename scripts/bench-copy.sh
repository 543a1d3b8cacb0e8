#!/usr/bin/env bash
# bench-copy.sh: tools/hsa-copy-bench against our library and against
# Debian's ROCr 5.2.3, both on kfdemu (mi210), with SDMA on (the default)
# and off (HSA_ENABLE_SDMA=0), in one run, and a table:
#
#   <direction> <bytes> <sdma>  hsalite us  ROCr us  ours/ROCr  hsalite GB/s  ROCr GB/s  memcpy GB/s
#
# Each figure is the median over --rounds runs of the tool's per-run median
# round trip (one copy in flight; -n reps per size).  The runs alternate (ours SDMA
# on, ROCr SDMA on, ours SDMA off, ROCr SDMA off, ...) so a slow spell of a
# shared machine does not land on one runtime only.  Benchmarks are tools:
# the exit status says whether the runs completed, not whether a figure is
# good (0: table printed; 1: a run failed or ROCr is missing; 2: usage).
#
#   scripts/bench-copy.sh [--build DIR] [--rounds N] [-n REPS]
set -euo pipefail
build=build/release
rounds=3
sizes=4096,1048576,67108864
iters=9
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	-n) iters=$2; shift 2 ;;
	*) echo "usage: $0 [--build DIR] [--rounds N] [-n REPS]" >&2; exit 2 ;;
	esac
done
rocr=/usr/lib/x86_64-linux-gnu
[ -e $rocr/libhsa-runtime64.so.1 ] || { echo "bench-copy: ROCr not installed" >&2; exit 1; }
kfdemu=$build/emu/kfdemu
tool=$build/tools/hsa-copy-bench
[ -x "$kfdemu" ] && [ -x "$tool" ] || { echo "bench-copy: build $build first (kfdemu, hsa-copy-bench)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for r in $(seq 1 "$rounds"); do
	for sdma in 1 0; do
		for who in ours rocr; do
			lib=$build/src
			[ $who = rocr ] && lib=$rocr
			if ! HSA_ENABLE_SDMA=$sdma LD_LIBRARY_PATH=$lib timeout 1800 \
				"$kfdemu" --preset mi210 -- "$tool" "$iters" \
				> "$out/$who.$sdma.$r.csv" 2> "$out/$who.$sdma.$r.err"; then
				echo "bench-copy: $who SDMA=$sdma round $r failed:" >&2
				cat "$out/$who.$sdma.$r.err" >&2
				exit 1
			fi
		done
	done
done

median() { sort -g | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : 0)}'; }
get() { # who sdma dir bytes field(4=us,6=GB/s) of "dir bytes 'bytes' us 'us' GB/s 'GB/s'"
	cat "$out"/$1.$2.*.csv | awk -v d=$3 -v b=$4 -v f=$5 '$1==d && $2==b {print $f}' | median
}
printf "%-6s %9s %4s %12s %12s %9s %12s %12s %12s\n" dir bytes sdma "hsalite us" "ROCr us" \
	"ours/ROCr" "hsalite GB/s" "ROCr GB/s" "memcpy GB/s"
for b in ${sizes//,/ }; do
	for d in h2d d2h; do
		for sdma in 1 0; do
			o=$(get ours $sdma $d $b 4); c=$(get rocr $sdma $d $b 4)
			om=$(get ours $sdma $d $b 6); cm=$(get rocr $sdma $d $b 6)
			mm=$(get ours $sdma memcpy $b 6)
			ratio=$(awk -v o="$o" -v c="$c" 'BEGIN {printf (c > 0 ? "%.2f" : "-"), o / c}')
			printf "%-6s %9s %4s %12s %12s %9s %12s %12s %12s\n" $d $b $sdma "$o" "$c" \
				"$ratio" "$om" "$cm" "$mm"
		done
	done
done
