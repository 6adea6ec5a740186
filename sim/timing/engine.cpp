#include "sim/timing/engine.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <ctime>
#include <tuple>

#include "sim/gpu.h"
#include "sim/timing/engine_slots.h"
#include "sim/timing/memory_order.h"
#include "sim/timing/peek.h"
#include "sim/timing/smem.h"

namespace warpsim::sim::timing {

class Engine::Probe final : public Observer {
 public:
  explicit Probe(Engine& e) : e_(e) {}
  void instruction(const InstructionEvent& ev) override { e_.onInstruction(ev); }
  void memory(const MemoryEvent& ev) override { e_.onMemory(ev); }
  void barrierReleased(uint32_t, const std::vector<unsigned>& waiters) override {
    e_.onRelease(waiters);
  }

 private:
  Engine& e_;
};

namespace {

Stall throttleOf(Unit u) {
  return u == Unit::Lsu   ? Stall::LgThrottle
         : u == Unit::Mio ? Stall::MioThrottle
                          : Stall::MathPipeThrottle;
}

// What a fixed-latency result's consumers wait as: MIO-ish producers (SFU, conversions,
// shuffles) are "short scoreboard" in ncu's terms, ALU results "wait".
Stall resultKind(isa::InsnClass k) {
  using K = isa::InsnClass;
  return k == K::Sfu || k == K::Convert || k == K::Warp ? Stall::ShortScoreboard : Stall::Wait;
}

}  // namespace

Engine::Engine(const TimingConfig& c, const Occupancy& occ, LaunchContext& ctx,
               const std::vector<ObserverFactory*>& factories, const KernelResources& resources,
               std::vector<EngineListener*> listeners, uint64_t sampleWaves)
    : c_(c),
      occ_(occ),
      ctx_(ctx),
      factories_(factories),
      classes_(c),
      scheduler_(findScheduler(c.scheduler)->make()),
      dispatch_(ctx.grid.count(), c.smCount, occ.ctasPerSm),
      l2_(c),
      deviceHeap_(c.smCount) {
  sms_.resize(c.smCount);
  for (SmState& s : sms_) {
    s.smsps.resize(c.smspPerSm);
    s.l1 = std::make_unique<L1>(c, occ.l1Bytes, l2_.nearPartition(uint32_t(&s - sms_.data())));
  }
  for (const isa::FunctionCode& f : ctx.program->functions) {
    slotsMax_ = std::max(slotsMax_, f.numSlots);
    predsMax_ = std::max(predsMax_, f.numPreds);
    if (f.isExtern && f.name == "vprintf") vprintf_ = &f;
    if (f.isExtern && f.name == "malloc") malloc_ = &f;
    if (f.isExtern && f.name == "free") free_ = &f;
    if (f.isExtern && (f.name == "cudaLaunchDeviceV2" || f.name == "__cudaCDP2LaunchDeviceV2"))
      launchDevice_ = &f;
    for (uint32_t pc = 0; pc < f.code.size(); ++pc)
      if (notUnrolledLoop(f, pc)) notUnrolled_.insert(&f.code[pc]);
    if (c.ptxasPipelineUnroll && c.ptxasHoistWindow)
      addPipelinedLoops(f, WarpCtx::kHoistRing,
                        std::min(c.ptxasUnrollMaxBody, WarpCtx::kHoistRing / c.ptxasPipelineUnroll),
                        c.ptxasPipelineUnroll, notUnrolled_, pipelined_);
    addIfConverted(f, c.ptxasIfConvertMax, predicated_);
    addFolded(f,
              {c.ptxasFoldAddresses != 0, c.ptxasFoldModifiers != 0, c.ptxasFoldAddPairs != 0,
               c.ptxasFoldPredicates != 0, c.ptxasFoldSelects != 0},
              folded_);
    // Whole 4-byte words: SASS saves and restores registers one STL/LDL of 4 bytes per lane.
    if (auto it = resources.stackFrames.find(f.name);
        it != resources.stackFrames.end() && it->second >= 4) {
      frames_[&f] = it->second / 4 * 4;
      frameStride_ = std::max(frameStride_, it->second / 4 * 4);
    }
  }
  if (c.ptxasSassStalls && resources.sass)
    fixedStallSource_ = "SASS (ptxas, nvdisasm)";
  else if (c.ptxasSassStalls && !resources.sassNote.empty())
    fixedStallSource_ = "none (" + resources.sassNote + ")";
  if (c.ptxasSassStalls && resources.sass) {
    static const std::map<int, std::string> kNoFiles;
    const auto& files = ctx.program->module ? ctx.program->module->files : kNoFiles;
    for (const isa::FunctionCode& f : ctx.program->functions) {
      const auto it = resources.sass->find(f.name);
      if (it == resources.sass->end()) continue;
      const std::vector<uint32_t> q = fixedStalls(f, it->second, files);
      for (size_t pc = 0; pc < q.size(); ++pc)
        if (q[pc] > kStallOne) fixedStall_[&f.code[pc]] = q[pc];
    }
  }
  stackAddr_.assign(32, 0);
  listeners_ = std::move(listeners);
  for (const isa::FunctionCode& f : ctx.program->functions) {
    flopWeights_.emplace_back();
    for (const isa::Inst& in : f.code) {
      flopWeights_.back().push_back(flopWeight(in));
      if (in.cls == isa::InsnClass::Tensor) tensorWork_[&in] = tensorWork(in, c);
      if (const std::optional<AsyncSync> s = asyncSyncOf(f, in)) asyncSyncs_[&in] = *s;
    }
  }
  const uint64_t perWave = uint64_t(c.smCount) * occ.ctasPerSm;
  if (const uint64_t size = ctx.cluster.count(); size > 1) {
    clusterDispatch_.emplace(ctx.grid.count() / size, uint32_t(size), parseGpcs(c.gpcs, c.smCount),
                             occ.ctasPerSm);
    if (clusterDispatch_->clustersAtOnce() == 0)
      throw LaunchError("a cluster of " + std::to_string(size) + " CTAs does not fit one GPC of " +
                        "the timing model's chip (sm.gpcs " + c.gpcs + ", " +
                        std::to_string(occ.ctasPerSm) + " CTAs per SM)");
    checkCooperativeFits(clusterDispatch_->clustersAtOnce() * size);
  } else {
    checkCooperativeFits(perWave);
  }
  // A cluster's or a cooperative grid's CTAs wait for one another: every CTA runs in detail.
  const bool groups = clusterDispatch_ || ctx.cooperative;
  if (sampleWaves && !groups && dispatch_.waves() > sampleWaves) {
    sampleWaves_ = sampleWaves;
    detailCtas_ = sampleWaves * perWave;
    dispatch_.limit(detailCtas_);
  }
}

Engine::~Engine() = default;

void Engine::wake(uint32_t id, uint64_t t) {
  Smsp& s = sms_[id / c_.smspPerSm].smsps[id % c_.smspPerSm];
  if (t < s.scheduled) {
    s.scheduled = t;
    heap_.push({t, id});
  }
}

uint32_t Engine::launchCta(uint32_t sm, uint64_t index, uint64_t at) {
  uint32_t slot;
  if (!freeCtas_.empty()) {
    slot = freeCtas_.back();
    freeCtas_.pop_back();
  } else {
    slot = uint32_t(ctas_.size());
    ctas_.push_back(std::make_unique<CtaSlot>());
  }
  CtaSlot& cs = *ctas_[slot];
  cs.index = index;
  cs.sm = sm;
  cs.issued = 0;
  cs.run = nullptr;
  cs.finished = false;
  cs.bulkLanded.clear();
  cs.observers.clear();
  std::vector<Observer*> raw;
  if (!cs.probe) cs.probe = std::make_unique<Probe>(*this);
  raw.push_back(cs.probe.get());
  if (!factories_.empty()) {
    const CtaInfo info = ctaInfoOf(ctx_, index);
    for (ObserverFactory* f : factories_) {
      cs.observers.push_back(f->create(info));
      raw.push_back(cs.observers.back().get());
    }
  }
  cs.list = std::make_unique<ObserverList>(raw);
  Observer* obs = raw.size() == 1 ? raw[0] : cs.list.get();
  try {
    if (!cs.cta && !spareCtas_.empty()) {
      cs.cta = std::move(spareCtas_.back());
      spareCtas_.pop_back();
    }
    if (cs.cta)
      cs.cta->restart(index, obs);
    else
      cs.cta = std::make_unique<Cta>(ctx_, index, obs);
  } catch (const KernelFault& f) {
    fault_ = f.info();
    cs.cta.reset();
    return kNoSlot;
  }
  SmState& s = sms_[sm];
  ++s.residentCtas;
  for (EngineListener* l : listeners_) l->ctaStarted(sm, index, at);
  cs.warps.clear();
  cs.live = cs.cta->warpCount();
  for (unsigned w = 0; w < cs.cta->warpCount(); ++w) {
    uint32_t wi;
    if (!freeWarps_.empty()) {
      wi = freeWarps_.back();
      freeWarps_.pop_back();
    } else {
      wi = uint32_t(warps_.size());
      warps_.emplace_back();
    }
    WarpCtx& wc = warps_[wi];
    wc.cta = slot;
    wc.warp = w;
    wc.sm = sm;
    wc.smsp = s.warpsDispatched++ % c_.smspPerSm;
    wc.age = age_++;
    wc.readyAt = at;
    wc.readyKind = Stall::Wait;
    wc.sb.reset(slotsMax_, predsMax_, c_.latCrossPipe);
    wc.lastT = at;
    wc.lastKind = Stall::Wait;
    wc.done = false;
    wc.peeked = false;
    wc.atBarrier = false;
    wc.hoistFloor = wc.sharedStoreFloor = wc.globalStoreFloor = at;
    wc.sharedStoreDone = wc.globalStoreDone = wc.barrierFloor = at;
    wc.pipelinedTrips = 0;
    wc.nextMask = wc.pathMask = 0;
    wc.issuedCount = 0;
    wc.callDepth.fill(0);
    wc.vectors.reset();
    wc.stallCarry = 0;
    wc.asyncCopies.clear();
    wc.wgmmaGroups.clear();
    cs.warps.push_back(wi);
    s.smsps[wc.smsp].warps.push_back(wi);
    wake(sm * c_.smspPerSm + wc.smsp, at);
    for (EngineListener* l : listeners_) l->warpStarted(wi, sm, index, w, at);
  }
  s.changeWarps(at, int(cs.cta->warpCount()));
  ++rep_.ctas;
  return slot;
}

void Engine::scheduleCta(uint32_t sm, uint64_t index, uint64_t at) {
  SmState& s = sms_[sm];
  const uint64_t start = std::max(at, s.nextCtaStart);
  s.nextCtaStart = start + c_.ctaLaunchInterval;
  if (start == at)
    launchCta(sm, index, at);
  else
    pendingCtas_.push({start, sm, index});
}

void Engine::mergeReady() {
  while (!finished_.empty() && finished_.begin()->first == nextMerge_) {
    Finished& f = finished_.begin()->second;
    for (size_t i = 0; i < f.observers.size(); ++i) factories_[i]->merge(*f.observers[i]);
    result_.printfOutput += f.printf;
    finished_.erase(finished_.begin());
    ++nextMerge_;
  }
}

void Engine::finishCta(uint32_t slot, uint64_t t) {
  CtaSlot& cs = *ctas_[slot];
  const FaultInfo* fault = fault_ ? &*fault_ : nullptr;
  cs.list->ctaFinished(fault);
  for (EngineListener* l : listeners_) l->ctaFinished(cs.sm, cs.index, t);
  if (++finishedCtas_ == uint64_t(c_.smCount) * occ_.ctasPerSm) firstWaveDone_ = t;
  lastFinish_ = t;
  Finished f;
  f.observers = std::move(cs.observers);
  f.printf = cs.cta ? cs.cta->printfOutput() : std::string();
  finished_[cs.index] = std::move(f);
  mergeReady();
  SmState& s = sms_[cs.sm];
  --s.residentCtas;
  cs.finished = true;
  if (cs.run) {
    finishClusterMember(slot, t);
    return;
  }
  if (cs.cta) spareCtas_.push_back(std::move(cs.cta));
  freeCtas_.push_back(slot);
  if (fault_) return;
  if (std::optional<uint64_t> next = dispatch_.next())
    scheduleCta(cs.sm, *next, t + 1 + c_.ctaLaunchLatency);
}

void Engine::fixedStall(WarpCtx& w, const isa::Inst* in, uint64_t t) {
  const auto it = fixedStall_.find(in);
  if (it == fixedStall_.end()) return;
  // A fraction of a cycle carries to the warp's next instruction, so that a line's PTX
  // instructions together wait what its SASS does.
  w.stallCarry += it->second - kStallOne;
  const uint64_t until = t + 1 + w.stallCarry / kStallOne;
  w.stallCarry %= kStallOne;
  w.holdUntil(until, Stall::Wait);
}

void Engine::account(WarpCtx& w, uint64_t until) {
  if (until > w.lastT) {
    if (!listeners_.empty()) {
      const isa::Inst* at = w.peeked ? w.next : nextInstruction(ctas_[w.cta]->cta->warp(w.warp));
      for (EngineListener* l : listeners_)
        l->warpState(uint32_t(&w - warps_.data()), w.lastT, until, w.lastKind, at);
    }
    rep_.stalls[size_t(w.lastKind)] += until - w.lastT;
    w.lastT = until;
  }
}

std::pair<uint64_t, Stall> Engine::evaluate(WarpCtx& w) {
  if (w.atBarrier) return {kNever, Stall::Barrier};
  if (w.frame.left) {  // a frame word next: an LSU instruction with nothing to wait for
    if (const uint64_t lsu = sms_[w.sm].l1->lsuFree(); lsu > w.readyAt)
      return {lsu, Stall::LgThrottle};
    return {w.readyAt, w.readyKind};
  }
  // The next instruction and its registers' readiness change only when this warp issues.
  if (!w.peeked) {
    const Warp& fw = ctas_[w.cta]->cta->warp(w.warp);
    const SimtEntry* path = nextPath(fw);
    w.next = instructionAt(fw, path);
    w.nextMask = path ? path->mask : 0;
    if (w.next) {
      w.nextPipe = fixedPipeOf(*w.next);
      std::tie(w.regAt, w.regKind) = w.sb.waitFor(*w.next, w.nextPipe);
      w.pipes =
          folded_.empty() || !folded_.count(w.next) ? classes_.pipesOf(*w.next) : PipeChoice{};
    } else {
      w.regAt = 0;
      w.pipes = {};
    }
    w.peeked = true;
  }
  uint64_t at = w.readyAt;
  Stall kind = w.readyKind;
  if (w.regAt > at) {
    at = w.regAt;
    kind = w.regKind;
  }
  const Unit u = w.pipes.first;
  uint64_t unitFree = 0;
  if (u == Unit::Lsu)
    unitFree = sms_[w.sm].l1->lsuFree();
  else if (u == Unit::Mio)
    unitFree = std::max(sms_[w.sm].mioFree, w.sharedPaceEnd);
  else if (u != Unit::None)
    unitFree = sms_[w.sm].smsps[w.smsp].freeAt(w.pipes);
  if (unitFree > at) {
    at = unitFree;
    kind = throttleOf(u);
  }
  return {at, kind};
}

void Engine::retireWarp(uint32_t wi, uint64_t t) {
  WarpCtx& w = warps_[wi];
  w.done = true;
  SmState& s = sms_[w.sm];
  Smsp& sp = s.smsps[w.smsp];
  sp.warps.erase(std::find(sp.warps.begin(), sp.warps.end(), wi));
  if (sp.lastIssued == wi) sp.lastIssued = ~0u;
  s.changeWarps(t, -1);
  for (EngineListener* l : listeners_) l->warpFinished(wi, t);
  freeWarps_.push_back(wi);
  CtaSlot& cs = *ctas_[w.cta];
  if (--cs.live == 0) finishCta(w.cta, t);
}

void Engine::onInstruction(const InstructionEvent& e) {
  curInst_ = e.inst;
  curFunction_ = e.function;
  curExecuted_ = e.executed;
  const unsigned lanes = unsigned(std::popcount(e.executed));
  rep_.threadInstructions += lanes;
  const FlopWeight& fw =
      flopWeights_[size_t(e.function - ctx_.program->functions.data())][e.inst->pc];
  if (fw.kind != FlopKind::None && lanes)
    rep_.flops[unsigned(fw.kind) - 1] += fw.perWarp ? fw.perWarp : uint64_t(fw.perLane) * lanes;
}

void Engine::onMemory(const MemoryEvent& e) {
  if (counting_) return;
  WarpCtx& w = warps_[curWarp_];
  if (e.inst && e.inst->sync == isa::SyncRole::BulkCopy) return bulkAccess(w, e);
  // A wgmma's operands come from shared memory into the tensor core itself (no MIO slot, no
  // result for the warp to wait on): its pipe time and group completion time it (issue()).
  if (e.inst && e.inst->cls == isa::InsnClass::Tensor)
    if (const auto it = tensorWork_.find(e.inst); it != tensorWork_.end() && it->second.wgmma)
      return;
  if (e.inst && e.inst->sync == isa::SyncRole::MbarrierWait) waitForBulkCopies(w, e);
  SmState& s = sms_[w.sm];
  isa::Space landed = e.landed;
  if (landed == isa::Space::None || landed == isa::Space::Generic) landed = isa::Space::Global;
  AccessTiming a;
  if (e.kind == AccessKind::Fence) {
    a = {curT_ + 1, Stall::Wait};
    if (const GpuFence f = gpuFenceOf(*e.inst); f != GpuFence::None)
      curFenceUntil_ = std::max(curT_ + 1, w.globalStoreDone) +
                       (f == GpuFence::Sc ? c_.fenceScLatency : c_.fenceReleaseLatency);
  } else if (landed == isa::Space::Shared || landed == isa::Space::SharedCluster) {
    if (std::optional<AccessTiming> remote = remoteSharedAccess(w, e)) {
      a = *remote;
    } else {
      // Shared memory and the L1 are one data array with one 128 B/cycle path (L1TEX): a
      // shared access waits for the global requests ahead of it, and they for it (below).
      s.mioFree = std::max(s.mioFree, s.l1->lsuFree());
      a = c_.ptxasVectorize ? sharedAccessMerged(c_, e, curT_, s.mioFree, rep_.mem, w.vectors)
                            : sharedAccess(c_, e, curT_, s.mioFree, rep_.mem);
      if (e.kind == AccessKind::Store) w.sharedStoreDone = std::max(w.sharedStoreDone, a.performed);
      if (c_.sharedWarpPace) w.sharedPaceEnd = std::max(w.sharedPaceEnd, a.paced + 1);
    }
  } else if (landed == isa::Space::Global || landed == isa::Space::Local) {
    // A hoisted load's data is back curHoist_ sooner (issue()), its drain too.
    uint64_t drain = 0;
    s.l1->occupy(s.mioFree);
    // A release at gpu scope is performed after the warp's earlier stores (and as a fence).
    const bool release = releasesToTheGpu(e);
    const uint64_t start =
        release ? std::max(curT_ + 1, w.globalStoreDone) + c_.fenceReleaseLatency : curT_;
    a = s.l1->access(e, landed, w.localKey(), start, l2_, rep_.mem, &drain);
    // cp.async's read: its data lands in shared memory async.land_latency after it is back;
    // the warp goes on, and waits for it at cp.async.wait_group (asyncWait).
    if (e.async && e.kind == AccessKind::Load) w.asyncCopies.copy(a.ready + c_.asyncLandLatency);
    if (landed == isa::Space::Global && e.kind != AccessKind::Load)
      w.globalStoreDone = std::max(w.globalStoreDone, a.ready);
    if (acquiresFromTheGpu(e)) a.ready += c_.acquireCycles;
    end_ = std::max(end_, drain > curHoist_ ? std::max(drain - curHoist_, curT_ + 1) : drain);
  } else {  // param, const: the constant cache
    a = {curT_ + c_.constLatency, Stall::ShortScoreboard};
  }
  curHadMemory_ = true;
  if (e.kind != AccessKind::Store && a.ready > curMemReady_) {
    curMemReady_ = a.ready;
    curMemKind_ = a.kind;
  }
}

// A bulk copy's (cp.async.bulk, .tensor: TMA) parts. The copy engine moves its bytes, not the
// SM's load/store pipe or L1: each sector of global memory is one L2 access, async.bulk_latency
// after the issue; the shared writes take no MIO slot. Its complete_tx on an mbarrier records
// when the bytes have landed (async.land_latency after the last is back), which a wait on that
// mbarrier then waits for (waitForBulkCopies).
void Engine::bulkAccess(WarpCtx& w, const MemoryEvent& e) {
  curHadMemory_ = true;
  isa::Space landed = e.landed;
  if (landed == isa::Space::None || landed == isa::Space::Generic) landed = isa::Space::Global;
  if (landed == isa::Space::Global) {
    const L2Op op = e.kind == AccessKind::Load ? L2Op::Read : L2Op::Write;
    for (uint32_t mask = e.mask; mask; mask &= mask - 1) {
      const uint64_t a = e.addresses[std::countr_zero(mask)];
      for (uint64_t sec = a / 32; sec <= (a + e.bytes - 1) / 32; ++sec)
        if (curBulkSectors_.insert(sec).second)
          curBulkReady_ = std::max(curBulkReady_, l2_.access(sec * 32, op, curT_ + c_.bulkLatency,
                                                             rep_.mem, 1, l2_.nearPartition(w.sm)));
    }
    end_ = std::max(end_, curBulkReady_);
    return;
  }
  if (e.kind != AccessKind::Atomic) return;  // the data's shared writes
  CtaSlot& cs = *ctas_[w.cta];
  for (uint32_t mask = e.mask; mask; mask &= mask - 1) {
    uint64_t a = e.addresses[std::countr_zero(mask)];
    CtaSlot* owner = &cs;
    if (landed == isa::Space::SharedCluster && namesRank(a)) {
      const unsigned rank = rankOfClusterAddress(a);
      if (!cs.run || rank >= cs.run->slots.size()) continue;
      owner = ctas_[cs.run->slots[rank]].get();
      a &= kClusterOffsetMask;
    }
    uint64_t& at = owner->bulkLanded[a];
    at = std::max(at, curBulkReady_ + c_.asyncLandLatency);
  }
}

// mbarrier.try_wait / test_wait on an mbarrier that bulk copies complete: the warp waits for
// their bytes (the functional core completed them at their issue).
void Engine::waitForBulkCopies(WarpCtx& w, const MemoryEvent& e) {
  const CtaSlot& cs = *ctas_[w.cta];
  if (cs.bulkLanded.empty() || e.landed != isa::Space::Shared) return;
  uint64_t landed = 0;
  for (uint32_t mask = e.mask; mask; mask &= mask - 1)
    if (const auto it = cs.bulkLanded.find(e.addresses[std::countr_zero(mask)]);
        it != cs.bulkLanded.end())
      landed = std::max(landed, it->second);
  holdForData(w, landed, curT_);
}

void Engine::onRelease(const std::vector<unsigned>& waiters) {
  if (counting_) return;
  curReleasedAny_ = true;
  curReleased_.insert(curReleased_.end(), waiters.begin(), waiters.end());
}

// The earliest cycle `next`'s result may count from under ptxas's schedule (WarpCtx::hoistFloor):
// arithmetic moves above any store; a load stays after the warp's last store that may alias it.
// In a pipelined loop (`pipelined`) arithmetic and read-only loads (`readOnly`) move above
// barriers too.
namespace {
uint64_t hoistFloorOf(const WarpCtx& w, const isa::Inst* next, bool pipelined, bool readOnly) {
  using K = isa::InsnClass;
  const uint64_t barrier = std::max(w.hoistFloor, w.barrierFloor);
  if (!next) return barrier;
  switch (next->cls) {
    case K::LoadShared:
      return std::max(barrier, w.sharedStoreFloor);
    case K::LoadGlobal:
    case K::LoadLocal:
      if (next->mods.space == isa::Space::None || next->mods.space == isa::Space::Generic)
        return std::max({barrier, w.sharedStoreFloor, w.globalStoreFloor});
      if (readOnly) return std::max(w.hoistFloor, w.globalStoreFloor);
      return std::max(barrier, w.globalStoreFloor);
    case K::StoreShared:
    case K::StoreGlobal:
    case K::StoreLocal:
    case K::AtomicGlobal:
    case K::AtomicShared:
    case K::Barrier:
      return barrier;
    default:
      return pipelined ? w.hoistFloor : barrier;
  }
}
}  // namespace

void Engine::issue(uint32_t wi, uint64_t t) {
  if (warps_[wi].frame.left) return issueFrameWord(wi, t);
  WarpCtx& w = warps_[wi];
  CtaSlot& cs = *ctas_[w.cta];
  const isa::Inst* const issued = w.next;
  curWarp_ = wi;
  curT_ = t;
  curHoist_ = 0;
  // ptxas schedules a basic block's loads as early as their addresses allow (the PTX interleaves
  // them with their uses; SASS issues them first): a load's requests start when its operands
  // were ready, not before its block began or its warp's last store.
  // The same holds for the arithmetic between them: a fixed-latency result counts from when
  // its operands were ready. Issue slots and units are still taken in PTX order.
  using K = isa::InsnClass;
  uint64_t dataflowT = t;
  // ptxas moves nothing across the points where a warp's lanes split or rejoin (BSSY/BSYNC in
  // SASS): an instruction on another path than the warp's last one counts from its issue
  // (micro_branch_chain's divergent round ran its two sides' chains side by side).
  if (w.nextMask != w.pathMask) {
    if (w.pathMask) w.hoistFloor = std::max(w.hoistFloor, t);
    w.pathMask = w.nextMask;
  }
  if (uint32_t k = c_.ptxasHoistWindow) {
    // In a loop that ptxas pipelines, as far back as its trip's length (pipelined_loops.h).
    const auto trip =
        w.next && !pipelined_.body.empty() ? pipelined_.body.find(w.next) : pipelined_.body.end();
    const bool pipelined = trip != pipelined_.body.end();
    if (pipelined) k = std::max(k, trip->second);
    const uint64_t floor =
        hoistFloorOf(w, w.next, pipelined, pipelined && pipelined_.readOnlyLoads.count(w.next));
    const uint64_t windowStart =
        w.issuedCount >= k ? w.issuedAt[(w.issuedCount - k) % WarpCtx::kHoistRing] : floor;
    // Only an instruction held back by the warp's own in-order issue (its operands were ready
    // before the warp's previous issue) moves up; one that waited for its operands, or for an
    // issue slot, counts from its issue.
    const uint64_t prevIssue =
        w.issuedCount ? w.issuedAt[(w.issuedCount - 1) % WarpCtx::kHoistRing] : floor;
    const uint64_t uses = w.next ? w.sb.usesReady(*w.next, w.nextPipe) : t;
    if (uses <= prevIssue) dataflowT = std::min(t, std::max({floor, windowStart, uses}));
  }
  w.issuedAt[w.issuedCount++ % WarpCtx::kHoistRing] = t;
  if (w.next &&
      (w.next->cls == K::LoadGlobal || w.next->cls == K::LoadLocal || w.next->cls == K::LoadShared))
    curHoist_ = t - dataflowT;
  curInst_ = nullptr;
  curBulkReady_ = 0;
  curBulkSectors_.clear();
  curMemReady_ = 0;
  curMemKind_ = Stall::LongScoreboard;
  curHadMemory_ = false;
  curFenceUntil_ = 0;
  curReleased_.clear();
  curReleasedAny_ = false;
  const uint64_t ctaIndex = cs.index;
  // barrier.cluster.wait after the phase completed: the functional core goes on at once.
  const bool clusterWaitPending = cs.run && cs.cta->warp(w.warp).clusterPending;
  const size_t launchesBefore = launchCycles_.size();
  const StepResult r = cs.cta->step(w.warp, 1);
  if (ctx_.launches)  // device-side launches this instruction made (none when it failed)
    launchCycles_.resize(ctx_.launches->queued.size(), t);
  curLaunches_ = launchCycles_.size() - launchesBefore;
  w.peeked = false;
  const WarpState after = cs.cta->warp(w.warp).state;
  w.atBarrier = after == WarpState::AtBarrier || after == WarpState::AtClusterBarrier;
  ++rep_.warpInstructions;
  // The functional driver's watchdog, per CTA (sim/func/launch.h): the same budget, so a
  // kernel stuck in a loop stops at the same instruction with and without timing.
  const uint64_t budget = watchdogBudget(ctx_.options, cs.cta->warpCount());
  if (++cs.issued > budget) cs.cta->failBudget(cs.issued, budget);
  // The launch's time limit and Ctrl-C, as the functional driver checks them between rounds.
  if ((rep_.warpInstructions & 4095) == 0) cs.cta->failIfStopped(ctx_);
  end_ = std::max(end_, t + 1);
  SmState& s = sms_[w.sm];
  Smsp& sp = s.smsps[w.smsp];
  sp.lastIssued = wi;
  w.readyAt = std::max(w.readyAt, t + 1);
  w.readyKind = Stall::Wait;
  if (const isa::Inst* in = curInst_) {
    const ClassTiming& ct = classes_[in->cls];
    uint64_t ready, guardReady = 0;
    Stall kind;
    if (ct.unit == Unit::Lsu || ct.unit == Unit::Mio) ++rep_.pipeIssues[size_t(ct.unit)];
    if (ct.memory || curHadMemory_) {
      // A hoisted load started curHoist_ cycles before its PTX issue; the memory system's
      // queues are those at its issue (an approximation that keeps them in time order).
      ready = curHadMemory_ && curMemReady_ > curHoist_ ? std::max(curMemReady_ - curHoist_, t + 1)
                                                        : t + 1;
      kind = curMemKind_;
      if (!curHadMemory_) {
        if (ct.unit == Unit::Lsu) s.l1->occupy(t + 1);
        if (ct.unit == Unit::Mio) s.mioFree = std::max(s.mioFree, t + 1);
      }
    } else if (!folded_.empty() && folded_.count(in)) {
      // Part of another SASS instruction: no latency of its own. A predicate it makes guards
      // no sooner than the compares it combines (ISETP ... P1, then @P0 BRA P1) allow; a
      // register it selects by a predicate is its second source's computation under that
      // predicate (@P0 SHF), which issues once the predicate may guard it.
      const uint64_t guards = w.sb.sourcesGuardReady(*in);
      ready = dataflowT;
      guardReady = std::max(dataflowT, guards);
      if (guards && !in->defs.empty() && !in->defs[0].pred)
        ready = std::max(ready, guards + ct.latency);
      kind = resultKind(in->cls);
    } else {
      ready = dataflowT + ct.latency;
      guardReady = dataflowT + c_.latPredicateGuard;
      kind = resultKind(in->cls);
      if (ct.unit == Unit::Mio) {
        s.mioFree = std::max(s.mioFree, t + ct.interval);
      } else if (ct.unit != Unit::None) {
        const Unit pipe = sp.pick(classes_.pipesOf(*in), t);
        if (pipe == Unit::Tensor) {
          // Its SASS instructions one after another: the last one's result comes last.
          const TensorWork& tw = tensorWork_.at(in);
          sp.occupyTensor(t, tw.cycles);
          if (tw.wgmma) {
            // The tensor core chains the next wgmma onto this one's accumulator (the SASS's
            // HGMMAs run back to back): readers wait at wgmma.wait_group for its group.
            w.wgmmaGroups.copy(t + uint64_t(tw.cycles + 0.5) + c_.latWgmma);
            ready = t + 1;
          }
        } else {
          sp.unitFree[size_t(pipe)] = t + classes_.intervalOf(pipe);
        }
        ++rep_.pipeIssues[size_t(pipe)];
      }
    }
    const FixedPipe pipe = in == issued ? w.nextPipe : fixedPipeOf(*in);
    for (const isa::RegRef& d : in->defs) w.sb.write(d, ready, kind, guardReady, pipe);
    if (!in->defs.empty()) end_ = std::max(end_, ready);  // a result still on its way
    if ((in->flow == isa::Flow::Call || in->flow == isa::Flow::Return) && curExecuted_)
      callCosts(w, t);
    const auto pred = in->cls == isa::InsnClass::Control && !predicated_.empty()
                          ? predicated_.find(in)
                          : predicated_.end();
    if (pred != predicated_.end()) {
      // Predicated in SASS: nothing to resolve. A warp that skipped the body issues it anyway.
      const isa::Inst* next = nextInstruction(cs.cta->warp(w.warp));
      if (curFunction_ && next == &curFunction_->code[in->target] && curExecuted_) {
        w.holdUntil(skipPredicatedBody(w, pred->second, t), Stall::ShortScoreboard);
      }
    } else if (in->cls == isa::InsnClass::Control) {
      // A called function's RET is an indirect branch, resolved far later than a BRA.
      const bool fromCall = in->flow == isa::Flow::Return && curFunction_ && !curFunction_->isEntry;
      w.holdUntil(t + (fromCall ? c_.latReturn : c_.latControl), Stall::BranchResolving);
      // Nor does it move a block above the forward branch that guards it, or the next trip of a
      // loop it leaves as written above the loop's back edge: what follows counts from the
      // branch's resolution.
      const bool forward =
          in->guard != isa::kNoSlot && in->target != isa::kNoPc && in->target > in->pc;
      if (forward || (!notUnrolled_.empty() && notUnrolled_.count(in)))
        w.hoistFloor = std::max(w.hoistFloor, t + c_.latControl);
      if (!pipelined_.backEdges.empty() && pipelined_.backEdges.count(in)) {
        // Taken, a trip more; the block's last copy's back edge is a floor. Not taken, the
        // loop is left: the next entry starts a block.
        const isa::Inst* next = nextInstruction(cs.cta->warp(w.warp));
        if (curFunction_ && next == &curFunction_->code[in->target]) {
          if (++w.pipelinedTrips % c_.ptxasPipelineUnroll == 0) w.hoistFloor = t + 1;
        } else {
          w.pipelinedTrips = 0;
        }
      }
    } else if (in->cls == K::StoreShared) {
      w.sharedStoreFloor = t + 1;
    } else if (in->cls == K::StoreGlobal || in->cls == K::StoreLocal) {
      w.globalStoreFloor = t + 1;
      // A generic store (class StoreGlobal) may land in shared memory.
      if (in->mods.space == isa::Space::None || in->mods.space == isa::Space::Generic)
        w.sharedStoreFloor = t + 1;
    } else if (in->cls == K::AtomicGlobal || in->cls == K::AtomicShared) {
      w.hoistFloor = t + 1;
    } else if (in->cls == K::Barrier) {
      w.barrierFloor = t + 1;
      w.vectors.reset();
    }
  }
  if (const isa::Inst* in = curInst_; in && curExecuted_ && !asyncSyncs_.empty())
    if (const auto it = asyncSyncs_.find(in); it != asyncSyncs_.end()) asyncWait(w, it->second, t);
  if (issued && !fixedStall_.empty()) fixedStall(w, issued, t);
  if (curFenceUntil_ > w.readyAt) {
    w.readyAt = curFenceUntil_;
    w.readyKind = Stall::Membar;
    w.hoistFloor = std::max(w.hoistFloor, curFenceUntil_);
  }
  if (curReleasedAny_) {
    // The barrier completed: every waiter, and the warp that completed it, resumes after the
    // barrier's latency, and not before every one's shared stores are performed: bar.sync
    // makes the CTA's prior accesses visible to its threads (PTX ISA, bar: "guarantees that
    // all prior memory accesses requested by threads are performed relative to all threads
    // participating in the barrier"); a conflicted store's last wavefront comes late.
    uint64_t at = t + c_.latBarrier;
    curReleased_.push_back(w.warp);
    for (unsigned wq : curReleased_)
      if (wq < cs.warps.size()) at = std::max(at, warps_[cs.warps[wq]].sharedStoreDone);
    for (unsigned wq : curReleased_) {
      if (wq >= cs.warps.size()) continue;
      WarpCtx& o = warps_[cs.warps[wq]];
      if (o.done) continue;
      o.atBarrier = false;
      o.holdUntil(at, Stall::Barrier);
      o.barrierFloor = std::max(o.barrierFloor, at);
      wake(o.sm * c_.smspPerSm + o.smsp, at);
    }
  }
  // A cluster barrier phase completed (an arrival, or threads exiting that it waited for).
  if (cs.run && cs.run->cluster.phase() != cs.run->phase) releaseCluster(*cs.run, t);
  if (clusterWaitPending && !cs.cta->warp(w.warp).clusterPending && after == WarpState::Ready &&
      cs.run->releasedAt > w.readyAt) {
    w.readyAt = cs.run->releasedAt;
    w.readyKind = Stall::Barrier;
    w.hoistFloor = std::max(w.hoistFloor, w.readyAt);
  }
  if (r.status == StepStatus::Finished) {
    retireWarp(wi, t + 1);
  } else if (r.status == StepStatus::Blocked && cs.cta->warp(w.warp).state == WarpState::Ready) {
    w.readyAt = std::max(w.readyAt, t + 1);  // nanosleep: ready again at once
  }
  // A CTA whose live warps all wait at a barrier that cannot complete (a cluster's CTAs wait
  // for one another: run() reports their deadlock when nothing else is left to run).
  if (r.status == StepStatus::Blocked && cs.cta && cs.index == ctaIndex && cs.live > 0 && !cs.run) {
    bool anyReady = false;
    for (unsigned k = 0; k < cs.cta->warpCount() && !anyReady; ++k)
      anyReady = cs.cta->warp(k).state == WarpState::Ready;
    if (!anyReady) cs.cta->failDeadlock();
  }
}

// cp.async.commit_group closes the warp's open group; wait_group N (wait_all: a commit and
// wait_group 0) holds it until its older groups have landed, and nothing after it (the shared
// loads of the copied data) counts from before. wgmma.commit_group / wait_group N do the same
// with the warp's wgmma groups.
// What a group-committing or -waiting instruction does: cp.async's commit_group, wait_group N
// and wait_all (their sync roles), wgmma's commit_group and wait_group N (class Misc). N is an
// immediate, which lives in the function's constant slots.
std::optional<Engine::AsyncSync> Engine::asyncSyncOf(const isa::FunctionCode& f,
                                                     const isa::Inst& in) {
  using R = isa::SyncRole;
  AsyncSync s;
  bool counted = false;
  if (in.sync == R::AsyncCommit || in.sync == R::AsyncWait || in.sync == R::AsyncWaitAll) {
    s.commit = in.sync != R::AsyncWait;
    s.wait = in.sync != R::AsyncCommit;
    counted = in.sync == R::AsyncWait;
  } else if (in.sync == R::TensorCommit || in.sync == R::TensorWait) {
    s.wgmma = true;
    s.commit = in.sync == R::TensorCommit;
    s.wait = counted = !s.commit;
  } else {
    return std::nullopt;
  }
  if (counted)
    for (const auto& [slot, value] : f.constants)
      if (slot == in.ops[0].slot) s.pending = uint32_t(value);
  return s;
}

void Engine::asyncWait(WarpCtx& w, const AsyncSync& s, uint64_t t) {
  AsyncGroups& groups = s.wgmma ? w.wgmmaGroups : w.asyncCopies;
  if (s.commit) groups.commit();
  if (s.wait) holdForData(w, groups.wait(s.pending), t);
}

void Engine::holdForData(WarpCtx& w, uint64_t at, uint64_t t) {
  if (at <= t + 1) return;
  w.holdUntil(at, Stall::LongScoreboard);
  w.hoistFloor = std::max(w.hoistFloor, at);
}

uint64_t Engine::skipPredicatedBody(WarpCtx& w, const std::vector<uint32_t>& body, uint64_t t) {
  using K = isa::InsnClass;
  SmState& s = sms_[w.sm];
  const isa::FunctionCode& f = *curFunction_;
  uint64_t at = t;  // the branch's slot is the body's first instruction's
  bool first = true;
  for (uint32_t pc : body) {
    const isa::Inst& b = f.code[pc];
    // (The report counts the PTX's warp-instructions, as the functional mode does: these are
    // time, not instructions.)
    if (!first) ++at;
    first = false;
    const FixedPipe pipe = fixedPipeOf(b);
    at = std::max(at, w.sb.waitFor(b, pipe).first);
    const ClassTiming& ct = classes_[b.cls];
    uint64_t ready = at + ct.latency, guardReady = at + c_.latPredicateGuard;
    Stall kind = resultKind(b.cls);
    if (b.cls == K::LoadShared || b.cls == K::StoreShared || b.cls == K::AtomicShared) {
      // Behind the requests ahead of it on the one L1TEX data path, but with no wavefront it
      // takes no cycle of that path.
      ready = std::max({at, s.mioFree, s.l1->lsuFree()}) + c_.sharedLatency;
      kind = Stall::ShortScoreboard;
      if (b.cls == K::StoreShared) w.sharedStoreFloor = at + 1;
    } else if (ct.memory) {
      // A global/local access with no lane on: no sector, no cycle of the LSU's path.
      ready = at + 1;
      kind = Stall::LongScoreboard;
    }
    for (const isa::RegRef& d : b.defs) w.sb.write(d, ready, kind, guardReady, pipe);
  }
  return at + 1;
}

void Engine::callCosts(WarpCtx& w, uint64_t t) {
  const isa::Inst& in = *curInst_;
  const isa::FunctionCode* callee = in.flow == isa::Flow::Call && in.callee >= 0
                                        ? &ctx_.program->functions[size_t(in.callee)]
                                        : nullptr;
  if (in.flow == isa::Flow::Call && in.callee < 0) {
    // An indirect call: the function is the frame it entered. Lanes calling different
    // functions first split (no frame yet): each path's call pays when it enters.
    const Warp& cw = ctas_[w.cta]->cta->warp(w.warp);
    if (cw.frames.empty() || cw.frames.back().callSite != &in) return;
    callee = cw.frames.back().fn;
  }
  // vprintf is a call into the driver's handler (thousands of SASS instructions that format
  // into the printf buffer): the warp is away for call.printf_cycles; other warps go on.
  if (callee && callee == vprintf_) {
    w.holdUntil(t + c_.printfCycles, Stall::LongScoreboard);
    return;
  }
  // malloc and free run the driver's allocator: the warp goes on when its own time, its SM's
  // slot and the device's are through its lanes' calls (heap_timing.h).
  if (callee && (callee == malloc_ || callee == free_)) {
    const bool isMalloc = callee == malloc_;
    const HeapCallCosts costs = isMalloc
                                    ? HeapCallCosts{.warp = c_.heapMallocWarpCycles,
                                                    .lane = c_.heapMallocLaneCycles,
                                                    .sm = c_.heapMallocSmCycles,
                                                    .device = c_.heapMallocCycles,
                                                    .deviceRepeat = c_.heapMallocRepeatCycles,
                                                    .firstOfWarp = c_.heapMallocFirstOfWarpCycles}
                                    : HeapCallCosts{.warp = c_.heapFreeWarpCycles,
                                                    .lane = c_.heapFreeLaneCycles,
                                                    .sm = c_.heapFreeSmCycles,
                                                    .device = c_.heapFreeCycles,
                                                    .firstOfWarp = c_.heapFreeFirstOfWarpCycles};
    uint64_t earlier = 0;
    if (isMalloc)
      for (isa::LaneMask m = curExecuted_; m; m &= m - 1)
        earlier += w.mallocsMade[size_t(std::countr_zero(m))]++;
    const uint8_t kind = isMalloc ? 1 : 2;
    const bool firstOfWarp = !(w.heapCallsMade & kind);
    w.heapCallsMade |= kind;
    w.holdUntil(deviceHeap_.call(costs, w.sm, unsigned(std::popcount(curExecuted_)), earlier,
                                 firstOfWarp, t),
                Stall::LongScoreboard);
    return;
  }
  // cudaLaunchDevice runs the device runtime's code (~1,900 SASS instructions with the
  // parameter buffer's: cdp_quicksort on the chip) lane after lane; each child is launched when
  // its lane's call ends.
  if (callee && callee == launchDevice_) {
    const uint64_t each = c_.deviceLaunchCallCycles;
    for (size_t i = 0; i < curLaunches_; ++i)
      launchCycles_[launchCycles_.size() - curLaunches_ + i] = t + each * (i + 1);
    w.holdUntil(t + each * uint64_t(std::popcount(curExecuted_)), Stall::LongScoreboard);
    return;
  }
  // A call saves the callee's frame of registers to the lanes' local stack, a return restores
  // it: ptxas's prologue is one 4-byte STL per word, its epilogue one LDL per word, and its
  // RET waits for them all. The scheduler issues them (issueFrameWord) before the callee's
  // first instruction or the caller's next.
  const isa::FunctionCode* owner = callee ? callee : curFunction_;
  const auto it = owner && !owner->isEntry ? frames_.find(owner) : frames_.end();
  if (it == frames_.end()) return;
  const bool save = callee != nullptr;
  for (uint32_t mask = curExecuted_; mask; mask &= mask - 1) {
    const unsigned l = unsigned(__builtin_ctz(mask));
    if (save)
      ++w.callDepth[l];
    else if (w.callDepth[l])
      --w.callDepth[l];
  }
  w.frame = {it->second / 4, 0, curExecuted_, save, 0};
  // The epilogue's convergence barrier and stack pointer come before its LDLs.
  if (!save) w.holdUntil(t + c_.latReturn + c_.frameConventionCycles, Stall::BranchResolving);
}

void Engine::issueFrameWord(uint32_t wi, uint64_t t) {
  WarpCtx& w = warps_[wi];
  WarpCtx::FrameWords& f = w.frame;
  SmState& s = sms_[w.sm];
  s.smsps[w.smsp].lastIssued = wi;
  // 1 MB up: above any local address the kernel itself uses (its frames are small), inside
  // the warp's local region (l1.cpp). A saved frame lies one depth above the lanes' depth now
  // (the call went down), a restored one at it (the return came back).
  constexpr uint64_t kStackBase = uint64_t(1) << 20;
  for (uint32_t mask = f.lanes; mask; mask &= mask - 1) {
    const unsigned l = unsigned(__builtin_ctz(mask));
    const uint64_t depth = f.save ? w.callDepth[l] - 1u : w.callDepth[l];
    stackAddr_[l] = kStackBase + depth * frameStride_ + 4ull * f.done;
  }
  MemoryEvent ev;
  ev.warp = w.warp;
  ev.kind = f.save ? AccessKind::Store : AccessKind::Load;
  ev.space = ev.landed = isa::Space::Local;
  ev.mask = f.lanes;
  ev.bytes = 4;
  ev.addresses = stackAddr_.data();
  const AccessTiming a = s.l1->access(ev, isa::Space::Local, w.localKey(), t, l2_, rep_.mem, &end_);
  if (!f.save) f.dataBack = std::max(f.dataBack, a.ready);
  ++rep_.warpInstructions;
  ++rep_.frameInstructions;
  rep_.threadInstructions += unsigned(std::popcount(f.lanes));
  ++rep_.pipeIssues[size_t(Unit::Lsu)];
  ++f.done;
  w.holdUntil(t + (--f.left ? c_.frameWordCycles : 1), Stall::Wait);
  if (!f.left && !f.save) w.holdUntil(f.dataBack, Stall::LongScoreboard);
  end_ = std::max(end_, w.readyAt);
}

void Engine::visit(uint32_t id, uint64_t t) {
  SmState& s = sms_[id / c_.smspPerSm];
  Smsp& sp = s.smsps[id % c_.smspPerSm];
  std::vector<Candidate>& cands = candScratch_;
  const std::vector<uint32_t>& order = sp.warps;  // unchanged until a warp issues
  cands.clear();
  int last = -1;
  for (size_t i = 0; i < order.size(); ++i) {
    WarpCtx& w = warps_[order[i]];
    account(w, t);
    const auto [at, kind] = evaluate(w);
    w.lastKind = at <= t ? Stall::NotSelected : kind;
    cands.push_back({w.age, at <= t});
    if (order[i] == sp.lastIssued) last = int(i);
  }
  int picked = -1;
  if (std::any_of(cands.begin(), cands.end(), [](const Candidate& c) { return c.eligible; }))
    picked = scheduler_->pick(cands, last);
  if (picked >= 0) {
    const uint32_t wi = order[size_t(picked)];
    warps_[wi].lastKind = Stall::Selected;
    account(warps_[wi], t + 1);
    try {
      issue(wi, t);
    } catch (const KernelFault& f) {
      fault_ = f.info();
      return;
    }
  }
  // The rest of this cycle, and what each warp waits for from the next one on.
  uint64_t next = kNever;
  for (uint32_t wi : sp.warps) {
    WarpCtx& w = warps_[wi];
    if (w.lastT <= t) account(w, t + 1);
    const auto [at, kind] = evaluate(w);
    w.lastKind = at <= t + 1 ? Stall::NotSelected : kind;
    next = std::min(next, std::max(at, t + 1));
  }
  if (next != kNever) wake(id, next);
}

namespace {
double threadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}
}  // namespace

void Engine::runRestFunctionally(uint64_t first) {
  counting_ = true;
  Probe probe(*this);
  std::unique_ptr<Cta> cta;
  for (uint64_t index = first; index < ctx_.grid.count() && !fault_; ++index) {
    std::vector<Observer*> raw{&probe};
    Finished fin;
    if (!factories_.empty()) {
      const CtaInfo info = ctaInfoOf(ctx_, index);
      for (ObserverFactory* f : factories_) {
        fin.observers.push_back(f->create(info));
        raw.push_back(fin.observers.back().get());
      }
    }
    ObserverList list(raw);
    try {
      if (cta)
        cta->restart(index, &list);
      else
        cta = std::make_unique<Cta>(ctx_, index, &list);
      const uint64_t budget = watchdogBudget(ctx_.options, cta->warpCount());
      uint64_t issued = 0;
      // Round-robin slices of the ready warps, as the functional driver runs a CTA.
      while (!cta->finished()) {
        bool progressed = false;
        for (unsigned w = 0; w < cta->warpCount(); ++w) {
          if (cta->warp(w).state != WarpState::Ready) continue;
          const StepResult r = cta->step(w, 256);
          issued += r.issued;
          rep_.warpInstructions += r.issued;
          progressed = progressed || r.issued > 0;
          if (issued > budget) cta->failBudget(issued, budget);
        }
        cta->failIfStopped(ctx_);
        if (!progressed && !cta->finished()) cta->failDeadlock();
      }
    } catch (const KernelFault& f) {
      fault_ = f.info();
    }
    list.ctaFinished(fault_ ? &*fault_ : nullptr);
    if (cta) fin.printf = cta->printfOutput();
    finished_[index] = std::move(fin);
    mergeReady();
    ++rep_.ctas;
  }
  counting_ = false;
}

void Engine::extrapolate(uint64_t detailed) {
  // Time per wave between two moments alike: from when the first wave's worth of CTAs had
  // finished to when the last detailed one did, over the K - 1 waves between (with K = 1,
  // from the start). Carried over the waves not simulated, after the detailed part's end (its
  // drain: the last results landing). Counters of work (stalls, memory) scale with the CTAs;
  // those of time (active SM cycles, resident warp-cycles) with the cycles. Instruction and
  // FLOP counts are exact: the functional part counted them.
  const uint64_t waves = dispatch_.waves(), k = sampleWaves_;
  const uint64_t detailEnd = std::max<uint64_t>(end_, 1);
  const double perWave =
      k >= 2 ? double(lastFinish_ - firstWaveDone_) / double(k - 1) : double(firstWaveDone_);
  const uint64_t predictedEnd = detailEnd + uint64_t(perWave * double(waves - k) + 0.5);
  const double ft = double(predictedEnd) / double(detailEnd);
  const double fc = double(ctx_.grid.count()) / double(detailed);
  auto scale = [](uint64_t& v, double f) { v = uint64_t(double(v) * f + 0.5); };
  for (size_t i = 0; i < rep_.stalls.size(); ++i)
    if (i != size_t(Stall::Selected)) scale(rep_.stalls[i], fc);
  rep_.stalls[size_t(Stall::Selected)] = rep_.warpInstructions;
  MemoryCounters& m = rep_.mem;
  for (uint64_t* v :
       {&m.globalLoadRequests, &m.globalStoreRequests, &m.globalAtomicRequests,
        &m.globalLoadSectors, &m.globalStoreSectors, &m.l1Hits, &m.l1Misses, &m.l2Hits, &m.l2Misses,
        &m.l2ReadSectors, &m.l2WriteSectors, &m.l2AtomicSectors, &m.dramReadBytes,
        &m.dramWriteBytes, &m.sharedRequests, &m.sharedWavefronts, &m.sharedIdealWavefronts,
        &m.sharedAtomicWavefronts, &m.l2AtomicOps})
    scale(*v, fc);
  scale(rep_.smActiveCyclesSum, ft);
  scale(rep_.residentWarpCycles, ft);
  end_ = predictedEnd;
  rep_.sampledWaves = k;
  rep_.detailedCtas = detailed;
}

LaunchResult Engine::run(std::optional<TimingReport>& report) {
  const auto start = std::chrono::steady_clock::now();
  const double cpuStart = threadCpuSeconds();
  for (EngineListener* l : listeners_) l->launchStarted(*ctx_.program);
  if (clusterDispatch_) {
    startClusters(0);
  } else {
    for (const auto& [sm, index] : dispatch_.firstWave()) {
      scheduleCta(sm, index, 0);
      if (fault_) break;
    }
  }
  while ((!heap_.empty() || !pendingCtas_.empty() || !pendingClusters_.empty()) && !fault_) {
    // A CTA or cluster whose launch comes before the next visit starts first (time order).
    const uint64_t visitAt = heap_.empty() ? kNever : heap_.top().first;
    const uint64_t ctaAt = pendingCtas_.empty() ? kNever : std::get<0>(pendingCtas_.top());
    const uint64_t clusterAt = pendingClusters_.empty() ? kNever : pendingClusters_.top().first;
    if (clusterAt != kNever && clusterAt <= ctaAt && clusterAt <= visitAt) {
      const auto [at, cluster] = pendingClusters_.top();
      pendingClusters_.pop();
      const std::vector<uint32_t> sms = std::move(placedSms_[cluster]);
      placedSms_.erase(cluster);
      launchCluster(cluster, sms, at);
      continue;
    }
    if (ctaAt != kNever && ctaAt <= visitAt) {
      const auto [at, sm, index] = pendingCtas_.top();
      pendingCtas_.pop();
      launchCta(sm, index, at);
      continue;
    }
    const auto [t, id] = heap_.top();
    heap_.pop();
    Smsp& sp = sms_[id / c_.smspPerSm].smsps[id % c_.smspPerSm];
    if (sp.scheduled != t) continue;  // superseded by an earlier wake-up
    sp.scheduled = kNever;
    visit(id, t);
  }
  if (!fault_ && !clusterRuns_.empty()) failClusterDeadlock();
  if (!fault_ && sampleWaves_) runRestFunctionally(detailCtas_);
  if (fault_) {
    // The faulting CTA and those still in flight end here; observers hear of the fault.
    for (uint32_t slot = 0; slot < ctas_.size(); ++slot) {
      CtaSlot& cs = *ctas_[slot];
      if (!cs.cta || cs.finished ||
          std::find(freeCtas_.begin(), freeCtas_.end(), slot) != freeCtas_.end())
        continue;
      if (cs.list) cs.list->ctaFinished(&*fault_);
      Finished f;
      f.observers = std::move(cs.observers);
      f.printf = cs.cta->printfOutput();
      finished_[cs.index] = std::move(f);
    }
    for (auto& [index, f] : finished_) {
      for (size_t i = 0; i < f.observers.size(); ++i) factories_[i]->merge(*f.observers[i]);
      result_.printfOutput += f.printf;
    }
    finished_.clear();
    result_.fault = fault_;
    result_.ctasRun = nextMerge_;
    report.reset();
  } else {
    result_.ctasRun = ctx_.grid.count();
    uint64_t warpCycles = 0;
    for (SmState& s : sms_) {
      rep_.smActiveCyclesSum += s.activeCycles;
      warpCycles += s.warpCycles;
    }
    rep_.configName = c_.name;
    rep_.scheduler = c_.scheduler;
    rep_.clockGhz = c_.clockGhz;
    rep_.launchLatency = c_.launchLatency;
    rep_.cycles = end_ + c_.launchLatency;
    rep_.smCount = c_.smCount;
    rep_.smspPerSm = c_.smspPerSm;
    rep_.waves = clusterDispatch_ ? clusterDispatch_->waves() : dispatch_.waves();
    rep_.occupancy = occ_;
    rep_.fixedStalls = fixedStallSource_;
    rep_.residentWarpCycles = warpCycles;
    rep_.achievedOccupancy =
        rep_.smActiveCyclesSum
            ? double(warpCycles) / (double(rep_.smActiveCyclesSum) * c_.maxWarpsPerSm)
            : 0;
    rep_.dramBytesPerCycle = c_.dramBytesPerCycle;
    rep_.l2BytesPerCycle = c_.l2BytesPerCycle;
    rep_.peaks.flopPerCycle = {c_.peakFp32FlopPerCycle, c_.peakFp64FlopPerCycle,
                               c_.peakFp16FlopPerCycle, c_.peakTensorFlopPerCycle};
    rep_.peaks.dramTbPerS = c_.peakDramTbPerS;
    if (sampleWaves_) {
      extrapolate(detailCtas_);
      rep_.cycles = end_ + c_.launchLatency;
    }
    for (EngineListener* l : listeners_) l->launchEnded(rep_.cycles);
    report = rep_;
  }
  result_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (report) {
    report->hostSeconds = result_.seconds;
    report->hostCpuSeconds = threadCpuSeconds() - cpuStart;
  }
  return std::move(result_);
}

}  // namespace warpsim::sim::timing
