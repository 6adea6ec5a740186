#!/usr/bin/env bash
# The fast-math probe on the H200: builds scripts/device_fastmath.cu (unless a prebuilt
# fastmath_probe is beside this script or in build/fastmath), evaluates every 32-bit-input
# .approx form on all 2^32 inputs (chunk hashes) plus dense binades, and packs the results.
# Run in the repository root on the device machine (the `run` tool):
#   bash scripts/device_fastmath.sh            (or build/fastmath/device_fastmath.sh)
# Results under $OUT: fastmath<i>.tar (hashes.bin, forms.txt, dense/*.d2.xz, index.txt) and
# fastmath.log. Unpack here with scripts/device_fastmath_pack.py --unpack.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/out}
RAW=${RAW:-/tmp/fastmath_raw}
mkdir -p "$OUT" "$RAW/dense"
PROBE=""
for p in "$HERE/fastmath_probe" build/fastmath/fastmath_probe; do
  [ -x "$p" ] && PROBE=$p && break
done
if [ -z "$PROBE" ]; then
  nvcc -O3 -arch=sm_90 -std=c++17 -o "$RAW/fastmath_probe" "$HERE/device_fastmath.cu"
  PROBE=$RAW/fastmath_probe
fi
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader | tee "$OUT/fastmath.log"
"$PROBE" "$RAW" 2>&1 | tee -a "$OUT/fastmath.log"
python3 "$HERE/device_fastmath_pack.py" "$RAW" "$OUT" 2>&1 | tee -a "$OUT/fastmath.log"
