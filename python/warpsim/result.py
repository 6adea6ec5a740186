"""What a launch returns: statistics, printf output, and a kernel fault as an exception."""

import json


class Stats:
    """A launch's statistics, named as in `warpsim run --json` (harness/report.cpp).

    Attributes: ctas, warps, threads, warp_instructions, thread_instructions, simd_efficiency
    (thread-instructions / (32 x warp-instructions)), by_class ({class: {"warp": n,
    "thread": n}}), branches, divergent_branches, barriers, float_atomics, shared_requests,
    shared_wavefronts, bank_conflicts (wavefronts beyond the conflict-free ones),
    global_requests, global_sectors, sectors_per_request, global_bytes,
    thread_instructions_active (every lane on the warp's path, its guard predicate true or not;
    thread_instructions counts the true ones), ncu ({Nsight Compute metric name: value}).
    """

    def __init__(self, values):
        self._values = dict(values)
        self.__dict__.update(self._values)

    @property
    def instructions(self):
        """Warp-instructions issued (the same as warp_instructions)."""
        return self.warp_instructions

    def as_dict(self):
        return dict(self._values)

    def __repr__(self):
        return (f"Stats(warp_instructions={self.warp_instructions}, "
                f"thread_instructions={self.thread_instructions}, "
                f"simd_efficiency={self.simd_efficiency:.3f}, "
                f"bank_conflicts={self.bank_conflicts}, "
                f"global_sectors={self.global_sectors})")


class LaunchResult:
    """The outcome of one launch.

    stats: Stats; printf: the kernel's printf output (CTA by CTA); seconds: host wall time;
    ctas_run: how many CTAs ran (fewer than the grid after a fault).
    timing: Timing, the timing model's prediction, when the launch asked for it (timing=...);
    else None. checks: Checks, the checkers' findings, when it asked for them (check=...);
    else None.
    """

    def __init__(self, raw):
        self.stats = Stats(json.loads(raw["stats_json"]))
        self.printf = raw["printf"]
        self.seconds = raw["seconds"]
        self.ctas_run = raw["ctas_run"]
        self.timing = Timing(raw["timing"]) if raw.get("timing") else None
        self.checks = Checks(raw["checks"]) if raw.get("checks") else None

    def __repr__(self):
        return f"LaunchResult({self.stats!r}, ctas_run={self.ctas_run}, seconds={self.seconds:.3g})"


class Timing:
    """The timing model's prediction of one launch on an H200, as `warpsim run --timing --json`
    gives it.

    metrics: {name: value} under Nsight Compute's metric names ("gpc__cycles_elapsed.max",
    "gpu__time_duration.sum" in ns, "sm__warps_active.avg.pct_of_peak_sustained_active",
    "smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio", ...), and the model's
    own ("launch__occupancy_limit", "bound"); timing["name"] reads one. cycles, nanoseconds,
    ipc: the main ones. str(timing) is warpsim run --timing's report.
    """

    def __init__(self, raw):
        self.metrics = json.loads(raw["json"])
        self.text = raw["text"]
        self.cycles = self.metrics["gpc__cycles_elapsed.max"]
        self.nanoseconds = self.metrics["gpu__time_duration.sum"]
        self.ipc = self.metrics["sm__inst_executed.avg.per_cycle_active"]

    def __getitem__(self, name):
        return self.metrics[name]

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"Timing(cycles={self.cycles}, nanoseconds={self.nanoseconds:.1f}, ipc={self.ipc:.2f})"


class Checks:
    """The checkers' findings for one launch, as `warpsim check --json` gives them.

    errors: errors over every tool (each site counted once); ok: no error; tools: {name:
    {"errors": n, "warnings": n, "findings": [{"severity", "title", "kernel", "at": {...},
    "other": {...}, "address", "space", "detail", "count"}]}} for each tool that ran. str(checks)
    is the compute-sanitizer-style report.
    """

    def __init__(self, raw):
        self.tools = {t["tool"]: t for t in json.loads(raw["json"])}
        self.errors = raw["errors"]
        self.text = raw["text"]

    @property
    def ok(self):
        return self.errors == 0

    @property
    def findings(self):
        """Every finding of every tool, in tool order, each with its "tool"."""
        return [dict(f, tool=name) for name, t in self.tools.items() for f in t["findings"]]

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"Checks(errors={self.errors}, tools={list(self.tools)})"


class KernelFault(RuntimeError):
    """A kernel's own bug (out-of-bounds access, misaligned address, trap, failed assert,
    barrier deadlock, watchdog), raised by the launch.

    str(fault) is warpsim's report: "kernel fault (KIND): MESSAGE at FILE.cu:LINE (PTX line N,
    INSTRUCTION), thread (x,y,z) block (x,y,z)". Attributes: kind, message, thread and block
    (tuples), lane, warp, ptx_file, ptx_line, instruction, cuda_file and cuda_line (None
    without line info), address (None when the fault has none), details, and result (the
    LaunchResult: statistics and printf output up to the fault). The arrays passed to the
    launch were copied back: they hold what the faulting batch of CTAs left in memory.
    """

    def __init__(self, fault, result):
        super().__init__(fault["text"])
        info = json.loads(fault["json"])
        self.kind = info["kind"]
        self.message = info["message"]
        self.thread = tuple(info["thread"])
        self.block = tuple(info["block"])
        self.lane = fault["lane"]
        self.warp = fault["warp"]
        self.ptx_file = info["ptx_file"]
        self.ptx_line = info["ptx_line"]
        self.instruction = info["instruction"]
        self.cuda_file = info.get("cuda_file")
        self.cuda_line = info.get("cuda_line")
        self.address = info.get("address")
        self.details = info.get("details", "")
        self.result = result
