#!/usr/bin/env bash
# Several device recipes in one call of the `device` tool (one machine start instead of one per
# recipe), side by side where they do not time anything, each under its own time limit:
#   record  `warpsim record P` for each pattern P in RECORD_PATTERN (default tma_tiles; 20 cases;
#           alone on the GPU, since record times each case)
#   mma     scripts/device_mma.sh over MMA_PROGRAMS programs from MMA_FIRST, in MMA_JOBS processes
#   fast    scripts/device_fastmath.sh (every fast-math form hashed, the dense binades)
#   triton  scripts/capture_triton.py for TRITON_CASES
#   bulk    scripts/device_bulk_reduce.sh (bulk reductions and im2col, chip against warpsim exec)
#   mip     scripts/device_probe_diff.sh on scripts/probes/texture/mipmap_probe.cu (mipmaps,
#           layered and cube textures, chip against warpsim exec; results in mip/texture_mip)
#   san     scripts/device_sanitizer.sh SAN_PATTERN
#   probes  scripts/device_probe_diff.sh on PROBES (CUDA probe programs, chip against warpsim exec)
#   contract scripts/device_contract.sh CONTRACT_PROGRAMS CONTRACT_FIRST (contractible sequences)
# JOBS picks some of them (default: all). Everything each job writes lands in $OUT/all.tgz (one
# folder per job) except the fast-math bundles, which stay $OUT/fastmath<i>.tar.
#
#   here:    bash scripts/device_campaign.sh prepare
#   device:  tar xJf .devcarry/bin.tar.xz && bash scripts/device_batch.sh     (carry [".devcarry"];
#            the repository and build/bin together exceed what the device tool sends)
#   here:    tar -C /tmp/batch -xzf <files_at>/all.tgz, then each job's own unpacking step (see
#            its script's header)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
JOBS=${JOBS:-"record mma fast triton bulk mip san"}
PROBES=${PROBES:-}
CONTRACT_PROGRAMS=${CONTRACT_PROGRAMS:-500}
CONTRACT_FIRST=${CONTRACT_FIRST:-10001}
RECORD_PATTERN=${RECORD_PATTERN:-tma_tiles}
LIMIT=${LIMIT:-480}  # seconds any job may run
MMA_PROGRAMS=${MMA_PROGRAMS:-1080}
MMA_FIRST=${MMA_FIRST:-100000}
MMA_JOBS=${MMA_JOBS:-6}
TRITON_CASES=${TRITON_CASES:-"matmul matmul_masked attention layernorm"}
SAN_PATTERN=${SAN_PATTERN:-bulk_copy_no_wait}
W=/tmp/batch
rm -rf "$W"
mkdir -p "$OUT" "$W"
export LD_LIBRARY_PATH=$PWD/build/bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
want() { case " $JOBS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
run() {  # run NAME COMMAND...: the command's output in $W/NAME/log, its status and time after it
  local name=$1
  shift
  mkdir -p "$W/$name"
  local t0=$SECONDS
  OUT=$W/$name timeout "$LIMIT" "$@" > "$W/$name/log" 2>&1
  echo "$name: exit $? after $((SECONDS - t0)) s" | tee -a "$W/status.txt"
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee "$W/status.txt"
# shellcheck disable=SC2016
want record && run record bash -c 'for p in $1; do build/bin/warpsim record "$p" --out "$2" \
  --cases 20 || echo "record $p: exit $?"; done' _ "$RECORD_PATTERN" "$W/record/rec"
pids=()
if want mma; then
  per=$(((MMA_PROGRAMS + MMA_JOBS - 1) / MMA_JOBS))
  for ((i = 0; i < MMA_JOBS; ++i)); do
    first=$((MMA_FIRST + i * per))
    n=$((MMA_PROGRAMS - i * per < per ? MMA_PROGRAMS - i * per : per))
    [ "$n" -gt 0 ] || break
    WORK=/tmp/mma$i run "mma$i" bash scripts/device_mma.sh "$n" "$first" &
    pids+=($!)
  done
fi
want fast && { RAW=/tmp/fastmath_raw run fast bash scripts/device_fastmath.sh & pids+=($!); }
# shellcheck disable=SC2086
want triton && { run triton sh -c "PYTHONUNBUFFERED=1 python3 scripts/capture_triton.py $W/triton/cap $TRITON_CASES" & pids+=($!); }
want bulk && { WORK=/tmp/bulkw run bulk bash scripts/device_bulk_reduce.sh & pids+=($!); }
want contract && { WORK=/tmp/contractw run contract bash scripts/device_contract.sh \
  "$CONTRACT_PROGRAMS" "$CONTRACT_FIRST" & pids+=($!); }
# shellcheck disable=SC2086
want probes && { SUBDIR=probes WORK=/tmp/probesw run probes bash scripts/device_probe_diff.sh $PROBES & pids+=($!); }
want mip && { SUBDIR=texture_mip WORK=/tmp/mipw run mip bash scripts/device_probe_diff.sh \
  scripts/probes/texture/mipmap_probe.cu & pids+=($!); }
want san && { run san bash scripts/device_sanitizer.sh "$SAN_PATTERN" & pids+=($!); }
wait "${pids[@]}"
mv "$W"/fast/fastmath*.tar "$OUT"/ 2>/dev/null
tar -C "$W" -czf "$OUT/all.tgz" .
cat "$W/status.txt"
