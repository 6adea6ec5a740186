#!/usr/bin/env bash
# Nsight Compute measurements of the suite on the H200, for the performance model's
# correlation (warpsim correlate) and calibration, in two steps:
#
#   here:    bash scripts/device_campaign.sh prepare
#   device:  bash scripts/device_timing.sh [PATTERN...]      (carry ["build/bin"])
#            every suite card (or those named) at a ladder of sizes (warpsim measure), each
#            launch profiled once by ncu with the clocks left alone (--clock-control none) and
#            cold caches (--cache-control all); $OUT/timing.tgz holds per card the launch
#            manifest (.tsv) and ncu's raw CSV (.csv), and $OUT/timing.summary.txt the log.
#   here:    python3 scripts/ncu_join.py <files_at>/timing.tgz > tests/recorded/timing/h200_ncu.tsv
#
# BUDGET (seconds, default 500) stops starting new cards in time to send the results back.
# MEASURE_ARGS passes options to `warpsim measure` (e.g. "--sizes 65536 --repeat 10"), WORK names
# the scratch folder and TAG the archive ($OUT/$TAG.tgz), so that one device call can run the
# script several times with different options.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
BIN=build/bin
export LD_LIBRARY_PATH=$PWD/$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
BUDGET=${BUDGET:-500}
LADDER=${LADDER:-3}
MAX_THREADS=${MAX_THREADS:-4194304}
MEASURE_ARGS=${MEASURE_ARGS:-}
work=${WORK:-/tmp/timing}
TAG=${TAG:-timing}
mkdir -p "$OUT" "$work"
# The metrics the model is compared with and calibrated by (../shared/TIMING.md, section 4):
# cycles and clocks, instructions, the memory hierarchy's traffic and hit rates, shared-memory
# wavefronts and conflicts, occupancy and its limits, and the stall reasons (a CPI stack).
metrics=gpc__cycles_elapsed.max,gpc__cycles_elapsed.avg,sm__cycles_elapsed.avg,sm__cycles_elapsed.max
metrics+=,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.avg.per_second
metrics+=,dram__cycles_elapsed.avg.per_second,gpu__time_duration.sum
metrics+=,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_pred_on.sum
metrics+=,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
metrics+=,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,dram__cycles_active.avg
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,lts__t_sectors.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__cycles_elapsed.avg
metrics+=,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum
metrics+=,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct
metrics+=,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__waves_per_multiprocessor
metrics+=,launch__occupancy_limit_blocks,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
metrics+=,smsp__average_warp_latency_per_inst_issued.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active
metrics+=",regex:^smsp__average_warps_issue_stalled_[a-z_]+_per_issue_active\.ratio$"
{
  echo "== device"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader
  ncu --version | tail -1
  if [ $# -gt 0 ]; then cards="$*"; else cards=$("$BIN/warpsim" suite --list | awk '{print $1}'); fi
  for c in $cards; do
    if [ "$SECONDS" -ge "$BUDGET" ]; then echo "$c: skipped (budget)"; continue; fi
    timeout 240 ncu --clock-control none --cache-control all --csv --page raw --print-units base \
      --metrics "$metrics" --log-file "$work/$c.csv" \
      "$BIN/warpsim" measure "$c" --ladder "$LADDER" --max-threads "$MAX_THREADS" \
      --manifest "$work/$c.tsv" $MEASURE_ARGS > "$work/$c.log" 2>&1
    rc=$?
    echo "$c: exit $rc after ${SECONDS}s; $(tail -1 "$work/$c.log")"
    [ "$rc" = 0 ] || { head -c 2000 "$work/$c.log"; head -c 2000 "$work/$c.csv"; }
  done
} 2>&1 | tee "$OUT/$TAG.summary.txt"
tar -C "$work" -czf "$OUT/$TAG.tgz" .
