#!/usr/bin/env bash
# Configures (once) and builds build-asan: AddressSanitizer + UndefinedBehaviorSanitizer at -O1
# for the baseline x86-64 target (no FMA, no AVX2), so the portable paths of the semantics that
# the Release build replaces are tested too. scripts/setup.sh builds it with everything else, so
# that scripts/test.sh only runs tests (and rebuilds what a change touched); the sanitized
# build compiles a subset of the tests (CMakeLists.txt says which and why).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build-asan/CMakeCache.txt ] ||
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
    -DWARPSIM_SANITIZE=ON -DWARPSIM_HOST_ARCH= >/dev/null
cmake --build build-asan -j"$(nproc)" --target warpsim warpsim_tests
