#!/usr/bin/env bash
# The timing model's cluster parameters from the H200, in one device call:
#   1. scripts/probes/cluster/gpc_probe.cu: how many clusters of each size 1..16 fit at once and
#      which SMs each one ran on (the GPCs: sm.gpcs);
#   2. Nsight Compute over the cluster cards (scripts/device_timing.sh): micro_cluster_bar
#      (cluster.barrier_latency), micro_dsmem_chase (dsmem.latency), cluster_reduce and the
#      cooperative grid_sync_reduce at a ladder of sizes, for `warpsim correlate`.
#
#   here:    bash scripts/device_campaign.sh prepare && tar -cJf .devcarry/ptx.tar.xz build/ptx
#   device:  tar xJf .devcarry/bin.tar.xz && tar xJf .devcarry/ptx.tar.xz &&
#            bash scripts/device_cluster_timing.sh          (carry [".devcarry"])
#   here:    python3 scripts/ncu_join.py <files_at>/cluster_timing.tgz >> (the probes' TSV)
# Results under $OUT: gpc.txt (the probe), cluster_timing.tgz and cluster_timing.summary.txt.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/out}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
mkdir -p "$OUT" /tmp/gpc
if "$NVCC" -arch=sm_90 -o /tmp/gpc/gpc_probe scripts/probes/cluster/gpc_probe.cu > /tmp/gpc/build.log 2>&1; then
  timeout 120 /tmp/gpc/gpc_probe > "$OUT/gpc.txt" 2>&1
  echo "gpc probe: exit $?, $(grep -c '^max' "$OUT/gpc.txt") sizes"
else
  cp /tmp/gpc/build.log "$OUT/gpc.txt"
  echo "gpc probe: build failed"
fi
BUDGET=${BUDGET:-240} TAG=cluster_timing WORK=/tmp/cluster_timing \
  bash scripts/device_timing.sh micro_cluster_bar micro_dsmem_chase cluster_reduce grid_sync_reduce
