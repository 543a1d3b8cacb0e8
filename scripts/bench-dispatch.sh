#!/usr/bin/env bash
# bench-dispatch.sh: hsa-dispatch-bench against our library and against
# Debian's ROCr 5.2.3, both on kfdemu (mi210 preset: ROCr 5.2.3 does not know
# gfx942), in one run, and a table of ratios per metric:
#
#   ours/ROCr     p50 of ours over p50 of ROCr (below 1: we are faster)
#   ours/floor, ROCr/floor
#                 p50 over the p50 of the metric's floor, measured by the same
#                 processes without any runtime (docs/benchmarks.md): a private
#                 ring and an in-process polling consumer for enqueue/Single/
#                 Multi, a futex for a blocked wake-up, a plain atomic for a
#                 spinning one; the lower of the two runtimes' runs is used
#   target        none on these rows any more (issue 14 replaced them with
#                 the breakdown's)
#
# Then the breakdown of one round trip (split_*, hsa-dispatch-bench's
# profiling-timestamp split): submit, pickup, execute, wake, their sum and
# the measured whole, the median over the rounds of each p50, per runtime;
# the runtime's share (submit + wake) next to the device's (pickup +
# execute); ours/ROCr per part; the targets of issue 14 (submit ≤ 0.5×
# ROCr, wake ≤ 0.5× ROCr for BLOCKED and ≤ 1.0× for ACTIVE waits, runtime
# share ≤ 0.5× ROCr, the table's parts adding up to its whole within 5 %
# for both runtimes) with PASS/FAIL; each runtime part above its floor (the same round
# trip against an in-process consumer, no runtime); what the timestamp
# conversion costs and how the clocks were aligned.  --plot also draws the
# breakdown as stacked bars for both runtimes (<out>/breakdown.png).
#
# The enqueue rows: enqueue_1t is one producer on a SINGLE queue (the queue
# an application with one producer creates), enqueue_1t_multi one producer on
# a MULTI queue (rocrtst's enqueueLatency), enqueue_2t two producers on one
# MULTI queue.  Their floors all reserve with atomic_fetch_add (both
# runtimes reserve with a locked RMW on every queue type, SINGLE included;
# floor_enqueue_1t used a load and a release store before 2026-11-25); each
# row is printed with how far it is above its floor.
#
# The runs alternate (ours, ROCr, ours, ...) --rounds times.  Each figure is
# the best (lowest) p50 over the rounds of that runtime, with the ratio of the
# medians over the rounds beside it.  Best-of-rounds because on kfdemu a run
# (often a whole process) lands in one of two modes (docs/benchmarks.md: ~1 us round trips
# when kfdemu's CP thread catches the doorbell in its spin, ~70-130 us when
# it sleeps first), and which one depends on where the scheduler put the
# threads, not on the runtime; alternating rounds keep a slow spell of a
# shared machine off one runtime only.
#
# Exit status: 0 when every run completed and the table was printed (also
# when a metric was skipped with a printed reason, or a runtime was run
# again with --no-kernel); 1 when ROCr is not installed, a run failed twice,
# a run loaded the wrong library, or --report-only found no CSVs; 2 on bad
# usage; a failed build exits with cmake's status (set -e).  Never whether
# a target was met: PASS/FAIL is printed, not returned (benchmarks are
# tools, not tests).
#
#   scripts/bench-dispatch.sh [--build DIR] [--out DIR] [--rounds N] [--plot]
#                             [--rocr DIR] [--report-only]
#                             [-- hsa-dispatch-bench options]
#
# --build defaults to build-release (configured Release if absent), --out to
# <build>/bench-dispatch; --report-only prints the table again from the CSVs
# of the last run in --out.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$ROOT/build-release
OUT=
ROUNDS=3
PLOT=0
REPORT_ONLY=0
ROCR_DIR=/usr/lib/x86_64-linux-gnu
PRESET=mi210

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
}

while (($#)); do
  case $1 in
    --build) BUILD=$(realpath -m "$2"); shift 2 ;;
    --out) OUT=$(realpath -m "$2"); shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --plot) PLOT=1; shift ;;
    --report-only) REPORT_ONLY=1; shift ;;
    --rocr) ROCR_DIR=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    *) echo "bench-dispatch.sh: unknown option $1 (--help)" >&2; exit 2 ;;
  esac
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "bench-dispatch.sh: --rounds wants a count" >&2; exit 2; }
OUT=${OUT:-$BUILD/bench-dispatch}
TOOL_ARGS=("$@")

if [[ ! -e $ROCR_DIR/libhsa-runtime64.so.1 ]]; then
  echo "bench-dispatch.sh: no ROCr at $ROCR_DIR/libhsa-runtime64.so.1 (Debian: libhsa-runtime64-1)" >&2
  exit 1
fi

# ---- build (Release) if needed; an existing build dir keeps its own type ----
if ((REPORT_ONLY)); then
  :
elif [[ ! -f $BUILD/CMakeCache.txt ]]; then
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
if [[ $(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$BUILD/CMakeCache.txt") != Release ]] ||
   grep -q '^HSALITE_SANITIZE:STRING=.\+' "$BUILD/CMakeCache.txt"; then
  echo "bench-dispatch.sh: warning: $BUILD is not a plain Release build; figures are not comparable" >&2
fi
((REPORT_ONLY)) || cmake --build "$BUILD" -j2 --target hsa-dispatch-bench hsa-runtime64 kfdemu >/dev/null
TOOL=$BUILD/tools/hsa-dispatch-bench
KFDEMU=$BUILD/emu/kfdemu
mkdir -p "$OUT"

# ---- the runs ----
# A runtime whose kernel path fails on kfdemu (stock ROCr 5.2.3 invalidates
# the instruction cache with a PM4 vendor packet on its internal queue when it
# loads a code object, and aborts when the CP refuses it) is run again with
# --no-kernel: its kernel rows then read n/a, and the reason is printed.
declare -A NO_KERNEL=()
run() { # run <label> <round>
  local label=$1 round=$2 env=()
  [[ $label == rocr ]] && env=(env "LD_LIBRARY_PATH=$ROCR_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
  local plot=()
  ((PLOT)) && ((round == 1)) && plot=(--plot "$OUT/$label.png")
  local log=$OUT/$label.$round.log
  echo "== $label, round $round/$ROUNDS ($log)"
  if ! "${env[@]}" "$KFDEMU" --preset "$PRESET" -- "$TOOL" --label "$label" \
       --csv "$OUT/$label.$round.csv" "${plot[@]}" "${TOOL_ARGS[@]}" ${NO_KERNEL[$label]:-} \
       >"$log" 2>&1; then
    if [[ -z ${NO_KERNEL[$label]:-} ]]; then
      echo "   the $label run failed; again without the kernel metrics. Its log ended:"
      tail -n 4 "$log" | sed 's/^/   | /'
      mv "$log" "$log.failed"
      NO_KERNEL[$label]=--no-kernel
      run "$label" "$round"
      return
    fi
    echo "bench-dispatch.sh: the $label run failed:" >&2
    tail -n 20 "$log" >&2
    exit 1
  fi
  # The library the tool reports must be the one meant.
  local lib
  lib=$(sed -n 's/^library: //p' "$log")
  case $label in
    rocr) [[ $lib == "$ROCR_DIR"/* ]] ;;
    ours) [[ $lib == "$BUILD"/* ]] ;;
  esac || { echo "bench-dispatch.sh: the $label run loaded $lib" >&2; exit 1; }
  grep -E '^(library|agent):|skipped' "$log" | sed 's/^/   /'
}
if ((REPORT_ONLY)); then
  ROUNDS=$(find "$OUT" -maxdepth 1 -name 'ours.[0-9]*.csv' | wc -l)
  ((ROUNDS)) || { echo "bench-dispatch.sh: no CSVs in $OUT" >&2; exit 1; }
else
  rm -f "$OUT"/ours.[0-9]*.csv "$OUT"/rocr.[0-9]*.csv
  for ((r = 1; r <= ROUNDS; r++)); do
    run ours "$r"
    run rocr "$r"
  done
fi

# ---- median and best over rounds, per runtime, metric and statistic ----
combine() { # combine <label> <median|best> -> <label>.csv or <label>.best.csv
  awk -F, -v OFS=, -v how="$2" '
    FNR == 1 { next }
    { key = $2; n[key]++; for (c = 4; c <= 8; c++) v[key, c, n[key]] = $c
      if (!(key in seen)) { seen[key] = 1; order[++m] = key; unit[key] = $3; lab = $1 } }
    function median(key, c,   i, j, k, t, a) {
      k = n[key]; for (i = 1; i <= k; i++) a[i] = v[key, c, i] + 0
      for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
      if (how == "best") return a[1]
      return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
    END { print "label,metric,unit,samples,min,p50,p99,mean"
          for (i = 1; i <= m; i++) { key = order[i]; line = lab OFS key OFS unit[key]
            for (c = 4; c <= 8; c++) line = line OFS median(key, c); print line } }
  ' "$OUT/$1".[0-9]*.csv
}
combine ours median >"$OUT/ours.csv"
combine rocr median >"$OUT/rocr.csv"
combine ours best >"$OUT/ours.best.csv"
combine rocr best >"$OUT/rocr.best.csv"

# ---- the table ----
echo
echo "hsa-dispatch-bench on kfdemu --preset $PRESET, $ROUNDS round(s) per runtime"
echo "ours, ROCr: best p50 over the rounds (ns); ratios of those; median: ours/ROCr of the median p50s"
awk -F, '
  function floor_of(m) {
    if (m ~ /^enqueue_/) return "floor_" m
    if (m ~ /^wakeup_/) return "floor_" m
    if (m ~ /^single_spin_/) return "floor_single_spin"
    if (m ~ /^single_blocked_/) return "floor_single_blocked"
    if (m ~ /^multi_spin_/) return "floor_multi_spin"
    if (m ~ /^multi_blocked_/) return "floor_multi_blocked"
    return "" }
  # The targets of issue 14 are those of the breakdown (the split table below);
  # the whole-round-trip and enqueue targets before it were replaced.
  function target_of(m) { return 0 }
  # A floor involves no runtime: its best over every round of both runs.
  function fl(f) {
    if (f in ours && f in rocr) return ours[f] + 0 < rocr[f] + 0 ? ours[f] : rocr[f]
    if (f in ours) return ours[f]
    if (f in rocr) return rocr[f]
    return "" }
  function ratio(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "n/a" : sprintf("%.2f", a / b) }
  FNR == 1 { file++; next }
  file == 1 { ours[$2] = $6; if (!($2 in seen)) { seen[$2] = 1; order[++m] = $2 } }
  file == 2 { rocr[$2] = $6; if (!($2 in seen)) { seen[$2] = 1; order[++m] = $2 } }
  file == 3 { mours[$2] = $6 }
  file == 4 { mrocr[$2] = $6 }
  END {
    printf "%-24s %10s %10s %9s %7s %10s %10s %9s %7s\n", "metric", "ours", "ROCr", "ours/ROCr",
           "median", "ours/floor", "ROCr/floor", "target", "verdict"
    for (i = 1; i <= m; i++) {
      k = order[i]; if (k ~ /^(floor_|split_|convert_)/) continue
      f = floor_of(k); t = target_of(k); r = ratio(ours[k], rocr[k])
      v = "-"; tt = "-"
      if (t) { tt = sprintf("<= %.1fx", t); v = r == "n/a" ? "n/a" : (r + 0 <= t ? "PASS" : "FAIL") }
      printf "%-24s %10s %10s %9s %7s %10s %10s %9s %7s\n", k,
             k in ours ? ours[k] : "n/a", k in rocr ? rocr[k] : "n/a", r, ratio(mours[k], mrocr[k]),
             ratio(ours[k], fl(f)), ratio(rocr[k], fl(f)), tt, v
    }
    printf "\nfloors (best p50 ns in the ours runs / the ROCr runs; the ratios use the lower):\n "
    for (i = 1; i <= m; i++) { k = order[i]; if (k ~ /^floor_/ && k !~ /^floor_split_/) printf " %s %s/%s", substr(k, 7), ours[k], rocr[k] }
    printf "\n"
  }' "$OUT/ours.best.csv" "$OUT/rocr.best.csv" "$OUT/ours.csv" "$OUT/rocr.csv" | tee "$OUT/table.txt"
# Enqueue above its floor: the runtime's own part of a submission.
awk -F, 'FNR == 1 { file++; next }
  { p[file, $2] = $6 }
  END { split("enqueue_1t enqueue_1t_multi enqueue_2t", rows, " ")
        for (t = 1; t <= 3; t++) { m = rows[t]; f = "floor_" m
          if ((1, m) in p && (2, m) in p) {
            fv = p[1, f] + 0 < p[2, f] + 0 ? p[1, f] : p[2, f]
            o = p[1, m] - fv; r = p[2, m] - fv
            printf "%s above its floor (best p50s): ours %.1f ns, ROCr %.1f ns", m, o, r
            if (r > 0) printf " (ratio %.2f)", o / r
            printf "\n" } } }' "$OUT/ours.best.csv" "$OUT/rocr.best.csv" | tee -a "$OUT/table.txt"
# Every round's p50, so the two modes of kfdemu's round trips show.
echo "p50 of each round (ns), ours | ROCr:" | tee -a "$OUT/table.txt"
for label in ours rocr; do
  for ((r = 1; r <= ROUNDS; r++)); do cat "$OUT/$label.$r.csv"; done
done | awk -F, '$1 == "label" || $2 ~ /^(floor_|split_|convert_)/ { next }
  { if (!($2 in seen)) { seen[$2] = 1; order[++m] = $2 }
    if ($1 == "ours") o[$2] = o[$2] " " $6; else r[$2] = r[$2] " " $6 }
  END { for (i = 1; i <= m; i++) printf "  %-24s%s |%s\n", order[i], o[order[i]], r[order[i]] }' |
  tee -a "$OUT/table.txt"

# ---- the breakdown (split_*): where a round trip's time goes ----
# Figures: for each runtime and split, its best round (the lowest whole
# p50) and that round's parts' p50s, so the parts and the whole of a row
# come from one process: on kfdemu a process runs in one of a few modes
# (where the hypervisor put the CP's thread and the waiter; submit and wake
# move with it as much as pickup does, the floors too), parts taken from
# different rounds would not add up, and the best rounds of the two runtimes
# are the ones most likely to be in the same mode.  Each round's whole is
# listed below the table, so the modes show.  "above the floor": per round,
# a runtime part's p50 minus the same part of the floor measured in the
# same process (so in the same mode), the median over the rounds: the
# runtime's own cost with the mode taken out.  Runtime share = submit + wake (the runtime's code and
# the memory it waits through), device share = pickup + execute (kfdemu's
# CP).  "adds up": |the row's four parts added - its whole| / its whole; in
# brackets the worst round's.  Within one sample the parts add up exactly
# (they telescope); what this checks is that the p50s of the parts account
# for the p50 of the whole.
SPLITS="split_spin_barrier split_blocked_barrier split_spin_kernel split_blocked_kernel"
echo | tee -a "$OUT/table.txt"
echo "breakdown of one round trip (p50s in ns of each runtime's best round, by the whole's p50):" |
  tee -a "$OUT/table.txt"
awk -F, -v ours_csv="$OUT/ours.csv" -v rocr_csv="$OUT/rocr.csv" -v splits_list="$SPLITS" '
  BEGIN {
    while ((getline l < ours_csv) > 0) { split(l, fld, ","); o[fld[2]] = fld[6] }
    while ((getline l < rocr_csv) > 0) { split(l, fld, ","); c[fld[2]] = fld[6] }
    np = split("submit pickup execute wake", parts, " ")
    ns = split(splits_list, splits, " ")
  }
  FNR == 1 { lab = (FILENAME ~ /\/ours\.[0-9]+\.csv$/) ? "ours" : "rocr"
             nfiles[lab]++; files[lab, nfiles[lab]] = FILENAME; next }
  { p50[FILENAME, $2] = $6 }
  function has(a, k) { return (k in a) && a[k] != "" }
  function val(rt, k) { return rt ? (has(c, k) ? c[k] : "") : (has(o, k) ? o[k] : "") }
  function r2(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "n/a" : sprintf("%.2f", a / b) }
  function verdict(x, t) { return x == "n/a" ? "n/a" : (x + 0 <= t ? "PASS" : "FAIL") }
  function lower(k) { return (has(o, k) && has(c, k)) ? (o[k] + 0 < c[k] + 0 ? o[k] : c[k]) : (has(o, k) ? o[k] : c[k]) }
  function pct(a, b,   d) { d = (a - b) / b * 100; return d < 0 ? -d : d }
  END {
    # the median round of each runtime and split; its parts replace the
    # medians of ours.csv / rocr.csv for the split rows
    for (rt = 0; rt < 2; rt++) {
      lab = rt ? "rocr" : "ours"
      for (i = 1; i <= ns; i++) {
        s = splits[i]; m = 0
        for (j = 1; j <= nfiles[lab]; j++) {
          fn = files[lab, j]
          if (!((fn, s "_whole") in p50)) continue
          m++; fl[m] = fn; wv[m] = p50[fn, s "_whole"] + 0
          if ((fn, s "_sum") in p50 && wv[m] > 0) {
            d = pct(p50[fn, s "_sum"], wv[m])
            if (!((lab, s) in worst) || d > worst[lab, s]) worst[lab, s] = d }
        }
        if (!m) continue
        for (x = 2; x <= m; x++)
          for (y = x; y > 1 && wv[y - 1] > wv[y]; y--) {
            t = wv[y]; wv[y] = wv[y - 1]; wv[y - 1] = t; t = fl[y]; fl[y] = fl[y - 1]; fl[y - 1] = t }
        fn = fl[1]; sel[lab, s] = fn
        wl = ""; for (x = 1; x <= m; x++) wl = wl " " wv[x]; wholes[lab, s] = wl
        rn = fn; sub(/\.csv$/, "", rn); sub(/^.*\./, "", rn); round[lab, s] = rn
        for (p = 1; p <= np + 1; p++) {
          k = s "_" (p <= np ? parts[p] : "whole")
          v = ((fn, k) in p50) ? p50[fn, k] : ""
          if (rt) c[k] = v; else o[k] = v }
      }
    }
    printf "%-22s %-11s %8s %8s %8s %8s %8s %8s %13s %8s %8s\n", "split", "(round)", "submit",
           "pickup", "execute", "wake", "sum", "whole", "adds up", "runtime", "device"
    for (i = 1; i <= ns; i++) {
      s = splits[i]
      if (!has(o, s "_whole") && !has(c, s "_whole")) continue
      for (rt = 0; rt < 2; rt++) {
        lab = rt ? "rocr" : "ours"
        line = sprintf("%-22s %-11s", s, (rt ? "ROCr" : "ours") ((lab, s) in round ? " (" round[lab, s] ")" : ""))
        for (p = 1; p <= np; p++) { v = val(rt, s "_" parts[p]); line = line sprintf(" %8s", v == "" ? "n/a" : v) }
        vw = val(rt, s "_whole")
        su = val(rt, s "_submit"); wk = val(rt, s "_wake"); pu = val(rt, s "_pickup"); ex = val(rt, s "_execute")
        rs = (su == "" || wk == "") ? "" : su + wk; ds = (pu == "" || ex == "") ? "" : pu + ex
        vs = (rs == "" || ds == "") ? "" : rs + ds
        ad = "n/a"
        if (vs != "" && vw + 0 > 0) {
          adds[lab, s] = pct(vs, vw)
          ad = sprintf("%.1f%%", adds[lab, s])
          if ((lab, s) in worst) ad = ad sprintf(" (%.0f%%)", worst[lab, s]) }
        share[lab, s] = rs; dshare[lab, s] = ds
        line = line sprintf(" %8s %8s %13s %8s %8s", vs == "" ? "n/a" : vs, vw == "" ? "n/a" : vw, ad,
                            rs == "" ? "n/a" : rs, ds == "" ? "n/a" : ds)
        print line
      }
    }
    printf "\nours/ROCr (ratios of those rows) and the targets of issue 14\n"
    printf "(submit <= 0.5x; wake <= 0.5x blocked, <= 1.0x spin; runtime share <= 0.5x; the parts add up to the whole within 5%%, both runtimes):\n"
    printf "%-22s %7s %7s %7s %7s %8s %8s   %s\n", "split", "submit", "pickup", "execute", "wake",
           "runtime", "device", "verdicts"
    for (i = 1; i <= ns; i++) {
      s = splits[i]; if (!has(o, s "_whole") || !has(c, s "_whole")) continue
      rsub = r2(val(0, s "_submit"), val(1, s "_submit")); rw = r2(val(0, s "_wake"), val(1, s "_wake"))
      rsh = r2(share["ours", s], share["rocr", s]); rdv = r2(dshare["ours", s], dshare["rocr", s])
      tw = (s ~ /blocked/) ? 0.5 : 1.0
      add = "n/a"
      if ((("ours", s) in adds) && (("rocr", s) in adds))
        add = (adds["ours", s] <= 5 && adds["rocr", s] <= 5) ? "PASS" : "FAIL"
      printf "%-22s %7s %7s %7s %7s %8s %8s   submit %s, wake %s, runtime share %s, adds up %s\n", s, rsub,
             r2(val(0, s "_pickup"), val(1, s "_pickup")), r2(val(0, s "_execute"), val(1, s "_execute")),
             rw, rsh, rdv, verdict(rsub, 0.5), verdict(rw, tw), verdict(rsh, 0.5), add
    }
    # the floors in the processes of those rows: how far the targets are from
    # what no runtime can beat there (a BLOCKED wait that ends in its spin
    # phase has the spin floor)
    printf "\nthe spin floors measured in the processes of those rows (ns, ours | ROCr), each runtime above the lower, and floor / ROCr:\n"
    for (i = 1; i <= ns; i++) {
      s = splits[i]
      if (!((("ours", s) in sel) && (("rocr", s) in sel))) continue
      line = sprintf("  %-22s", s)
      for (q = 1; q <= 2; q++) {
        part = q == 1 ? "submit" : "wake"; fk = "floor_split_spin_" part
        fo = p50[sel["ours", s], fk]; fr = p50[sel["rocr", s], fk]
        lo = (fo != "" && (fr == "" || fo + 0 < fr + 0)) ? fo : fr
        line = line sprintf("  %s: floor %s | %s, ours %+.0f, ROCr %+.0f above the lower, floor/ROCr %s", part,
                            fo == "" ? "n/a" : fo, fr == "" ? "n/a" : fr, val(0, s "_" part) - lo,
                            val(1, s "_" part) - lo, r2(lo, val(1, s "_" part)))
      }
      print line
    }
    # the floors of the parts, measured in the same processes with no runtime
    printf "\nfloors: the same round trip against the in-process consumer, no runtime (median p50 ns over the rounds, ours runs / ROCr runs):\n"
    for (b = 0; b < 2; b++) {
      fl0 = b ? "floor_split_blocked" : "floor_split_spin"
      if (!has(o, fl0 "_submit") && !has(c, fl0 "_submit")) continue
      printf "  %-20s", fl0
      for (p = 1; p <= np; p++) printf " %s %s/%s", parts[p], o[fl0 "_" parts[p]], c[fl0 "_" parts[p]]
      printf "\n"
    }
    printf "the runtime parts above the floor of the same process (median over the rounds of part p50 - floor part p50, ns), ours | ROCr:\n"
    for (i = 1; i <= ns; i++) {
      s = splits[i]; fl0 = (s ~ /blocked/) ? "floor_split_blocked" : "floor_split_spin"
      line = sprintf("  %-22s", s); any = 0
      for (q = 1; q <= 2; q++) {
        part = q == 1 ? "submit" : "wake"
        line = line sprintf("  %s:", part)
        for (rt = 0; rt < 2; rt++) {
          lab = rt ? "rocr" : "ours"; m = 0
          for (j = 1; j <= nfiles[lab]; j++) {
            fn = files[lab, j]
            if (((fn, s "_" part) in p50) && ((fn, fl0 "_" part) in p50)) {
              m++; dv[m] = p50[fn, s "_" part] - p50[fn, fl0 "_" part] } }
          for (x = 2; x <= m; x++) for (y = x; y > 1 && dv[y - 1] > dv[y]; y--) { t = dv[y]; dv[y] = dv[y - 1]; dv[y - 1] = t }
          med = m ? (m % 2 ? dv[(m + 1) / 2] : (dv[m / 2] + dv[m / 2 + 1]) / 2) : ""
          above[lab, s, part] = med; any += m > 0
          line = line sprintf(" %s%s", rt ? "| " : "", med == "" ? "n/a" : sprintf("%+.0f", med))
        }
      }
      if (any) print line
    }
    printf "the whole p50 of every round, sorted (ns), ours | ROCr:\n"
    for (i = 1; i <= ns; i++) {
      s = splits[i]
      if (("ours", s) in wholes || ("rocr", s) in wholes)
        printf "  %-22s%s |%s\n", s, wholes["ours", s], wholes["rocr", s]
    }
    if (has(o, "convert_dispatch_time") || has(c, "convert_dispatch_time"))
      printf "conversion, median p50 ns per call, ours | ROCr: hsa_amd_profiling_get_dispatch_time %s | %s, hsa_amd_profiling_convert_tick_to_system_domain %s | %s\n",
             o["convert_dispatch_time"], c["convert_dispatch_time"], o["convert_tick"], c["convert_tick"]
  }' "$OUT"/ours.[0-9]*.csv "$OUT"/rocr.[0-9]*.csv | tee -a "$OUT/table.txt"
# how the clocks were aligned (round 1), and any breakdown without timestamps
for label in ours rocr; do
  { grep -h -E '^(clock|conversion):' "$OUT/$label.1.log" 2>/dev/null || true; } |
    sed "s/^/  $label round 1: /"
  { grep -h 'timestamps unavailable' "$OUT/$label".[0-9]*.log 2>/dev/null || true; } |
    sort -u | sed "s/^/  $label: /"
done | tee -a "$OUT/table.txt"

# ---- --plot: the breakdown as stacked bars, both runtimes ----
if ((PLOT)); then
  bars=$OUT/breakdown.dat
  awk -v ours_csv="$OUT/ours.csv" -v rocr_csv="$OUT/rocr.csv" -v splits_list="$SPLITS" 'BEGIN {
    while ((getline l < ours_csv) > 0) { split(l, f, ","); o[f[2]] = f[6] }
    while ((getline l < rocr_csv) > 0) { split(l, f, ","); c[f[2]] = f[6] }
    ns = split(splits_list, s, " "); np = split("submit pickup execute wake", p, " ")
    for (i = 1; i <= ns; i++) for (rt = 0; rt < 2; rt++) {
      k = s[i] "_submit"; if (rt ? !(k in c) : !(k in o)) continue
      line = substr(s[i], 7) (rt ? "/ROCr" : "/ours")
      for (j = 1; j <= np; j++) { v = rt ? c[s[i] "_" p[j]] : o[s[i] "_" p[j]]; line = line " " (v + 0 > 0 ? v / 1000 : 0) }
      print line } }' >"$bars"
  if [[ -s $bars ]]; then
    env -u LD_PRELOAD gnuplot <<GP
set terminal pngcairo size 900,520 noenhanced font ',9'
set output '$OUT/breakdown.png'
set title 'kfdemu --preset $PRESET: one round trip, median p50 of each part over $ROUNDS rounds (us)'
set style data histograms
set style histogram rowstacked
set style fill solid 0.7 border -1
set boxwidth 0.7
set key outside right top
set ylabel 'us'
set xtics rotate by -30
plot '$bars' using 2:xtic(1) title 'submit (runtime)', '' using 3 title 'pickup (CP)', '' using 4 title 'execute (CP)', '' using 5 title 'wake (runtime)'
GP
    echo "plot: $OUT/breakdown.png" | tee -a "$OUT/table.txt"
  fi
fi
echo "CSV: $OUT/{ours,rocr}.best.csv (best round), $OUT/{ours,rocr}.csv (median), per round: $OUT/<label>.<round>.csv"
((PLOT)) && echo "plots: $OUT/ours.png $OUT/rocr.png $OUT/breakdown.png"
exit 0
