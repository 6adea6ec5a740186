// memcheck: every invalid access (out of bounds, misaligned: reported by the CTA under
// LaunchOptions::recoverInvalidAccess, which skips the access and goes on), shared memory
// outside the kernel's own static and dynamic bytes (the CTA's area also holds other kernels'
// static variables, which the core does not fault on), and trap / assert with its message.
#pragma once

#include <memory>

#include "sim/check/cta_view.h"

namespace warpsim::check {

class MemcheckObserver final : public sim::Observer {
 public:
  void ctaStarted(const sim::CtaInfo& c) override { view_.start(c); }
  void memory(const sim::MemoryEvent& e) override;
  void invalidAccess(const sim::InvalidAccessEvent& e) override;
  void ctaFinished(const sim::FaultInfo* fault) override;
  Findings& findings() { return findings_; }

 private:
  CtaView view_;
  Findings findings_;
};

class Memcheck final : public sim::ObserverFactory {
 public:
  std::unique_ptr<sim::Observer> create(const sim::CtaInfo&) override {
    return std::make_unique<MemcheckObserver>();
  }
  void merge(sim::Observer& finished) override {
    findings_.merge(static_cast<MemcheckObserver&>(finished).findings());
  }
  const Findings& findings() const { return findings_; }

 private:
  Findings findings_;
};

// "Invalid __global__ read of size 4 bytes"
std::string invalidAccessTitle(const char* space, bool write, unsigned bytes);

}  // namespace warpsim::check
