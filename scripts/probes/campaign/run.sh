#!/usr/bin/env bash
# Probes behind the ISA campaign's unexplained differences (docs/FIDELITY.md), run on the
# device machine after `bash scripts/device_campaign.sh prepare` here, with carry ["build/bin"]:
#   bash scripts/probes/campaign/run.sh
# Writes $OUT/probes.txt: warpsim diff of each half-register probe (halfregs.ptx: a 16-bit value
# from a load, an unpack or a half-precision operation, then the consumers that disagreed), and
# compute-sanitizer's report on prog-8643.ptx, the one generated program that traps on the GPU
# (CUDA_ERROR_ILLEGAL_INSTRUCTION), with its SASS.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
dir=scripts/probes/campaign
{
  for k in load unpacklo unpackhi addf16 fmabf16 cvtf16f32; do
    echo "== probe_$k"
    build/bin/warpsim diff "$dir/halfregs.ptx" --kernel "probe_$k" --grid 1 --block 128 \
      --arg "in=u64[128]:file($dir/inputs.bin)" --arg 'out=u32[1024]' --arg 'bytes=u8[128]' \
      --show 12 2>&1 | tail -16
  done
  echo "== prog-8643 under compute-sanitizer"
  compute-sanitizer --print-limit 3 build/bin/warpsim isa-record --count 1 --seed 8643 \
    --out /tmp/p8643 2>&1 | head -40
  echo "== prog-8643 SASS (ptxas -arch=sm_90)"
  ptxas -arch=sm_90 "$dir/prog-8643.ptx" -o /tmp/p8643.cubin && cuobjdump -sass /tmp/p8643.cubin |
    grep -E "^\s+/\*[0-9a-f]{4}\*/" | sed 's@ */\* 0x[0-9a-f]* \*/@@' | head -400
} > "$OUT/probes.txt" 2>&1
tail -5 "$OUT/probes.txt"
