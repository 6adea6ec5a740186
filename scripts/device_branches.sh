#!/usr/bin/env bash
# What a branch and a divergence cost on the chip (issue 9), in one device call: Nsight Compute
# over micro_branch_chain (kernels/micro/branch_chains.cu) at 64 and 256 rounds
# (scripts/device_timing.sh), and the SASS ptxas makes of branch_chains (cuobjdump -sass).
#
#   here:    bash scripts/device_campaign.sh prepare && tar -cJf .devcarry/ptx.tar.xz build/ptx
#   device:  tar xJf .devcarry/bin.tar.xz && tar xJf .devcarry/ptx.tar.xz &&
#            bash scripts/device_branches.sh          (carry [".devcarry"])
#   here:    python3 scripts/ncu_join.py <files_at>/branches.tgz \
#              > tests/recorded/timing/h100_branches.tsv   (or h200_: device.txt names the card)
# Results under $OUT: device.txt, branches.tgz, branches.summary.txt, sass_branches.txt.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/out}
export LD_LIBRARY_PATH=$PWD/build/bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$OUT" /tmp/branches_sass
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader |
  tee "$OUT/device.txt"
BUDGET=120 TAG=branches WORK=/tmp/branches MEASURE_ARGS="--sizes 64,256" \
  bash scripts/device_timing.sh micro_branch_chain | tail -n 3
ptxas -arch=sm_90 -o /tmp/branches_sass/branch_chains.cubin build/ptx/branch_chains.ptx &&
  cuobjdump -sass /tmp/branches_sass/branch_chains.cubin > "$OUT/sass_branches.txt" 2>&1
