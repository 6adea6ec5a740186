// The CTA's side of device-side malloc and free (isa/insns/control.cpp calls them a warp at
// once, device-side cudaMalloc and cudaFree a lane at a time): the program's heap does the work
// (device_heap.h); the observers hear of every call.
#include <cstdio>

#include "sim/func/cta.h"

namespace warpsim::sim {

namespace {

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace

// The hot paths below are a malloc or free per lane; what they rarely do (a site's first malloc
// in the CTA, an observer's event, a free that did not free) is out of line, so that their
// frames stay small.
const std::shared_ptr<const HeapSite>& Cta::heapSite(const isa::Inst& in) {
  // The site's strings (instruction, CUDA file, kernel) are made once per CTA and shared by
  // its blocks; each block keeps its own thread.
  for (const auto& s : heapSites_)
    if (s.first == &in) return s.second;
  return newHeapSite(in);
}

const std::shared_ptr<const HeapSite>& Cta::newHeapSite(const isa::Inst& in) {
  heapSites_.emplace_back(&in, std::make_shared<const HeapSite>(HeapSite{
                                   faultInfo(FaultKind::HeapError, "", &in, 0, std::nullopt, ""),
                                   ctx_->gridId, ctx_->entry->name}));
  return heapSites_.back().second;
}

// One lane's call (device-side cudaMalloc) is a warp's call of that lane alone.
uint64_t Cta::deviceMalloc(const isa::Inst& in, unsigned lane, uint64_t bytes) {
  uint64_t size[isa::kWarpSize], out[isa::kWarpSize];
  size[lane] = bytes;
  deviceMallocLanes(in, isa::LaneMask(1) << lane, size, out);
  return out[lane];
}

void Cta::deviceMallocLanes(const isa::Inst& in, isa::LaneMask mask, const uint64_t* bytes,
                            uint64_t* out) {
  if (!ctx_->heap) unsupported(in, "call to external function malloc outside a launch with a heap");
  // Lane by lane, in lane order; the site and the warp are looked up once.
  const std::shared_ptr<const HeapSite>& site = heapSite(in);
  HeapThread by;
  by.cta = info_.id;
  if (cur_) by.warp = cur_->index;
  for (isa::LaneMask m = mask; m; m &= m - 1) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    by.lane = lane;
    if (cur_) by.thread = threadOf(cur_->index, lane);
    out[lane] = ctx_->heap->allocate(bytes[lane], site, by);
    if (obs_) reportMalloc(in, lane, bytes[lane], out[lane]);
  }
}

void Cta::reportMalloc(const isa::Inst& in, unsigned lane, uint64_t bytes, uint64_t address) {
  HeapEvent e;
  e.kind = HeapEvent::Kind::Malloc;
  e.warp = cur_ ? cur_->index : 0;
  e.lane = lane;
  e.inst = &in;
  e.bytes = bytes;
  e.address = address;
  obs_->heap(e);
}

void Cta::deviceFree(const isa::Inst& in, unsigned lane, uint64_t address) {
  uint64_t addresses[isa::kWarpSize];
  addresses[lane] = address;
  deviceFreeLanes(in, isa::LaneMask(1) << lane, addresses);
}

void Cta::deviceFreeLanes(const isa::Inst& in, isa::LaneMask mask, const uint64_t* addresses) {
  if (!ctx_->heap) unsupported(in, "call to external function free outside a launch with a heap");
  if (!obs_) {
    // Only a double free is reported without observers (it stops the kernel): the heap frees
    // the lanes at once up to it.
    FreeOutcome outcomes[isa::kWarpSize];
    const unsigned lane = ctx_->heap->freeLanes(mask, addresses, outcomes);
    if (lane < isa::kWarpSize) reportFree(in, lane, addresses[lane], FreeOutcome::DoubleFree);
    return;
  }
  for (isa::LaneMask m = mask; m; m &= m - 1) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    reportFree(in, lane, addresses[lane], ctx_->heap->free(addresses[lane]));
  }
}

void Cta::reportFree(const isa::Inst& in, unsigned lane, uint64_t address, FreeOutcome outcome) {
  HeapEvent e;
  e.warp = cur_ ? cur_->index : 0;
  e.lane = lane;
  e.inst = &in;
  e.address = address;
  switch (outcome) {
    case FreeOutcome::Freed:
    case FreeOutcome::Null:
      e.kind = HeapEvent::Kind::Free;
      break;
    case FreeOutcome::DoubleFree:
      e.kind = HeapEvent::Kind::DoubleFree;
      break;
    case FreeOutcome::NotHeapPointer:
      e.kind = HeapEvent::Kind::InvalidFree;
      break;
  }
  // A free of an address that is no block is undefined in CUDA; the H200 ignores it (the launch
  // succeeds: tests/recorded/heap, probe `badfree`), and so does the simulator. A double free
  // fails the launch on the chip (probe `doublefree`): the simulator stops the kernel there.
  // Under a checker both are reported to the observers and skipped.
  if (e.kind == HeapEvent::Kind::Free || e.kind == HeapEvent::Kind::InvalidFree) {
    if (obs_) obs_->heap(e);
    return;
  }
  if (ctx_->options.recoverInvalidAccess && obs_) {
    obs_->heap(e);
    return;
  }
  fault(FaultKind::HeapError,
        "free of " + hex(address) + ", a device-heap block that was already freed (double free)",
        &in, lane, address);
}

}  // namespace warpsim::sim
