#!/usr/bin/env bash
# The call stack limit on the H200 against warpsim's model (sim/func/call_stack.h): for each
# stack size (cudaLimitStackSize, set with cuCtxSetLimit) the deepest recursion that still runs
# on the GPU, found by bisection (one process per probe: a fault leaves the context unusable),
# and the same for `warpsim run --stack-size`, side by side. Two kernels: the hand-written
# tests/data/recursive_depth.ptx and scripts/probes/stack/recursive_linear.cu as nvcc compiles
# it; the chip JIT-compiles the very PTX the simulator runs.
#
#   here:    bash scripts/device_campaign.sh prepare            (build; shared libraries beside it)
#   device:  bash scripts/device_stack.sh [SIZES...]           (carry ["build/bin"]; default
#                                                                SIZES: 1024 2048 4096)
#            -> $OUT/stack/summary.txt  the table: kernel, stack bytes, ptxas's frame of the
#                                       recursive function, deepest depth on the GPU and its
#                                       error one deeper, deepest depth in warpsim and its fault
#               $OUT/stack/log.txt      every probe, ptxas -v, compute-sanitizer on one overflow
#            (gpu_error: the CUDA error one call deeper, or wrong-result when rec_depth ran but
#            returned a wrong depth: an overflow that corrupts instead of faulting)
#   here:    mkdir -p tests/recorded/stack && cp <files_at>/stack/*.txt tests/recorded/stack/
#            then compare the two depth columns (docs/RELIABILITY.md, "Call stack") and commit.
#
# Depth D means D+1 nested calls of the recursive function below the kernel. Without a GPU (or
# without nvcc) the GPU columns say "no-gpu" and the simulator's are still filled: the script
# can be tried on any machine with build/bin.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
BIN=${BIN:-build/bin/warpsim}
SIZES=${*:-1024 2048 4096}
WORK=$(mktemp -d)
mkdir -p "$OUT/stack"
log="$OUT/stack/log.txt"
summary="$OUT/stack/summary.txt"
: >"$log"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}

gpu=1
if ! "$NVCC" -O2 -o "$WORK/stack_probe" scripts/probes/stack/stack_probe.cpp \
  -L/usr/local/cuda/lib64/stubs -lcuda >>"$log" 2>&1; then
  echo "no nvcc or libcuda: the GPU columns are skipped" | tee -a "$log"
  gpu=0
fi
cp tests/data/recursive_depth.ptx "$WORK/recursive_depth.ptx"
if ! "$NVCC" -arch=sm_90 -ptx -lineinfo scripts/probes/stack/recursive_linear.cu \
  -o "$WORK/recursive_linear.ptx" >>"$log" 2>&1; then
  echo "nvcc could not compile recursive_linear.cu: only recursive_depth.ptx is probed" | tee -a "$log"
fi

# ptxas's stack frame of FUNCTION in PTX ("?" without ptxas).
frame_of() {
  "$PTXAS" -arch=sm_90 -v "$1" -o "$WORK/f.cubin" 2>&1 | tee -a "$log" |
    awk -v f="$2" '/Function properties for/ {cur=$NF} /bytes stack frame/ && cur==f {print $1; exit}' |
    grep . || echo "?"
}

LAST=""
# probe_gpu/probe_sim PTX KERNEL STACK DEPTH: status 0 ran, 1 kernel fault (LAST: why), 2 error.
probe_gpu() {
  local line rc
  line=$(timeout 120 "$WORK/stack_probe" "$1" "$2" "$3" "$4" 2>>"$log")
  rc=$?
  echo "gpu $2 stack=$3 depth=$4 rc=$rc: $line" >>"$log"
  LAST=$(echo "$line" | awk '{print $3}')
  # An overflow that does not fault but corrupts: rec_depth returns its depth when it runs right.
  if [ "$rc" -eq 0 ] && [ "$2" = rec_depth ] && [ "$LAST" != "$4" ]; then
    LAST="wrong-result"
    return 1
  fi
  [ "$rc" -le 2 ] && return $rc
  LAST="timeout"
  return 2
}
probe_sim() {
  local text rc
  text=$(timeout 300 "$BIN" run "$1" --kernel "$2" --grid 1 --block 1 --arg "u32:$4" \
    --arg 'out=u32[1]' --stack-size "$3" 2>&1)
  rc=$?
  echo "sim $2 stack=$3 depth=$4 rc=$rc: $(echo "$text" | grep -m1 -o 'kernel fault.*' | cut -c1-200)" >>"$log"
  LAST=$(echo "$text" | grep -m1 -o 'kernel fault ([a-z -]*)' | sed 's/kernel fault (//; s/)//; s/ /-/g')
  [ "$rc" -le 1 ] && return $rc
  return 2
}

# The deepest depth that runs, by bisection between 0 and STACK+1 (a frame holds at least 8
# bytes, so STACK+1 calls cannot fit): prints "DEPTH ERROR_ONE_DEEPER".
deepest() {
  local probe=$1 ptx=$2 kernel=$3 stack=$4 lo=-1 hi=$(($4 + 1)) mid err rc
  $probe "$ptx" "$kernel" "$stack" "$hi"
  rc=$?
  [ $rc -eq 0 ] && { echo ">=$hi -"; return; }
  [ $rc -eq 2 ] && { echo "error ${LAST:--}"; return; }
  err=$LAST
  while [ $((hi - lo)) -gt 1 ]; do
    mid=$(((lo + hi) / 2))
    $probe "$ptx" "$kernel" "$stack" "$mid"
    rc=$?
    if [ $rc -eq 0 ]; then
      lo=$mid
    elif [ $rc -eq 1 ]; then
      hi=$mid
      err=$LAST
    else
      echo "error ${LAST:--}"
      return
    fi
  done
  echo "$lo $err"
}

# A probe that cannot run at all (no driver, no GPU) skips the GPU columns.
if [ $gpu -eq 1 ]; then
  timeout 120 "$WORK/stack_probe" "$WORK/recursive_depth.ptx" rec_depth 1024 0 >>"$log" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "the GPU probe does not run (status $rc): the GPU columns are skipped" | tee -a "$log"
    gpu=0
  fi
fi

{
  echo "# kernel stack_bytes ptxas_frame gpu_deepest gpu_error sim_deepest sim_fault"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "# no GPU"
} >"$summary"
for spec in "recursive_depth.ptx rec_depth down" "recursive_linear.ptx rec_linear _Z4downjj"; do
  set -- $spec
  ptx="$WORK/$1"
  [ -f "$ptx" ] || continue
  frame=$(frame_of "$ptx" "$3")
  for s in $SIZES; do
    g="no-gpu -"
    [ $gpu -eq 1 ] && g=$(deepest probe_gpu "$ptx" "$2" "$s")
    m="no-warpsim -"
    [ -x "$BIN" ] && m=$(deepest probe_sim "$ptx" "$2" "$s")
    echo "$2 $s $frame $g $m" | tee -a "$summary"
  done
done

# What compute-sanitizer says of an overflow (one run, the default stack).
CS=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
if [ $gpu -eq 1 ] && [ -x "$CS" ]; then
  echo "== compute-sanitizer, rec_depth, stack 1024, depth 2000" >>"$log"
  timeout 120 "$CS" "$WORK/stack_probe" "$WORK/recursive_depth.ptx" rec_depth 1024 2000 >>"$log" 2>&1
fi
rm -rf "$WORK"
cat "$summary"
