#!/usr/bin/env bash
# The wgmma probe on the H200: `warpsim isa-record --wgmma` runs generated programs of one
# wgmma.mma_async (sm_90a; harness/ptxgen/wgmma_program.cpp) on the GPU: one warpgroup, A and B
# in shared memory in every swizzle mode (none, 32B, 64B, 128B), K-major and MN-major (f16/bf16),
# A from registers or a descriptor, K steps inside a 128B atom, several N from 8 to 256, with
# random and targeted inputs (narrow binades that cancel, a large C, spread binades). Each is
# compared with the simulator at once; every disagreement is printed with its first differing
# word. What it settles: the layouts and swizzles as warpsim decodes them (a wrong layout makes
# every random case differ), the assumption that wgmma's f16/bf16/tf32 sums are mma.sync's fitted
# 26-bit ones, and the fp8 width (kFp8SumBits in isa/insns/wgmma.cpp, assumed 16: the large-c
# fp8 cases tell).
#
# It builds nothing: run it in the repository root on the device machine with build/bin carried
# (the `device` tool: carry ["build/bin"]), after `bash scripts/device_campaign.sh prepare` here.
#   bash scripts/device_wgmma.sh [PROGRAMS] [FIRST_SEED]   (default 320 from seed 1: 10 cycles
#                                                           of 8 forms x 4 input modes)
# Seeds from 400000 on are wgmma.mma_async.sp (the same 8 forms, K doubled, random valid
# metadata and selector) in 5 modes, the split mode added (40 seeds a cycle):
#   bash scripts/device_wgmma.sh 400 400000
# tells the sparse layouts (a sparse B twice as deep), the metadata and how the chip groups a
# sparse dot (docs/FIDELITY.md, "Sparse mma and wgmma").
# Results, under $OUT (default /tmp/out):
#   wgmma/summary.txt   the device, the per-form agreement table, isa-record's last lines
#   wgmma/record.log    everything isa-record printed (each disagreement with its words)
#   wgmma/cases.tgz     the recorded cases (prog-<seed>.ptx + .isacase), to commit under
#                       tests/recorded/wgmma/ once the model agrees
set -uo pipefail
cd "$(dirname "$0")/.."
PROGRAMS=${1:-320}
FIRST=${2:-1}
OUT=${OUT:-/tmp/out}
BIN=${BIN:-build/bin/warpsim}
WORK=${WORK:-/tmp/wgmma}
mkdir -p "$OUT/wgmma" "$WORK"
rm -rf "$WORK/cases"
log="$OUT/wgmma/record.log"
: > "$log"
end=$((FIRST + PROGRAMS - 1))
s=$FIRST
# A program that faults on the GPU ends the process (its CUDA context is unusable after it):
# go on from the seed isa-record names.
while [ "$s" -le "$end" ]; do
  "$BIN" isa-record --wgmma --ptxas-check --count $((end - s + 1)) --seed "$s" \
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
    fam=$(grep -m1 -oE "\(wgmma[^)]*\)" "${c%.isacase}.ptx" | tr -d '()' |
      sed -E 's/^(wgmma(\.sp)?\.[^.]+\.[^.]+\.[^.]+\.[^.]+).*/\1/')
    if grep -q "^${c}:" "$log"; then echo "$fam differs"; else echo "$fam agrees"; fi
  done | sort | uniq -c
  echo "== isa-record"
  grep -E "^recorded|exit status|UNEXPLAINED|explained:" "$log" | sort | uniq -c | tail -20
} > "$OUT/wgmma/summary.txt" 2>&1
tar -C "$WORK" -czf "$OUT/wgmma/cases.tgz" cases 2>/dev/null
cat "$OUT/wgmma/summary.txt"
