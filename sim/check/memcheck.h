// memcheck: every invalid access (out of bounds, misaligned: reported by the CTA under
// LaunchOptions::recoverInvalidAccess, which skips the access and goes on), shared memory
// outside the kernel's own static and dynamic bytes (the CTA's area also holds other kernels'
// static variables, which the core does not fault on), and trap / assert with its message.
// The device heap (sim/func/device_heap.h): an access outside every live block (a heap overflow,
// or a use after free: the core lets both through, as the chip does, since the heap is one
// allocation), a double free or a free of a non-block, a malloc that returned NULL (a warning:
// not an error by itself), and at the end of the program the blocks never freed (leaks).
#pragma once

#include <memory>

#include "sim/check/cta_view.h"
#include "sim/func/device_heap.h"

namespace warpsim::check {

class MemcheckObserver final : public sim::Observer {
 public:
  void ctaStarted(const sim::CtaInfo& c) override { view_.start(c); }
  void memory(const sim::MemoryEvent& e) override;
  void invalidAccess(const sim::InvalidAccessEvent& e) override;
  void heap(const sim::HeapEvent& e) override;
  void ctaFinished(const sim::FaultInfo* fault) override;
  Findings& findings() { return findings_; }

 private:
  // A lane's access of [a, a + bytes) in the heap that no live block holds.
  void heapAccess(const sim::MemoryEvent& e, unsigned lane, uint64_t a);
  CtaView view_;
  Findings findings_;
};

class Memcheck final : public sim::ObserverFactory {
 public:
  std::unique_ptr<sim::Observer> create(const sim::CtaInfo& c) override {
    // A launch with a heap runs one CTA at a time (sim/func/grid.cpp): no other thread writes.
    if (c.heap) heap_ = c.heap;
    return std::make_unique<MemcheckObserver>();
  }
  void merge(sim::Observer& finished) override {
    findings_.merge(static_cast<MemcheckObserver&>(finished).findings());
  }
  const Findings& findings() const { return findings_; }
  // The end of the program: every heap block not freed is a leak ("Leaked 16 bytes at 0x...",
  // with the thread, CTA and line of its malloc), as compute-sanitizer --leak-check full
  // reports. The heap must still exist (the Gpu lives).
  void programFinished();

 private:
  Findings findings_;
  const sim::DeviceHeap* heap_ = nullptr;  // the program's, once a launch had one
};

// "Invalid __global__ read of size 4 bytes"
std::string invalidAccessTitle(const char* space, bool write, unsigned bytes);

}  // namespace warpsim::check
