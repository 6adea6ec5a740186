#include "sim/func/async_copy.h"

#include <bit>

namespace warpsim::sim {

void AsyncCopyUnit::reset(unsigned warps) {
  closed_.assign(warps, {});
  batches_.resize(warps);
  for (auto& b : batches_) b.clear();
}

AsyncBatch& AsyncCopyUnit::start(unsigned w, const isa::Inst* inst, isa::LaneMask mask,
                                 unsigned bytes) {
  AsyncBatch& b = batches_[w].emplace_back();
  b.inst = inst;
  b.pending = mask;
  b.bytes = bytes;
  for (isa::LaneMask m = mask; m; m &= m - 1) {
    const unsigned l = unsigned(std::countr_zero(m));
    b.group[l] = closed_[w][l];
  }
  return b;
}

void AsyncCopyUnit::commit(unsigned w, isa::LaneMask mask) {
  for (isa::LaneMask m = mask; m; m &= m - 1) ++closed_[w][unsigned(std::countr_zero(m))];
}

size_t AsyncCopyUnit::inFlight() const {
  size_t n = 0;
  for (const auto& bs : batches_)
    for (const AsyncBatch& b : bs) n += size_t(std::popcount(b.pending));
  return n;
}

}  // namespace warpsim::sim
