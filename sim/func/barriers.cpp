#include "sim/func/barriers.h"

#include <bit>

namespace warpsim::sim {

using isa::BarrierKind;
using isa::kWarpSize;

void BarrierUnit::arrive(const Arrival& a) {
  Barrier& b = barriers_[a.id];
  if (b.arrived == 0) {
    b.expected = a.threadCount;
    b.kind = a.kind;
    b.popc = 0;
    b.all = true;
    b.any = false;
  }
  b.arrived += unsigned(std::popcount(a.counted));
  if (b.arrived) open_ |= 1u << a.id;
  b.popc += unsigned(std::popcount(a.value & a.mask));
  b.all = b.all && (a.value & a.mask) == a.mask;
  b.any = b.any || (a.value & a.mask) != 0;
  if (a.kind != BarrierKind::Arrive) {
    b.waiting.push_back(a.warp);
    if (a.resultSlot != isa::kNoSlot) b.results.push_back({a.warp, a.resultSlot, a.mask});
  }
}

bool BarrierUnit::tryRelease(uint32_t id, uint32_t liveThreads, std::vector<Warp>& warps) {
  Barrier& b = barriers_[id];
  if (b.arrived == 0) return false;
  const uint32_t need = b.expected ? b.expected : liveThreads;
  if (b.arrived < need) return false;
  for (const PendingResult& r : b.results) {
    Frame& f = warps[r.warp].frames.back();
    if (b.kind == BarrierKind::RedPopc) {
      isa::forLanes(r.mask,
                    [&](unsigned lane) { f.regs[size_t(r.slot) * kWarpSize + lane] = b.popc; });
    } else {  // bar.red.and/or write a predicate
      const bool v = b.kind == BarrierKind::RedAnd ? b.all : b.any;
      if (v)
        f.preds[r.slot] |= r.mask;
      else
        f.preds[r.slot] &= ~r.mask;
    }
  }
  for (unsigned wi : b.waiting)
    if (warps[wi].state == WarpState::AtBarrier) warps[wi].state = WarpState::Ready;
  // The waiting list becomes released() and released()'s old storage the next waiting list:
  // no allocation once both have grown to the CTA's warps.
  released_.swap(b.waiting);
  b.clear();
  open_ &= ~(1u << id);
  return true;
}

std::string BarrierUnit::progress(uint32_t id, uint32_t liveThreads) const {
  const Barrier& b = barriers_[id];
  return std::to_string(b.arrived) + " of " +
         std::to_string(b.expected ? b.expected : liveThreads) + " threads arrived";
}

void BarrierUnit::reset() {
  for (Barrier& b : barriers_) b.clear();
  released_.clear();
  open_ = 0;
}

}  // namespace warpsim::sim
