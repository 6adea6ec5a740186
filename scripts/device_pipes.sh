#!/usr/bin/env bash
# Which pipe each warp instruction of the suite issues to on the chip (issue 9: the model's
# integer PTX goes to one pipe, the chip's SASS splits it between ALU and FMA): Nsight Compute's
# smsp__inst_executed_pipe_*.sum for every suite card (or those named) at its default size,
# the clocks left alone.
#
#   here:    bash scripts/device_campaign.sh prepare
#   device:  tar xJf .devcarry/bin.tar.xz && bash scripts/device_pipes.sh [PATTERN...]
#            (carry [".devcarry"])
#   here:    python3 scripts/fit/pipes_join.py <files_at>/pipes.tgz > tests/recorded/timing/h200_pipes.tsv
# BUDGET (seconds, default 200) stops starting new cards in time to send the results back.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/out}
BIN=build/bin
export LD_LIBRARY_PATH=$PWD/$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
BUDGET=${BUDGET:-200}
work=${WORK:-/tmp/pipes}
mkdir -p "$OUT" "$work"
metrics="smsp__inst_executed.sum,regex:^smsp__inst_executed_pipe_[a-z0-9_]+\.sum$"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  if [ $# -gt 0 ]; then cards="$*"; else cards=$("$BIN/warpsim" suite --list | awk '{print $1}'); fi
  for c in $cards; do
    if [ "$SECONDS" -ge "$BUDGET" ]; then echo "$c: skipped (budget)"; continue; fi
    timeout 120 ncu --clock-control none --csv --page raw --print-units base \
      --metrics "$metrics" --log-file "$work/$c.csv" \
      "$BIN/warpsim" measure "$c" --ladder 1 --manifest "$work/$c.tsv" > "$work/$c.log" 2>&1
    echo "$c: exit $? after ${SECONDS}s"
  done
} 2>&1 | tee "$OUT/pipes.summary.txt"
tar -C "$work" -czf "$OUT/pipes.tgz" .
