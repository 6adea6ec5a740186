// One timed launch: CTAs dispatched to SMs as slots free, each sub-partition's scheduler
// picking a warp per cycle among those whose next instruction's registers and unit are ready,
// the memory system timing every access. Sub-partitions wake up in (cycle, id) order from a
// heap, so idle cycles are skipped and the order is deterministic.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sim/func/cta.h"
#include "sim/timing/cluster_dispatch.h"
#include "sim/timing/cta_dispatch.h"
#include "sim/timing/flops.h"
#include "sim/timing/folds.h"
#include "sim/timing/heap_timing.h"
#include "sim/timing/if_convert.h"
#include "sim/timing/l2.h"
#include "sim/timing/listener.h"
#include "sim/timing/occupancy.h"
#include "sim/timing/pipelined_loops.h"
#include "sim/timing/report.h"
#include "sim/timing/scheduler.h"
#include "sim/timing/sm.h"
#include "sim/timing/tensor_work.h"

namespace warpsim::sim::timing {

class Engine {
 public:
  // `resources`: what ptxas made of the kernel (KernelResources: its functions' SASS stack
  // frames, its SASS's fixed stalls). `listeners` hear the launch's events (listener.h);
  // `sampleWaves` > 0 simulates that many waves of CTAs in detail and the rest functionally,
  // extrapolating the prediction.
  Engine(const TimingConfig& c, const Occupancy& occ, LaunchContext& ctx,
         const std::vector<ObserverFactory*>& factories, const KernelResources& resources = {},
         std::vector<EngineListener*> listeners = {}, uint64_t sampleWaves = 0);
  ~Engine();
  // Runs the launch; `report` is filled unless it faulted.
  LaunchResult run(std::optional<TimingReport>& report);
  // The cycle (from the launch's start, launch latency excluded) of each device-side launch
  // the grid made, in the order of GridLaunches::queued; the later ones, made where the model
  // did not time them (a sampled CTA), are missing.
  const std::vector<uint64_t>& launchCycles() const { return launchCycles_; }

  // ---- called by the per-CTA probe during a step ----
  void onInstruction(const InstructionEvent& e);
  void onMemory(const MemoryEvent& e);
  void onRelease(const std::vector<unsigned>& waiters);

 private:
  struct CtaSlot;
  struct ClusterRun;
  class Probe;
  struct Finished {
    std::vector<std::unique_ptr<Observer>> observers;
    std::string printf;
  };

  // Starts CTA `index` on `sm` at `at`; returns its slot (kNoSlot if it faulted starting).
  uint32_t launchCta(uint32_t sm, uint64_t index, uint64_t at);
  static constexpr uint32_t kNoSlot = ~0u;
  // Launches CTA `index` on `sm` at `at`, or later: an SM starts one CTA per
  // launch.cta_interval (the ones it cannot start yet wait in pendingCtas_).
  void scheduleCta(uint32_t sm, uint64_t index, uint64_t at);
  void finishCta(uint32_t slot, uint64_t t);
  void wake(uint32_t smspId, uint64_t t);
  void visit(uint32_t smspId, uint64_t t);
  void issue(uint32_t wi, uint64_t t);
  // When warp `wi` can issue next and the stall until then.
  std::pair<uint64_t, Stall> evaluate(WarpCtx& w);
  void account(WarpCtx& w, uint64_t until);
  // The SASS's fixed stall after `in`, issued by `w` at `t`: its next issue no sooner.
  void fixedStall(WarpCtx& w, const isa::Inst* in, uint64_t t);
  void retireWarp(uint32_t wi, uint64_t t);
  // A call's or return's SASS side: vprintf's handler, the stack frame saved or restored.
  void callCosts(WarpCtx& w, uint64_t t);
  // Issues warp `wi`'s next word of the frame its call saves or its return restores, at `t`.
  void issueFrameWord(uint32_t wi, uint64_t t);
  // What an instruction that commits or waits for asynchronous groups (cp.async's, wgmma's) does.
  struct AsyncSync {
    bool wgmma = false;    // the warp's wgmma groups (else its cp.async groups)
    bool commit = false;   // closes a group
    bool wait = false;     // then waits for all but `pending` of them
    uint32_t pending = 0;  // wait_group's N (wait_all: 0)
  };
  static std::optional<AsyncSync> asyncSyncOf(const isa::FunctionCode& f, const isa::Inst& in);
  // Commits the warp's group and/or holds it until its older groups are done, as `s` says.
  void asyncWait(WarpCtx& w, const AsyncSync& s, uint64_t t);
  // Holds `w`, which issued at `t`, until its data arrives at `at` (long_scoreboard); nothing
  // after it counts from before.
  void holdForData(WarpCtx& w, uint64_t at, uint64_t t);
  void bulkAccess(WarpCtx& w, const MemoryEvent& e);
  void waitForBulkCopies(WarpCtx& w, const MemoryEvent& e);
  // A warp whose lanes all took predicated branch `br` at `t` issues the SASS of its body with
  // no lane on: one instruction a cycle from `t` (the branch's own slot), each after the
  // registers it reads; shared accesses take an MIO slot without wavefronts. Returns the
  // cycle after the last.
  uint64_t skipPredicatedBody(WarpCtx& w, const std::vector<uint32_t>& body, uint64_t t);
  void mergeReady();
  // ---- thread-block clusters (engine_clusters.cpp) ----
  // Places every cluster that fits now and schedules its CTAs' launch from `at`.
  void startClusters(uint64_t at);
  // Starts cluster `cluster` on `sms` (by rank) at `at`: its CTAs and their Cluster.
  void launchCluster(uint64_t cluster, const std::vector<uint32_t>& sms, uint64_t at);
  // A cluster barrier phase completed during the step issued at `t`: its waiting warps go on.
  void releaseCluster(ClusterRun& run, uint64_t t);
  // A CTA of a cluster finished: its SM slot is free; the cluster's CTAs are kept (their
  // shared memory stays addressable) until the last one finishes.
  void finishClusterMember(uint32_t slot, uint64_t t);
  // When a timed access of warp `w` goes to another CTA's shared memory (distributed shared
  // memory), its timing; nullopt for the CTA's own.
  std::optional<AccessTiming> remoteSharedAccess(WarpCtx& w, const MemoryEvent& e);
  // The launch ended with CTAs unfinished: every warp of a cluster waits for the others.
  void failClusterDeadlock();
  // A cooperative launch's CTAs must all be resident at once.
  void checkCooperativeFits(uint64_t ctasAtOnce) const;
  // Sampling: runs CTAs [first, grid) functionally in index order after the detailed part and
  // scales the report to the whole grid (the rule is in docs/TIMING_MODEL.md).
  void runRestFunctionally(uint64_t first);
  void extrapolate(uint64_t detailed);

  const TimingConfig& c_;
  Occupancy occ_;
  LaunchContext& ctx_;
  const std::vector<ObserverFactory*>& factories_;
  ClassTable classes_;
  std::unique_ptr<Scheduler> scheduler_;
  CtaDispatcher dispatch_;
  L2 l2_;
  std::vector<SmState> sms_;
  std::vector<WarpCtx> warps_;
  std::vector<uint32_t> freeWarps_;
  std::vector<std::unique_ptr<CtaSlot>> ctas_;
  std::vector<uint32_t> freeCtas_;
  std::vector<std::unique_ptr<Cta>> spareCtas_;
  std::priority_queue<std::pair<uint64_t, uint32_t>, std::vector<std::pair<uint64_t, uint32_t>>,
                      std::greater<>>
      heap_;
  std::map<uint64_t, Finished> finished_;
  // CTAs waiting for their SM's next launch: (cycle, sm, index), earliest first.
  std::priority_queue<std::tuple<uint64_t, uint32_t, uint64_t>,
                      std::vector<std::tuple<uint64_t, uint32_t, uint64_t>>, std::greater<>>
      pendingCtas_;
  // Clusters of more than one CTA: placed whole on a GPC; those in flight by index; those
  // placed and waiting for their SMs' next launch (cycle, cluster index) with their SMs.
  std::optional<ClusterDispatcher> clusterDispatch_;
  std::map<uint64_t, std::unique_ptr<ClusterRun>> clusterRuns_;
  std::priority_queue<std::pair<uint64_t, uint64_t>, std::vector<std::pair<uint64_t, uint64_t>>,
                      std::greater<>>
      pendingClusters_;
  std::map<uint64_t, std::vector<uint32_t>> placedSms_;
  uint64_t nextMerge_ = 0;
  uint64_t age_ = 0;
  uint64_t end_ = 0;
  uint32_t slotsMax_ = 0, predsMax_ = 0;
  TimingReport rep_;
  LaunchResult result_;
  std::optional<FaultInfo> fault_;
  // The step in progress.
  uint32_t curWarp_ = 0;
  uint64_t curT_ = 0;
  uint64_t curHoist_ = 0;  // cycles a hoisted load's requests start before its issue
  const isa::Inst* curInst_ = nullptr;
  const isa::FunctionCode* curFunction_ = nullptr;
  isa::LaneMask curExecuted_ = 0;
  // Per function (by address): its SASS stack frame in bytes; whether it is vprintf.
  std::map<const isa::FunctionCode*, uint32_t> frames_;
  uint32_t frameStride_ = 0;  // the largest frame: one depth's slot of the stack
  const isa::FunctionCode* vprintf_ = nullptr;
  const isa::FunctionCode* malloc_ = nullptr;  // the extern malloc and free, where declared
  const isa::FunctionCode* free_ = nullptr;
  // The device heap's allocator: its SMs' slots and the device's (heap.*_cycles).
  HeapTiming deviceHeap_;
  // The cycle each of the grid's device-side launches was made at, in the order the functional
  // core queued them (GridLaunches::queued).
  std::vector<uint64_t> launchCycles_;
  const isa::FunctionCode* launchDevice_ = nullptr;  // cudaLaunchDeviceV2, where declared
  size_t curLaunches_ = 0;  // the launches the step in progress made (the last of launchCycles_)
  std::vector<uint64_t> stackAddr_;  // scratch: a frame word's address per lane
  // Back edges of loops whose induction variable steps by a register (a grid- or block-stride
  // loop): ptxas does not unroll them, so no load is hoisted across one.
  std::unordered_set<const isa::Inst*> notUnrolled_;
  // What ptxas folds into another SASS instruction (folds.h: adds into an access's addressing
  // mode, negations into operands): their results count from their operands, and they take no
  // unit.
  std::unordered_set<const isa::Inst*> folded_;
  // Loops that ptxas unrolls and schedules as one block across their barriers
  // (pipelined_loops.h): their arithmetic and read-only loads hoist as far back as a trip.
  PipelinedLoops pipelined_;
  // Branches that ptxas predicates (if_convert.h): no branch to resolve; a warp that skips the
  // body still issues it, its lanes off (skipPredicatedBody).
  PredicatedBodies predicated_;
  // The SASS's fixed stall cycles (x kStallOne) after each instruction that has more than the
  // one cycle of its issue (ptxas.sass_stalls; sass_stalls.h).
  std::unordered_map<const isa::Inst*, uint32_t> fixedStall_;
  std::string fixedStallSource_;                 // TimingReport::fixedStalls
  uint64_t curBulkReady_ = 0;                    // the issuing bulk copy's bytes are back
  std::unordered_set<uint64_t> curBulkSectors_;  // and the sectors it has requested
  uint64_t curMemReady_ = 0;
  Stall curMemKind_ = Stall::Wait;
  bool curHadMemory_ = false;
  uint64_t curFenceUntil_ = 0;  // a fence at gpu scope holds the warp until then
  std::vector<unsigned> curReleased_;
  bool curReleasedAny_ = false;
  std::vector<Candidate> candScratch_;
  std::vector<EngineListener*> listeners_;
  std::vector<std::vector<FlopWeight>> flopWeights_;             // by function index, then pc
  std::unordered_map<const isa::Inst*, TensorWork> tensorWork_;  // the tensor-class instructions
  // The instructions that commit or wait for asynchronous groups, with what each does (read
  // once at construction, not at every instruction the warps issue).
  std::unordered_map<const isa::Inst*, AsyncSync> asyncSyncs_;
  bool counting_ = false;  // the functional rest of a sampled launch: count, do not time
  // Sampling: the detailed CTAs (0: every CTA), CTAs finished so far, when the first wave's
  // worth of them had and when the last one did.
  uint64_t sampleWaves_ = 0, detailCtas_ = 0, finishedCtas_ = 0, firstWaveDone_ = 0;
  uint64_t lastFinish_ = 0;
};

}  // namespace warpsim::sim::timing
