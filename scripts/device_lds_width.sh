#!/usr/bin/env bash
# sgemm_regblock's shared loads on the chip (issue 9), in one device call:
#   1. Nsight Compute over micro_lds_chain and micro_lds_fma (kernels/micro/lds_width.cu) at two
#      sizes (scripts/device_timing.sh): a 16-byte shared load's latency against a 4-byte one,
#      alone and beside up to 31 warps, and regblock's inner loop without its global loads;
#   2. the SASS ptxas makes of lds_width and sgemm_regblock (cuobjdump -sass);
#   3. per SASS instruction, the stall reasons ncu samples (its source page) for sgemm_regblock
#      at 1024, micro_lds_fma, sgemm_naive at 512 and calls_noinline at 65536;
#   4. on an H200 only: the cluster and fence probes again (they ran on an H100 so far).
#
#   here:    bash scripts/device_campaign.sh prepare && tar -cJf .devcarry/ptx.tar.xz build/ptx
#   device:  tar xJf .devcarry/bin.tar.xz && tar xJf .devcarry/ptx.tar.xz &&
#            bash scripts/device_lds_width.sh          (carry [".devcarry"])
#   here:    python3 scripts/ncu_join.py <files_at>/lds.tgz    (and cluster_timing.tgz, fence.tgz)
# Results under $OUT: device.txt, lds.tgz, lds.summary.txt, sass_lds.txt, source.tgz and on an
# H200 gpc.txt, cluster_timing.tgz, fence.tgz.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/out}
BIN=build/bin
export LD_LIBRARY_PATH=$PWD/$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$OUT" /tmp/lds_sass
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader |
  tee "$OUT/device.txt"

# Both cards into one archive (the device tool sends back at most 8 files): the first run's
# archive and summary stay on the device, the second's hold both cards.
OUT=/tmp/lds_first BUDGET=150 TAG=lds WORK=/tmp/lds MEASURE_ARGS="--sizes 64,256" \
  bash scripts/device_timing.sh micro_lds_chain | tail -n 1
BUDGET=150 TAG=lds WORK=/tmp/lds LADDER=2 bash scripts/device_timing.sh micro_lds_fma | tail -n 3

for m in lds_width sgemm_regblock; do
  ptxas -arch=sm_90 -o "/tmp/lds_sass/$m.cubin" "build/ptx/$m.ptx" && cuobjdump -sass "/tmp/lds_sass/$m.cubin"
done > "$OUT/sass_lds.txt" 2>&1

WORK=/tmp/lds_source bash scripts/device_source_pages.sh regblock:sgemm_regblock:1024 \
  lds_fma:micro_lds_fma:64 naive:sgemm_naive:512 noinline:calls_noinline:65536

if grep -q H200 "$OUT/device.txt"; then
  BUDGET=200 bash scripts/device_cluster_timing.sh | tail -n 6
  BUDGET=60 TAG=fence WORK=/tmp/fence bash scripts/device_timing.sh micro_fence | tail -n 3
fi
