#include "isa/liveness.h"

#include <algorithm>

#include "isa/cfg.h"

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

// Live before `in` from live after it.
void transfer(const Inst& in, SlotSet& live) {
  if (in.guard == kNoSlot)
    for (RegRef d : in.defs)
      if (!d.pred) live.remove(d.slot);
  for (RegRef u : in.uses)
    if (!u.pred) live.add(u.slot);
}

}  // namespace

std::vector<uint32_t> registersToZeroAtEntry(const FunctionCode& fn) {
  const std::vector<Inst>& code = fn.code;
  std::vector<uint32_t> out;
  if (code.empty()) return out;
  const Cfg g = buildCfg(code);
  const size_t nb = g.blocks.size();
  std::vector<SlotSet> liveIn(nb, SlotSet(fn.numSlots));
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = nb; b-- > 0;) {
      SlotSet live(fn.numSlots);
      for (uint32_t s : g.blocks[b].succs)
        if (s < nb) live.merge(liveIn[s]);
      for (uint32_t pc = g.blocks[b].last + 1; pc-- > g.blocks[b].first;) transfer(code[pc], live);
      changed = liveIn[b].merge(live) || changed;
    }
  }
  SlotSet zero = liveIn[0];
  for (const Inst& in : code)
    if (in.cls == InsnClass::Warp)  // shfl reads other lanes' registers
      for (RegRef u : in.uses)
        if (!u.pred) zero.add(u.slot);
  for (uint32_t s = 0; s < fn.numSlots; ++s)
    if (zero.has(s)) out.push_back(s);
  return out;
}

}  // namespace warpsim::isa
