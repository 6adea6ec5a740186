#!/usr/bin/env bash
# What a call and its return cost on the chip (issue 9), in one device call:
#   1. Nsight Compute over micro_call_chain (kernels/micro/call_chains.cu) at 64 and 256 calls
#      a lane (scripts/device_timing.sh): the per-call cycles of a leaf, of a function with a
#      stack frame and of diverging depths, by 32 and 16 lanes;
#   2. per SASS instruction, the stall reasons ncu samples (its source page) for every launch
#      of micro_call_chain at 256 and for calls_recursive at 2048;
#   3. the SASS ptxas makes of call_chains (cuobjdump -sass).
#
#   here:    bash scripts/device_campaign.sh prepare && tar -cJf .devcarry/ptx.tar.xz build/ptx
#   device:  tar xJf .devcarry/bin.tar.xz && tar xJf .devcarry/ptx.tar.xz &&
#            bash scripts/device_calls.sh          (carry [".devcarry"])
#   here:    python3 scripts/ncu_join.py <files_at>/calls.tgz > tests/recorded/timing/h100_calls.tsv
#            (or h200_calls.tsv: device.txt names the card), and per source page
#            python3 scripts/fit/source_page.py NAME.sass.csv
# Results under $OUT: device.txt, calls.tgz, calls.summary.txt, sass_calls.txt, source.tgz.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/out}
BIN=build/bin
export LD_LIBRARY_PATH=$PWD/$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$OUT" /tmp/calls_sass /tmp/calls_source
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader |
  tee "$OUT/device.txt"

BUDGET=120 TAG=calls WORK=/tmp/calls MEASURE_ARGS="--sizes 64,256" \
  bash scripts/device_timing.sh micro_call_chain | tail -n 3

ptxas -arch=sm_90 -v -o /tmp/calls_sass/call_chains.cubin build/ptx/call_chains.ptx \
  > "$OUT/sass_calls.txt" 2>&1
cuobjdump -sass /tmp/calls_sass/call_chains.cubin >> "$OUT/sass_calls.txt" 2>&1

# micro_call_chain's five launches (kernels/micro/call_chains_cards.cpp: leaf by 32 and 16
# lanes, a frame by 32 and 16, diverging depths), each its own report.
W=/tmp/calls_source
for k in 0 1 2 3 4; do
  timeout 100 ncu --clock-control none --launch-skip "$k" --launch-count 1 \
    --section WarpStateStats --section SourceCounters -f -o "$W/chain$k" \
    "$BIN/warpsim" measure micro_call_chain --sizes 256 --manifest "$W/chain$k.tsv" \
    > "$W/chain$k.log" 2>&1
  ncu -i "$W/chain$k.ncu-rep" --page source --csv --print-source sass \
    > "$W/chain$k.sass.csv" 2> "$W/chain$k.err"
  echo "chain$k: $(wc -l < "$W/chain$k.sass.csv") lines"
done
WORK=$W bash scripts/device_source_pages.sh recursive:calls_recursive:2048
