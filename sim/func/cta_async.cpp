// cp.async in the CTA: a copy's source is read and both addresses checked when it is issued
// (a bad address faults at the cp.async, naming its line); its data lands in shared memory when
// cp.async.wait_group / wait_all (or cp.async.mbarrier.arrive) completes it (async_copy.h).
#include <bit>
#include <cstring>

#include "sim/func/cta.h"

namespace warpsim::sim {

using isa::Inst;
using isa::LaneMask;
using isa::Space;

void Cta::asyncCopy(const Inst& in, LaneMask mask, const uint64_t* dst, const uint64_t* src,
                    unsigned bytes, const uint32_t* srcBytes) {
  AsyncBatch& b = async_.start(cur_->index, &in, mask, bytes);
  Space landedDst = Space::None, landedSrc = Space::None;
  LaneMask reads = 0;
  auto copyLane = [&](unsigned l) {
    const uint32_t n = srcBytes[l];
    if (n > bytes)
      fault(FaultKind::InvalidInstruction,
            "src-size " + std::to_string(n) + " of '" + in.text + "' exceeds its cp-size " +
                std::to_string(bytes),
            &in, l);
    resolve(in, Space::Shared, dst[l], bytes, l, true, &landedDst);
    b.dst[l] = dst[l];
    auto& data = b.data[l];
    data.fill(0);
    if (n == 0) return;  // ignore-src or src-size 0: zeros only, nothing read
    reads |= 1u << l;
    if (n == bytes) {
      std::memcpy(data.data(), resolve(in, Space::Global, src[l], bytes, l, false, &landedSrc), n);
      return;
    }
    // A partial source (the edge of a buffer): aligned as the whole copy, and only its n bytes
    // must lie inside one allocation.
    if (src[l] & (bytes - 1))
      fault(FaultKind::Misaligned,
            "the source of '" + in.text + "' is not " + std::to_string(bytes) + "-byte aligned",
            &in, l, src[l]);
    const uint8_t* first = resolve(in, Space::Global, src[l], 1, l, false, &landedSrc);
    const uint8_t* last = resolve(in, Space::Global, src[l] + n - 1, 1, l, false, &landedSrc);
    if (last - first != std::ptrdiff_t(n - 1))
      fault(FaultKind::OutOfBounds,
            "the " + std::to_string(n) + " source bytes of '" + in.text + "' span two allocations",
            &in, l, src[l]);
    std::memcpy(data.data(), first, n);
  };
  // Every lane copying all its bytes (the common case), with the destinations inside shared
  // memory and the sources inside one allocation, aligned: the bytes straight from there,
  // without two resolves per lane (the checks below then find no fault either).
  bool whole = mask != 0;
  isa::forLanes(mask, [&](unsigned l) { whole &= srcBytes[l] == bytes; });
  WarpRegion rd, rs;
  if (whole && warpRegion(Space::Shared, mask, dst, bytes, true, rd) &&
      warpRegion(Space::Global, mask, src, bytes, false, rs)) {
    isa::forLanes(mask, [&](unsigned l) {
      b.dst[l] = dst[l];
      auto& data = b.data[l];
      data.fill(0);
      std::memcpy(data.data(), rs.host + (l * rs.laneStride + (src[l] - rs.origin)), bytes);
    });
    reads = mask;
    landedSrc = rs.landed;
  } else {
    isa::forLanes(mask, [&](unsigned l) { copyLane(l); });
  }
  if (obs_ && reads) {
    MemoryEvent e{cur_->index, &in,   AccessKind::Load, Space::Global, landedSrc, reads,
                  src,         bytes, in.mods.order,    in.mods.scope};
    e.async = true;
    obs_->memory(e);
  }
}

void Cta::landAsync(unsigned warp, const AsyncBatch& b, LaneMask lanes) {
  uint8_t* base = shared_.data();
  isa::forLanes(lanes,
                [&](unsigned l) { std::memcpy(base + b.dst[l], b.data[l].data(), b.bytes); });
  if (obs_) {
    MemoryEvent e{warp,  b.inst,       AccessKind::Store, Space::Shared,      Space::Shared,
                  lanes, b.dst.data(), b.bytes,           b.inst->mods.order, b.inst->mods.scope};
    e.async = true;
    obs_->memory(e);
  }
}

void Cta::asyncCommit(const Inst&, LaneMask mask) { async_.commit(cur_->index, mask); }

void Cta::asyncWait(const Inst&, LaneMask mask, uint32_t pending) {
  const unsigned w = cur_->index;
  async_.complete(w, mask, pending, false,
                  [&](const AsyncBatch& b, LaneMask lanes) { landAsync(w, b, lanes); });
}

void Cta::asyncCompleteAll(const Inst&, LaneMask mask) {
  const unsigned w = cur_->index;
  async_.complete(w, mask, 0, true,
                  [&](const AsyncBatch& b, LaneMask lanes) { landAsync(w, b, lanes); });
}

// A warpgroup is four consecutive warps of the CTA, the first of rank 0 (PTX ISA, "Warpgroup");
// a wgmma needs all 128 of its threads, so a CTA whose size leaves the warpgroup short cannot
// run it (the chip's behaviour there is undefined: a fault names it).
isa::insns::WgmmaQueue& Cta::wgmmaQueue(const Inst& in) {
  const unsigned w = cur_->index, first = w / 4 * 4;
  const bool whole = first + 4 <= info_.warps && warps_[first + 3].valid == ~0u;
  if (!whole)
    fault(FaultKind::InvalidInstruction,
          "'" + in.text + "' needs the 128 threads of warpgroup " + std::to_string(w / 4) +
              " (warps " + std::to_string(first) + ".." + std::to_string(first + 3) +
              "); the CTA has " + std::to_string(info_.threads) + " threads",
          &in, 0);
  return wgmma_[w];
}

}  // namespace warpsim::sim
