#!/usr/bin/env bash
# Runs on the device machine (through the `device` tool, with build/bin carried): checks that the
# GPU backend works, records suite cases on the H200 and sends them back as one archive in $OUT.
#   device: bash scripts/device_record.sh [CASES]   (carry: build/bin)
set -uo pipefail
cd "$(dirname "$0")/.."
CASES=${1:-20}
BIN=build/bin/warpsim
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
$BIN diff saxpy > "$OUT/diff.txt" 2>&1
echo "diff exit $?" >> "$OUT/diff.txt"
$BIN record --out /tmp/recorded --cases "$CASES" > "$OUT/record.txt" 2>&1
echo "record exit $?" >> "$OUT/record.txt"
tar -C /tmp -czf "$OUT/recorded.tgz" recorded
