#include "sim/check/memcheck.h"

#include <cstdio>

namespace warpsim::check {

std::string invalidAccessTitle(const char* space, bool write, unsigned bytes) {
  return std::string("Invalid ") + space + (write ? " write" : " read") + " of size " +
         std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

namespace {

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// [a, a + n) inside [lo, lo + size), without overflow.
bool inside(uint64_t a, unsigned n, uint64_t lo, uint64_t size) {
  return a >= lo && n <= size && a - lo <= size - n;
}

}  // namespace

void MemcheckObserver::memory(const sim::MemoryEvent& e) {
  if (e.kind == sim::AccessKind::Fence || !e.addresses) return;
  // Only shared memory needs a test here: everything else invalid was already reported (and
  // skipped) by the CTA. Shared bytes inside the CTA's area but outside this kernel's own
  // static and dynamic bytes are another kernel's variables, or the padding before extern shared.
  const sim::CtaInfo& c = view_.info();
  if (c.heap && e.landed != isa::Space::Shared && e.landed != isa::Space::Local)
    isa::forLanes(e.mask, [&](unsigned lane) {
      const auto [space, a] = landing(e, lane);
      if (space == isa::Space::Global && c.heap->contains(a)) {
        const sim::HeapBlock* b = c.heap->liveBlock(a);
        if (!b || !inside(a, e.bytes, b->address, b->size)) heapAccess(e, lane, a);
      }
    });
  if (e.landed != isa::Space::Shared && e.landed != isa::Space::SharedCluster &&
      e.landed != isa::Space::Generic)
    return;
  isa::forLanes(e.mask, [&](unsigned lane) {
    const auto [space, a] = landing(e, lane);
    if (space != isa::Space::Shared) return;
    if (!inside(a, e.bytes, 0, c.sharedBytes)) return;  // reported by the CTA
    if (inside(a, e.bytes, 0, c.staticShared) ||
        inside(a, e.bytes, c.dynamicSharedBase, c.dynamicShared))
      return;
    Finding f;
    f.tool = Tool::Memcheck;
    f.kernel = view_.kernel();
    f.title = invalidAccessTitle("__shared__", e.kind != sim::AccessKind::Load, e.bytes);
    f.first = view_.actor(*e.inst, e.warp, lane, "");
    f.address = a;
    f.space = "__shared__";
    f.detail = "Address " + hex(a) + " is out of bounds: the kernel's shared memory is " +
               std::to_string(c.staticShared) + " static bytes at 0x0" +
               (c.dynamicShared ? " and " + std::to_string(c.dynamicShared) + " dynamic bytes at " +
                                      hex(c.dynamicSharedBase)
                                : std::string(" (no dynamic shared memory)"));
    findings_.add(std::move(f));
  });
}

namespace {

std::string allocatedBy(const sim::HeapBlock& b) {
  const sim::FaultInfo s = b.allocatedBy();
  char pos[96];
  std::snprintf(pos, sizeof pos, "thread (%u,%u,%u) block (%u,%u,%u)", s.thread.x, s.thread.y,
                s.thread.z, s.cta.x, s.cta.y, s.cta.z);
  std::string at = "PTX line " + std::to_string(s.ptxLine);
  if (!s.cudaFile.empty()) at = s.cudaFile + ":" + std::to_string(s.cudaLine) + " (" + at + ")";
  return std::string("allocated by ") + pos + " at " + at;
}

}  // namespace

void MemcheckObserver::heapAccess(const sim::MemoryEvent& e, unsigned lane, uint64_t a) {
  const sim::DeviceHeap& heap = *view_.info().heap;
  Finding f;
  f.tool = Tool::Memcheck;
  f.kernel = view_.kernel();
  f.title = invalidAccessTitle("__global__", e.kind != sim::AccessKind::Load, e.bytes);
  f.first = view_.actor(*e.inst, e.warp, lane, "");
  f.address = a;
  f.space = "__global__";
  if (const sim::HeapBlock* freed = heap.freedBlock(a)) {
    f.detail = "Address " + hex(a) +
               " is in a device-heap block that was freed (use after free): " +
               std::to_string(freed->size) + " bytes at " + hex(freed->address) + ", " +
               allocatedBy(*freed);
  } else if (const sim::HeapBlock* below = heap.liveBlockBelow(a + e.bytes - 1);
             below && a + e.bytes > below->address) {
    const uint64_t end = below->address + below->size;
    f.detail = "Address " + hex(a) + " is out of bounds: " +
               (a >= end ? std::to_string(a - end) + " bytes after" : std::string("it overruns")) +
               " the device-heap block of " + std::to_string(below->size) + " bytes at " +
               hex(below->address) + ", " + allocatedBy(*below);
  } else {
    f.detail = "Address " + hex(a) +
               " is out of bounds: in the device heap, outside every block "
               "malloc returned (a header, padding, or a block's bytes before it was allocated)";
  }
  findings_.add(std::move(f));
}

void MemcheckObserver::heap(const sim::HeapEvent& e) {
  using K = sim::HeapEvent::Kind;
  if (e.kind == K::Free || (e.kind == K::Malloc && (e.address || e.bytes == 0))) return;
  Finding f;
  f.tool = Tool::Memcheck;
  f.kernel = view_.kernel();
  f.first = view_.actor(*e.inst, e.warp, e.lane, "");
  if (e.kind == K::Malloc) {
    const sim::DeviceHeap& heap = *view_.info().heap;
    f.severity = Severity::Warning;
    f.title = "Device malloc of " + std::to_string(e.bytes) + " bytes returned NULL";
    f.detail =
        "The device heap has no free range that large: " + std::to_string(heap.bytesInUse()) +
        " of its " + std::to_string(heap.size()) +
        " bytes are in blocks (the heap's size is cudaLimitMallocHeapSize, "
        "--malloc-heap-size)";
  } else {
    f.address = e.address;
    f.space = "__global__";
    f.title = e.kind == K::DoubleFree ? "Malloc/Free error encountered : Double free"
                                      : "Malloc/Free error encountered : Invalid pointer to free";
    f.detail = "free(" + hex(e.address) + "): " +
               (e.kind == K::DoubleFree
                    ? std::string("the device-heap block at this address was already freed")
                    : std::string("no device-heap block starts at this address"));
  }
  findings_.add(std::move(f));
}

void Memcheck::programFinished() {
  if (!heap_) return;
  for (const sim::HeapBlock& b : heap_->liveBlocks()) {
    Finding f;
    f.tool = Tool::Memcheck;
    f.kernel = b.kernel();
    f.title = "Leaked " + std::to_string(b.size) + (b.size == 1 ? " byte" : " bytes") + " at " +
              hex(b.address);
    f.first = {"", siteOf(b.allocatedBy()), b.thread, b.cta};
    f.address = b.address;
    f.space = "__global__";
    // The site above is the malloc's (compute-sanitizer reports these with --leak-check full).
    f.detail = "A device-heap block still allocated when the program ended";
    findings_.add(std::move(f));
  }
}

void MemcheckObserver::invalidAccess(const sim::InvalidAccessEvent& e) {
  const sim::FaultInfo& fault = e.fault;
  Finding f;
  f.tool = Tool::Memcheck;
  f.kernel = view_.kernel();
  f.title = invalidAccessTitle(cudaSpaceName(e.space), e.write, e.bytes);
  f.first = {"", siteOf(fault), fault.thread, fault.cta};
  f.address = fault.address;
  f.space = cudaSpaceName(e.space);
  f.detail = "Address " + hex(fault.address) +
             (fault.kind == sim::FaultKind::Misaligned ? " is misaligned" : " is out of bounds") +
             ": " + fault.message;
  findings_.add(std::move(f));
}

void MemcheckObserver::ctaFinished(const sim::FaultInfo* fault) {
  if (!fault) return;
  if (fault->kind != sim::FaultKind::Trap && fault->kind != sim::FaultKind::Assertion) return;
  Finding f;
  f.tool = Tool::Memcheck;
  f.kernel = view_.kernel();
  f.title = fault->kind == sim::FaultKind::Trap ? "Device trap: " + fault->message
                                                : "Device assertion failed: " + fault->message;
  f.first = {"", siteOf(*fault), fault->thread, fault->cta};
  findings_.add(std::move(f));
}

}  // namespace warpsim::check
