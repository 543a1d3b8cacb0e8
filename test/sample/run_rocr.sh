#!/usr/bin/env bash
# The cross-check: run the vector_add binary built here against Debian's
# ROCr instead of our library, on kfdemu.
#   run_rocr.sh <kfdemu> <preset> <vector_add> [vector_add args...]
# ROCR_DIR names another ROCr's directory (ROCr 1.18, built outside the
# tree: HSALITE_ROCR118_LIB).
# LD_LIBRARY_PATH puts /usr/lib/x86_64-linux-gnu before vector_add's
# RUNPATH; the dynamic linker's answer is checked before the run, so the
# test fails if our library would be loaded after all.  Exit 77 (skip)
# when ROCr is not installed.
set -euo pipefail
kfdemu=$1 preset=$2 prog=$3
shift 3
rocr_dir=${ROCR_DIR:-/usr/lib/x86_64-linux-gnu}
if [[ ! -e $rocr_dir/libhsa-runtime64.so.1 ]]; then
  echo "SKIP: $rocr_dir/libhsa-runtime64.so.1 (ROCr) is not installed" >&2
  exit 77
fi
export LD_LIBRARY_PATH=$rocr_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
resolved=$(ldd "$prog" | awk '$1 == "libhsa-runtime64.so.1" { print $3 }')
if [[ $(realpath "$resolved") != $(realpath "$rocr_dir/libhsa-runtime64.so.1") ]]; then
  echo "FAIL: $prog resolves libhsa-runtime64.so.1 to '$resolved', not ROCr's" >&2
  exit 1
fi
echo "run_rocr.sh: libhsa-runtime64.so.1 -> $(realpath "$resolved")" >&2
# In a sanitizer build LeakSanitizer stays on: vector_add must release
# everything it took from ROCr too (ROCr 5.2.3 leaves nothing LSan reports
# after hsa_shut_down).
exec "$kfdemu" --preset "$preset" -- "$prog" "$@"
