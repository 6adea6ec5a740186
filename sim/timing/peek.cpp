#include "sim/timing/peek.h"

namespace warpsim::sim::timing {

// Mirrors Cta::reconverge: entries that are empty or at their reconvergence point pop.
const SimtEntry* nextPath(const Warp& w) {
  if (w.state == WarpState::Done || w.frames.empty()) return nullptr;
  const Frame& f = w.frames.back();
  for (size_t i = w.stack.size(); i > 0; --i) {
    if (w.frames.size() > 1 && i <= f.stackBase) return nullptr;
    const SimtEntry& e = w.stack[i - 1];
    if (e.mask == 0 || e.pc == e.rpc) continue;
    return &e;
  }
  return nullptr;
}

const isa::Inst* nextInstruction(const Warp& w) {
  const SimtEntry* e = nextPath(w);
  if (!e) return nullptr;
  const Frame& f = w.frames.back();
  return e->pc < f.fn->code.size() ? &f.fn->code[e->pc] : nullptr;
}

}  // namespace warpsim::sim::timing
