#!/usr/bin/env bash
# The main job: install what is missing, build cmnet (Release), then
#  1. run a CM-1 network on the simulated board (the Verilator model of the generated board
#     top, behind a TCP socket on 127.0.0.1), driven by the host driver, with a report that
#     compares every counter and reception with the reference model (out/run/);
#  2. route a random pattern on a 16-chip network's RTL and on the reference model and compare
#     them message by message (out/demo/);
#  3. one small run of every other family on its simulated board, each compared with its model
#     (out/tour/FAMILY/), and the CM-5 machine, which has no board, on its RTL against its model;
# and end with one table: family, what ran, whether it agrees with the model. Exit 1 if any does not.
set -euo pipefail
cd "$(dirname "$0")/.."
# Only what the main job needs; the test command installs the rest (GoogleTest, the FPGA tools, clang).
scripts/install-deps.sh --main
# The runs below are small: their Verilator models compiled at -O1 build a quarter faster and
# run them in the same seconds (a user's own runs keep -O2 unless they set this too).
export CMNET_RTL_BUILD=${CMNET_RTL_BUILD:-quick}
# cmnet at -O1: a third less compile time than -O3 on a fresh machine, and the runs below are
# short. Long benches want more: CMNET_OPT=-O2 scripts/main.sh, or configure build/ again so.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=${CMNET_OPT:--O1} -DNDEBUG" \
  -DCMNET_TESTS=OFF >/dev/null
cmake --build build --target cmnet
cmnet=build/host/cli/cmnet

rows=()
failed=0
# row FAMILY WHAT RC SECONDS: one row of the table. Every command here exits 0 only when the
# board (or the RTL) agrees with the reference model, so its exit status is the verdict.
row() {
  local verdict=YES
  [ "$3" -eq 0 ] || { verdict="NO (exit $3)"; failed=1; }
  rows+=("$(printf '%-8s %-50s %-22s %4d s' "$1" "$2" "$verdict" "$4")")
}
step() {
  local family=$1 what=$2 start=$SECONDS rc=0
  shift 2
  "$@" || rc=$?
  row "$family" "$what" $rc $((SECONDS - start))
}

# The other families (each mostly a Verilator build: one core busy of two) run in the background,
# two at a time, while CM-1 runs in the foreground.
tour_cm5data() { "$cmnet" run gen/examples/cm5data_4_board.json -o out/tour/cm5data; }
tour_cm5ctl() { "$cmnet" run gen/examples/cm5ctl_2.json -o out/tour/cm5ctl; }
tour_clos() { "$cmnet" run gen/examples/clos_n224.json -o out/tour/clos; }
tour_hcube() { "$cmnet" run gen/examples/hcube_3.json -o out/tour/hcube; }
tour_cm5() { "$cmnet" sim gen/examples/cm5_4.json --engine rtl --pattern router-done --out out/tour/cm5/rtl.jsonl; }
declare -A tour_what=(
  [cm5data]="board: requests and replies, 4 leaves"
  [cm5ctl]="board: a reduction and a scan, 2 leaves"
  [clos]="board: a permutation of circuits, N(2, 2, 4)"
  [hcube]="board: uniform packets on a 3-cube"
  [cm5]="RTL (no board): router-done, 4 leaves")
# Longest first: hcube's and cm5's Verilator builds are the longest.
tour=(hcube cm5 cm5data clos cm5ctl)
mkdir -p out/tour/cm5
rm -f out/tour/*.rc
echo "== every other family: one small run on its simulated board, against its model, two at a time in the"
echo "   background while CM-1 runs (each run's output in out/tour/FAMILY.log, shown below when all are done)"
run_tour() {
  for f in "${tour[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || true; done
    (start=$SECONDS rc=0; "tour_$f" >"out/tour/$f.log" 2>&1 || rc=$?; echo "$rc $((SECONDS - start))" >"out/tour/$f.rc") &
  done
  wait
}
run_tour &
tour_pid=$!

echo
step cm1 "board: many-to-one, 8 chips x 4 processors" \
  "$cmnet" run gen/examples/cm1_board.json --pattern many-to-one --per-proc 4 --seed 7 -o out/run
step cm1 "RTL (demo): permutation, 16 chips x 16 processors" \
  "$cmnet" demo -o out/demo

wait $tour_pid
for f in cm5data cm5ctl clos hcube cm5; do
  echo
  echo "-- $f: ${tour_what[$f]}"
  cat "out/tour/$f.log"
  read -r rc secs <"out/tour/$f.rc"
  row "$f" "${tour_what[$f]}" "$rc" "$secs"
done

echo
echo "== the main job: every family against its reference model"
printf '   %-8s %-50s %-22s %6s\n' family "what ran" "agrees with the model" time
for r in "${rows[@]}"; do echo "   $r"; done
echo "   main job: ${SECONDS} s in all (installation and build included)"
exit $failed
