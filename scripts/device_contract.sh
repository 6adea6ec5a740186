#!/usr/bin/env bash
# The contraction probe on the H200: `warpsim isa-record --contract` runs generated programs
# that mix contractible sequences (a mul without a rounding modifier into a scratch register,
# then add/sub consuming it: alone, through a neg, with two consumers, or with a consumer
# carrying .rn that keeps the pairs apart; harness/ptxgen/ops_float.cpp) into the usual random
# programs, on the GPU, and compares each with the simulator at once, which fuses the pairs by
# ptxas's rule (isa/contract.h). A disagreement at a contracted add is a rule the simulator
# gets wrong; isa-record prints each with its first differing word and instruction.
#
# It builds nothing: run it in the repository root on the device machine with build/bin carried
# (the `device` tool: carry ["build/bin"]), after `bash scripts/device_campaign.sh prepare` here
# (which copies the shared libraries the device lacks beside the binaries). Arguments:
#   bash scripts/device_contract.sh [PROGRAMS] [FIRST_SEED]   (default 500 programs from seed 1)
# Results, under $OUT (default /tmp/out):
#   contract/summary.txt   the device, agreeing / differing counts, isa-record's verdict lines
#   contract/record.log    everything isa-record printed
#   contract/cases.tgz     the agreeing cases (prog-<seed>.ptx + .isacase), to unpack into
#                          tests/recorded/contract/ and commit:
#                            mkdir -p tests/recorded/contract &&
#                            tar -C tests/recorded/contract -xzf <files_at>/contract/cases.tgz
#                          CI replays them (PtxGenCases.RecordedOnTheH200ReplayIdentically).
# SIMULATOR_AS_GPU=1 runs it here with the simulator in the GPU's place (a dry run of the
# pipeline; what it writes is no evidence).
set -uo pipefail
cd "$(dirname "$0")/.."
PROGRAMS=${1:-500}
FIRST=${2:-1}
OUT=${OUT:-/tmp/out}
BIN=${BIN:-build/bin/warpsim}
WORK=${WORK:-/tmp/contract}
mkdir -p "$OUT/contract" "$WORK"
rm -rf "$WORK/cases" "$WORK/keep"
log="$OUT/contract/record.log"
: > "$log"
end=$((FIRST + PROGRAMS - 1))
s=$FIRST
# A program that faults on the GPU ends the process (its CUDA context is unusable after it):
# go on from the seed isa-record names.
while [ "$s" -le "$end" ]; do
  "$BIN" isa-record --contract --video --ptxas-check --count $((end - s + 1)) --seed "$s" \
    --out "$WORK/cases" ${SIMULATOR_AS_GPU:+--simulator-as-gpu} >> "$log" 2>&1
  rc=$?
  echo "isa-record exit status $rc" >> "$log"
  [ "$rc" -eq 2 ] && break  # no CUDA device
  next=$(grep -oE "continue with --seed [0-9]+" "$log" | tail -1 | grep -oE "[0-9]+$")
  if [ -n "$next" ] && [ "$next" -gt "$s" ]; then s=$next; else break; fi
done
# The agreeing cases come back; a differing one is named in the log as "<path>.isacase:".
mkdir -p "$WORK/keep"
agree=0
differ=0
for c in "$WORK"/cases/*.isacase; do
  [ -e "$c" ] || continue
  if grep -q "$(basename "$c"):" "$log"; then
    differ=$((differ + 1))
  else
    agree=$((agree + 1))
    cp "$c" "${c%.isacase}.ptx" "$WORK/keep/"
  fi
done
tar -C "$WORK/keep" -czf "$OUT/contract/cases.tgz" .
{
  echo "== device"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "(no nvidia-smi)"
  echo "== programs $FIRST..$end (isa-record --contract --video)"
  echo "$agree agree, $differ differ"
  echo "== contractible sequences in the agreeing programs"
  cat "$WORK"/keep/*.ptx 2>/dev/null | grep -cE "^(mul|mul\.ftz)\.f(32|64) %c[fd]0" | sed 's/$/ mul into a product register/'
  echo "== isa-record"
  grep -E "^recorded|^[0-9]+ programs|exit status|UNEXPLAINED|explained:" "$log" | sort | uniq -c | tail -20
} > "$OUT/contract/summary.txt" 2>&1
cat "$OUT/contract/summary.txt"
