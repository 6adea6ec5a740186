#!/usr/bin/env bash
# The differential campaign against the real GPU, in two steps:
#
#   here:    bash scripts/device_campaign.sh prepare
#            (builds, and puts the shared libraries the device machine lacks beside the binaries)
#   device:  bash scripts/device_campaign.sh run [CASES] [ISA_PROGRAMS] [KEEP]
#            (CASES=0 skips the suite recording, ISA_PROGRAMS=0 the ISA-level one; every ISA
#            program is compared with the simulator there, the first KEEP come back as cases;
#            then the .approx measurements, whose samples come back in recorded.tgz too;
#            PROPERTIES=0 / APPROX=0 skip the kernel-level properties / the .approx forms)
#            through the `device` tool with carry ["build/bin"]: the kernel-level properties,
#            the suite recording, the ISA-level recording (when the binary has it) and a
#            summary, all sent back through $OUT (summary.txt and recorded.tgz).
#   here:    tar -C tests/recorded -xzf <files_at>/recorded.tgz   then commit tests/recorded
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
case "$mode" in
  prepare)
    set -e
    [ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build -j"$(nproc)"
    for lib in libtbb.so.12 libboost_program_options.so.1.74.0; do
      cp -L "/lib/x86_64-linux-gnu/$lib" build/bin/
    done
    du -sh build/bin
    ;;
  run)
    CASES=${2:-20}
    PROGRAMS=${3:-2000}
    KEEP=${4:-2000}  # ISA programs whose cases come back to be committed (the first KEEP seeds)
    JOBS=${JOBS:-8}  # isa-record processes side by side (one GPU context each)
    OUT=${OUT:-/tmp/out}
    BIN=build/bin
    mkdir -p "$OUT" /tmp/recorded /tmp/campaign
    {
      echo "== device"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
      echo "== kernel-level properties (sim vs GPU)"
      [ "${PROPERTIES:-1}" = 0 ] || timeout "${PROPERTY_SECONDS:-300}" "$BIN/warpsim_tests" --gtest_filter='*KernelDiff*' --gtest_brief=1 2>&1 | tail -15
      if [ "$CASES" -gt 0 ]; then
        echo "== suite recording"
        "$BIN/warpsim" record --out /tmp/recorded/suite --cases "$CASES" 2>&1 | grep -E "^recorded|differs|:.*case" | tail -20
      fi
      if [ "$PROGRAMS" -gt 0 ]; then
        echo "== ISA-level recording: $PROGRAMS programs (seeds 1..$PROGRAMS) in $JOBS processes"
        per=$(( (PROGRAMS + JOBS - 1) / JOBS ))
        for j in $(seq 0 $((JOBS - 1))); do
          first=$(( 1 + j * per )); n=$per
          [ $((first + n - 1)) -gt "$PROGRAMS" ] && n=$(( PROGRAMS - first + 1 ))
          [ "$n" -gt 0 ] || continue
          "$BIN/warpsim" isa-record --count "$n" --seed "$first" --out /tmp/campaign/isa \
            > "/tmp/campaign/isa-record-$j.log" 2>&1 &
        done
        wait
        cat /tmp/campaign/isa-record-*.log > "$OUT/isa-record.log"
        grep -E "^[0-9]+ programs, " /tmp/campaign/isa-record-*.log
        grep -vE "^[0-9]+ programs" "$OUT/isa-record.log" | head -40
        mkdir -p /tmp/recorded/isa
        for s in $(seq 1 "$KEEP"); do
          for f in /tmp/campaign/isa/prog-$s.ptx /tmp/campaign/isa/prog-$s.isacase; do
            [ -f "$f" ] && cp "$f" /tmp/recorded/isa/
          done
        done
      fi
      if [ "${APPROX:-1}" != 0 ]; then
        echo "== .approx forms (GPU against simulator)"
        "$BIN/warpsim" approx-measure --out /tmp/recorded/approx > "$OUT/approx.log" 2>&1
        cut -c1-160 "$OUT/approx.log"
      fi
    } > "$OUT/summary.txt" 2>&1
    tar -C /tmp/recorded -czf "$OUT/recorded.tgz" .
    cat "$OUT/summary.txt"
    ;;
  *)
    echo "usage: bash scripts/device_campaign.sh prepare | run [CASES] [ISA_PROGRAMS] [KEEP]" >&2
    exit 2
    ;;
esac
