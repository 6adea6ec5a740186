#include "isa/liveness.h"

#include <algorithm>

#include "isa/cfg.h"
#include "isa/facts.h"

namespace warpsim::isa {
namespace {

// A set of register slots as a bit vector.
struct SlotSet {
  std::vector<uint64_t> words;
  explicit SlotSet(uint32_t slots) : words((slots + 63) / 64, 0) {}
  void add(uint32_t s) { words[s / 64] |= 1ull << (s % 64); }
  void remove(uint32_t s) { words[s / 64] &= ~(1ull << (s % 64)); }
  bool has(uint32_t s) const { return (words[s / 64] >> (s % 64)) & 1; }
  // this |= o; whether anything changed.
  bool merge(const SlotSet& o) {
    bool changed = false;
    for (size_t i = 0; i < words.size(); ++i) {
      const uint64_t w = words[i] | o.words[i];
      changed = changed || w != words[i];
      words[i] = w;
    }
    return changed;
  }
};

// Registers and predicates in one set: predicate p at numSlots + p.
uint32_t indexOf(RegRef r, uint32_t numSlots) { return r.pred ? numSlots + r.slot : r.slot; }

// Live before `in` from live after it (a guarded write does not kill).
void transferAll(const Inst& in, SlotSet& live, uint32_t numSlots) {
  if (in.guard == kNoSlot)
    for (RegRef d : in.defs) live.remove(indexOf(d, numSlots));
  for (RegRef u : in.uses) live.add(indexOf(u, numSlots));
}

// Registers and predicates live at each block's entry (backward dataflow to its fixed point),
// the instructions `dead` marks (when given) left out.
std::vector<SlotSet> blockLiveIn(const FunctionCode& fn, const Cfg& g,
                                 const std::vector<bool>* dead = nullptr) {
  const uint32_t n = fn.numSlots + fn.numPreds;
  const size_t nb = g.blocks.size();
  std::vector<SlotSet> liveIn(nb, SlotSet(n));
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = nb; b-- > 0;) {
      SlotSet live(n);
      for (uint32_t s : g.blocks[b].succs)
        if (s < nb) live.merge(liveIn[s]);
      for (uint32_t pc = g.blocks[b].last + 1; pc-- > g.blocks[b].first;)
        if (!dead || !(*dead)[pc]) transferAll(fn.code[pc], live, fn.numSlots);
      changed = liveIn[b].merge(live) || changed;
    }
  }
  return liveIn;
}

}  // namespace

LiveRegisters liveRegisters(const FunctionCode& fn, const Cfg& g) {
  const uint32_t n = fn.numSlots + fn.numPreds;
  const std::vector<Inst>& code = fn.code;
  const size_t nb = g.blocks.size();
  LiveRegisters out;
  out.numSlots = fn.numSlots;
  out.dead.assign(code.size(), false);
  std::vector<SlotSet> liveIn;
  // Each round recomputes liveness with the dead code known so far, then marks what it finds
  // newly dead; a round that marks nothing is the fixed point.
  for (bool marked = true; marked;) {
    marked = false;
    liveIn = blockLiveIn(fn, g, &out.dead);
    for (size_t b = 0; b < nb; ++b) {
      SlotSet live(n);
      for (uint32_t s : g.blocks[b].succs)
        if (s < nb) live.merge(liveIn[s]);
      for (uint32_t pc = g.blocks[b].last + 1; pc-- > g.blocks[b].first;) {
        if (out.dead[pc]) continue;
        const Inst& in = code[pc];
        if (onlyWritesRegisters(in) && std::none_of(in.defs.begin(), in.defs.end(), [&](RegRef d) {
              return live.has(indexOf(d, fn.numSlots));
            })) {
          out.dead[pc] = true;
          marked = true;
          continue;
        }
        transferAll(in, live, fn.numSlots);
      }
    }
  }
  out.liveOut.assign(nb, std::vector<bool>(n, false));
  for (size_t b = 0; b < nb; ++b)
    for (uint32_t s : g.blocks[b].succs)
      if (s < nb)
        for (uint32_t i = 0; i < n; ++i)
          if (liveIn[s].has(i)) out.liveOut[b][i] = true;
  return out;
}

std::vector<uint32_t> registersToZeroAtEntry(const FunctionCode& fn) {
  const std::vector<Inst>& code = fn.code;
  std::vector<uint32_t> out;
  if (code.empty()) return out;
  SlotSet zero = blockLiveIn(fn, buildCfg(fn))[0];
  for (const Inst& in : code)
    if (in.cls == InsnClass::Warp)  // shfl reads other lanes' registers
      for (RegRef u : in.uses)
        if (!u.pred) zero.add(u.slot);
  for (uint32_t s = 0; s < fn.numSlots; ++s)
    if (zero.has(s)) out.push_back(s);
  return out;
}

std::vector<uint32_t> predicatesToZeroAtEntry(const FunctionCode& fn) {
  const std::vector<Inst>& code = fn.code;
  std::vector<uint32_t> out;
  if (code.empty() || fn.numPreds == 0) return out;
  SlotSet zero = blockLiveIn(fn, buildCfg(fn))[0];
  // A warp-wide instruction (vote, shfl, match, redux) or a barrier's reduction may read the
  // predicate of lanes other than the ones it runs for: theirs are zeroed too.
  for (const Inst& in : code)
    if (in.cls == InsnClass::Warp || in.cls == InsnClass::Barrier)
      for (RegRef u : in.uses)
        if (u.pred) zero.add(fn.numSlots + u.slot);
  for (uint32_t p = 0; p < fn.numPreds; ++p)
    if (zero.has(fn.numSlots + p)) out.push_back(p);
  return out;
}

}  // namespace warpsim::isa
