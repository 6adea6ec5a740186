#!/usr/bin/env bash
# What the chip reports when a kernel stops itself (scripts/probes/trap/trap_probe.cu): a plain
# `trap`, `__trap()`, a failed assert and an out-of-bounds store, one process each. With
# build/bin carried, the same program under `warpsim exec` beside it, and the lines that differ.
#
#   device:  bash scripts/device_trap.sh          (carry ["build/bin"] for the simulator's column)
#            -> $OUT/trap/chip.txt  one line per case: the launch's and the synchronize's error
#               $OUT/trap/sim.txt   the same under warpsim exec (with build/bin)
#               $OUT/trap/diff.txt  diff chip.txt sim.txt
# harness/driver/driver.cpp's faultCode maps a trap to what chip.txt says (docs/FIDELITY.md).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/out}
DIR=$OUT/trap
WORK=${WORK:-/tmp/trap_probe}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
mkdir -p "$DIR" "$WORK"
"$NVCC" -lineinfo -gencode arch=compute_90,code=compute_90 -gencode arch=compute_90,code=sm_90 \
  -o "$WORK/trap_probe" scripts/probes/trap/trap_probe.cu > "$DIR/build.log" 2>&1 ||
  { cat "$DIR/build.log"; exit 1; }
CASES="trap __trap assert oob"
: > "$DIR/chip.txt"
for c in $CASES; do timeout 60 "$WORK/trap_probe" "$c" >> "$DIR/chip.txt" 2>> "$DIR/stderr.txt"; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$DIR/chip.txt" 2>/dev/null
if [ -x build/bin/warpsim ]; then
  : > "$DIR/sim.txt"
  for c in $CASES; do
    timeout 60 build/bin/warpsim exec "$WORK/trap_probe" "$c" >> "$DIR/sim.txt" 2>> "$DIR/sim_stderr.txt"
  done
  diff <(head -4 "$DIR/chip.txt") "$DIR/sim.txt" > "$DIR/diff.txt"
fi
cat "$DIR"/chip.txt "$DIR"/diff.txt 2>/dev/null
