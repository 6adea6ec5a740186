#!/usr/bin/env bash
# The next device call's work, for whichever card comes (the device tool lends an H100 far more
# often than an H200, and a call whose command wants only the H200 wastes the machine): on an
# H200 the newer cards' ncu ladders (device_timing_newer.sh GROUP, default 1), on any other card
# micro_l1_lines, micro_store_pitch and the stall samples (device_l1_lines.sh). WHAT=l1 runs the
# latter on an H200.
#
#   here:    bash scripts/device_campaign.sh prepare && tar -cJf .devcarry/ptx.tar.xz build/ptx
#            and move tests/recorded/{mma,isa,wgmma,contract} out of the tree for the call (the
#            tree that travels must stay under 64 MiB); back right after it
#   device:  bash scripts/device_next.sh          (carry [".devcarry"])
#   here:    python3 scripts/ncu_join.py <files_at>/TAG.tgz (each script's header says where)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$OUT/card.txt"
tar xJf .devcarry/bin.tar.xz && tar xJf .devcarry/ptx.tar.xz || exit 3
if grep -q H200 "$OUT/card.txt" && [ "${WHAT:-newer}" != l1 ]; then
  bash scripts/device_timing_newer.sh "${GROUP:-1}"
else
  bash scripts/device_l1_lines.sh
fi
