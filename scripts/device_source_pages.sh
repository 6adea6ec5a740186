#!/usr/bin/env bash
# Nsight Compute's warp stall samples per SASS instruction (its source page) for suite problems,
# the first launch of each: where on the chip a kernel's warps wait, instruction by instruction
# (issue 9: which load an FFMA waits for, which ISETP a branch waits for).
#
#   here:    bash scripts/device_campaign.sh prepare
#   device:  tar xJf .devcarry/bin.tar.xz && bash scripts/device_source_pages.sh NAME:CARD:SIZE...
#            (carry [".devcarry"])
#   here:    tar xzf <files_at>/source.tgz -C /tmp/source &&
#            python3 scripts/fit/source_page.py /tmp/source/NAME.sass.csv
# Results: $OUT/source.tgz, per NAME its ncu report (.ncu-rep), the source page (.sass.csv: one
# row per SASS instruction with its stall samples by reason), the manifest (.tsv) and the log.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/out}
BIN=build/bin
WORK=${WORK:-/tmp/source_pages}
export LD_LIBRARY_PATH=$PWD/$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$OUT" "$WORK"
for spec in "$@"; do
  IFS=: read -r name card size <<< "$spec"
  timeout 150 ncu --clock-control none --launch-count 1 --section WarpStateStats \
    --section SourceCounters -f -o "$WORK/$name" \
    "$BIN/warpsim" measure "$card" --sizes "$size" --manifest "$WORK/$name.tsv" \
    > "$WORK/$name.log" 2>&1
  ncu -i "$WORK/$name.ncu-rep" --page source --csv --print-source sass \
    > "$WORK/$name.sass.csv" 2> "$WORK/$name.err"
  echo "$name ($card at $size): $(wc -l < "$WORK/$name.sass.csv") lines"
done
tar -C "$WORK" -czf "$OUT/source.tgz" .
