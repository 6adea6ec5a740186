#!/usr/bin/env bash
# Ground truth for the checkers: every planted bug of kernels/bugs/ and its corrected twin run
# under NVIDIA's compute-sanitizer on the real GPU, through `warpsim diff` (which runs the very
# same PTX, buffers and launch through the CUDA driver API), and the same cases under
# `warpsim check` for the side-by-side table in docs/CHECKERS.md.
#
#   here:    bash scripts/device_campaign.sh prepare      (build; shared libraries beside it)
#   device:  bash scripts/device_sanitizer.sh [PATTERN]   (with carry ["build/bin"])
#            PATTERN selects cases by name (a shell glob, default *); ALL_TOOLS=1 also runs the
#            three other tools on every bug and twin (4x the time: split the cases over several
#            calls, e.g. 'a*' '[b-m]*' '[n-r]*' '[s-z]*', each within the 10-minute limit).
#            (memcheck runs with --leak-check full on kernels that call malloc: 'heap_*')
#            -> $OUT/sanitizer-<PATTERN>.tgz holding, per case NAME with tool TOOL:
#               NAME.TOOL.txt        compute-sanitizer --tool TOOL on the bug
#               NAME_fixed.TOOL.txt  compute-sanitizer --tool TOOL on the twin
#               NAME.warpsim.txt     warpsim check --tool TOOL on the bug, for the side by side
#               (ALL_TOOLS=1: NAME.T.txt and NAME_fixed.T.txt for the other tools T too)
#               summary.txt          one line per run: case, tool, compute-sanitizer's errors
#                                    (and warpsim's, for the bug)
#            and the same summary as $OUT/summary-<PATTERN>.txt.
#   here:    mkdir -p tests/recorded/sanitizer &&
#            tar -C tests/recorded/sanitizer -xzf <files_at>/sanitizer-<PATTERN>.tgz
#            then fill the last column of docs/CHECKERS.md's table from summary.txt and commit.
#
# compute-sanitizer checks a CUDA program; here the program is warpsim itself (its diff
# command), so its reports name the kernel and the .cu line through the PTX's line info (nvcc
# -lineinfo, which warpsim passes), and its own allocations are the buffers of the spec.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
BIN=build/bin/warpsim
CS=${COMPUTE_SANITIZER:-compute-sanitizer}
command -v "$CS" >/dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
PATTERN=${1:-*}
tag=$(echo "$PATTERN" | tr -c 'A-Za-z0-9_-' '_')
work=$(mktemp -d)
mkdir -p "$OUT"
summary="$work/summary.txt"
{
  echo "# case tool compute-sanitizer-errors [warpsim-errors]"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
  "$CS" --version 2>/dev/null | tail -1
} >"$summary"

errors_of() {  # the N of "ERROR SUMMARY: N error(s)" (or racecheck's "(N errors, ...)"), or "?"
  local n
  n=$(grep -o 'ERROR SUMMARY: [0-9]*' "$1" | tail -1 | awk '{print $3}')
  [ -n "$n" ] || n=$(grep -oE 'SUMMARY: [0-9]+ hazards? displayed \([0-9]+ errors?' "$1" | tail -1 |
    grep -oE '\([0-9]+' | tr -d '(')
  echo "${n:-?}"
}

sanitize() {  # TOOL KERNEL REPORT CU ARGS...
  local tool=$1 kernel=$2 report=$3 cu=$4
  shift 4
  # Device-heap leaks are reported only with --leak-check full: on for the kernels that call
  # malloc (the heap_* bugs), whose twins must then show no leak either.
  local leak=()
  [ "$tool" = memcheck ] && grep -q 'malloc(' "$cu" && leak=(--leak-check full)
  timeout 300 "$CS" --tool "$tool" "${leak[@]}" --print-limit 100 "$BIN" diff "$cu" \
    --kernel "$kernel" "$@" >"$report" 2>&1
}

for spec in kernels/bugs/$PATTERN.spec; do
  [ -f "$spec" ] || continue
  name=$(basename "$spec" .spec)
  tool=$(awk '$1 == "tool" {print $2}' "$spec")
  read -r -a args <<<"$(sed -n 's/^args //p' "$spec")"
  cu=kernels/bugs/$name.cu
  tools=$tool
  # A case only schedule exploration finds (`schedules N` in its spec): warpsim checks it with
  # --schedules N, and compute-sanitizer runs its racecheck (what it would use for such a bug).
  schedules=$(awk '$1 == "schedules" {print $2}' "$spec")
  wextra=()
  if [ -n "$schedules" ]; then
    wextra=(--schedules "$schedules")
    tools=racecheck
  fi
  [ "${ALL_TOOLS:-0}" = 1 ] && tools="memcheck racecheck initcheck synccheck"
  timeout 300 "$BIN" check --tool "$tool" "$cu" --kernel "$name" "${args[@]}" "${wextra[@]}" \
    >"$work/$name.warpsim.txt" 2>&1
  for t in $tools; do
    sanitize "$t" "$name" "$work/$name.$t.txt" "$cu" "${args[@]}"
    sanitize "$t" "${name}_fixed" "$work/${name}_fixed.$t.txt" "$cu" "${args[@]}"
    line="$name $t $(errors_of "$work/$name.$t.txt")"
    { [ "$t" = "$tool" ] || [ -n "$schedules" ]; } && line="$line $(errors_of "$work/$name.warpsim.txt")"
    echo "$line" >>"$summary"
    echo "${name}_fixed $t $(errors_of "$work/${name}_fixed.$t.txt")" >>"$summary"
  done
done
cp "$summary" "$OUT/summary-$tag.txt"
tar -C "$work" -czf "$OUT/sanitizer-$tag.tgz" .
cat "$summary"
