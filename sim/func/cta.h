// One CTA in flight: its warps, its shared memory, its barriers, and the machine services the
// instruction semantics call (isa::Machine). A CTA runs on one host thread from start to end;
// CTAs of a launch run in parallel (sim/func/grid.cpp).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/exec.h"
#include "sim/func/fault.h"
#include "sim/func/launch.h"
#include "sim/func/memory.h"
#include "sim/func/stats.h"
#include "sim/func/warp.h"

namespace warpsim::sim {

// What every CTA of one launch shares (read-only, but for the budget counter and stop flag).
struct LaunchContext {
  const isa::Program* program = nullptr;
  const isa::FunctionCode* entry = nullptr;
  DeviceMemory* memory = nullptr;
  Dim3 grid, block;
  uint32_t dynamicShared = 0;
  const std::vector<uint8_t>* params = nullptr;
  LaunchOptions options;
  DeviceLimits limits;
  uint32_t gridId = 0;
  std::atomic<uint64_t>* budgetUsed = nullptr;
  std::atomic<bool>* stop = nullptr;  // another CTA faulted: finish early
};

class Cta final : public isa::Machine {
 public:
  Cta(const LaunchContext& ctx, uint64_t linearIndex);
  // Runs every warp to completion. Throws KernelFault on the kernel's bug.
  void run();
  const Stats& stats() const { return stats_; }
  const std::string& printfOutput() const { return printf_; }
  const std::vector<WriteRecord>& writes() const { return writes_; }

  // ---- isa::Machine ----
  void load(const isa::Inst& in, isa::Space space, isa::LaneMask mask, const uint64_t* addrs,
            unsigned bytes, unsigned vec, uint64_t* out) override;
  void store(const isa::Inst& in, isa::Space space, isa::LaneMask mask, const uint64_t* addrs,
             unsigned bytes, unsigned vec, const uint64_t* data) override;
  void atomic(const isa::Inst& in, isa::Space space, isa::LaneMask mask, const uint64_t* addrs,
              unsigned bytes, isa::AtomFn fn, const uint64_t* a, const uint64_t* b,
              uint64_t* old) override;
  uint64_t toGeneric(isa::Space space, uint64_t addr, unsigned lane) override;
  uint64_t fromGeneric(isa::Space space, uint64_t addr, unsigned lane) override;
  isa::Space spaceOf(uint64_t genericAddr, unsigned lane) override;
  void branch(const isa::Inst& in, isa::LaneMask taken) override;
  void call(const isa::Inst& in, isa::LaneMask mask) override;
  void ret(const isa::Inst& in, isa::LaneMask mask) override;
  void exit(const isa::Inst& in, isa::LaneMask mask) override;
  [[noreturn]] void trap(const isa::Inst& in, isa::LaneMask mask, const char* why) override;
  void barrier(const isa::Inst& in, isa::BarrierKind kind, isa::LaneMask mask, uint32_t id,
               uint32_t threadCount, isa::LaneMask value, uint32_t resultSlot) override;
  uint32_t printf(const isa::Inst& in, unsigned lane, uint64_t format, uint64_t args) override;
  void nanosleep(const isa::Inst& in) override;
  uint64_t special(isa::Special s, unsigned lane) override;
  [[noreturn]] void warpSyncFault(const isa::Inst& in, isa::LaneMask members,
                                  isa::LaneMask present) override;
  [[noreturn]] void unsupported(const isa::Inst& in, const char* what) override;
  [[noreturn]] void assertFailed(const isa::Inst& in, unsigned lane,
                                 const std::string& message) override;

 private:
  struct PendingResult {
    unsigned warp;
    uint32_t slot;
    isa::LaneMask mask;
  };
  struct Barrier {
    uint32_t arrived = 0;
    uint32_t expected = 0;  // 0 = every live thread of the CTA
    std::vector<unsigned> waiting;
    isa::BarrierKind kind = isa::BarrierKind::Sync;
    uint32_t popc = 0;
    bool all = true, any = false;
    std::vector<PendingResult> results;
  };
  static constexpr unsigned kBarriers = 16;

  // Where a generic or space-specific address lands: a host pointer, or why not.
  uint8_t* resolve(const isa::Inst& in, isa::Space space, uint64_t addr, unsigned bytes,
                   unsigned lane, bool write, isa::Space* landed = nullptr);
  // A .shared access that is in bounds and aligned, or nullptr (then resolve() reports why).
  uint8_t* sharedFast(uint64_t addr, unsigned n);
  void runWarp(Warp& w, uint32_t slice);
  void reconverge(Warp& w);
  void enterFrame(Warp& w, const isa::FunctionCode& fn, isa::LaneMask mask,
                  const isa::Inst* callSite);
  void finishCall(Warp& w);
  void removeLanes(Warp& w, isa::LaneMask lanes, size_t fromEntry);
  void exitLanes(Warp& w, isa::LaneMask lanes);
  void tryReleaseBarrier(unsigned id);
  void noteWrite(const isa::Inst& in, unsigned lane, uint64_t genericOrGlobal, unsigned n);
  void countMemory(isa::Space landed, isa::LaneMask mask, const uint64_t* addrs, unsigned bytes);
  ThreadPos threadOf(unsigned warp, unsigned lane) const;
  uint64_t specialOf(const Warp& w, isa::Special s, unsigned lane) const;
  [[noreturn]] void fault(FaultKind kind, std::string message, const isa::Inst* in, unsigned lane,
                          std::optional<uint64_t> address = std::nullopt, std::string details = {});
  std::string describeWaits() const;

  const LaunchContext& ctx_;
  uint64_t linear_;
  ThreadPos ctaId_;
  uint32_t threads_;
  uint32_t liveThreads_;
  std::vector<Warp> warps_;
  std::vector<uint8_t> shared_;
  std::array<Barrier, kBarriers> barriers_{};
  Stats stats_;
  std::string printf_;
  std::vector<WriteRecord> writes_;
  Warp* cur_ = nullptr;                  // the warp whose instruction is executing
  bool pcSet_ = false;                   // the instruction moved the pc itself (control flow)
  bool blocked_ = false;                 // the warp must stop (barrier wait)
  const Allocation* lastHit_ = nullptr;  // the allocation the last global access hit
};

}  // namespace warpsim::sim
