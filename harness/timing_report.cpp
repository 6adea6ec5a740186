#include "harness/timing_report.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "sim/timing/flops.h"

namespace warpsim::harness {

namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string u(uint64_t v) { return std::to_string(v); }

// "1.23e+06" style for FLOP and byte counts.
std::string g(double v) { return fmt("%.3g", v); }

std::string roofline(const sim::timing::TimingReport& r) {
  using sim::timing::FlopKind;
  const unsigned k = r.dominantFlopKind();
  const char* kind = sim::timing::flopKindName(FlopKind(k + 1));
  const double seconds = r.seconds();
  const double peakFlops = r.peaks.flopPerCycle[k] * r.smCount * r.clockGhz * 1e9;
  const double peakBytes = r.peaks.dramTbPerS * 1e12;
  std::string s = "  roofline: " + g(double(r.totalFlops())) + " FLOP (fp32 " + g(r.flops[0]) +
                  ", fp64 " + g(r.flops[1]) + ", fp16 " + g(r.flops[2]) + ", tensor " +
                  g(r.flops[3]) + "), " + u(r.mem.dramReadBytes + r.mem.dramWriteBytes) +
                  " DRAM bytes, " + fmt("%.3g", r.arithmeticIntensity()) + " FLOP/byte (" + kind +
                  " ridge " + fmt("%.3g", peakBytes > 0 ? peakFlops / peakBytes : 0) + ")\n";
  s += "    compute " + fmt("%.1f%%", 100 * r.flopUtilization(k)) + " of " + kind + " peak (" +
       g(seconds > 0 ? r.flops[k] / seconds / 1e12 : 0) + " of " + g(peakFlops / 1e12) +
       " TFLOP/s), DRAM bandwidth " + fmt("%.1f%%", 100 * r.dramBandwidthUtilization()) +
       " of peak (" +
       g(seconds > 0 ? (r.mem.dramReadBytes + r.mem.dramWriteBytes) / seconds / 1e12 : 0) + " of " +
       g(r.peaks.dramTbPerS) + " TB/s)\n";
  return s;
}

std::string sourceLinesText(const sim::timing::TimingReport& r, unsigned n) {
  using sim::timing::Stall;
  const uint64_t all =
      std::accumulate(r.sourceLines.begin(), r.sourceLines.end(), uint64_t(0),
                      [](uint64_t a, const sim::timing::SourceLine& l) { return a + l.total(); });
  std::string s = "  source lines (warp-cycles; top " +
                  u(std::min<uint64_t>(n, r.sourceLines.size())) + " of " +
                  u(r.sourceLines.size()) + "):\n";
  for (size_t i = 0; i < r.sourceLines.size() && i < n; ++i) {
    const sim::timing::SourceLine& l = r.sourceLines[i];
    std::string where = "    " + l.where();
    where.resize(std::max<size_t>(where.size(), 28), ' ');
    s += where + fmt(" %5.1f%%", all ? 100.0 * l.total() / all : 0) + "  issued " + u(l.issued());
    // Its three largest stall reasons.
    std::vector<size_t> order;
    for (size_t k = 0; k < l.cycles.size(); ++k)
      if (k != size_t(Stall::Selected) && l.cycles[k]) order.push_back(k);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return l.cycles[a] > l.cycles[b]; });
    for (size_t k = 0; k < order.size() && k < 3; ++k)
      s += std::string(k ? ", " : "  stalls: ") + sim::timing::stallName(Stall(order[k])) + " " +
           u(l.cycles[order[k]]);
    s += "\n";
  }
  return s;
}

}  // namespace

std::string formatTiming(const sim::timing::TimingReport& r, unsigned sourceLines) {
  using sim::timing::Stall;
  const sim::timing::Occupancy& o = r.occupancy;
  std::string s;
  s += "timing (" + r.configName + ", " + r.scheduler + " scheduler):\n";
  s += "  predicted cycles: " + u(r.cycles) + " (" + fmt("%.2f", r.seconds() * 1e6) + " us at " +
       fmt("%.2f", r.clockGhz) + " GHz; launch latency " + u(r.launchLatency) + " included)\n";
  s += "  CTAs: " + u(r.ctas) + " in " + u(r.waves) + " wave(s) of " + u(o.ctasPerSm) +
       " per SM on " + u(r.smCount) + " SMs\n";
  if (r.sampledWaves)
    s += "  sampled: " + u(r.detailedCtas) + " CTAs (" + u(r.sampledWaves) +
         " wave(s)) simulated in detail, the rest functionally; cycles and counters "
         "extrapolated\n";
  s += "  occupancy: theoretical " + fmt("%.1f%%", 100 * o.theoretical()) + ", achieved " +
       fmt("%.1f%%", 100 * r.achievedOccupancy) + ", limited by " + o.limiter + " (" +
       u(o.registersPerThread) + " registers/thread from " + o.resourceSource + ", " +
       u(o.sharedPerCta) + " B shared/CTA, L1 " + u(o.l1Bytes / 1024) + " KB)\n";
  if (!r.fixedStalls.empty()) s += "  fixed stalls: " + r.fixedStalls + "\n";
  s += "  IPC: " + fmt("%.3f", r.ipc()) + " warp-instructions/cycle/SM (" + u(r.warpInstructions) +
       " warp-instructions, issue slots " + fmt("%.1f%%", 100 * r.issueUtilization()) + " busy)\n";
  s += "  bound: " + r.bound() + " (issue " + fmt("%.1f%%", 100 * r.issueUtilization()) + ", L2 " +
       fmt("%.1f%%", 100 * r.l2Utilization()) + ", DRAM " +
       fmt("%.1f%%", 100 * r.dramUtilization()) + " of peak)\n";
  s += "  warp stalls (cycles per issued instruction):\n";
  for (size_t i = 0; i < size_t(Stall::Count_); ++i) {
    const double v = r.stallPerIssue(Stall(i));
    if (r.stalls[i] == 0) continue;
    std::string name = "    stall_" + std::string(sim::timing::stallName(Stall(i)));
    name.resize(std::max<size_t>(name.size(), 30), ' ');
    s += name + fmt(" %6.2f", v) + "\n";
  }
  const auto& m = r.mem;
  s += "  L1 hit rate: " + fmt("%.1f%%", 100 * r.l1HitRate()) + " (" + u(m.l1Hits) + " of " +
       u(m.l1Hits + m.l1Misses) + " load sectors)\n";
  s += "  L2 hit rate: " + fmt("%.1f%%", 100 * r.l2HitRate()) + " (" + u(m.l2Hits) + " of " +
       u(m.l2Hits + m.l2Misses) + " sectors)\n";
  s += "  DRAM: " + u(m.dramReadBytes) + " bytes read, " + u(m.dramWriteBytes) + " written\n";
  s += "  shared: " + u(m.sharedRequests) + " requests, " + u(m.sharedWavefronts) +
       " wavefronts, " + u(r.bankConflicts()) + " bank conflicts\n";
  s += "  global: " + u(m.globalLoadRequests + m.globalStoreRequests) + " requests, " +
       fmt("%.2f", r.sectorsPerRequest()) + " sectors/request\n";
  s += roofline(r);
  if (sourceLines && !r.sourceLines.empty()) s += sourceLinesText(r, sourceLines);
  return s;
}

void timingJson(Json& j, const sim::timing::TimingReport& r) {
  using sim::timing::Stall;
  const sim::timing::Occupancy& o = r.occupancy;
  const auto& m = r.mem;
  j.beginObject();
  j.field("config", r.configName).field("scheduler", r.scheduler).field("clock_ghz", r.clockGhz);
  j.field("gpc__cycles_elapsed.max", r.cycles);
  j.field("gpu__time_duration.sum", r.seconds() * 1e9);
  j.field("launch_latency_cycles", r.launchLatency);
  j.field("sm__cycles_active.avg", r.smCount ? double(r.smActiveCyclesSum) / r.smCount : 0.0);
  j.field("smsp__inst_executed.sum", r.warpInstructions);
  j.field("smsp__thread_inst_executed.sum", r.threadInstructions);
  j.field("sm__inst_executed.avg.per_cycle_active", r.ipc());
  j.field("sm__warps_active.avg.pct_of_peak_sustained_active", 100 * r.achievedOccupancy);
  j.field("sm__maximum_warps_per_active_cycle_pct", 100 * o.theoretical());
  j.field("launch__occupancy_limit", o.limiter);
  j.field("launch__occupancy_per_sm_ctas", uint64_t(o.ctasPerSm));
  j.field("launch__registers_per_thread", uint64_t(o.registersPerThread));
  j.field("launch__registers_source", o.resourceSource);
  if (!r.fixedStalls.empty()) j.field("launch__fixed_stalls_source", r.fixedStalls);
  j.field("launch__shared_mem_per_block", uint64_t(o.sharedPerCta));
  j.field("launch__grid_size", r.ctas);
  j.field("launch__waves_per_multiprocessor", r.waves);
  for (size_t i = 0; i < size_t(Stall::Count_); ++i)
    j.field("smsp__average_warps_issue_stalled_" + std::string(sim::timing::stallName(Stall(i))) +
                "_per_issue_active.ratio",
            r.stallPerIssue(Stall(i)));
  // Warp-instructions per pipe, as ncu counts them: its lsu pipe takes global, local and shared
  // accesses and shuffles alike (the model's LSU and MIO), its fma pipe both halves.
  {
    using sim::timing::Unit;
    const auto pipe = [&](Unit u) { return r.pipeIssues[size_t(u)]; };
    for (Unit u : {Unit::Alu, Unit::FmaHeavy, Unit::FmaLite, Unit::Fp64, Unit::Sfu, Unit::Tensor})
      j.field("smsp__inst_executed_pipe_" + std::string(sim::timing::unitName(u)) + ".sum",
              pipe(u));
    j.field("smsp__inst_executed_pipe_fma.sum", pipe(Unit::FmaHeavy) + pipe(Unit::FmaLite));
    j.field("smsp__inst_executed_pipe_lsu.sum", pipe(Unit::Lsu) + pipe(Unit::Mio));
  }
  j.field("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", m.globalLoadSectors);
  j.field("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", m.globalStoreSectors);
  j.field("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", m.globalLoadRequests);
  j.field("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", m.globalStoreRequests);
  j.field("l1tex__t_sector_hit_rate.pct", 100 * r.l1HitRate());
  j.field("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global.ratio", r.sectorsPerRequest());
  j.field("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", m.sharedWavefronts);
  j.field("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", r.bankConflicts());
  j.field("lts__t_sectors_op_read.sum", m.l2ReadSectors);
  j.field("lts__t_sectors_op_write.sum", m.l2WriteSectors);
  j.field("lts__t_sectors_op_atom.sum", m.l2AtomicSectors);
  j.field("lts__t_sector_hit_rate.pct", 100 * r.l2HitRate());
  j.field("dram__bytes_read.sum", m.dramReadBytes);
  j.field("dram__bytes_write.sum", m.dramWriteBytes);
  j.field("bound", r.bound());
  // The roofline: FLOP by kind (an FMA is 2), intensity and achieved over peak.
  j.field("flop_fp32", r.flops[0]).field("flop_fp64", r.flops[1]);
  j.field("flop_fp16", r.flops[2]).field("flop_tensor", r.flops[3]);
  j.field("flop_total", r.totalFlops());
  j.field("arithmetic_intensity_flop_per_byte", r.arithmeticIntensity());
  const unsigned k = r.dominantFlopKind();
  j.field("roofline_compute_kind",
          std::string(sim::timing::flopKindName(sim::timing::FlopKind(k + 1))));
  j.field("roofline_compute_pct_of_peak", 100 * r.flopUtilization(k));
  j.field("roofline_dram_bandwidth_pct_of_peak", 100 * r.dramBandwidthUtilization());
  j.field("sampled_waves", r.sampledWaves);
  if (r.sampledWaves) j.field("detailed_ctas", r.detailedCtas);
  if (!r.sourceLines.empty()) {
    j.key("source_lines").beginArray();
    for (const sim::timing::SourceLine& l : r.sourceLines) {
      j.beginObject();
      j.field("file", l.file)
          .field("line", uint64_t(l.line))
          .field("ptx_line", uint64_t(l.ptxLine));
      j.field("warp_cycles", l.total()).field("issued", l.issued());
      j.key("stalls").beginObject();
      for (size_t i = 0; i < l.cycles.size(); ++i)
        if (i != size_t(sim::timing::Stall::Selected) && l.cycles[i])
          j.field(sim::timing::stallName(sim::timing::Stall(i)), l.cycles[i]);
      j.endObject();
      j.endObject();
    }
    j.endArray();
  }
  j.field("host_seconds", r.hostSeconds);
  j.endObject();
}

void timingConfigJson(Json& j, const sim::timing::TimingConfig& c) {
  j.beginObject();
  for (const sim::timing::ParamInfo& p : sim::timing::parameterTable()) {
    const std::string v = sim::timing::paramValueText(c, p.key);
    if (p.type == "string")
      j.field(p.key, v.substr(1, v.size() - 2));
    else if (p.type == "integer")
      j.field(p.key, uint64_t(std::stoull(v)));
    else
      j.field(p.key, std::stod(v));
  }
  j.endObject();
}

}  // namespace warpsim::harness
