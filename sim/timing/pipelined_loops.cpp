#include "sim/timing/pipelined_loops.h"

namespace warpsim::sim::timing {

namespace {
// ld.global.nc: what ptxas issues as LDG.E.CONSTANT and may move ahead across a barrier.
bool isReadOnlyLoad(const isa::Inst& in) {
  return in.cls == isa::InsnClass::LoadGlobal && in.mods.space == isa::Space::Global &&
         in.mods.has("nc");
}
}  // namespace

void addPipelinedLoops(const isa::FunctionCode& f, uint32_t maxBody,
                       const std::unordered_set<const isa::Inst*>& notUnrolled,
                       PipelinedLoops& out) {
  using K = isa::InsnClass;
  for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
    const isa::Inst& br = f.code[pc];
    if (br.flow != isa::Flow::Branch || br.target == isa::kNoPc || br.target > pc ||
        br.guard == isa::kNoSlot || notUnrolled.count(&br))
      continue;
    const uint32_t length = pc - br.target + 1;
    if (length > maxBody) continue;
    bool straight = true, barrier = false, readOnly = false;
    for (uint32_t i = br.target; i < pc && straight; ++i) {
      const isa::Inst& in = f.code[i];
      straight = in.flow == isa::Flow::Next || in.flow == isa::Flow::Barrier;
      barrier |= in.cls == K::Barrier;
      readOnly |= isReadOnlyLoad(in);
    }
    if (!straight || !barrier || !readOnly) continue;
    for (uint32_t i = br.target; i <= pc; ++i) {
      const isa::Inst& in = f.code[i];
      out.body[&in] = length;
      if (isReadOnlyLoad(in)) out.readOnlyLoads.insert(&in);
    }
    out.backEdges.insert(&br);
  }
}

}  // namespace warpsim::sim::timing
