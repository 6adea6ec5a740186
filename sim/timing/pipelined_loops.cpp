#include "sim/timing/pipelined_loops.h"

namespace warpsim::sim::timing {

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
      readOnly |=
          in.cls == K::LoadGlobal && in.mods.space == isa::Space::Global && in.mods.has("nc");
    }
    if (!straight || !barrier || !readOnly) continue;
    for (uint32_t i = br.target; i <= pc; ++i) {
      const isa::Inst& in = f.code[i];
      out.body[&in] = length;
      if (in.cls == K::LoadGlobal && in.mods.space == isa::Space::Global && in.mods.has("nc"))
        out.readOnlyLoads.insert(&in);
    }
    out.backEdges.insert(&br);
  }
}

}  // namespace warpsim::sim::timing
