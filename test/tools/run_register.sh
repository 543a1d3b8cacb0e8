#!/bin/bash
# tools_register: rocprofiler-register as ROCr 1.18 uses it, with a stand-in
# library (fake_register.c) first on the library path.
#   1. registered ("hsa", version 11800, the 64-byte root of major 3), so
#      HSA_TOOLS_LIB is skipped: the trace tool writes no summary;
#   2. HSA_TOOLS_ROCPROFILER_V1_TOOLS=1: registered and the tool loaded too;
#   3. HSA_TOOLS_DISABLE_REGISTER=1: not registered, the tool loaded;
#   4. the registrar refuses (status 1): the tool loaded.
# usage: run_register.sh KFDEMU HSALITE_DIR FAKE_DIR TOOL PROGRAM [ARGS...]
set -u
kfdemu=$1 hsalite=$2 fake=$3 tool=$4
shift 4
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0


case_() { # name, want_registered (0/1), want_summary (0/1), env...
	local name=$1 want_reg=$2 want_sum=$3
	shift 3
	env LD_LIBRARY_PATH="$fake:$hsalite" HSA_TOOLS_LIB="$tool" HL_TRACE_OUT="$out/$name.txt" \
		"$@" "$kfdemu" --preset mi210 -- "${prog[@]}" >"$out/$name.log" 2>&1
	local rc=$?
	local reg=0 sum=0
	grep -q "fake-register: hsa version 11800 import 11800 tables 1 root major 3 minor 64" \
		"$out/$name.log" && reg=1
	[[ -s $out/$name.txt ]] && sum=1
	if [[ $rc != 0 || $reg != "$want_reg" || $sum != "$want_sum" ]]; then
		echo "FAIL $name: exit $rc, registered $reg (want $want_reg), tool loaded $sum (want $want_sum)"
		tail -5 "$out/$name.log"
		fail=1
	else
		echo "ok $name: registered $reg, tool loaded $sum"
	fi
}

prog=("$@")
case_ registered 1 0
case_ v1_tools 1 1 HSA_TOOLS_ROCPROFILER_V1_TOOLS=1
case_ disabled 0 1 HSA_TOOLS_DISABLE_REGISTER=1
case_ refused 1 1 FAKE_REGISTER_STATUS=1
exit $fail
