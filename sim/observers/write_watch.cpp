#include "sim/observers/write_watch.h"

#include <algorithm>

#include "sim/func/memory.h"

namespace warpsim::sim {

void WriteWatchObserver::memory(const MemoryEvent& e) {
  if (e.kind != AccessKind::Store && e.kind != AccessKind::Atomic) return;
  if (e.space != isa::Space::Global && e.space != isa::Space::Generic) return;
  isa::forLanes(e.mask, [&](unsigned lane) {
    const uint64_t a = e.addresses[lane];
    if (e.space == isa::Space::Generic && genericSpace(a) != isa::Space::Global) return;
    for (auto it = std::lower_bound(watched_.begin(), watched_.end(), a);
         it != watched_.end() && *it < a + e.bytes; ++it)
      writes_.push_back({*it, positionIn(cta_.block, uint64_t(e.warp) * isa::kWarpSize + lane),
                         cta_.id, e.inst->ptxLine});
  });
}

std::unique_ptr<Observer> WriteWatch::create(const CtaInfo&) {
  return std::make_unique<WriteWatchObserver>(watched_);
}

void WriteWatch::merge(Observer& finished) {
  auto& w = static_cast<WriteWatchObserver&>(finished).writes();
  writes_.insert(writes_.end(), w.begin(), w.end());
}

}  // namespace warpsim::sim
