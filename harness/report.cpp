#include "harness/report.h"

#include <cstdio>

namespace warpsim::harness {

std::string formatStats(const sim::Stats& s) {
  char b[256];
  std::string o;
  std::snprintf(b, sizeof b, "  CTAs %llu, warps %llu, threads %llu\n", (unsigned long long)s.ctas,
                (unsigned long long)s.warps, (unsigned long long)s.threads);
  o += b;
  std::snprintf(b, sizeof b,
                "  warp-instructions %llu, thread-instructions %llu (guard true; %llu active), "
                "SIMD efficiency %.1f%%\n",
                (unsigned long long)s.totalWarpInsns(), (unsigned long long)s.totalThreadInsns(),
                (unsigned long long)s.activeThreadInsns, 100.0 * s.simdEfficiency());
  o += b;
  o += "  by class:";
  for (size_t i = 0; i < sim::Stats::kClasses; ++i)
    if (s.warpInsns[i]) {
      std::snprintf(b, sizeof b, " %s %llu", isa::insnClassName(isa::InsnClass(i)),
                    (unsigned long long)s.warpInsns[i]);
      o += b;
    }
  o += "\n";
  std::snprintf(b, sizeof b, "  branches %llu (divergent %llu), barriers %llu\n",
                (unsigned long long)s.branches, (unsigned long long)s.divergentBranches,
                (unsigned long long)s.barriers);
  o += b;
  std::snprintf(b, sizeof b,
                "  shared: %llu requests, %llu wavefronts, %llu bank-conflict wavefronts\n",
                (unsigned long long)s.sharedRequests, (unsigned long long)s.sharedWavefronts,
                (unsigned long long)s.bankConflicts());
  o += b;
  std::snprintf(b, sizeof b,
                "  global: %llu requests, %llu sectors (%.2f per request), %llu bytes\n",
                (unsigned long long)s.globalRequests, (unsigned long long)s.globalSectors,
                s.sectorsPerRequest(), (unsigned long long)s.globalBytes);
  o += b;
  if (s.floatAtomics)
    o += "  note: " + std::to_string(s.floatAtomics) +
         " floating-point atomics ran; their order (and so the rounding of the result) depends "
         "on the order CTAs ran in: --serial makes it deterministic\n";
  return o;
}

void statsJson(Json& j, const sim::Stats& s) {
  j.beginObject();
  j.field("ctas", s.ctas).field("warps", s.warps).field("threads", s.threads);
  j.field("warp_instructions", s.totalWarpInsns());
  j.field("thread_instructions", s.totalThreadInsns());
  j.field("simd_efficiency", s.simdEfficiency());
  j.key("by_class").beginObject();
  for (size_t i = 0; i < sim::Stats::kClasses; ++i)
    if (s.warpInsns[i]) {
      j.key(isa::insnClassName(isa::InsnClass(i))).beginObject();
      j.field("warp", s.warpInsns[i]).field("thread", s.threadInsns[i]);
      j.endObject();
    }
  j.endObject();
  j.field("branches", s.branches).field("divergent_branches", s.divergentBranches);
  j.field("barriers", s.barriers).field("float_atomics", s.floatAtomics);
  j.field("shared_requests", s.sharedRequests).field("shared_wavefronts", s.sharedWavefronts);
  j.field("bank_conflicts", s.bankConflicts());
  j.field("global_requests", s.globalRequests).field("global_sectors", s.globalSectors);
  j.field("sectors_per_request", s.sectorsPerRequest()).field("global_bytes", s.globalBytes);
  j.field("thread_instructions_active", s.activeThreadInsns);
  // The same counts under the names Nsight Compute gives them (PTX instructions here, SASS on
  // the chip): what a script written against ncu's output reads.
  j.key("ncu").beginObject();
  j.field("sm__ctas_launched.sum", s.ctas).field("smsp__warps_launched.sum", s.warps);
  j.field("smsp__inst_executed.sum", s.totalWarpInsns());
  j.field("smsp__thread_inst_executed.sum", s.activeThreadInsns);
  j.field("smsp__thread_inst_executed_pred_on.sum", s.totalThreadInsns());
  j.field("smsp__thread_inst_executed_per_inst_executed.ratio",
          s.totalWarpInsns() ? double(s.activeThreadInsns) / double(s.totalWarpInsns()) : 0.0);
  j.field("smsp__inst_executed_op_branch.sum", s.branches);
  j.field("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", s.sharedWavefronts);
  j.field("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", s.bankConflicts());
  j.endObject();
  j.endObject();
}

void faultJson(Json& j, const sim::FaultInfo& f, const std::string& ptxPath) {
  j.beginObject();
  j.field("kind", sim::faultKindName(f.kind));
  j.field("message", f.message);
  j.field("ptx_file", ptxPath).field("ptx_line", uint64_t(f.ptxLine));
  j.field("instruction", f.instruction);
  if (!f.cudaFile.empty())
    j.field("cuda_file", f.cudaFile).field("cuda_line", uint64_t(f.cudaLine));
  j.key("thread")
      .beginArray()
      .value(uint64_t(f.thread.x))
      .value(uint64_t(f.thread.y))
      .value(uint64_t(f.thread.z))
      .endArray();
  j.key("block")
      .beginArray()
      .value(uint64_t(f.cta.x))
      .value(uint64_t(f.cta.y))
      .value(uint64_t(f.cta.z))
      .endArray();
  if (f.hasAddress) j.field("address", f.address);
  if (!f.details.empty()) j.field("details", f.details);
  j.endObject();
}

std::string formatMismatch(const std::vector<kernels::HostBuffer>& buffers, const Mismatch& m) {
  const kernels::HostBuffer& b = buffers[m.buffer];
  std::string s = "buffer " + b.name + "[" + std::to_string(m.index) + "]: expected " +
                  formatElement(b.type, m.expected) + ", got " + formatElement(b.type, m.actual);
  if (m.ulp != UINT64_MAX) s += ", distance " + std::to_string(m.ulp);
  return s;
}

}  // namespace warpsim::harness
