#!/usr/bin/env bash
# Builds (if needed) and runs every test: unit tests, RapidCheck properties, golden files; then
# the same tests again built with AddressSanitizer + UndefinedBehaviorSanitizer (build-asan),
# so that a use-after-free or undefined behaviour in the code or its tests fails CI.
# WARPSIM_SKIP_ASAN=1 skips the second build (for a quick local run).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
(cd build && ctest -j"$(nproc)" --output-on-failure --timeout 600)

if [ "${WARPSIM_SKIP_ASAN:-0}" != 1 ]; then
  # -O1 keeps the sanitized tests fast enough for CI; the baseline x86-64 target (no FMA, no
  # AVX2) tests the portable paths of the semantics that the Release build replaces; allocator_may_return_null lets a refused
  # huge host allocation reach the code that reports it (as it does without ASan). The
  # sanitized build compiles a subset of the tests (CMakeLists.txt says which and why): with
  # all of them the two builds and runs would pass ~10 minutes on CI's 2 cores
  # (docs/RELIABILITY.md has the measurements).
  [ -f build-asan/CMakeCache.txt ] ||
    cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
      -DWARPSIM_SANITIZE=ON -DWARPSIM_HOST_ARCH= >/dev/null
  cmake --build build-asan -j"$(nproc)" --target warpsim warpsim_tests
  export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1
  export UBSAN_OPTIONS=print_stacktrace=1
  (cd build-asan && ctest -j"$(nproc)" --output-on-failure --timeout 600)
fi
