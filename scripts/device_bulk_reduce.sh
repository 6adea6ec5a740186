#!/usr/bin/env bash
# cp.reduce.async.bulk and TMA im2col on the H200 (docs/FIDELITY.md, "Bulk reductions", "TMA
# im2col mode"): compiles scripts/probes/bulk_reduce/bulk_reduce_probe.cu (every .global pair
# over edge values, the .shared::cluster form in a cluster of 2, a tensor add) and
# im2col_probe.cu (im2col columns of a padded NHWC tensor at every 3 x 3 filter tap), runs each
# natively and under `warpsim exec`, and diffs the two outputs line for line.
#
# Carry build/bin and build/driver (the CLI, libtbb beside it, warpsim's libcuda).
# Run it in the repository root on the device machine:   bash scripts/device_bulk_reduce.sh
# Results, under $OUT (default /tmp/out):
#   bulk_reduce/PROBE.h200.txt  each probe on the chip
#   bulk_reduce/PROBE.sim.txt   each probe on the simulator (warpsim exec)
#   bulk_reduce/summary.txt     the device, the exit statuses, the diffs (none: they agree)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
WORK=${WORK:-/tmp/bulk_reduce}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
mkdir -p "$OUT/bulk_reduce" "$WORK"
rc=0
{
  echo "== device"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "(no nvidia-smi)"
  for probe in bulk_reduce_probe im2col_probe; do
    echo "== $probe"
    if "$NVCC" -arch=sm_90 -lineinfo -o "$WORK/$probe" \
        "scripts/probes/bulk_reduce/$probe.cu" > "$WORK/build.log" 2>&1; then
      "$WORK/$probe" > "$OUT/bulk_reduce/$probe.h200.txt" 2>&1
      echo "chip: exit status $? ($(wc -l < "$OUT/bulk_reduce/$probe.h200.txt") lines)"
      build/bin/warpsim exec "$WORK/$probe" > "$OUT/bulk_reduce/$probe.sim.txt" 2>"$WORK/sim.err"
      echo "simulator: exit status $? ($(wc -l < "$WORK/sim.err") lines on stderr)"
      if diff "$OUT/bulk_reduce/$probe.h200.txt" "$OUT/bulk_reduce/$probe.sim.txt" \
          > "$WORK/diff.txt"; then
        echo "the simulator prints what the chip prints"
      else
        echo "$(grep -c '^<' "$WORK/diff.txt") lines differ; the first:"
        head -40 "$WORK/diff.txt"
        rc=1
      fi
    else
      cat "$WORK/build.log"
      rc=1
    fi
  done
} > "$OUT/bulk_reduce/summary.txt" 2>&1
cat "$OUT/bulk_reduce/summary.txt"
exit $rc
