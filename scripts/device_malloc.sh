#!/usr/bin/env bash
# Device-side malloc and free on the H200, for the facts warpsim's device heap had to guess
# (sim/func/device_heap.h, docs/FIDELITY.md "Device heap"): block alignment and spacing, what a
# full heap and malloc(0) return, blocks persisting across launches, whether the heap size can
# change after a malloc kernel ran, what a double free / invalid free does to the launch, and
# what compute-sanitizer reports for each (memcheck with --leak-check full). Each mode of
# scripts/probes/heap/heap_probe.cu runs natively, under compute-sanitizer, and under
# `warpsim exec` (the simulator), side by side. Then the planted heap bugs of kernels/bugs/
# (heap_*) under compute-sanitizer through scripts/device_sanitizer.sh, and the dynamic-
# parallelism limits (scripts/probes/heap/cdp_probe.cu: nesting depth, the pending-launch
# limit's error, the order of completion with a tail launch) and the suite's cdp_quicksort
# through `warpsim diff` (exit 0: the chip and the simulator agree).
#
#   here:    bash scripts/device_campaign.sh prepare          (build; shared libraries beside it)
#   device:  bash scripts/device_malloc.sh                    (carry ["build/bin"])
#            -> $OUT/heap/probe.txt      per mode: "== MODE gpu|sanitizer|warpsim" and its output
#               $OUT/heap/summary.txt    the GPU's answer per fact, one line each
#               $OUT/summary-heap_.txt, $OUT/sanitizer-heap_.tgz   (device_sanitizer.sh 'heap_*')
#   here:    mkdir -p tests/recorded/heap && cp <files_at>/heap/*.txt tests/recorded/heap/ &&
#            mkdir -p tests/recorded/sanitizer &&
#            tar -C tests/recorded/sanitizer -xzf <files_at>/sanitizer-heap_.tgz
#            then compare with docs/FIDELITY.md "Device heap" and fix what differs.
#
# Without a GPU the gpu and sanitizer runs say so and the warpsim runs still happen (try it
# here: OUT=/tmp/heap bash scripts/device_malloc.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
BIN=${BIN:-build/bin/warpsim}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CS=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
WORK=$(mktemp -d)
mkdir -p "$OUT/heap"
probe_out="$OUT/heap/probe.txt"
summary="$OUT/heap/summary.txt"
: >"$probe_out"
# The probe embeds compute_90 PTX (for warpsim exec) beside the sm_90 SASS (for the chip).
if ! "$NVCC" -lineinfo -gencode arch=compute_90,code=compute_90 \
  -gencode arch=compute_90,code=sm_90 -o "$WORK/heap_probe" \
  scripts/probes/heap/heap_probe.cu >>"$probe_out" 2>&1; then
  echo "nvcc failed: see $probe_out" | tee -a "$summary"
  exit 1
fi
gpu=1
nvidia-smi -L >/dev/null 2>&1 || gpu=0
{
  echo "# device heap facts (scripts/device_malloc.sh)"
  [ "$gpu" = 1 ] && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$CS" --version 2>/dev/null | tail -1
} >"$summary"
for mode in layout exhaust zero persist limit doublefree badfree leak fail; do
  if [ "$gpu" = 1 ]; then
    echo "== $mode gpu" >>"$probe_out"
    timeout 120 "$WORK/heap_probe" "$mode" >>"$probe_out" 2>&1
    echo "exit $?" >>"$probe_out"
    echo "== $mode sanitizer" >>"$probe_out"
    timeout 300 "$CS" --tool memcheck --leak-check full "$WORK/heap_probe" "$mode" \
      >>"$probe_out" 2>&1
    echo "exit $?" >>"$probe_out"
    timeout 120 "$WORK/heap_probe" "$mode" 2>&1 | sed "s/^/$mode gpu: /" >>"$summary"
  else
    echo "== $mode gpu: no GPU here" >>"$probe_out"
  fi
  echo "== $mode warpsim" >>"$probe_out"
  timeout 300 "$BIN" exec --serial "$WORK/heap_probe" "$mode" >>"$probe_out" 2>&1
  echo "exit $?" >>"$probe_out"
  timeout 300 "$BIN" exec --serial "$WORK/heap_probe" "$mode" 2>/dev/null |
    sed "s/^/$mode warpsim: /" >>"$summary"
done
# Dynamic parallelism: nesting depth, the pending-launch limit's error, completion order. The
# simulator's answers are in tests/sim/device_launch_test.cpp (same kernels, cdp_ops.cu).
if [ "$gpu" = 1 ] && "$NVCC" -rdc=true -arch=sm_90 -o "$WORK/cdp_probe" \
  scripts/probes/heap/cdp_probe.cu -lcudadevrt >>"$probe_out" 2>&1; then
  for mode in deep pending order; do
    echo "== cdp $mode gpu" >>"$probe_out"
    timeout 120 "$WORK/cdp_probe" "$mode" 2>&1 | tee -a "$probe_out" |
      sed "s/^/cdp $mode gpu: /" >>"$summary"
  done
fi
# The suite's quicksort on the chip and in the simulator, through `warpsim diff` (its CUDA
# backend links the -rdc PTX with libcudadevrt.a): the two must agree and be sorted.
if [ "$gpu" = 1 ]; then
  echo "== cdp_quicksort diff" >>"$probe_out"
  timeout 300 "$BIN" diff kernels/cdp/cdp_quicksort.cu --kernel cdp_quicksort --grid 1 \
    --block 1 --arg 'data=u32[4096]:random(3,0,999)' --arg s32:0 --arg s32:4095 --arg s32:0 \
    -- -rdc=true >>"$probe_out" 2>&1
  echo "cdp_quicksort diff: exit $?" >>"$summary"
fi
cat "$summary"
if [ "$gpu" = 1 ]; then
  OUT="$OUT" bash scripts/device_sanitizer.sh 'heap_*'
fi
