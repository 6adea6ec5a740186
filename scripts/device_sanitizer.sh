#!/usr/bin/env bash
# Ground truth for the checkers: every planted bug of kernels/bugs/ and its corrected twin run
# under NVIDIA's compute-sanitizer on the real GPU, through `warpsim diff` (which runs the very
# same PTX, buffers and launch through the CUDA driver API), and the same cases under
# `warpsim check` for the side-by-side table in docs/CHECKERS.md.
#
#   here:    bash scripts/device_campaign.sh prepare      (build; shared libraries beside it)
#   device:  bash scripts/device_sanitizer.sh             (with carry ["build/bin"])
#            -> $OUT/sanitizer.tgz: NAME.TOOL.txt (compute-sanitizer on the bug, with the tool
#               the spec names, and with every tool on the bug: NAME.all-TOOL.txt),
#               NAME_fixed.TOOL.txt (every tool on the twin), NAME.warpsim.txt; and
#               $OUT/summary.txt: one line per case, the error counts of both.
#   here:    mkdir -p tests/recorded/sanitizer &&
#            tar -C tests/recorded/sanitizer -xzf <files_at>/sanitizer.tgz   then commit it.
#
# compute-sanitizer checks a CUDA program; here the program is warpsim itself (its diff
# command), so its reports name the kernel and the .cu line through the PTX's line info (nvcc
# -lineinfo, which warpsim passes), and its own allocations are the buffers of the spec.
set -uo pipefail
set -f  # the specs' arguments hold brackets: no globbing
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
BIN=build/bin/warpsim
CS=${COMPUTE_SANITIZER:-compute-sanitizer}
command -v "$CS" >/dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
work=$(mktemp -d)
mkdir -p "$OUT"
summary="$work/summary.txt"
{
  echo "# case tool sanitizer-errors warpsim-errors (bug), then the twin under every tool"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
  "$CS" --version 2>/dev/null | tail -1
} >"$summary"

errors_of() {  # the N of "ERROR SUMMARY: N error(s)" in a report, or "?" when absent
  local n
  n=$(grep -o 'ERROR SUMMARY: [0-9]*' "$1" | tail -1 | awk '{print $3}')
  echo "${n:-?}"
}

for spec in kernels/bugs/*.spec; do
  name=$(basename "$spec" .spec)
  tool=$(awk '$1 == "tool" {print $2}' "$spec")
  args=$(sed -n 's/^args //p' "$spec")
  cu=kernels/bugs/$name.cu
  # The tool the spec names, on the bug; racecheck also with its hazard level at info.
  extra=""
  [ "$tool" = racecheck ] && extra="--racecheck-report all"
  # shellcheck disable=SC2086
  timeout 300 "$CS" --tool "$tool" $extra --print-limit 100 "$BIN" diff "$cu" --kernel "$name" \
    $args >"$work/$name.$tool.txt" 2>&1
  # shellcheck disable=SC2086
  timeout 300 "$BIN" check --tool "$tool" "$cu" --kernel "$name" $args \
    >"$work/$name.warpsim.txt" 2>&1
  echo "$name $tool $(errors_of "$work/$name.$tool.txt") $(errors_of "$work/$name.warpsim.txt")" \
    >>"$summary"
  for t in memcheck racecheck initcheck synccheck; do
    # Every other tool on the bug (does compute-sanitizer see it with another tool?) ...
    if [ "$t" != "$tool" ]; then
      # shellcheck disable=SC2086
      timeout 300 "$CS" --tool "$t" --print-limit 100 "$BIN" diff "$cu" --kernel "$name" $args \
        >"$work/$name.all-$t.txt" 2>&1
    fi
    # ... and every tool on the twin, which must be clean.
    # shellcheck disable=SC2086
    timeout 300 "$CS" --tool "$t" --print-limit 100 "$BIN" diff "$cu" --kernel "${name}_fixed" \
      $args >"$work/${name}_fixed.$t.txt" 2>&1
    echo "  ${name}_fixed $t $(errors_of "$work/${name}_fixed.$t.txt")" >>"$summary"
  done
done
cp "$summary" "$OUT/summary.txt"
tar -C "$work" -czf "$OUT/sanitizer.tgz" .
cat "$summary"
