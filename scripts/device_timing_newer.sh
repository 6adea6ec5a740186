#!/usr/bin/env bash
# Nsight Compute on the H200 for the suite cards that tests/recorded/timing/h200_ncu.tsv does not
# hold yet (issue 9: every suite card at two or more sizes; the cp.async-against-plain-loads
# pair), in two device calls of under 600 s each:
#
#   here:    bash scripts/device_campaign.sh prepare && tar -cJf .devcarry/ptx.tar.xz build/ptx
#   device:  tar xJf .devcarry/bin.tar.xz && tar xJf .devcarry/ptx.tar.xz &&
#            bash scripts/device_timing_newer.sh 1          (carry [".devcarry"])
#            ... and the same with 2 in a second call
#   here:    python3 scripts/ncu_join.py <files_at>/GROUP.tgz >> a new tests/recorded/timing file
#            (kept apart from h200_ncu.tsv until the model is checked on them: the CI floor
#            reads h200_ncu.tsv)
#
# Call 1: the tensor-core and cp.async cards at four sizes (sgemm_cp_async against sgemm_tiled
# at 128-1024 is the pair), then the newer cards at three. Call 2: the cards with many launches
# or device-side work (heap_list, cdp_quicksort, gauss_elim), then, on an H200 only, the cluster
# and fence probes that ran on an H100 so far. Call 3 (either card): the device heap's cost
# against its state (micro_heap_lanes, micro_heap_calls at more sizes, heap_list at two more)
# and HBM's rate against its access pattern (micro_dram_streams). Call 4 (either card): a
# shrinking mask's malloc cost (micro_heap_shrink) beside heap_list. Call 5 (either card):
# HBM's latency against the bytes in flight (micro_dram_inflight) and every PTX's SASS. Each
# group stops starting cards at its budget.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader |
  tee "$OUT/device.txt"
case "${1:-1}" in
  1)
    BUDGET=230 TAG=tensor WORK=/tmp/tensor LADDER=4 bash scripts/device_timing.sh sgemm_cp_async \
      hgemm_mma hgemm_wmma hgemm_wgmma tma_tiles | tail -n 8
    BUDGET=300 TAG=newer WORK=/tmp/newer LADDER=3 bash scripts/device_timing.sh attention_fwd \
      compact_ballot resize_bilinear softmax_fast gelu_fast layernorm_rsqrt black_scholes_fast \
      cluster_reduce grid_sync_reduce | tail -n 14
    ;;
  2)
    BUDGET=250 TAG=launches WORK=/tmp/launches LADDER=2 bash scripts/device_timing.sh heap_list \
      cdp_quicksort gauss_elim | tail -n 6
    if grep -q H200 "$OUT/device.txt"; then
      BUDGET=200 bash scripts/device_cluster_timing.sh | tail -n 6
      BUDGET=60 TAG=fence WORK=/tmp/fence bash scripts/device_timing.sh micro_fence | tail -n 3
    fi
    ;;
  3)
    # The device heap's state (docs/FIDELITY.md "Device malloc and free: three resources"): the
    # 32-CTA malloc's cost grows with the calls made (414 cycles a call over the first 16,384,
    # 1,499 over the next 49,152) while heap_list's average 1,660 from the start. First whether a
    # contended call's cost follows its lanes, its warp or a full mask (micro_heap_lanes), then
    # more sizes of each (inside the 8 MiB heap: micro_heap_calls at 32 and heap_list at 8192
    # run it out on the chip as in warpsim, and fail their references). Any card.
    BUDGET=200 TAG=heaplanes WORK=/tmp/heaplanes MEASURE_ARGS="--sizes 2,8,16" \
      bash scripts/device_timing.sh micro_heap_lanes | tail -n 4
    BUDGET=150 TAG=heap WORK=/tmp/heap MEASURE_ARGS="--sizes 1,2,8" bash scripts/device_timing.sh \
      micro_heap_calls | tail -n 4
    BUDGET=120 TAG=heaplist WORK=/tmp/heaplist MEASURE_ARGS="--sizes 1024,2048" \
      bash scripts/device_timing.sh heap_list | tail -n 4
    # HBM against its access pattern (docs/FIDELITY.md "The DRAM-bound cards"): the same bytes
    # as 1 to 8,192 concurrent streams, past the L2 (64 and 256 MiB).
    BUDGET=100 TAG=dram WORK=/tmp/dram MEASURE_ARGS="--sizes 64,256" \
      bash scripts/device_timing.sh micro_dram_streams | tail -n 4
    ;;
  4)
    # heap_list's mallocs cost the chip 1.4 times what micro_heap_calls' and micro_heap_lanes'
    # give its calls a thread (docs/FIDELITY.md "Device malloc: a thread's earlier calls, a
    # warp's first"): micro_heap_shrink's masks shrink round by round as heap_list's do, beside
    # heap_list 4096 in the same call. Any card.
    BUDGET=150 TAG=shrink WORK=/tmp/shrink MEASURE_ARGS="--sizes 8,16,24" \
      bash scripts/device_timing.sh micro_heap_shrink | tail -n 4
    BUDGET=100 TAG=heaplist4096 WORK=/tmp/heaplist4096 MEASURE_ARGS="--sizes 4096" \
      bash scripts/device_timing.sh heap_list | tail -n 4
    ;;
  5)
    # HBM's latency against the bytes in flight (docs/FIDELITY.md "HBM's latency under load"):
    # micro_dram_inflight's 16 launches (8 to 64 warps an SM, 1 to 8 lines in flight a warp)
    # past the L2, then the SASS of every PTX the build made (cuobjdump -sass: which loops
    # ptxas unrolled, e.g. micro_dram_streams' and micro_dram_inflight's trips). Any card.
    BUDGET=240 TAG=inflight WORK=/tmp/inflight MEASURE_ARGS="--sizes 64,256" \
      bash scripts/device_timing.sh micro_dram_inflight | tail -n 4
    mkdir -p /tmp/sass_all
    for ptx in build/ptx/*.ptx; do
      name=$(basename "$ptx" .ptx)
      arch=sm_90
      case "$name" in *_sm90a) arch=sm_90a ;; esac
      timeout 60 ptxas -arch=$arch -o "/tmp/sass_all/$name.cubin" "$ptx" 2>/dev/null &&
        cuobjdump -sass "/tmp/sass_all/$name.cubin" > "/tmp/sass_all/$name.sass" 2>&1
      rm -f "/tmp/sass_all/$name.cubin"
    done
    tar -C /tmp/sass_all -cJf "$OUT/sass_all.tar.xz" . && ls /tmp/sass_all | wc -l
    ;;
  *)
    echo "usage: $0 1|2|3|4|5" >&2
    exit 2
    ;;
esac
