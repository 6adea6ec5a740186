#!/usr/bin/env bash
# Clusters and cooperative launches on the H200: records the two suite cards of kernels/cluster
# (cluster_reduce: distributed shared memory; grid_sync_reduce: a cooperative grid sync) with
# `warpsim record`, and runs scripts/probes/cluster/cluster_probe.cu natively and, under
# `warpsim exec`, on the simulator: the cluster registers, DSMEM sums, the errors of refused
# cluster and cooperative launches; the two outputs must be the same lines.
#
# Carry build/bin and build/driver (the CLI, the tests, libtbb beside them, warpsim's libcuda).
# Run it in the repository root on the device machine:   bash scripts/device_cluster.sh [CASES]
# Results, under $OUT (default /tmp/out):
#   cluster/recorded.tgz  the recorded cases: `tar xzf` it in tests/recorded/suite (it holds
#                         cluster_reduce/, grid_sync_reduce/ and ptx/)
#   cluster/h200.txt      the probe on the chip
#   cluster/sim.txt       the probe on the simulator (warpsim exec)
#   cluster/summary.txt   the device, the record runs' agreement lines, the probes' diff
set -uo pipefail
cd "$(dirname "$0")/.."
CASES=${1:-10}
OUT=${OUT:-/tmp/out}
WORK=${WORK:-/tmp/cluster}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
mkdir -p "$OUT/cluster" "$WORK/recorded"
rc=0
{
  echo "== device"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "(no nvidia-smi)"
  echo "== record"
  for card in cluster_reduce grid_sync_reduce; do
    build/bin/warpsim record "$card" --out "$WORK/recorded" --cases "$CASES" 2>&1 | tail -3 || rc=1
  done
  tar czf "$OUT/cluster/recorded.tgz" -C "$WORK/recorded" .
  echo "== replay of what was recorded, in the simulator"
  build/bin/warpsim replay "$WORK/recorded" 2>&1 | tail -3 || rc=1
  echo "== probe"
  if "$NVCC" -arch=sm_90 -lineinfo -o "$WORK/cluster_probe" scripts/probes/cluster/cluster_probe.cu \
      > "$WORK/build.log" 2>&1; then
    "$WORK/cluster_probe" > "$OUT/cluster/h200.txt" 2>&1
    echo "chip: exit status $?"
    build/bin/warpsim exec "$WORK/cluster_probe" > "$OUT/cluster/sim.txt" 2>"$WORK/sim.err"
    echo "simulator: exit status $? ($(wc -l < "$WORK/sim.err") lines on stderr)"
    if diff "$OUT/cluster/h200.txt" "$OUT/cluster/sim.txt"; then
      echo "the simulator prints what the chip prints"
    else
      rc=1
    fi
  else
    cat "$WORK/build.log"
    rc=1
  fi
} > "$OUT/cluster/summary.txt" 2>&1
cat "$OUT/cluster/summary.txt"
exit $rc
