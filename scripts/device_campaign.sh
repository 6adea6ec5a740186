#!/usr/bin/env bash
# The differential campaign against the real GPU, in two steps:
#
#   here:    bash scripts/device_campaign.sh prepare
#            (builds, and puts the shared libraries the device machine lacks beside the binaries)
#   device:  bash scripts/device_campaign.sh run [CASES] [ISA_PROGRAMS]
#            (CASES=0 skips the suite recording, ISA_PROGRAMS=0 the ISA-level one)
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
    OUT=${OUT:-/tmp/out}
    BIN=build/bin
    mkdir -p "$OUT" /tmp/recorded
    {
      echo "== device"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
      echo "== kernel-level properties (sim vs GPU)"
      "$BIN/warpsim_tests" --gtest_filter='*KernelDiff*' --gtest_brief=1 2>&1 | tail -15
      if [ "$CASES" -gt 0 ]; then
        echo "== suite recording"
        "$BIN/warpsim" record --out /tmp/recorded/suite --cases "$CASES" 2>&1 | grep -E "^recorded|differs|:.*case" | tail -20
      fi
      if [ "$PROGRAMS" -gt 0 ]; then
        echo "== ISA-level recording"
        "$BIN/warpsim" isa-record --count "$PROGRAMS" --seed 1 --out /tmp/recorded/isa > "$OUT/isa-record.log" 2>&1
        tail -5 "$OUT/isa-record.log"
      fi
    } > "$OUT/summary.txt" 2>&1
    tar -C /tmp/recorded -czf "$OUT/recorded.tgz" .
    cat "$OUT/summary.txt"
    ;;
  *)
    echo "usage: bash scripts/device_campaign.sh prepare | run [CASES] [ISA_PROGRAMS]" >&2
    exit 2
    ;;
esac
