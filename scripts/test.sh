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
  # The sanitized build (scripts/build_sanitized.sh; scripts/setup.sh made it): rebuilt here
  # only where a change touched it. allocator_may_return_null lets a refused huge host
  # allocation reach the code that reports it (as it does without ASan).
  bash scripts/build_sanitized.sh
  export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1
  export UBSAN_OPTIONS=print_stacktrace=1
  (cd build-asan && ctest -j"$(nproc)" --output-on-failure --timeout 600)
fi
