#!/bin/sh
# Every dynamic symbol ROCr 5.2.3 defines must be defined by hsalite too,
# with the same version node: a program linked against ROCr then loads
# against hsalite.  Symbols hsalite defines beyond ROCr's are listed (and
# allowed only under ROCR_1).  Usage: compare_exports.sh OURS.so ROCR.so
# [REQUIRED.txt]: every name in REQUIRED.txt (one a line, # comments) must
# be a function hsalite defines under ROCR_1 too (ROCr 1.18's additions).
# Exit 77 (skip) when ROCr's library or nm is missing.
ours=$1
theirs=$2
required=$3
command -v nm >/dev/null 2>&1 || { echo "nm not found: skipped"; exit 77; }
[ -f "$theirs" ] || { echo "$theirs not found: skipped"; exit 77; }
[ -f "$ours" ] || { echo "$ours not found"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# "name@@ROCR_1 T" (name, version, nm type letter) for each defined symbol (the version node itself, an
# absolute symbol named after the node, is left out).
list() {
	nm -D --defined-only "$1" | awk '$2 != "A" { print $3, $2 }' | sort -u
}
list "$ours" >"$tmp/ours"
list "$theirs" >"$tmp/theirs"
n_ours=$(wc -l <"$tmp/ours")
n_theirs=$(wc -l <"$tmp/theirs")
echo "ROCr exports $n_theirs symbols, hsalite $n_ours"
status=0
missing=$(comm -23 "$tmp/theirs" "$tmp/ours")
if [ -n "$missing" ]; then
	echo "exported by ROCr, not by hsalite (name@@version type):"
	echo "$missing" | sed 's/^/  /'
	status=1
fi
extra=$(comm -13 "$tmp/theirs" "$tmp/ours")
if [ -n "$extra" ]; then
	echo "exported by hsalite only:"
	echo "$extra" | sed 's/^/  /'
	if echo "$extra" | grep -qv '@@ROCR_1 '; then
		echo "an extra symbol is outside ROCR_1"
		status=1
	fi
fi
if [ -n "$required" ]; then
	n_req=0
	for name in $(sed -e 's/#.*//' "$required"); do
		n_req=$((n_req + 1))
		if ! grep -qx "$name@@ROCR_1 T" "$tmp/ours"; then
			echo "required by $(basename "$required"), not a function hsalite exports under ROCR_1: $name"
			status=1
		fi
	done
	echo "$n_req functions of $(basename "$required") checked"
fi
[ $status -eq 0 ] && echo "every ROCr export is exported by hsalite"
exit $status
