#!/usr/bin/env bash
# The timing probes of docs/FIDELITY.md "Waiting for the chip" (issue 9), in one device call on
# the H200, and the SASS that ptxas 13 makes of every suite kernel:
#
#   here:    bash scripts/device_campaign.sh prepare
#   here:    tar -cJf .devcarry/ptx.tar.xz build/ptx
#   device:  tar xJf .devcarry/bin.tar.xz && tar xJf .devcarry/ptx.tar.xz && bash scripts/device_timing_probes.sh
#            (carry [".devcarry"])
#   $OUT:    device.txt, sass.tgz (per PTX module: cuobjdump -sass and nvdisasm with line info of
#            the cubin ptxas makes for the module's .target), and probes.tgz: per probe group
#            TAG.tgz and TAG.summary.txt from scripts/device_timing.sh (packed again after each
#            group, so that a call cut short still brings back the groups done):
#              micro    micro_bar_store, micro_skip_conflict (barriers after conflicted stores,
#                       conflicted loads beside skipping warps), two sizes
#              micro2   micro_pred_conflict, micro_store_burst (predicated-off loads, the MIO
#                       queue: added after the first run)
#              stores   micro_store_stride at 64K, 1M, 4M words (128 MB of partial-sector stores)
#              l2       micro_copy at 64 and 256 MB, the three transposes at 2048 and 4096 (the
#                       L2's sector rate, lts__throughput and lts__t_sectors)
#              repeats  the reductions and scans at 65536, 8 runs each (the chip's noise)
#              long     transpose_padded at 4096 x 5 and sgemm_naive at 1024 x 3 (the noise of
#                       long launches, whose clock moves)
#   here:    python3 scripts/ncu_join.py <files_at>/TAG.tgz per group (see tests/recorded/timing/README.md)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader |
  tee "$OUT/device.txt"

sass=/tmp/sass
mkdir -p "$sass"
for ptx in build/ptx/*.ptx; do
  name=$(basename "$ptx" .ptx)
  arch=$(awk '$1 == ".target" { sub(/,.*/, "", $2); print $2; exit }' "$ptx")
  ptxas -arch="${arch:-sm_90}" --generate-line-info -o "$sass/$name.cubin" "$ptx" 2> "$sass/$name.ptxas.txt" || continue
  cuobjdump -sass "$sass/$name.cubin" > "$sass/$name.sass" 2>&1
  nvdisasm -c -g -hex "$sass/$name.cubin" > "$sass/$name.nvdisasm" 2>&1
  rm -f "$sass/$name.cubin"
done
echo "sass: $(ls "$sass"/*.sass | wc -l) modules" | tee -a "$OUT/device.txt"
tar -C "$sass" -czf "$OUT/sass.tgz" .

probes=/tmp/probes
mkdir -p "$probes"
run() {  # TAG BUDGET MEASURE_ARGS CARD...
  local tag=$1 budget=$2 args=$3
  shift 3
  OUT=$probes WORK=/tmp/t_$tag TAG=$tag BUDGET=$budget LADDER=2 MEASURE_ARGS="$args" \
    bash scripts/device_timing.sh "$@" > /dev/null 2>&1
  tail -n +3 "$probes/$tag.summary.txt" | cut -c1-200
  tar -C "$probes" -czf "$OUT/probes.tgz" .
}
run micro 90 "" micro_bar_store micro_skip_conflict
run micro2 60 "" micro_pred_conflict micro_store_burst
run stores 40 "--sizes 65536,1048576,4194304" micro_store_stride
run l2 40 "--sizes 4194304,16777216" micro_copy
run l2b 60 "--sizes 2048,4096" transpose_naive transpose_tiled transpose_padded
run repeats 100 "--sizes 65536 --repeat 8" reduce_interleaved reduce_sequential scan_blelloch
run long 50 "--sizes 4096 --repeat 5" transpose_padded
run long2 40 "--sizes 1024 --repeat 3" sgemm_naive
