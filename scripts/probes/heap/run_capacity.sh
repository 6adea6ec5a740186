#!/usr/bin/env bash
# The device heap's capacity at limits of 8, 16 and 32 MiB (blocks of 64 and 1,024 bytes),
# with the limits of capacity.txt (1 and 4 MiB) first to check the parallel probe against the
# one-thread one. One process per case (the heap's size is fixed at the first malloc kernel);
# each case under a 30 s timeout, and none started after 200 s. On the H200 (device tool, no
# carry needed: nvcc is there):
#   bash scripts/probes/heap/run_capacity.sh   -> $OUT/capacity_parallel.txt
# then compare with sim/func/device_heap.h's rule (tests/sim/device_heap_test.cpp reads
# tests/recorded/heap/capacity.txt; add the new lines there once they are checked).
set -uo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
log="$OUT/capacity_parallel.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$log" 2>&1
bin=$(mktemp -d)/heap_capacity_parallel
nvcc -arch=sm_90 -o "$bin" heap_capacity_parallel.cu >>"$log" 2>&1 || exit 1
start=$SECONDS
for c in "1 64" "1 1024" "4 64" "4 1024" "8 64" "8 1024" "16 64" "16 1024" "32 64" "32 1024"; do
  if ((SECONDS - start > 200)); then echo "# skipped (time): $c" >>"$log"; continue; fi
  timeout 30 "$bin" $c >>"$log" 2>&1 || echo "# exit $? for: $c" >>"$log"
done
cat "$log"
