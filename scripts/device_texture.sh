#!/usr/bin/env bash
# The texture probe on the H200: builds scripts/probes/texture/texture_probe.cu with the
# device's nvcc and records random texture objects sampled by `tex` (every format, filter,
# address mode, normalized and unnormalized coordinates, element and normalized reads; the
# coordinates include the linear filter's 1/256 weight steps, their ties and near misses).
# The recording is replayed through the simulator by tests/sim/texture_replay_test.cpp.
#
# Needs nothing carried (the probe is built there). Run it in the repository root on the device
# machine:   bash scripts/device_texture.sh [CASES] [FIRST_SEED]     (default 400 cases, seed 1)
# Results, under $OUT (default /tmp/out):
#   texture/h200.txt      the cases: commit as tests/recorded/texture/h200.txt
#   texture/summary.txt   the device, the probe's last line, case counts per format and filter
# With build/bin carried too (bash scripts/device_campaign.sh prepare here first), the summary
# also holds how many cases the simulator agrees with (the replay test, run there).
# PROBE_WRAPPER="build/bin/warpsim exec" runs the probe on the simulator instead (to try the
# script without a GPU; its recording then checks nothing about the chip).
set -uo pipefail
cd "$(dirname "$0")/.."
CASES=${1:-400}
FIRST=${2:-1}
OUT=${OUT:-/tmp/out}
WORK=${WORK:-/tmp/texture}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
mkdir -p "$OUT/texture" "$WORK"
"$NVCC" -arch=sm_90 -O2 -o "$WORK/texture_probe" scripts/probes/texture/texture_probe.cu \
  > "$OUT/texture/build.log" 2>&1 || { cat "$OUT/texture/build.log"; exit 1; }
${PROBE_WRAPPER:-} "$WORK/texture_probe" "$CASES" "$FIRST" "$OUT/texture/h200.txt" > "$WORK/probe.log" 2>&1
rc=$?
{
  echo "== device"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "(no nvidia-smi)"
  echo "== probe (exit status $rc)"
  tail -3 "$WORK/probe.log"
  echo "== cases by format, filter, address"
  grep -oE "format=[a-z0-9]+ channels=[0-9] read=[a-z]+ filter=[a-z]+ address=[a-z]+" \
    "$OUT/texture/h200.txt" | awk '{print $1, $4, $5}' | sort | uniq -c
  if [ -x build/bin/warpsim_tests ]; then
    echo "== the simulator's replay"
    WARPSIM_TEXTURE_RECORDINGS="$OUT/texture" build/bin/warpsim_tests \
      --gtest_filter='TextureReplay.*' 2>&1 | tail -25
  fi
} > "$OUT/texture/summary.txt" 2>&1
cat "$OUT/texture/summary.txt"
exit $rc
