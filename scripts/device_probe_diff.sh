#!/usr/bin/env bash
# Runs CUDA probe programs on the chip and on the simulator and diffs them: each PROBE.cu is
# compiled with `nvcc -arch=sm_90 -lineinfo` (SASS for the chip, PTX for `warpsim exec`), run
# natively and under `build/bin/warpsim exec`, and the two outputs are compared line for line.
# A probe prints one line per measured value with its inputs, so the first differing line names
# the inputs on which the simulator and the chip disagree. A probe takes no arguments.
#
# Carry build/bin and build/driver (the CLI, libtbb beside it, warpsim's libcuda).
# Run it in the repository root on the device machine:
#   bash scripts/device_probe_diff.sh scripts/probes/texture/mipmap_probe.cu [MORE.cu ...]
# Results, under $OUT/$SUBDIR ($OUT default /tmp/out, $SUBDIR default empty):
#   PROBE.h200.txt  each probe's output on the chip (stdout and stderr)
#   PROBE.sim.txt   the same program's stdout under warpsim exec
#   PROBE.sim.err   its stderr there (faults, refusals)
#   summary.txt     the device, exit statuses, line counts, how many differing lines begin
#                   with each pair of words (a probe's object and operation), the first 40 lines
#                   of each diff
# Exit status 0 when every probe built and printed the same on both; 1 otherwise.
# LIMIT (default 300) bounds each run in seconds.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
[ $# -gt 0 ] || { echo "usage: $0 PROBE.cu..." >&2; exit 2; }
DIR=${OUT:-/tmp/out}${SUBDIR:+/$SUBDIR}
WORK=${WORK:-/tmp/probe_diff}
LIMIT=${LIMIT:-300}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
mkdir -p "$DIR" "$WORK"
rc=0
{
  echo "== device"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "(no nvidia-smi)"
  for src in "$@"; do
    probe=$(basename "$src" .cu)
    echo "== $probe ($src)"
    if ! "$NVCC" -arch=sm_90 -lineinfo -o "$WORK/$probe" "$src" > "$WORK/$probe.build.log" 2>&1; then
      cat "$WORK/$probe.build.log"
      rc=1
      continue
    fi
    timeout "$LIMIT" "$WORK/$probe" > "$DIR/$probe.h200.txt" 2>&1
    echo "chip: exit status $? ($(wc -l < "$DIR/$probe.h200.txt") lines)"
    t0=$SECONDS
    timeout "$LIMIT" build/bin/warpsim exec "$WORK/$probe" > "$DIR/$probe.sim.txt" \
      2> "$DIR/$probe.sim.err"
    echo "simulator: exit status $? after $((SECONDS - t0)) s ($(wc -l < "$DIR/$probe.sim.txt")" \
      "lines, $(wc -l < "$DIR/$probe.sim.err") on stderr)"
    if diff "$DIR/$probe.h200.txt" "$DIR/$probe.sim.txt" > "$WORK/$probe.diff"; then
      echo "the simulator prints what the chip prints"
    else
      echo "$(grep -c '^<' "$WORK/$probe.diff") lines differ; by their first two words" \
        "(the chip's lines):"
      grep '^<' "$WORK/$probe.diff" | awk '{print $2, $3}' | sort | uniq -c | sort -rn | head -40
      echo "the first differing lines:"
      head -40 "$WORK/$probe.diff"
      rc=1
    fi
  done
} > "$DIR/summary.txt" 2>&1
cat "$DIR/summary.txt"
exit $rc
