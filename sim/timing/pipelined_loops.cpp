#include "sim/timing/pipelined_loops.h"

#include <algorithm>

#include "isa/insn_table.h"

namespace warpsim::sim::timing {

namespace {
// ld.global.nc: what ptxas issues as LDG.E.CONSTANT and may move ahead across a barrier.
bool isReadOnlyLoad(const isa::Inst& in) {
  return in.cls == isa::InsnClass::LoadGlobal && in.mods.space == isa::Space::Global &&
         in.mods.has("nc");
}
}  // namespace

bool keptRolled(const isa::FunctionCode& f, uint32_t head) {
  if (!f.src || f.src->nounrollLines.empty()) return false;
  const uint32_t first = f.code[head].ptxLine;
  const uint32_t before = head ? f.code[head - 1].ptxLine : 0;
  for (uint32_t line : f.src->nounrollLines)
    if (line == 0 || (line > before && line < first)) return true;
  return false;
}

bool notUnrolledLoop(const isa::FunctionCode& f, uint32_t pc) {
  const isa::Inst& br = f.code[pc];
  if (br.flow != isa::Flow::Branch || br.target == isa::kNoPc || br.target > pc ||
      br.guard == isa::kNoSlot)
    return false;
  if (keptRolled(f, br.target)) return true;
  for (uint32_t i = br.target; i < pc; ++i)
    if (f.code[i].cls == isa::InsnClass::Tensor) return true;
  const isa::RegRef guard{br.guard, true};
  for (uint32_t i = pc; i-- > br.target;) {
    const isa::Inst& cmp = f.code[i];
    if (std::find(cmp.defs.begin(), cmp.defs.end(), guard) == cmp.defs.end()) continue;
    if (cmp.mods.cmp == isa::Cmp::None || cmp.mods.boolOp != isa::BoolOp::None)
      return true;  // and.pred / or.pred, or a setp that combines a predicate: a loop of exits
    for (const isa::Opnd& o : cmp.ops) {
      if (o.kind != isa::OpndKind::Reg || !o.declared) continue;
      const isa::RegRef var{o.slot, false};
      for (uint32_t j = br.target; j < pc; ++j) {
        const isa::Inst& step = f.code[j];
        if (!step.spec || step.spec->operation != isa::Operation::Add ||
            std::find(step.defs.begin(), step.defs.end(), var) == step.defs.end())
          continue;
        bool self = false, other = false;
        for (size_t k = 1; k < step.ops.size(); ++k) {
          const isa::Opnd& a = step.ops[k];
          if (a.kind != isa::OpndKind::Reg || !a.declared) continue;
          (a.slot == o.slot ? self : other) = true;
        }
        if (self && other) return true;
      }
    }
    return false;  // the guard's last definition decides
  }
  return false;
}

void addPipelinedLoops(const isa::FunctionCode& f, uint32_t maxBody, uint32_t maxPlainBody,
                       uint32_t copies, const std::unordered_set<const isa::Inst*>& notUnrolled,
                       PipelinedLoops& out) {
  using K = isa::InsnClass;
  for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
    const isa::Inst& br = f.code[pc];
    if (br.flow != isa::Flow::Branch || br.target == isa::kNoPc || br.target > pc ||
        br.guard == isa::kNoSlot || notUnrolled.count(&br))
      continue;
    const uint32_t length = pc - br.target + 1;
    if (length > std::max(maxBody, maxPlainBody) || keptRolled(f, br.target)) continue;
    bool straight = true, barrier = false, readOnly = false, writes = false;
    for (uint32_t i = br.target; i < pc && straight; ++i) {
      const isa::Inst& in = f.code[i];
      straight = in.flow == isa::Flow::Next || in.flow == isa::Flow::Barrier;
      barrier |= in.cls == K::Barrier;
      readOnly |= isReadOnlyLoad(in);
      writes |= in.cls == K::StoreGlobal || in.cls == K::StoreShared || in.cls == K::StoreLocal ||
                in.cls == K::AtomicGlobal || in.cls == K::AtomicShared;
    }
    if (!straight || !readOnly) continue;
    uint32_t reach;
    if (barrier && length <= maxBody)
      reach = length;
    else if (!barrier && !writes && length <= maxPlainBody)
      reach = length * copies;
    else
      continue;
    for (uint32_t i = br.target; i <= pc; ++i) {
      const isa::Inst& in = f.code[i];
      out.body[&in] = reach;
      if (isReadOnlyLoad(in)) out.readOnlyLoads.insert(&in);
    }
    out.backEdges.insert(&br);
  }
}

}  // namespace warpsim::sim::timing
