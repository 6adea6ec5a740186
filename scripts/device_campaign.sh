#!/usr/bin/env bash
# The differential campaign against the real GPU, in two steps:
#
#   here:    bash scripts/device_campaign.sh prepare
#            (builds, puts the shared libraries the device machine lacks beside the binaries, and
#            packs the CLI as .devcarry/bin.tar.xz for recipes that need no warpsim_tests)
#   device:  bash scripts/device_campaign.sh run [CASES] [ISA_PROGRAMS] [KEEP]
#            (CASES=0 skips the suite recording, ISA_PROGRAMS=0 the ISA-level one; every ISA
#            program is compared with the simulator there and every difference traced to its
#            first diverging instruction; the agreeing ones among the first KEEP seeds come back;
#            then the .approx measurements, whose samples come back in recorded.tgz too;
#            PROPERTIES=0 / APPROX=0 skip the kernel-level properties / the .approx forms; the
#            ISA programs include the video instructions, isa-record --video)
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
    # The repository alone is over 45 MiB and the device tool sends at most 64 MiB: carry the
    # CLI, its libraries and warpsim's libcuda stripped and xz-compressed (about 2 MiB) as
    # .devcarry/bin.tar.xz (git ignores it through .git/info/exclude), and begin the device
    # command with `tar xJf .devcarry/bin.tar.xz &&` (carry [".devcarry"]).
    stage=$(mktemp -d)
    mkdir -p "$stage/build/bin" "$stage/build/driver" .devcarry
    strip -o "$stage/build/bin/warpsim" build/bin/warpsim
    strip -o "$stage/build/driver/libcuda.so.1" build/driver/libcuda.so.1
    cp build/bin/libtbb.so.12 build/bin/libboost_program_options.so.1.74.0 "$stage/build/bin/"
    tar -C "$stage" -cJf .devcarry/bin.tar.xz build
    rm -rf "$stage"
    mkdir -p .git/info
    grep -qx "/.devcarry/" .git/info/exclude 2>/dev/null || echo "/.devcarry/" >> .git/info/exclude
    du -sh .devcarry/bin.tar.xz
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
      echo "== kernel- and ISA-level properties (sim vs GPU)"
      [ "${PROPERTIES:-1}" = 0 ] || timeout "${PROPERTY_SECONDS:-300}" "$BIN/warpsim_tests" --gtest_filter='*KernelDiff*:IsaDiff*' --gtest_brief=1 2>&1 | tail -15
      if [ "$CASES" -gt 0 ]; then
        echo "== suite recording"
        "$BIN/warpsim" record --out /tmp/recorded/suite --cases "$CASES" 2>&1 | grep -E "^recorded|differs|:.*case" | tail -20
      fi
      if [ "$PROGRAMS" -gt 0 ]; then
        echo "== ISA-level recording: $PROGRAMS programs (seeds 1..$PROGRAMS), $JOBS processes"
        # Chunks of 250 seeds, one process each: a program that faults on the GPU leaves the
        # process's CUDA context unusable, so isa-record stops there and a new process goes on
        # with the rest of the chunk. Each program
        # is assembled by ptxas in a child process first (seed 8049 crashes ptxas 13.0, and
        # with it the driver's JIT inside cuModuleLoadData).
        seq 1 250 "$PROGRAMS" | xargs -P "$JOBS" -I{} sh -c \
          's={}; end=$(( {} + 249 )); [ $end -gt '"$PROGRAMS"' ] && end='"$PROGRAMS"';
           log=/tmp/campaign/isa-record-{}.log; : > $log;
           while [ $s -le $end ]; do
             "'"$BIN"'/warpsim" isa-record --ptxas-check --video --count $(( end - s + 1 )) --seed $s \
               --out /tmp/campaign/isa >> $log 2>&1;
             next=$(grep -oE "continue with --seed [0-9]+" $log | tail -1 | grep -oE "[0-9]+$");
             [ -n "$next" ] && [ "$next" -gt "$s" ] || break; s=$next;
           done'
        cat /tmp/campaign/isa-record-*.log > "$OUT/isa-record.log"
        awk '/^[0-9]+ programs, /{p+=$1; a+=$3; d+=$5; u+=$7} END {print p " programs, " a " agree, " d " differ, " u " unexplained"}' "$OUT/isa-record.log"
        grep -hoE "explained: [a-z-]+" "$OUT/isa-record.log" | sort | uniq -c
        grep -cE "prog-[0-9]+\.ptx: (the GPU refused it|faulted on the GPU)" "$OUT/isa-record.log" |
          sed 's/$/ programs refused or faulted on the GPU/'
        grep -cE "prog-[0-9]+\.ptx: ptxas crashed" "$OUT/isa-record.log" |
          sed 's/$/ programs not run: ptxas crashed on them/'
        # The cases that come back: the agreeing ones among the first KEEP seeds.
        mkdir -p /tmp/recorded/isa
        grep -oE "prog-[0-9]+\.isacase:" "$OUT/isa-record.log" | sort -u > /tmp/campaign/differ.txt
        for s in $(seq 1 "$KEEP"); do
          [ -f "/tmp/campaign/isa/prog-$s.isacase" ] || continue
          grep -qx "prog-$s.isacase:" /tmp/campaign/differ.txt && continue
          cp "/tmp/campaign/isa/prog-$s.ptx" "/tmp/campaign/isa/prog-$s.isacase" /tmp/recorded/isa/
        done
        echo "$(ls /tmp/recorded/isa | grep -c isacase) agreeing cases kept (seeds 1..$KEEP)"
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
