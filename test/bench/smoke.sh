#!/bin/sh
# Smoke test of tools/hsa-dispatch-bench: runs it under kfdemu against our
# library with tiny counts and checks that it completes and writes a
# well-formed CSV.  Not a timing assertion: no figure is compared with
# anything but the other figures of its own row (min <= p50 <= p99).
#
#   smoke.sh <kfdemu> <hsa-dispatch-bench> <work dir> [rocr]
#
# With "rocr" the same binary runs against Debian's ROCr 5.2.3 instead of our
# library (the cross-check): LD_LIBRARY_PATH puts ROCr's directory first and
# ldd must resolve libhsa-runtime64.so.1 there, or the test fails; it is
# skipped (77) when ROCr is not installed.  Leak checking is left to our own
# run: what ROCr keeps is not ours to judge.
#
# Checked: exit status 0; the header line; every row has 8 fields, our
# label, a metric the tool lists (--list), unit ns, a positive sample count
# and numbers (negative only for a breakdown's pickup, execute, wake and sum)
# with min <= p50 <= p99 and min <= mean; the host metrics and their floors
# are present, and the breakdown floors' rows; when the tool found a command
# processor, every Single/Multi metric is present too (the kernel ones only
# when the empty kernel was built), and every breakdown row: the six of each
# split_*, or its whole alone when the tool said the runtime gave no
# profiling timestamps, and the conversion cost; with gnuplot installed,
# --plot writes a PNG.
set -eu
kfdemu=$1 tool=$2 dir=$3 peer=${4:-}
mkdir -p "$dir"
tag=smoke
if [ "$peer" = rocr ]; then
  rocr_dir=/usr/lib/x86_64-linux-gnu
  if [ ! -e "$rocr_dir/libhsa-runtime64.so.1" ]; then
    echo "SKIP: $rocr_dir/libhsa-runtime64.so.1 (Debian's ROCr) is not installed"; exit 77
  fi
  LD_LIBRARY_PATH=$rocr_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export LD_LIBRARY_PATH
  resolved=$(ldd "$tool" | awk '$1 == "libhsa-runtime64.so.1" { print $3 }')
  if [ "$(realpath "$resolved")" != "$(realpath "$rocr_dir/libhsa-runtime64.so.1")" ]; then
    echo "FAIL: $tool resolves libhsa-runtime64.so.1 to '$resolved', not ROCr's"; exit 1
  fi
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
  export ASAN_OPTIONS
  tag=smoke-rocr
fi
csv=$dir/bench-$tag.csv log=$dir/bench-$tag.log png=$dir/bench-$tag.png
rm -f "$csv" "$png"
plot=""
if command -v gnuplot >/dev/null 2>&1; then plot="--plot $png"; fi

# shellcheck disable=SC2086 # $plot is empty or two words
if ! "$kfdemu" --preset mi210 -- "$tool" --label smoke --csv "$csv" $plot \
     --iters 3 --reps 2 --batch 4 --enqueue 256 --group 8 --wakeups 3 --sleep-us 300 \
     >"$log" 2>&1; then
  echo "FAIL: hsa-dispatch-bench exited non-zero:"; cat "$log"; exit 1
fi
cat "$log"
[ -s "$csv" ] || { echo "FAIL: no CSV at $csv"; exit 1; }

"$tool" --list >"$dir/bench-$tag.metrics"
expect="enqueue_1t enqueue_1t_multi enqueue_2t wakeup_blocked wakeup_spin floor_enqueue_1t
floor_enqueue_1t_multi floor_enqueue_2t floor_wakeup_blocked floor_wakeup_spin floor_single_spin floor_single_blocked
floor_multi_spin floor_multi_blocked"
parts="submit pickup execute wake sum whole"
for f in floor_split_spin floor_split_blocked; do
  for p in $parts; do expect="$expect ${f}_$p"; done
done
if grep -q 'command processor: present' "$log"; then
  expect="$expect single_spin_barrier single_blocked_barrier multi_spin_barrier multi_blocked_barrier"
  splits="split_spin_barrier split_blocked_barrier"
  if ! grep -q 'single_spin_kernel *skipped' "$log"; then
    expect="$expect single_spin_kernel single_blocked_kernel multi_spin_kernel multi_blocked_kernel"
    splits="$splits split_spin_kernel split_blocked_kernel"
  fi
  # a breakdown without profiling timestamps says so and has its whole only
  stamped=0
  for sp in $splits; do
    if grep -q "^$sp *profiling timestamps unavailable" "$log"; then
      expect="$expect ${sp}_whole"
    else
      stamped=1
      for p in $parts; do expect="$expect ${sp}_$p"; done
    fi
  done
  [ "$stamped" = 1 ] && expect="$expect convert_dispatch_time"
fi

awk -F, -v expect="$expect" -v listfile="$dir/bench-$tag.metrics" '
  BEGIN { while ((getline m < listfile) > 0) known[m] = 1
          n = split(expect, want, /[ \n]+/) }
  function bad(msg) { printf "FAIL: line %d: %s: %s\n", NR, msg, $0; failed = 1 }
  # a part of a breakdown is negative when the clocks disagree by more than
  # it lasts (pickup, execute, wake, and so their sum); nothing else is
  function num(x) { return x ~ /^[0-9]+(\.[0-9]+)?$/ ||
                    ($2 ~ /_(pickup|execute|wake|sum)$/ && x ~ /^-[0-9]+(\.[0-9]+)?$/) }
  NR == 1 { if ($0 != "label,metric,unit,samples,min,p50,p99,mean") bad("header"); next }
  NF != 8 { bad("not 8 fields"); next }
  $1 != "smoke" { bad("label") }
  !($2 in known) { bad("unknown metric") }
  $2 in seen { bad("metric twice") }
  { seen[$2] = 1 }
  $3 != "ns" { bad("unit") }
  !($4 ~ /^[1-9][0-9]*$/) { bad("sample count") }
  !(num($5) && num($6) && num($7) && num($8)) { bad("not a number"); next }
  !($5 + 0 <= $6 + 0 && $6 + 0 <= $7 + 0 && $5 + 0 <= $8 + 0) { bad("min <= p50 <= p99, min <= mean") }
  END { if (NR < 2) { print "FAIL: no rows"; failed = 1 }
        for (i = 1; i <= n; i++) if (want[i] != "" && !(want[i] in seen)) {
          printf "FAIL: metric %s missing\n", want[i]; failed = 1 }
        exit failed }' "$csv"

if [ -n "$plot" ]; then
  # PNG signature: \211 P N G
  [ "$(head -c 4 "$png" | od -An -c | tr -d ' ')" = '211PNG' ] ||
    { echo "FAIL: --plot did not write a PNG at $png"; exit 1; }
fi
echo "PASS: $(($(wc -l <"$csv") - 1)) metrics in $csv"
