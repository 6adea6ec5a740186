#!/usr/bin/env bash
# Installs every package warpsim needs (Debian 12), then configures and builds it in build/,
# and the sanitized build the tests also run in build-asan/ (WARPSIM_SKIP_ASAN=1 leaves that
# out, for a quicker first run; scripts/test.sh then skips it too when given the same).
# The CUDA Toolkit (nvcc, ptxas) is expected in /usr/local/cuda or on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends \
  build-essential cmake libboost-dev libboost-graph-dev libboost-program-options-dev \
  libtbb-dev librapidcheck-dev libgtest-dev libbenchmark-dev clang-format \
  libzstd-dev liblz4-dev git \
  python3-dev pybind11-dev python3-numpy python3-scipy python3-pytest nlohmann-json3-dev \
  python3-matplotlib
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: nvcc not found: install the CUDA Toolkit 13 (nvcc) in /usr/local/cuda or on PATH" >&2
  exit 2
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
if [ "${WARPSIM_SKIP_ASAN:-0}" != 1 ]; then
  bash scripts/build_sanitized.sh
fi
