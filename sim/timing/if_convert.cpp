#include "sim/timing/if_convert.h"

#include <algorithm>

#include "isa/insn_table.h"
#include "sim/timing/folds.h"

namespace warpsim::sim::timing {

namespace {

// Instructions that end or split a predicated region in SASS: control flow, barriers and the
// warp-synchronous operations (their member masks are not a predicate's business).
bool keepsBranch(const isa::Inst& in) {
  using K = isa::InsnClass;
  return in.flow != isa::Flow::Next || in.cls == K::Barrier || in.cls == K::Warp ||
         in.sync != isa::SyncRole::None;
}

}  // namespace

bool ifConverted(const isa::FunctionCode& f, uint32_t pc, uint32_t maxBody) {
  const isa::Inst& br = f.code[pc];
  if (br.flow != isa::Flow::Branch || br.guard == isa::kNoSlot || br.target == isa::kNoPc ||
      br.target <= pc + 1 || br.target - pc - 1 > maxBody || br.table >= 0)
    return false;
  // A branch to the function's end becomes `@P EXIT` (reduce_interleaved's `if (tid == 0)`
  // store: `@P0 EXIT` and the body unpredicated): the skipping warps leave at once.
  const isa::Flow end = f.code[br.target].flow;
  if (end == isa::Flow::Exit || end == isa::Flow::Return) return false;
  for (uint32_t i = pc + 1; i < br.target; ++i)
    if (keepsBranch(f.code[i])) return false;
  // Another branch into the body makes it a join, not a region to predicate.
  for (const isa::Inst& o : f.code)
    if (o.flow == isa::Flow::Branch && &o != &br && o.target > pc + 1 && o.target < br.target)
      return false;
  return true;
}

void addIfConverted(const isa::FunctionCode& f, uint32_t maxBody, PredicatedBodies& out) {
  if (!maxBody) return;
  for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
    if (!ifConverted(f, pc, maxBody)) continue;
    std::vector<uint32_t>& body = out[&f.code[pc]];
    for (uint32_t i = pc + 1; i < f.code[pc].target; ++i)
      if (!foldedAway(f, i, f.code[pc].target)) body.push_back(i);
  }
}

}  // namespace warpsim::sim::timing
