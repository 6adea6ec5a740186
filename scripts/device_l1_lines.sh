#!/usr/bin/env bash
# An L1 hit's cost against the lines a request touches, and the stall samples of the suite's
# largest remaining misses (issue 9), in one device call on either card (the SM is the same on
# the H100 and the H200):
#   1. Nsight Compute over micro_l1_lines (kernels/micro/l1_lines.cu) at 256 and 1024 loads a
#      lane (scripts/device_timing.sh): 27 launches, a request of 1 sector to 32 lines of 32
#      sectors by 1, 4 and 32 warps;
#   2. ncu's memory tables of the same launches at 256 (the L1's wavefronts per request, which the
#      metric list of device_timing.sh does not name);
#   3. the SASS ptxas makes of l1_lines (cuobjdump -sass);
#   4. per SASS instruction, the stall reasons ncu samples (its source page) for stencil5_shared
#      at 2048 and attention_fwd at 256;
#   5. (run second) Nsight Compute over micro_store_pitch (kernels/micro/store_pitch.cu) at 1M
#      and 4M words: a warp's stores of one word in each of 32 rows 1 to 4096 words apart, in the
#      L2 (whether the L2's time in transpose_naive is its partial sectors or the rows' pitch).
#
#   here:    bash scripts/device_campaign.sh prepare && tar -cJf .devcarry/ptx.tar.xz build/ptx
#   device:  tar xJf .devcarry/bin.tar.xz && tar xJf .devcarry/ptx.tar.xz &&
#            bash scripts/device_l1_lines.sh          (carry [".devcarry"])
#   here:    python3 scripts/ncu_join.py <files_at>/l1.tgz > tests/recorded/timing/h100_l1.tsv
#            python3 scripts/ncu_join.py <files_at>/pitch.tgz > tests/recorded/timing/h100_pitch.tsv
#            (h200_*.tsv on an H200)
# Results under $OUT: device.txt, l1.tgz, l1.summary.txt, l1_tables.csv, sass_l1.txt, source.tgz,
# pitch.tgz, pitch.summary.txt.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/out}
BIN=build/bin
export LD_LIBRARY_PATH=$PWD/$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$OUT" /tmp/l1_sass
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader |
  tee "$OUT/device.txt"

BUDGET=200 TAG=l1 WORK=/tmp/l1 MEASURE_ARGS="--sizes 256,1024" \
  bash scripts/device_timing.sh micro_l1_lines | tail -n 2

BUDGET=200 TAG=pitch WORK=/tmp/pitch MEASURE_ARGS="--sizes 1048576,4194304" \
  bash scripts/device_timing.sh micro_store_pitch | tail -n 2

timeout 90 ncu --clock-control none --section MemoryWorkloadAnalysis_Tables --csv --page details \
  --log-file "$OUT/l1_tables.csv" "$BIN/warpsim" measure micro_l1_lines --sizes 256 \
  --manifest /tmp/l1_tables.tsv > /tmp/l1_tables.log 2>&1
echo "l1_tables: $(wc -l < "$OUT/l1_tables.csv") lines"

ptxas -arch=sm_90 -o /tmp/l1_sass/l1_lines.cubin build/ptx/l1_lines.ptx &&
  cuobjdump -sass /tmp/l1_sass/l1_lines.cubin > "$OUT/sass_l1.txt" 2>&1

WORK=/tmp/l1_source bash scripts/device_source_pages.sh stencil:stencil5_shared:2048 \
  attention:attention_fwd:256
