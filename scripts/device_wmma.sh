#!/usr/bin/env bash
# The wmma probe on the H200: builds scripts/probes/wmma/wmma_probe.cu with the device's nvcc
# and records every sm_90 wmma form warpsim executes (f16/bf16 in the three 16x16x16-sized
# shapes, f16 accumulators, tf32, s8/u8, f64) on inputs that expose the summation (spread
# exponents, a large C, cancelling products, tf32 low bits set). The replay
# (tests/sim/wmma_test.cpp, WmmaReplay) checks the assumption of isa/insns/wmma.cpp: that wmma
# sums as mma.sync does (the model of isa/insns/mma_accumulate.h, fitted on this chip).
#
# Needs nothing carried (the probe is built there). Run it in the repository root on the device
# machine:   bash scripts/device_wmma.sh [CASES] [FIRST_SEED]        (default 360 cases, seed 1:
#                                                                     10 per form and input mode)
# Results, under $OUT (default /tmp/out):
#   wmma/h200.txt       the cases: commit as tests/recorded/wmma/h200.txt
#   wmma/summary.txt    the device, the probe's last line, cases per form; with build/bin
#                       carried too, the simulator's replay of them
# PROBE_WRAPPER="build/bin/warpsim exec" runs the probe on the simulator instead (to try the
# script without a GPU; its recording then checks nothing about the chip).
set -uo pipefail
cd "$(dirname "$0")/.."
CASES=${1:-360}
FIRST=${2:-1}
OUT=${OUT:-/tmp/out}
WORK=${WORK:-/tmp/wmma}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
mkdir -p "$OUT/wmma" "$WORK"
"$NVCC" -arch=sm_90 -O2 -o "$WORK/wmma_probe" scripts/probes/wmma/wmma_probe.cu \
  > "$OUT/wmma/build.log" 2>&1 || { cat "$OUT/wmma/build.log"; exit 1; }
${PROBE_WRAPPER:-} "$WORK/wmma_probe" "$CASES" "$FIRST" "$OUT/wmma/h200.txt" > "$WORK/probe.log" 2>&1
rc=$?
{
  echo "== device"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "(no nvidia-smi)"
  echo "== probe (exit status $rc)"
  tail -3 "$WORK/probe.log"
  echo "== cases per form"
  grep -oE "form=[a-z0-9.]+" "$OUT/wmma/h200.txt" | sort | uniq -c
  if [ -x build/bin/warpsim_tests ]; then
    echo "== the simulator's replay"
    WARPSIM_WMMA_RECORDINGS="$OUT/wmma" build/bin/warpsim_tests \
      --gtest_filter='WmmaReplay.*' 2>&1 | tail -25
  fi
} > "$OUT/wmma/summary.txt" 2>&1
cat "$OUT/wmma/summary.txt"
exit $rc
