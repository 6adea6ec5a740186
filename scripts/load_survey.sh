#!/usr/bin/env bash
# How much public CUDA code warpsim can run: compiles every .cu file of the given source trees
# with nvcc 13 for sm_90 (-O3 -lineinfo, as the projects build; `--use_fast_math` where
# FASTMATH=1), then `warpsim support` on all the PTX: the share of kernels that run and the
# constructs that stop the others (docs/FIDELITY.md, "Real code: how much loads").
#
#   bash scripts/load_survey.sh OUT_DIR SOURCE_TREE...
#
# A file nvcc cannot compile on its own (a missing header or library: the projects build them
# with their own flags) is left out and counted; the survey is about the PTX nvcc produces.
# Include paths tried for each file: its own folder, the tree's root and its Common/, common/,
# include/, inc/, util/ folders. JOBS (default: the cores) nvcc processes run side by side.
# NVCC_EXTRA adds flags (e.g. -DcudaThreadSynchronize=cudaDeviceSynchronize for code older than
# CUDA 13, which removed it; -I of another tree's headers such as cuda-samples' Common/).
set -uo pipefail
out=${1:?usage: load_survey.sh OUT_DIR SOURCE_TREE...}
shift
bin=${WARPSIM:-$(dirname "$0")/../build/bin/warpsim}
jobs=${JOBS:-$(nproc)}
mkdir -p "$out/ptx"
: > "$out/ptx.list"
: > "$out/nvcc_failed.list"
for tree in "$@"; do
  name=$(basename "$tree")
  incs="-I$tree"
  for d in Common common include inc util; do [ -d "$tree/$d" ] && incs="$incs -I$tree/$d"; done
  find "$tree" -name '*.cu' | sort | while read -r cu; do
    echo "$cu"
  done | xargs -P "$jobs" -I{} sh -c '
    cu="$1"; rel=${cu#'"$tree"'/}; ptx="'"$out"'/ptx/'"$name"'/${rel%.cu}.ptx"
    mkdir -p "$(dirname "$ptx")"
    if nice nvcc -ptx -arch=sm_90 -O3 -lineinfo ${FASTMATH:+--use_fast_math} -std=c++17 ${NVCC_EXTRA:-} \
         -I"$(dirname "$cu")" '"$incs"' "$cu" -o "$ptx" 2>/dev/null; then
      echo "$ptx" >> "'"$out"'/ptx.list"
    else
      echo "$cu" >> "'"$out"'/nvcc_failed.list"
    fi' _ {}
done
sort -o "$out/ptx.list" "$out/ptx.list"
echo "nvcc compiled $(wc -l < "$out/ptx.list") files; $(wc -l < "$out/nvcc_failed.list") did not compile on their own"
"$bin" support "@$out/ptx.list" --kernels --top 25 > "$out/support.txt"
tail -27 "$out/support.txt"
