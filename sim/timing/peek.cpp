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

const isa::Inst* instructionAt(const Warp& w, const SimtEntry* path) {
  if (!path) return nullptr;
  const Frame& f = w.frames.back();
  return path->pc < f.fn->code.size() ? &f.fn->code[path->pc] : nullptr;
}

}  // namespace warpsim::sim::timing
