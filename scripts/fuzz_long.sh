#!/usr/bin/env bash
# The long mutation-fuzz run of issue 14: N_CHUNKS RapidCheck chunks of
# LaunchFuzz.MutatedModulesLoadAndLaunchOrFailCleanly (each max_success=1250 cases x 8 inputs =
# 10,000 mutated inputs, seed = the chunk's number), JOBS of them side by side, each under
# /usr/bin/time for its wall time and peak resident memory, then a summary table.
#
#   bash scripts/fuzz_long.sh N_CHUNKS JOBS [FIRST_SEED]
#     here:    bash scripts/fuzz_long.sh 2 2                   (20,000 inputs)
#     device:  bash scripts/fuzz_long.sh 100 16                (10^6 inputs on its 16 cores;
#              the `device` tool with carry ["build/bin"], after `bash scripts/device_campaign.sh
#              prepare` here; about 3-5 minutes there)
#   -> $OUT/fuzz/summary.txt   one line per chunk (seed, exit status, inputs, seconds, peak KiB)
#                              and the totals: inputs, failed chunks, largest peak
#      $OUT/fuzz/failures.tgz  the whole output of every chunk that failed (RapidCheck prints the
#                              failing input and how to reproduce it), when one did
#   Exit status 0 when every chunk passed.
# Environment: FILTER (the gtest filter, default the launch fuzzer), CASES (max_success per
# chunk, default 1250), CHUNK_SECONDS (a chunk's time limit, default 1800: a hang in a chunk is
# a failure; the test's own hang guard aborts after 20 s without progress), BIN (build/bin).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: bash scripts/fuzz_long.sh N_CHUNKS JOBS [FIRST_SEED]" >&2
  exit 2
fi
N=$1
JOBS=$2
FIRST=${3:-1}
case "$N$JOBS$FIRST" in *[!0-9]*)
  echo "fuzz_long.sh: N_CHUNKS, JOBS and FIRST_SEED must be whole numbers" >&2
  exit 2
  ;;
esac
OUT=${OUT:-/tmp/out}
BIN=${BIN:-build/bin}
FILTER=${FILTER:-LaunchFuzz.MutatedModulesLoadAndLaunchOrFailCleanly}
CASES=${CASES:-1250}
CHUNK_SECONDS=${CHUNK_SECONDS:-1800}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "fuzz_long.sh: /usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
[ -x "$BIN/warpsim_tests" ] || { echo "fuzz_long.sh: no $BIN/warpsim_tests (build it first)" >&2; exit 2; }
WORK=$(mktemp -d)
mkdir -p "$OUT/fuzz"
# The test reads its seeds (tests/recorded) from the source tree: this checkout, wherever the
# binary was built.
WARPSIM_SOURCE_DIR=$(pwd)
export BIN FILTER CASES CHUNK_SECONDS TIME WORK WARPSIM_SOURCE_DIR

# One chunk: its output in WORK/seed-N.log, "N STATUS SECONDS PEAK_KIB" in WORK/seed-N.time.
chunk() {
  local n=$1
  RC_PARAMS="max_success=$CASES seed=$n" "$TIME" -o "$WORK/seed-$n.time" -f "$n %x %e %M" \
    timeout "$CHUNK_SECONDS" "$BIN/warpsim_tests" --gtest_filter="$FILTER" >"$WORK/seed-$n.log" 2>&1
}
export -f chunk

start=$(date +%s)
seq "$FIRST" $((FIRST + N - 1)) | xargs -P "$JOBS" -I{} bash -c 'chunk {}'
elapsed=$(($(date +%s) - start))

summary="$OUT/fuzz/summary.txt"
{
  echo "# $FILTER, $N chunks of max_success=$CASES (8 inputs a case), $JOBS at a time, $(nproc) cores"
  printf "%-8s %-6s %-8s %-9s %-10s %s\n" seed status inputs seconds peak_kib result
  for n in $(seq "$FIRST" $((FIRST + N - 1))); do
    # /usr/bin/time writes "Command exited with non-zero status N" before the format line.
    read -r seed status secs peak < <(tail -1 "$WORK/seed-$n.time" 2>/dev/null || echo "$n ? ? ?")
    # PASSED only when a test ran (a filter that matches nothing passes with 0 tests).
    result=$(grep -Eo '\[  (PASSED  \] [1-9]|FAILED  \])' "$WORK/seed-$n.log" | head -1 |
      grep -Eo 'PASSED|FAILED')
    [ "$status" = 0 ] && [ "$result" = PASSED ] || result="FAILED${result:+ ($result)}"
    [ "$status" = 124 ] && result="TIMEOUT"
    printf "%-8s %-6s %-8s %-9s %-10s %s\n" "$seed" "$status" $((CASES * 8)) "$secs" "$peak" "$result"
  done
} >"$WORK/table.txt"
failed=$(awk 'NR > 2 && $6 != "PASSED"' "$WORK/table.txt" | wc -l)
peak=$(awk 'NR > 2 && $5 ~ /^[0-9]+$/ {if ($5 > m) m = $5} END {print m + 0}' "$WORK/table.txt")
{
  cat "$WORK/table.txt"
  echo "total: $((N * CASES * 8)) inputs in $N chunks, $failed failed, largest peak ${peak} KiB" \
    "($((peak / 1024)) MiB), ${elapsed} s wall"
} | tee "$summary"
if [ "$failed" -gt 0 ]; then
  fails=$(awk 'NR > 2 && $6 != "PASSED" {print "seed-" $1 ".log"}' "$WORK/table.txt")
  # shellcheck disable=SC2086
  tar -C "$WORK" -czf "$OUT/fuzz/failures.tgz" $fails
  echo "the failing chunks' output: $OUT/fuzz/failures.tgz"
fi
rm -rf "$WORK"
[ "$failed" -eq 0 ]
