#!/usr/bin/env python3
"""Joins what scripts/device_timing.sh brought back from the H200 (per card: the launch manifest
of `warpsim measure` and Nsight Compute's raw CSV, in the same launch order) into one
tab-separated table, one row per launch, the metrics under their ncu names, as committed in
tests/recorded/timing/ and read by `warpsim correlate`.

    python3 scripts/ncu_join.py TIMING.tgz > tests/recorded/timing/h200_ncu.tsv
    python3 scripts/ncu_join.py --keep-repeats REPEATS.tgz > ...   (every run of a problem that
        `warpsim measure --repeat` ran more than once, not only the first)

Problems whose result differed from the CPU reference on the GPU (the log says FAILED), and
launches that ncu did not profile (a failed launch ends the process), are left out.
"""
import csv
import io
import re
import sys
import tarfile

# The metrics kept, in this order (device_timing.sh asks for these and more).
KEEP = [
    "gpc__cycles_elapsed.max", "gpc__cycles_elapsed.avg", "sm__cycles_elapsed.avg",
    "sm__cycles_active.avg", "sm__cycles_active.max", "sm__cycles_elapsed.avg.per_second",
    "dram__cycles_elapsed.avg.per_second", "gpu__time_duration.sum",
    "smsp__inst_executed.sum", "smsp__thread_inst_executed.sum",
    "smsp__thread_inst_executed_pred_on.sum",
    "smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_st.sum",
    "smsp__inst_executed_op_global_ld.sum", "smsp__inst_executed_op_global_st.sum",
    "dram__bytes_read.sum", "dram__bytes_write.sum", "dram__cycles_active.avg",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed", "lts__t_sectors.sum",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed", "lts__cycles_elapsed.avg",
    "lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum", "lts__t_sectors_op_atom.sum",
    "lts__t_sectors_op_red.sum", "lts__t_sector_hit_rate.pct",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active", "sm__maximum_warps_per_active_cycle_pct",
    "launch__registers_per_thread", "launch__shared_mem_per_block_static",
    "launch__waves_per_multiprocessor", "launch__occupancy_limit_blocks",
    "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem",
    "launch__occupancy_limit_warps", "smsp__average_warp_latency_per_inst_issued.ratio",
]
# Families of metrics kept by pattern, whichever of them the CSV has: the stall reasons (a CPI
# stack) and the warp instructions per pipe (scripts/device_pipes.sh).
FAMILIES = re.compile(r"^(smsp__average_warps_issue_stalled_[a-z_]+_per_issue_active\.ratio"
                      r"|smsp__inst_executed_pipe_[a-z0-9_]+\.sum)$")
KEYS = ["card", "size", "seed", "launch", "kernel", "grid", "block", "shared", "threads"]


def number(text):
    return text.replace(",", "")


def main(path, keep_repeats=False):
    tar = tarfile.open(path)
    files = {m.name.lstrip("./"): m for m in tar.getmembers() if m.isfile()}
    text = lambda name: tar.extractfile(files[name]).read().decode()
    out = csv.writer(sys.stdout, delimiter="\t", lineterminator="\n")
    stall_names = None
    seen = set()
    rows_out = []
    for name in sorted(files):
        if not name.endswith(".tsv"):
            continue
        stem = name[:-4]
        failed = set(re.findall(r"^(\S+) size (\d+): .*FAILED$", text(stem + ".log"), re.M))
        manifest = list(csv.DictReader(io.StringIO(text(name)), delimiter="\t"))
        lines = [l for l in text(stem + ".csv").splitlines() if not l.startswith("==")]
        table = list(csv.reader(lines))
        if len(table) < 2:
            print(f"{stem}: no ncu rows", file=sys.stderr)
            continue
        header, profiled = table[0], table[2:]
        col = {h: i for i, h in enumerate(header)}
        if stall_names is None:
            stall_names = sorted(h for h in header if FAMILIES.match(h))
        for m, r in zip(manifest, profiled):
            if r[col["Kernel Name"]] != m["kernel"]:
                print(f"{stem}: launch order differs at {m['card']} {m['size']}", file=sys.stderr)
                break
            key = (m["card"], m["size"], m["launch"])
            if (m["card"], m["size"]) in failed or (key in seen and not keep_repeats):
                continue
            seen.add(key)
            rows_out.append([m[k] for k in KEYS] +
                            [number(r[col[k]]) if k in col else "" for k in KEEP + stall_names])
    out.writerow(KEYS + KEEP + stall_names)
    for r in rows_out:
        out.writerow(r)
    print(f"{len(rows_out)} launches", file=sys.stderr)


if __name__ == "__main__":
    args = sys.argv[1:]
    keep = "--keep-repeats" in args
    main([a for a in args if a != "--keep-repeats"][0], keep)
