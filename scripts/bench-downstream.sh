#!/usr/bin/env bash
# Downstream programs under two kfdemu builds, alternating (issue 23's
# evidence): rocRAND's XORWOW create + first generate and rocPRIM's reduce
# over 2^k + 3 items (test/hip/rocrand_xorwow.cpp, reduce_large.cpp), each on
# hsalite and on Debian's ROCr 5.2.3, then the HIP corpus's wall time
# (ctest -R '^hip_' minus those two) under each build.
#
#   scripts/bench-downstream.sh <before emu dir> [build dir] [log2 size] [rounds]
#
# <before emu dir> holds the old build's kfdemu and libkfdemu.so (a Release
# build of the old commit, target kfdemu); [build dir] (default
# build/release) is the new one, with hip_corpus and hsa-runtime64 built.
# The corpus runs need one launcher path, so the script copies each build's
# kfdemu and libkfdemu.so into <build>/emu in turn and puts the new ones
# back at the end.  Only ratios from one run mean anything on a shared host.
set -euo pipefail
before=${1:?usage: $0 <before emu dir> [build dir] [log2 size] [rounds]}
build=${2:-build/release}
log2=${3:-32}
rounds=${4:-2}
build=$(cd "$build" && pwd)
before=$(cd "$before" && pwd)
hsalite=$build/src
rocr=/usr/lib/x86_64-linux-gnu
hip=$build/test/hip
keep=$(mktemp -d)
cp "$build/emu/kfdemu" "$build/emu/libkfdemu.so" "$keep/"
restore() { cp "$keep/kfdemu" "$keep/libkfdemu.so" "$build/emu/"; rm -rf "$keep"; }
trap restore EXIT

run() { # <label> <emu dir> <runtime dir> <env...> -- <program>
	local label=$1 emu=$2 rt=$3
	shift 3
	local t0 t1 out
	t0=$(date +%s.%N)
	out=$(env "LD_LIBRARY_PATH=$rt" "$@" 2>&1 | grep -E 'PASS|expected|rror' | tail -1)
	t1=$(date +%s.%N)
	printf '%-28s %7.2f s  %s\n' "$label" "$(echo "$t1 - $t0" | bc)" "$out"
}
for ((r = 1; r <= rounds; r++)); do
	echo "== round $r $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
	for rtn in hsalite rocr; do
		rt=$hsalite; [[ $rtn == rocr ]] && rt=$rocr
		for b in before after; do
			emu=$before; [[ $b == after ]] && emu=$keep
			run "xorwow $rtn $b" "$emu" "$rt" "$emu/kfdemu" --preset mi210 -- "$hip/hip_rocrand_xorwow"
		done
	done
done
echo "== reduce 2^$log2 + 3 $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
for rtn in hsalite rocr; do
	rt=$hsalite; [[ $rtn == rocr ]] && rt=$rocr
	for b in before after; do
		emu=$before; [[ $b == after ]] && emu=$keep
		run "reduce $rtn $b" "$emu" "$rt" HIP_REDUCE_LOG2=$log2 "$emu/kfdemu" --preset mi210 -- \
			"$hip/hip_reduce_large"
	done
done
for b in before after; do
	emu=$before; [[ $b == after ]] && emu=$keep
	cp "$emu/kfdemu" "$emu/libkfdemu.so" "$build/emu/"
	echo "== corpus $b $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
	t0=$(date +%s.%N)
	ctest --test-dir "$build" -j2 -R '^hip_' -E 'rocrand_xorwow|reduce_large' 2>&1 |
		grep -E 'tests passed|Total Test time|Failed|\*\*\*' || true
	t1=$(date +%s.%N)
	printf 'corpus %-8s %7.1f s wall\n' "$b" "$(echo "$t1 - $t0" | bc)"
done
