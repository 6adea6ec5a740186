#!/usr/bin/env bash
# The install_consumer test: installs BUILD_DIR into a prefix of its own (under
# BUILD_DIR/install_test), then configures, builds and runs tests/install/consumer against it
# with find_package(warpsim). Usage:
#   bash tests/install/install_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
# Inside the build tree, at a fixed path: a compiler cache then finds the consumer's object
# from the last run (its include paths are the same), and the test takes seconds.
work="$build/install_test"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
test -x "$work/prefix/bin/warpsim"
"$work/prefix/bin/warpsim" --version
# The installed CLI runs a CUDA program with the installed libcuda.so.1 (not the build's).
"$work/prefix/bin/warpsim" exec "$build/programs/vector_add" | grep PASSED
# The installed Python package imports from the prefix's site-packages and runs a kernel (the
# interpreter the build's module was made for; none when the build has no Python module).
python=$(sed -n 's/^WARPSIM_PYTHON_INTERPRETER:[A-Z]*=//p' "$build/CMakeCache.txt")
if [ -n "$python" ]; then
  site=$(sed -n 's/^WARPSIM_PYTHON_INSTALL_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")
  case "$site" in /*) ;; *) site="$work/prefix/$site" ;; esac
  test -f "$site/warpsim/__init__.py"
  pyout=$(cd "$work" && PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 "$python" \
    "$here/use_installed.py" "$site")
  echo "$pyout"
  [ "${pyout%%,*}" = "python sum 4032" ]
fi
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
