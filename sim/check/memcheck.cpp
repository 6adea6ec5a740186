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
