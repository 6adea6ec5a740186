#!/usr/bin/env bash
# The install_consumer test: installs BUILD_DIR into a temporary prefix, then configures, builds
# and runs tests/install/consumer against it with find_package(warpsim). Usage:
#   bash tests/install/install_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/warpsim-install-XXXXXX)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
test -x "$work/prefix/bin/warpsim"
"$work/prefix/bin/warpsim" --version
# The consumer compiles with the build's compiler (and its ccache, if any).
compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
launcher=$(sed -n 's/^CMAKE_CXX_COMPILER_LAUNCHER:[A-Z]*=//p' "$build/CMakeCache.txt")
cmake -S "$here/consumer" -B "$work/consumer" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$compiler" \
  ${launcher:+-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher"} >"$work/configure.log" \
  || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/consumer" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
out=$("$work/consumer/consumer")
echo "$out"
# y = 2 x over x = 0..63: the sum is 2 * 2016
[ "${out%%,*}" = "sum 4032" ]
