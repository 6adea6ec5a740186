#!/usr/bin/env bash
# The texture and surface forms probe on the H200 (scripts/probes/texture/texture_forms_probe.cu):
# tex.grad on cube maps, sust.p, sured.p, txq/suq channel_data_type and channel_order,
# tex.base, tex.2dms/a2dms, independent-mode samplers, the .trap surface accesses and tex of the
# normalized (UNORM/SNORM) array formats (normread), tex.grad's level-of-detail arithmetic
# (gradlod), the same on cube maps (cubegradlod) and the cube diagonal's middle term at fixed
# lengths (cuberot). Builds the
# probe with the device's nvcc and runs each section in a process of its own (a trap ends its
# context), in order, into one file.
#
# Needs nothing carried. Run it in the repository root on the device machine:
#   bash scripts/device_texture_forms.sh [SEED]          (default seed 1)
#   ONLY=normread bash scripts/device_texture_forms.sh   (one section: tex of UNORM/SNORM arrays)
#   ONLY=gradlod bash scripts/device_texture_forms.sh    (tex.grad's lod read directly: the log2
#                                                        table, the diagonals, the middle share)
#   ONLY=cubegradlod bash scripts/device_texture_forms.sh  (the same on cube maps of 256, 16 and
#                                                        8-texel faces, and samples that cross
#                                                        from +z onto +x)
#   ONLY=cuberot bash scripts/device_texture_forms.sh  (4,626 lines on the 256-texel-face cube:
#                                                    d/dx = d/dy = (a, b), and d/dx (a, b)
#                                                    alone, b over [0, a] at 9 lengths a)
# Results, under $OUT/texture_forms ($OUT default /tmp/out):
#   h200.txt     every section's output, each after a line `== SECTION` and followed by
#                `== exit STATUS`: commit as tests/recorded/texture/texture_forms.h200.txt.xz
#   summary.txt  the device, each section's exit status and line count, its last lines
#   build.log    nvcc's output (the whole program, then each section's own build)
# With build/bin carried (warpsim and libtbb beside it), the summary also holds each section's
# differing line count under `warpsim exec` and sim.txt holds the simulator's output.
# PROBE_WRAPPER="build/bin/warpsim exec" runs the probe on the simulator instead (to try the
# script without a GPU; its output then says nothing about the chip).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
SEED=${1:-1}
OUT=${OUT:-/tmp/out}
DIR=$OUT/texture_forms
WORK=${WORK:-/tmp/texture_forms}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
ALL="cubegrad sust sustnorm sured suredodd txq base tld4cube ms indep trap-sust trap-sured trap-suld normread gradlod cubegradlod cuberot"
# ONLY="normread" (sections of $ALL) runs those alone; each keeps its -DONLY_SECTION number.
SECTIONS=${ONLY:-$ALL}
mkdir -p "$DIR" "$WORK"
# Each section's kernels in a build of their own (-DONLY_SECTION, its place in $SECTIONS), built
# in parallel: a form the driver cannot load fails its own section alone. warpsim exec runs the
# same builds (its driver refuses what the chip's does); the whole program is what the build
# tree's texture_forms_probe is (with texture_forms_probe.txq beside it).
PROBE=$WORK/texture_forms_probe
build() {  # build ID OUTPUT
  "$NVCC" -lineinfo -gencode arch=compute_90,code=compute_90 -gencode arch=compute_90,code=sm_90 \
    ${1:+-DONLY_SECTION=$1} -lcuda -o "$2" scripts/probes/texture/texture_forms_probe.cu
}
: > "$DIR/build.log"
build "" "$PROBE" >> "$DIR/build.log" 2>&1 &
wanted() { case " $SECTIONS " in *" $1 "*) return 0 ;; esac; return 1; }
id=0
for s in $ALL; do
  id=$((id + 1))
  wanted "$s" && build $id "$PROBE.$s" > "$WORK/$s.build.log" 2>&1 &
done
wait
id=0
for s in $ALL; do
  id=$((id + 1))
  wanted "$s" && { echo "== $s (-DONLY_SECTION=$id)"; cat "$WORK/$s.build.log"; } >> "$DIR/build.log"
done
[ -x "$PROBE" ] || { cat "$DIR/build.log"; exit 1; }

# Runs every section through `$1` (a wrapper, or empty) into file $2; $3 "split": each section's
# own build (the chip), else the whole program.
run_all() {
  local wrapper=$1 out=$2 split=${3:-}
  : > "$out"
  for s in $SECTIONS; do
    echo "== $s" >> "$out"
    local exe=$PROBE
    [ -n "$split" ] && [ -x "$PROBE.$s" ] && exe=$PROBE.$s
    # stdout alone: a wrapper's own notes on stderr are not the program's output.
    timeout 300 $wrapper "$exe" "$s" "$SEED" >> "$out" 2> "$WORK/$s.err"
    echo "== exit $?" >> "$out"
  done
}

if [ -n "${PROBE_WRAPPER:-}" ]; then
  run_all "$PROBE_WRAPPER" "$DIR/h200.txt" split
else
  run_all "" "$DIR/h200.txt" split
fi
{
  echo "== device"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "(no nvidia-smi)"
  echo "== sections (exit status, lines)"
  awk '/^== exit/ {print name, $3, n} /^== / && !/^== exit/ {name = $2; n = 0; next} {n++}' \
    "$DIR/h200.txt"
  for s in $SECTIONS; do
    echo "== $s: last lines, stderr"
    awk -v s="$s" '$0 == "== " s {on = 1; next} /^== exit/ {on = 0} on' "$DIR/h200.txt" | tail -3
    head -5 "$WORK/$s.err"
  done
  if [ -x build/bin/warpsim ] && [ -z "${PROBE_WRAPPER:-}" ]; then
    echo "== the simulator (warpsim exec), differing lines per section"
    run_all "build/bin/warpsim exec" "$DIR/sim.txt" split
    for s in $SECTIONS; do
      n=$(diff <(awk -v s="$s" '$0 == "== " s {on = 1; next} /^== exit/ {on = 0} on' \
                  "$DIR/h200.txt") \
               <(awk -v s="$s" '$0 == "== " s {on = 1; next} /^== exit/ {on = 0} on' \
                  "$DIR/sim.txt") | grep -c '^<')
      echo "$s: $n"
    done
  fi
} > "$DIR/summary.txt" 2>&1
cat "$DIR/summary.txt"
