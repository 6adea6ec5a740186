// The event seam: what the functional core tells the analyses that watch it (the statistics,
// diff's write watch, and later the timing model and the checkers). Observers see every warp
// instruction, every memory access, barrier arrivals and releases, divergence, warps' and CTAs'
// starts and ends, and a kernel fault; they never change architectural state.
//
// Observers are made per CTA by a factory, on the host thread that runs the CTA, and merged
// back into the factory in CTA order on the launching thread, so CTAs run in parallel without
// locks and results do not depend on the host thread count. When a launch has no observer the
// core builds no events (LaunchOptions::observers is empty and Gpu adds none of its own).
//
// Adding an analysis: derive from Observer (override only the events you need), give it a
// factory whose create() makes one per CTA and whose merge() folds a finished one into the
// launch's result, and pass the factory in LaunchOptions::observers. The statistics
// (sim/observers/statistics.*) are the worked example.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "isa/exec.h"
#include "isa/program.h"
#include "sim/func/fault.h"

namespace warpsim::sim {
class DeviceHeap;
}

namespace warpsim::sim {

struct CtaInfo {
  uint64_t linear = 0;   // the CTA's index in the grid, x fastest
  ThreadPos id;          // %ctaid
  Dim3 block;            // %ntid: a thread's position is positionIn(block, 32 * warp + lane)
  Dim3 grid;             // %nctaid
  uint32_t threads = 0;  // threads in the CTA
  unsigned warps = 0;
  // The kernel's shared memory (for checkers): its own static bytes are [0, staticShared)
  // (the module's variables, then the entry's own); the launch's dynamic (extern) bytes are
  // [dynamicSharedBase, dynamicSharedBase + dynamicShared); the CTA's whole area, which may hold
  // other kernels' static variables between the two, is sharedBytes.
  uint32_t staticShared = 0, dynamicSharedBase = 0, dynamicShared = 0, sharedBytes = 0;
  uint32_t localBytes = 0;  // each thread's local memory
  Dim3 cluster;             // the launch's cluster shape (1,1,1: every CTA a cluster of one)
  const isa::Program* program = nullptr;     // the launch's program (a checker names source lines)
  const isa::FunctionCode* entry = nullptr;  // the kernel
  // The program's device heap (sim/func/device_heap.h) when the kernel calls malloc or free,
  // else null: a checker tells heap accesses from the blocks live at the time of the access
  // (such a launch runs its CTAs one at a time, so the heap then is the heap of that moment).
  const DeviceHeap* heap = nullptr;
};

// A warp instruction at issue, before it executes (its memory accesses follow).
struct InstructionEvent {
  unsigned warp = 0;
  const isa::FunctionCode* function = nullptr;
  const isa::Inst* inst = nullptr;  // its class (unit), flow, defs and uses: isa/facts.h
  isa::LaneMask active = 0;         // lanes on the warp's current path
  isa::LaneMask executed = 0;       // active lanes whose guard predicate is true
  // The warp's current frame before the instruction runs: regs[slot * 32 + lane] (a checker
  // reads operands such as a warp primitive's member mask; it must not write them).
  const uint64_t* regs = nullptr;
};

enum class AccessKind : uint8_t { Load, Store, Atomic, Fence };
const char* accessKindName(AccessKind k);

// One warp-wide access. Addresses are as the instruction computed them: in `space`, or generic
// addresses when space is Generic (sim/func/memory.h: genericSpace() tells where each lands).
struct MemoryEvent {
  unsigned warp = 0;
  const isa::Inst* inst = nullptr;
  AccessKind kind = AccessKind::Load;
  isa::Space space = isa::Space::None;   // as written (Generic for generic addressing)
  isa::Space landed = isa::Space::None;  // where every lane landed; Generic when they differ
  isa::LaneMask mask = 0;                // lanes that access (Fence: lanes that execute)
  const uint64_t* addresses = nullptr;   // addresses[lane], for lanes in mask (not Fence)
  unsigned bytes = 0;                    // per lane (vector width x element size)
  isa::MemOrder order = isa::MemOrder::None;
  isa::MemScope scope = isa::MemScope::None;
  // An asynchronous copy's part (cp.async): its global read at issue (Load) or its shared write
  // when a wait completes it (Store, with `inst` the cp.async and `warp` the issuing warp).
  bool async = false;
};

// A warp arrives at barrier `id` (bar.sync, bar.arrive, bar.red; not bar.warp.sync, which is an
// instruction event only).
struct BarrierArrival {
  unsigned warp = 0;
  const isa::Inst* inst = nullptr;
  uint32_t id = 0;
  isa::LaneMask mask = 0;  // the lanes that arrive
  bool waits = true;       // false for bar.arrive
};

// A branch splits a warp: `taken` lanes go to the target, `notTaken` fall through.
struct DivergenceEvent {
  unsigned warp = 0;
  const isa::Inst* inst = nullptr;
  isa::LaneMask taken = 0, notTaken = 0;
};

// An access the core skipped under LaunchOptions::recoverInvalidAccess.
struct InvalidAccessEvent {
  FaultInfo fault;  // what the fault would have said: kind, message, thread, CTA, lines, address
  isa::Space space = isa::Space::None;  // where the address lands (a generic one resolved)
  unsigned bytes = 0;                   // per lane
  bool write = false;                   // a store or an atomic
};

// A device-side malloc or free by one lane (after the heap did it). Its place (the lane's thread,
// PTX and CUDA line) is the instruction's and the warp's: an observer that reports the event
// makes it then (check::CtaView::actor), so that a malloc under the statistics copies no strings.
struct HeapEvent {
  enum class Kind : uint8_t {
    Malloc,       // address: the block, 0 when the heap had no room (malloc returned NULL)
    Free,         // a block freed, or free(NULL)
    DoubleFree,   // free of a block already freed: skipped (LaunchOptions::recoverInvalidAccess)
    InvalidFree,  // free of an address that is no block: skipped likewise
  };
  Kind kind = Kind::Malloc;
  unsigned warp = 0, lane = 0;
  const isa::Inst* inst = nullptr;
  uint64_t address = 0;
  uint64_t bytes = 0;  // Malloc: the size asked
};

class Observer {
 public:
  virtual ~Observer() = default;
  virtual void ctaStarted(const CtaInfo&) {}
  virtual void warpStarted(unsigned /*warp*/, isa::LaneMask /*threads*/) {}
  virtual void instruction(const InstructionEvent&) {}
  // A load's event comes after it read memory; a store's and an atomic's come before any of their
  // writes is visible to another CTA (which may run on another host thread). So a checker that
  // publishes a release at a store's event has done so before any reader can see the value the
  // release guards, and a reader's event finds every release its value came from.
  virtual void memory(const MemoryEvent&) {}
  // An atomic's read-modify-write is done (its memory event came before it): where a checker
  // learns what the atomic's read part saw.
  virtual void atomicCompleted(const MemoryEvent&) {}
  virtual void diverged(const DivergenceEvent&) {}
  virtual void barrierArrived(const BarrierArrival&) {}
  // Barrier `id` completed; `waiters` are the warps it releases (arrivals that wait).
  virtual void barrierReleased(uint32_t /*id*/, const std::vector<unsigned>& /*waiters*/) {}
  virtual void warpFinished(unsigned /*warp*/) {}
  // With LaunchOptions::recoverInvalidAccess: a lane's out-of-bounds or misaligned access,
  // which the CTA then skips (a load reads zeros) instead of stopping; its memory event follows.
  virtual void invalidAccess(const InvalidAccessEvent&) {}
  // Device-side malloc and free, in the order the lanes call them.
  virtual void heap(const HeapEvent&) {}
  // The CTA ended: every warp finished, or `fault` stopped it (then no further events come).
  virtual void ctaFinished(const FaultInfo* /*fault*/) {}
};

class ObserverFactory {
 public:
  virtual ~ObserverFactory() = default;
  // One observer for one CTA; called on the host thread that will run it.
  virtual std::unique_ptr<Observer> create(const CtaInfo& cta) = 0;
  // Folds a finished CTA's observer into the launch's result; called in CTA order on the
  // launching thread, after ctaFinished.
  virtual void merge(Observer& finished) = 0;
};

// Several observers as one (not owning them): what the core calls when a launch has more than
// one.
class ObserverList final : public Observer {
 public:
  explicit ObserverList(std::vector<Observer*> observers) : observers_(std::move(observers)) {}
  void ctaStarted(const CtaInfo& c) override;
  void warpStarted(unsigned w, isa::LaneMask threads) override;
  void instruction(const InstructionEvent& e) override;
  void memory(const MemoryEvent& e) override;
  void atomicCompleted(const MemoryEvent& e) override;
  void diverged(const DivergenceEvent& e) override;
  void barrierArrived(const BarrierArrival& e) override;
  void barrierReleased(uint32_t id, const std::vector<unsigned>& waiters) override;
  void warpFinished(unsigned w) override;
  void invalidAccess(const InvalidAccessEvent& e) override;
  void heap(const HeapEvent& e) override;
  void ctaFinished(const FaultInfo* fault) override;

 private:
  std::vector<Observer*> observers_;
};

}  // namespace warpsim::sim
