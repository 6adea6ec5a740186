#!/usr/bin/env bash
# Builds (if needed) and runs every test: unit tests, RapidCheck properties, golden files.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
cd build && ctest -j"$(nproc)" --output-on-failure --timeout 600
