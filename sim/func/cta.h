// One CTA in flight: the owner of its warps (sim/func/warp.h: SIMT stacks and call frames), its
// shared memory (shared_memory.h) and its barriers (barriers.h), and the machine services the
// instruction semantics call (isa::Machine: memory in cta_memory.cpp, control flow and frames in
// cta_control.cpp, special registers in cta_specials.cpp).
//
// A CTA is stepped from outside: step(w, n) asks warp w to issue up to n instructions and says
// whether it issued, is blocked (at a barrier, asleep) or has finished. The functional driver
// (functional_driver.h) round-robins warps in slices; a timing model steps one instruction of the
// warp its scheduler picks. Events go to the CTA's observer, when it has one (sim/observer.h).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/exec.h"
#include "isa/insns/wgmma_state.h"
#include "sim/func/async_copy.h"
#include "sim/func/barriers.h"
#include "sim/func/call_stack.h"
#include "sim/func/cluster.h"
#include "sim/func/device_heap.h"
#include "sim/func/device_launch.h"
#include "sim/func/fault.h"
#include "sim/func/launch.h"
#include "sim/func/memory.h"
#include "sim/func/schedule.h"
#include "sim/func/shared_memory.h"
#include "sim/func/warp.h"
#include "sim/observer.h"

namespace warpsim::sim {

class GridExecutor;

// What every CTA of one launch shares (read-only, but for the stop mark).
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
  // 0 for a grid the host launched; n for one launched from the device n levels down.
  uint32_t depth = 0;
  // The lowest index of a CTA that the watchdog (or a time limit, or an interrupt) stopped:
  // CTAs after it stop too. Null: nothing stops early.
  std::atomic<uint64_t>* stopAt = nullptr;
  // When the launch's time limit runs out (LaunchOptions::timeLimit; max(): never).
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  CallStackModel stack;  // the per-thread stack limit and frame sizes (call_stack.h)
  // The program's device heap when the kernel calls malloc or free (device_heap.h), else null.
  DeviceHeap* heap = nullptr;
  // The grid's device-side launches (device_launch.h) when the kernel's module launches
  // kernels, else null.
  GridLaunches* launches = nullptr;
  // Thread-block clusters and cooperative launches (group.h): the cluster shape (1,1,1: every
  // CTA a cluster of one), whether the launch named it (%is_explicit_cluster), and a
  // cooperative launch's grid-sync workspace (%envreg1/%envreg2; 0 otherwise).
  Dim3 cluster;
  bool explicitCluster = false;
  bool cooperative = false;
  uint64_t gridSyncWorkspace = 0;
  // The host threads and the CTA objects they keep between launches (grid_executor.h): the
  // Gpu's. Null: the launch makes its own.
  GridExecutor* executor = nullptr;
};

// Why a warp stopped issuing.
enum class StepStatus : uint8_t {
  Issued,    // it issued as many instructions as asked and can go on
  Blocked,   // it waits: at a barrier (Warp::state AtBarrier) or asleep (nanosleep: ready again)
  Finished,  // every thread of the warp has exited
};

struct StepResult {
  StepStatus status = StepStatus::Issued;
  uint32_t issued = 0;  // instructions issued by this call
};

// Where a whole warp's access lands when one bounds check covers every lane: lane l's address a
// is at host + l * laneStride + (a - origin).
struct WarpRegion {
  uint8_t* host = nullptr;
  uint64_t origin = 0;
  uint64_t laneStride = 0;  // local memory: each lane's own
  isa::Space landed = isa::Space::None;
};

// The watchdog's budget of warp-instructions for a CTA of `warps` warps
// (LaunchOptions::instructionBudget; by default kDefaultWarpBudget per warp).
uint64_t watchdogBudget(const LaunchOptions& options, unsigned warps);

// What a CTA of the launch is: its index, position and size (observers receive it).
CtaInfo ctaInfoOf(const LaunchContext& ctx, uint64_t linearIndex);

class Cta final : public isa::Machine {
 public:
  // `observer` (may be null) receives the CTA's events; it must outlive the CTA.
  Cta(const LaunchContext& ctx, uint64_t linearIndex, Observer* observer = nullptr);

  // Makes this CTA object run the launch's CTA `linearIndex` from the start, reusing the storage
  // of the CTA it ran before (frames, shared memory): what a host thread does between CTAs.
  void restart(uint64_t linearIndex, Observer* observer = nullptr);
  // The same for a CTA of another launch (`ctx` must outlive the CTA's run): what a host thread
  // does between launches (grid_executor.h). Frames are kept by their function, so a launch of a
  // module that is gone must not follow (a Gpu keeps its modules as long as it lives).
  void restart(const LaunchContext& ctx, uint64_t linearIndex, Observer* observer = nullptr);
  // Frees the storage that is large only for some kernels (the threads' .local memory) when it
  // passes `keepBytes`: what a host thread holds between launches stays small.
  void trim(uint64_t keepBytes);

  const CtaInfo& info() const { return info_; }
  unsigned warpCount() const { return unsigned(warps_.size()); }
  const Warp& warp(unsigned w) const { return warps_[w]; }
  bool finished() const { return liveWarps_ == 0; }
  // The CTA's schedule draws under LaunchOptions::schedule; null in the fixed order.
  CtaSchedule* schedule() { return schedule_ ? &*schedule_ : nullptr; }

  // Issues up to `limit` instructions of warp `w`, which must be Ready. Throws KernelFault on
  // the kernel's bug.
  StepResult step(unsigned w, uint32_t limit);

  // Reports that no warp can go on (every live warp waits at a barrier): a barrier deadlock.
  [[noreturn]] void failDeadlock();
  // Stops a CTA that does not end (kind Watchdog or Interrupted): the fault names the first
  // running warp's place (PTX and CUDA line) in the headline and every warp's in the details.
  [[noreturn]] void failStuck(FaultKind kind, const std::string& why);
  // The watchdog: the CTA issued `issued` warp-instructions, past its `budget`.
  [[noreturn]] void failBudget(uint64_t issued, uint64_t budget);
  // Stops the CTA (failStuck) when the launch was interrupted or ran past its time limit.
  void failIfStopped(const LaunchContext& ctx);

  const std::string& printfOutput() const { return printf_; }

  // ---- clusters (cta_cluster.cpp) ----
  // Makes this CTA (started, by restart) a member of `c` (the group driver's); until then it is
  // a cluster of one.
  void joinCluster(Cluster& c) { cluster_ = &c; }
  unsigned clusterRank() const { return rank_; }
  SharedMemory& sharedMemory() { return shared_; }
  // The cluster barrier completed phase `phase`: its waiting warps go on.
  void releaseClusterWaiters(uint32_t phase);
  // What every live warp waits for or where it runs, one line each (the deadlock report).
  std::string waitReport() const { return describeWaits(); }
  // Reports a co-scheduled group (a cluster, a cooperative grid) in which no warp of any CTA
  // can go on: `details` names every CTA's warps' waits.
  [[noreturn]] void failGroupDeadlock(const std::string& what, std::string details);

  // ---- isa::Machine ----
  void load(const isa::Inst& in, isa::Space space, isa::LaneMask mask, const uint64_t* addrs,
            unsigned bytes, unsigned vec, uint64_t* out) override;
  void store(const isa::Inst& in, isa::Space space, isa::LaneMask mask, const uint64_t* addrs,
             unsigned bytes, unsigned vec, const uint64_t* data) override;
  void atomic(const isa::Inst& in, isa::Space space, isa::LaneMask mask, const uint64_t* addrs,
              unsigned bytes, isa::AtomFn fn, const uint64_t* a, const uint64_t* b,
              uint64_t* old) override;
  void fence(const isa::Inst& in, isa::LaneMask mask) override;
  bool direct(isa::Space space, isa::LaneMask mask, const uint64_t* addrs, unsigned bytes,
              bool write, DirectRegion& r) override;
  bool directSpan(isa::Space space, uint64_t addr, unsigned laneBytes, bool write,
                  DirectRegion& r) override;
  void convertAddresses(isa::Space space, bool toGenericSpace, isa::LaneMask mask,
                        const uint64_t* a, uint64_t* d, bool narrow) override;
  uint64_t toGeneric(isa::Space space, uint64_t addr, unsigned lane) override;
  uint64_t fromGeneric(isa::Space space, uint64_t addr, unsigned lane) override;
  isa::Space spaceOf(uint64_t genericAddr, unsigned lane) override;
  void branch(const isa::Inst& in, isa::LaneMask taken) override;
  void call(const isa::Inst& in, isa::LaneMask mask) override;
  void callIndirect(const isa::Inst& in, isa::LaneMask mask, const uint64_t* targets) override;
  void branchIndexed(const isa::Inst& in, isa::LaneMask mask, const uint64_t* indices) override;
  void ret(const isa::Inst& in, isa::LaneMask mask) override;
  void exit(const isa::Inst& in, isa::LaneMask mask) override;
  [[noreturn]] void trap(const isa::Inst& in, isa::LaneMask mask, const char* why) override;
  [[noreturn]] void addressFault(const isa::Inst& in, unsigned lane,
                                 const std::string& why) override;
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
  // cp.async (cta_async.cpp)
  void asyncCopy(const isa::Inst& in, isa::LaneMask mask, const uint64_t* dst, const uint64_t* src,
                 unsigned bytes, const uint32_t* srcBytes) override;
  void asyncCommit(const isa::Inst& in, isa::LaneMask mask) override;
  void asyncWait(const isa::Inst& in, isa::LaneMask mask, uint32_t pending) override;
  void asyncCompleteAll(const isa::Inst& in, isa::LaneMask mask) override;
  // malloc / free (cta_heap.cpp)
  uint64_t deviceMalloc(const isa::Inst& in, unsigned lane, uint64_t bytes) override;
  void deviceFree(const isa::Inst& in, unsigned lane, uint64_t address) override;
  void deviceMallocLanes(const isa::Inst& in, isa::LaneMask mask, const uint64_t* bytes,
                         uint64_t* out) override;
  void deviceFreeLanes(const isa::Inst& in, isa::LaneMask mask, const uint64_t* addresses) override;
  // dynamic parallelism (cta_launch.cpp)
  uint64_t deviceLaunchBuffer(const isa::Inst& in, unsigned lane, uint64_t function,
                              const uint32_t grid[3], const uint32_t block[3],
                              uint32_t shared) override;
  uint32_t deviceLaunch(const isa::Inst& in, unsigned lane, uint64_t buffer,
                        uint64_t stream) override;
  uint64_t deviceStreamCreate(const isa::Inst& in, unsigned lane) override;
  uint32_t deviceStreamDestroy(const isa::Inst& in, unsigned lane, uint64_t stream) override;
  uint32_t deviceLastError(const isa::Inst& in, unsigned lane, bool clear) override;
  void setDeviceLastError(const isa::Inst& in, unsigned lane, uint32_t error) override;
  uint64_t mapSharedRank(const isa::Inst& in, isa::Space space, uint64_t addr, uint32_t rank,
                         unsigned lane) override;
  uint32_t ctaRankOf(const isa::Inst& in, isa::Space space, uint64_t addr, unsigned lane) override;
  void clusterBarrier(const isa::Inst& in, isa::LaneMask mask, bool arrive) override;
  // Copies started and not landed yet (tests).
  size_t asyncCopiesInFlight() const { return async_.inFlight(); }
  // wgmma (cta_async.cpp): the current warp's queue; faults unless its warpgroup is whole.
  isa::insns::WgmmaQueue& wgmmaQueue(const isa::Inst& in) override;

 private:
  // Where a generic or space-specific address lands: a host pointer, or a fault.
  uint8_t* resolve(const isa::Inst& in, isa::Space space, uint64_t addr, unsigned bytes,
                   unsigned lane, bool write, isa::Space* landed);
  // The region every lane of the access falls in, aligned (false: take the per-lane path,
  // which reports the first lane at fault).
  bool warpRegion(isa::Space space, isa::LaneMask mask, const uint64_t* addrs, unsigned n,
                  bool write, WarpRegion& r);
  MemoryEvent accessEvent(const isa::Inst& in, AccessKind kind, isa::Space space, isa::Space landed,
                          isa::LaneMask mask, const uint64_t* addrs, unsigned bytes) const;
  void emitAccess(const isa::Inst& in, AccessKind kind, isa::Space space, isa::Space landed,
                  isa::LaneMask mask, const uint64_t* addrs, unsigned bytes);
  // Writes the lanes' copies of an async batch into shared memory (cta_async.cpp).
  void landAsync(unsigned warp, const AsyncBatch& b, isa::LaneMask lanes);
  // The step's loop (cta.cpp), with or without an observer.
  template <bool kObserved>
  StepResult stepWarp(unsigned w, uint32_t limit);
  // Runs `w`'s instructions from `first` to `last` of `fn` (the top path's lanes, x.active) until
  // one moves the pc or blocks (stop_); returns the last it ran. invariantLanes: the warp's
  // (Warp::invariantLanes), read when kInvariants.
  template <bool kObserved, bool kInvariants>
  const isa::Inst* runStraight(isa::Exec& x, Warp& w, const isa::FunctionCode& fn,
                               uint32_t* invariantLanes, const isa::Inst* first,
                               const isa::Inst* last);
  // Starts a new record of the warps' launch-invariant lanes (Warp::invariantLanes) when the
  // kernel, its parameters or the block's shape differ from the previous CTA's.
  void noteInvariantInputs();
  // Refreshes the dynamic special registers (%clock & co) of `fn`'s frame before an
  // instruction that reads them.
  [[gnu::noinline]] void fillDynamic(const Warp& w, const isa::FunctionCode& fn,
                                     uint64_t* regs) const;
  // Pops the paths that finished (reached their reconvergence point or lost their lanes), ends
  // the calls whose paths are all gone, and marks the warp Done when none is left.
  void reconverge(Warp& w);
  void enterFrame(Warp& w, const isa::FunctionCode& fn, isa::LaneMask mask,
                  const isa::Inst* callSite);
  void finishCall(Warp& w);
  // Enters `callee` with the lanes in `mask` (a frame and an entry pushed, arguments copied);
  // the caller resumes after `in` when it returns.
  void enterCall(const isa::Inst& in, const isa::FunctionCode& callee, isa::LaneMask mask);
  // The top path's lanes go separate ways, `paths` (pc, lanes), and meet again at `rpc`
  // (isa::kNoPc: only at the exit, keeping the enclosing point): brx.idx and indirect calls.
  using Paths = std::vector<std::pair<uint32_t, isa::LaneMask>>;
  void diverge(Warp& w, const isa::Inst& in, uint32_t rpc, Paths& paths);
  // Faults when a call of `callee` would pass the stack limit (call_stack.h). In enterCall's
  // line (its only caller, cta_control.cpp): a call of its own was a tenth of a call's cost.
  [[gnu::always_inline]] inline void checkStack(const Warp& w, const isa::FunctionCode& callee,
                                                const isa::Inst& in, isa::LaneMask mask);
  // checkStack's fault, out of its line: `index` the callee's, `top` the stack it would need.
  [[gnu::cold]] void stackOverflow(const Warp& w, size_t index, uint64_t top, const isa::Inst& in,
                                   isa::LaneMask mask);
  void removeLanes(Warp& w, isa::LaneMask lanes, size_t fromEntry);
  void exitLanes(Warp& w, isa::LaneMask lanes);
  void releaseBarrier(uint32_t id);
  ThreadPos threadOf(unsigned warp, unsigned lane) const;
  // malloc's and free's rare parts, out of their per-lane paths (cta_heap.cpp): the site of a
  // malloc instruction (made at its first malloc in the CTA), the observers' events.
  const std::shared_ptr<const HeapSite>& heapSite(const isa::Inst& in);
  [[gnu::noinline]] const std::shared_ptr<const HeapSite>& newHeapSite(const isa::Inst& in);
  [[gnu::noinline]] void reportMalloc(const isa::Inst& in, unsigned lane, uint64_t bytes,
                                      uint64_t address);
  [[gnu::noinline]] void reportFree(const isa::Inst& in, unsigned lane, uint64_t address,
                                    FreeOutcome outcome);
  uint64_t specialOf(const Warp& w, isa::Special s, unsigned lane) const;
  // Fills a special register's slot for all 32 lanes of `w`.
  void fillSpecial(const Warp& w, isa::Special s, uint64_t* dst) const;
  [[noreturn]] void fault(FaultKind kind, std::string message, const isa::Inst* in, unsigned lane,
                          std::optional<uint64_t> address = std::nullopt, std::string details = {});
  FaultInfo faultInfo(FaultKind kind, std::string message, const isa::Inst* in, unsigned lane,
                      std::optional<uint64_t> address, std::string details) const;
  // An invalid access: a fault, or with LaunchOptions::recoverInvalidAccess a report to the
  // observer and a scratch area for the access to use instead.
  uint8_t* badAccess(FaultKind kind, std::string message, const isa::Inst& in, unsigned lane,
                     uint64_t addr, isa::Space space, unsigned bytes, bool write);
  std::string describeWaits() const;
  // A shared::cluster address (of this CTA or another of the cluster), checked (cta_cluster.cpp).
  uint8_t* resolveCluster(const isa::Inst& in, uint64_t addr, unsigned bytes, unsigned lane,
                          bool write);
  // Threads of warp `w` in `lanes` exited: the cluster barrier stops waiting for them.
  void clusterThreadsExited(const Warp& w, isa::LaneMask lanes);
  // "file.cu:12 (PTX line 40, add.s32)", or without the CUDA line when the PTX has no .loc.
  std::string placeOf(const isa::Inst& in) const;

  const LaunchContext* ctx_;  // the launch of the CTA it runs (restart moves it)
  Observer* obs_;
  CtaInfo info_;
  uint32_t liveThreads_;
  unsigned liveWarps_;
  std::vector<Warp> warps_;
  SharedMemory shared_;
  BarrierUnit barriers_;
  AsyncCopyUnit async_;                        // cp.async copies in flight
  std::vector<isa::insns::WgmmaQueue> wgmma_;  // per warp: wgmma.mma_async results in flight
  std::string printf_;
  // Per thread: the device runtime's last error (empty until a device runtime call fails).
  std::vector<uint32_t> deviceErrors_;
  Warp* cur_ = nullptr;  // the warp whose instruction is executing
  // Why the step's loop must leave its straight run after an instruction: kPcSet, the
  // instruction moved the pc itself (control flow; cleared when the loop has looked);
  // kBlocked, the warp must stop (barrier wait, nanosleep; until the next step).
  static constexpr uint8_t kPcSet = 1, kBlocked = 2;
  uint8_t stop_ = 0;
  RecentAllocations recent_;  // the allocations the last global accesses hit
  // The inputs of the launch-invariant instructions (noteInvariantInputs) as the frames' records
  // of written lanes have them, and how many times they have changed (0: never noted).
  uint64_t invariantEpoch_ = 0;
  const isa::FunctionCode* invariantEntry_ = nullptr;
  Dim3 invariantBlock_{0, 0, 0};
  std::vector<uint8_t> invariantParams_;
  alignas(32) uint8_t scratch_[32] = {};  // where a skipped invalid access goes
  uint64_t recovered_ = 0;                // invalid accesses skipped so far
  std::optional<CtaSchedule> schedule_;   // with LaunchOptions::schedule
  Cluster solo_;                          // the cluster of one of an ordinary launch
  Cluster* cluster_ = &solo_;             // the cluster this CTA runs in
  // The malloc call sites this CTA has met, each made once (cta_heap.cpp).
  std::vector<std::pair<const isa::Inst*, std::shared_ptr<const HeapSite>>> heapSites_;
  unsigned rank_ = 0;  // its rank there
};

}  // namespace warpsim::sim
