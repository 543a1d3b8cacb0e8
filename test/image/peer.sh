#!/bin/sh
# image_peer: run image_dump under kfdemu (mi210) on Debian's ROCr 5.2.3
# and on hsalite, and compare the two outputs line by line.  Skips (77)
# without Debian's ROCr.
#   peer.sh <kfdemu> <image_dump> <hsalite lib dir> <work dir>
set -u
kfdemu=$1 dump=$2 ours=$3 work=$4
rocr=/usr/lib/x86_64-linux-gnu
[ -e "$rocr/libhsa-runtime64.so.1" ] || { echo "no ROCr in $rocr: skipped"; exit 77; }
export ASAN_OPTIONS=detect_leaks=0
LD_LIBRARY_PATH=$rocr "$kfdemu" --preset mi210 -- "$dump" > "$work/image_rocr.txt" \
	|| { echo "image_dump on ROCr failed"; exit 1; }
LD_LIBRARY_PATH=$ours "$kfdemu" --preset mi210 -- "$dump" > "$work/image_hsalite.txt" \
	|| { echo "image_dump on hsalite failed"; exit 1; }
lines=$(wc -l < "$work/image_rocr.txt")
images=$(grep -c "create st=0" "$work/image_rocr.txt")
if ! diff "$work/image_rocr.txt" "$work/image_hsalite.txt" > "$work/image_peer.diff"; then
	head -40 "$work/image_peer.diff"
	echo "image_peer: outputs differ ($work/image_peer.diff)"
	exit 1
fi
echo "image_peer: $lines lines, $images images created, identical"
