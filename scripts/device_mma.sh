#!/usr/bin/env bash
# The tensor-core probe on the H200: `warpsim isa-record --mma` runs generated programs of one
# warp-level matrix instruction (mma.sync in every shape and type warpsim executes, ldmatrix,
# movmatrix; harness/ptxgen/mma_program.cpp) on the GPU with random inputs and with targeted
# ones (narrow exponents that cancel, a large C, terms of spread sizes) that reveal the order
# of the additions, the width kept after alignment and the rounding; each is compared with the
# simulator at once, and every disagreement is printed with its first differing word.
#
# It builds nothing: run it in the repository root on the device machine with build/bin carried
# (the `device` tool: carry ["build/bin"]), after `bash scripts/device_campaign.sh prepare` here
# (which copies the shared libraries the device lacks beside the binaries). Arguments:
#   bash scripts/device_mma.sh [PROGRAMS] [FIRST_SEED]      (default 700 programs from seed 1:
#                                                             10 cycles of 14 forms x 5 input modes;
#                                                             any 70 consecutive seeds are a cycle)
# Seeds from 100000 on cycle through the sub-byte integer (s4/u4, b1) and fp8 forms too (24
# forms x 5 modes: any 120 consecutive seeds there are a cycle; `bash scripts/device_mma.sh 1080
# 100000` recorded them, 2026-12-05). Seeds from 200000 on cycle through the 12 m8n8k4 f16 forms
# alone (ptxas's CUDA-core routines; 60 seeds a cycle; `bash scripts/device_mma.sh 600 200000`,
# not recorded yet). Seeds from 300000 on cycle through the 15 sparse forms (mma.sp and
# mma.sp::ordered_metadata, every sm_90 shape and type) in 7 input modes, the split and meta-odd
# modes added (105 seeds a cycle): `bash scripts/device_mma.sh 525 300000` tells how the chip
# groups a sparse dot and what it does with undefined metadata (docs/FIDELITY.md, "Sparse mma").
# Seeds below 100000 keep the first cycle of 14 forms, so recorded seeds generate the same
# programs.
# The first run (560 programs, seeds 1..560, four input modes) is in tests/recorded/mma/; a new
# run with fresh seeds (e.g. 700 from 1121) checks the fitted model out of sample and adds the
# tiny mode.
# Results, under $OUT (default /tmp/out):
#   mma/summary.txt     the device, the per-form agreement table, isa-record's last lines
#   mma/record.log      everything isa-record printed (each disagreement with its words)
#   mma/cases.tgz       the recorded cases (prog-<seed>.ptx + .isacase: inputs by seed and hash,
#                       every output word's hash and thread 0's values), to commit under
#                       tests/recorded/ once the model agrees
set -uo pipefail
cd "$(dirname "$0")/.."
PROGRAMS=${1:-700}
FIRST=${2:-1}
OUT=${OUT:-/tmp/out}
BIN=${BIN:-build/bin/warpsim}
WORK=${WORK:-/tmp/mma}
mkdir -p "$OUT/mma" "$WORK"
rm -rf "$WORK/cases"
log="$OUT/mma/record.log"
: > "$log"
end=$((FIRST + PROGRAMS - 1))
s=$FIRST
# A program that faults on the GPU ends the process (its CUDA context is unusable after it):
# go on from the seed isa-record names.
while [ "$s" -le "$end" ]; do
  "$BIN" isa-record --mma --ptxas-check --count $((end - s + 1)) --seed "$s" \
    --out "$WORK/cases" ${SIMULATOR_AS_GPU:+--simulator-as-gpu} >> "$log" 2>&1
  rc=$?
  echo "isa-record exit status $rc" >> "$log"
  [ "$rc" -eq 2 ] && break  # no CUDA device
  next=$(grep -oE "continue with --seed [0-9]+" "$log" | tail -1 | grep -oE "[0-9]+$")
  if [ -n "$next" ] && [ "$next" -gt "$s" ]; then s=$next; else break; fi
done
{
  echo "== device"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "(no nvidia-smi)"
  echo "== programs $FIRST..$end"
  echo "== per form (family.mode): agreeing / recorded"
  for c in "$WORK"/cases/*.isacase; do
    [ -e "$c" ] || continue
    fam=$(grep -m1 -oE "\(mma[^)]*\)|\(ldmatrix[^)]*\)|\(movmatrix\)" "${c%.isacase}.ptx" | tr -d '()')
    if grep -q "^${c}:" "$log"; then echo "$fam differs"; else echo "$fam agrees"; fi
  done | sort | uniq -c
  echo "== isa-record"
  grep -E "^recorded|exit status|UNEXPLAINED|explained:" "$log" | sort | uniq -c | tail -20
} > "$OUT/mma/summary.txt" 2>&1
tar -C "$WORK" -czf "$OUT/mma/cases.tgz" cases 2>/dev/null
cat "$OUT/mma/summary.txt"
