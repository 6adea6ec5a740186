#include "sim/check/racecheck.h"

#include <algorithm>
#include <cstdio>

#include "sim/func/cluster.h"

namespace warpsim::check {

namespace {

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

constexpr uint32_t kStale = ~0u;     // a warp's row changed since its last snapshot
constexpr uint32_t kAsyncSeq = ~0u;  // AccessStamp::seq of a bulk copy's write (see asyncSeen_)

// An mbarrier's arrivals (arrive, arrive_drop, expect_tx, complete_tx, init) and a bulk copy's
// or bulk reduction's complete_tx are atomics on its word: each a release into it.
bool releasesIntoMbarrier(const isa::Inst& in) {
  return in.sync == isa::SyncRole::MbarrierArrive || in.sync == isa::SyncRole::MbarrierInit ||
         in.sync == isa::SyncRole::BulkCopy || in.sync == isa::SyncRole::BulkReduce;
}
// The asynchronous proxy's writes: a bulk copy's (stores) and a bulk reduction's (atomics).
bool isBulkCopy(const isa::Inst& in) {
  return in.sync == isa::SyncRole::BulkCopy || in.sync == isa::SyncRole::BulkReduce;
}
bool isBulkReduce(const isa::Inst& in) { return in.sync == isa::SyncRole::BulkReduce; }

// Calls f(word, mask) for each 4-byte global word that `bytes` bytes at `a` touch, `mask` the
// word's bytes among them.
template <class F>
void forWords(uint64_t a, uint32_t bytes, F&& f) {
  for (uint64_t word = a >> 2, last = (a + bytes - 1) >> 2; word <= last; ++word) {
    const uint64_t lo = std::max(a, word << 2), hi = std::min(a + bytes, (word + 1) << 2);
    f(word, uint8_t(((1u << (hi - lo)) - 1) << (lo & 3)));
  }
}

// Loads and stores that take part in the memory model's synchronization are not data races.
bool isPlain(const sim::MemoryEvent& e) {
  return e.order == isa::MemOrder::None || e.order == isa::MemOrder::Weak;
}

std::string raceTitle(const char* first, const char* second) {
  return std::string("Race reported between ") + first + " access and " + second + " access";
}

}  // namespace

bool beforeClusterPhase(const ClusterArrivals& arrivals, unsigned warp, uint32_t epoch,
                        uint32_t waits) {
  if (warp >= arrivals.size()) return false;
  const std::vector<uint32_t>& a = arrivals[warp];
  // Phase k completes the warp's k-th arrival (every live thread of the cluster arrives once per
  // phase); a warp that exited before arriving orders nothing.
  for (uint32_t k = std::min<uint32_t>(waits, uint32_t(a.size())); k > 0; --k)
    if (a[k - 1]) return epoch <= a[k - 1];
  return false;
}

void RacecheckObserver::ctaStarted(const sim::CtaInfo& c) {
  view_.start(c);
  cells_.assign(c.sharedBytes, Cell{});
  warps_ = c.warps;
  rows_.assign(size_t(warps_) * warps_, 0);
  for (unsigned w = 0; w < warps_; ++w) clock(w, w) = 1;
  snapshots_ = rows_;
  warpSnapshot_.resize(warps_);
  for (unsigned w = 0; w < warps_; ++w) warpSnapshot_[w] = w;
  barrierRows_.clear();
  mbarriers_.clear();
  asyncEpoch_ = 0;
  asyncCopy_ = ~0ull;
  asyncSeen_.assign(warps_, 0);
  barrierAsync_.clear();
  acquires_.clear();
  fences_.assign(size_t(c.warps) * 32, CtaPoint{});
  seen_.assign(size_t(c.warps) * 32, SeenReleases{});
  accessesAtAcquire_ = 0;
  warpSync_.assign(c.warps, 0);
  warpSeq_.assign(c.warps, 0);
  clusterArrivals_.assign(c.warps, {});
  clusterWaits_.assign(c.warps, 0);
  seat_.take(owner_ ? &owner_->clusters() : nullptr, c, this);
}

void RacecheckObserver::instruction(const sim::InstructionEvent& e) {
  const unsigned w = e.warp;
  ++warpSeq_[w];
  if (!e.executed) return;
  const isa::SyncRole role = e.inst->sync;
  if (role == isa::SyncRole::WarpSync) {
    ++warpSync_[w];
  } else if (role == isa::SyncRole::ClusterArrive) {
    // What the warp did before arriving is ordered before what every thread of the cluster
    // does after waiting for this phase; what it does after arriving is a new epoch.
    // A relaxed arrival (.relaxed, decoded once when the instruction was lowered) orders nothing.
    clusterArrivals_[w].push_back(e.inst->mods.order == isa::MemOrder::Relaxed ? 0 : clock(w, w));
    ++clock(w, w);
  } else if (role == isa::SyncRole::ClusterWait) {
    // The wait completes the phase of the warp's last arrival (its later accesses come after).
    clusterWaits_[w] = uint32_t(clusterArrivals_[w].size());
    ++warpSync_[w];  // it orders the warp's own lanes too
  } else if (role == isa::SyncRole::BulkCommit && !bulk_.empty()) {
    isa::forLanes(e.executed, [&](unsigned lane) { ++bulk_[w * 32 + lane].committed; });
  } else if (role == isa::SyncRole::BulkWait && !bulk_.empty() && e.regs) {
    // wait_group N: every group but the N newest committed is complete.
    const uint32_t slot = e.inst->ops[0].slot;
    isa::forLanes(e.executed, [&](unsigned lane) {
      const uint32_t t = w * 32 + lane;
      const uint64_t n = e.regs[size_t(slot) * 32 + lane], c = bulk_[t].committed;
      bulkDone(t, n >= c ? 0 : uint32_t(c - n));
    });
  }
}

void RacecheckObserver::barrierArrived(const sim::BarrierArrival& a) {
  if (barrierRows_.size() <= a.id) barrierRows_.resize(a.id + 1);
  std::vector<uint32_t>& joined = barrierRows_[a.id];
  if (joined.empty()) joined.assign(warps_, 0);
  // What the warp did before arriving is ordered before every warp the barrier releases; what
  // it does after (a producer's bar.arrive does not wait) is a new epoch, not ordered by it.
  ++clock(a.warp, a.warp);
  for (unsigned u = 0; u < warps_; ++u) joined[u] = std::max(joined[u], clock(a.warp, u));
  if (barrierAsync_.size() <= a.id) barrierAsync_.resize(a.id + 1, 0);
  barrierAsync_[a.id] = std::max(barrierAsync_[a.id], asyncSeen_[a.warp]);
}

void RacecheckObserver::barrierReleased(uint32_t id, const std::vector<unsigned>& waiters) {
  if (id >= barrierRows_.size() || barrierRows_[id].empty()) return;
  std::vector<uint32_t>& joined = barrierRows_[id];
  for (unsigned w : waiters) {
    for (unsigned u = 0; u < warps_; ++u) clock(w, u) = std::max(clock(w, u), joined[u]);
    ++warpSync_[w];  // a CTA barrier orders the warp's own lanes too
    warpSnapshot_[w] = kStale;
    asyncSeen_[w] = std::max(asyncSeen_[w], barrierAsync_[id]);
  }
  joined.assign(warps_, 0);  // the barrier's next completion starts from nothing
  barrierAsync_[id] = 0;
}

bool RacecheckObserver::ordered(const AccessStamp& earlier, unsigned warp) const {
  const unsigned u = earlier.thread / 32;
  // (A bulk copy's write carries the number of the copy among those into this CTA.)
  if (earlier.seq == kAsyncSeq) return asyncSeen_[warp] >= earlier.epoch;
  if (earlier.rank != seat_.rank()) {
    const RacecheckObserver* p = peer(earlier.rank);
    return !p || beforeClusterPhase(p->clusterArrivals_, u, earlier.epoch, clusterWaits_[warp]);
  }
  if (u != warp ? clock(warp, u) > earlier.epoch : warpSync_[warp] > earlier.wsync) return true;
  return beforeClusterPhase(clusterArrivals_, u, earlier.epoch, clusterWaits_[warp]);
}

const RacecheckObserver* RacecheckObserver::peer(unsigned rank) const { return seat_.member(rank); }

void RacecheckObserver::report(const AccessStamp& earlier, const char* earlierKind,
                               const sim::MemoryEvent& e, unsigned lane, const char* kind,
                               uint64_t address, unsigned ownerRank) {
  const unsigned earlierWarp = earlier.thread / 32;
  const RacecheckObserver* by = peer(earlier.rank);
  const CtaView& byView = by ? by->view_ : view_;
  Finding f;
  f.tool = Tool::Racecheck;
  f.kernel = view_.kernel();
  f.title = raceTitle(earlierKind, kind);
  f.first = {earlierKind, siteOf(*view_.info().program, *earlier.inst),
             byView.threadOf(earlierWarp, earlier.thread % 32), byView.info().id};
  f.second = view_.actor(*e.inst, e.warp, lane, kind);
  f.address = address;
  f.space = "__shared__";
  if (earlier.seq == kAsyncSeq && earlier.atomic)
    f.detail = "hazard at __shared__ address " + hex(address) +
               ": a bulk reduction's update (the asynchronous proxy) and an access that did not "
               "wait for the reduction's mbarrier phase (mbarrier.try_wait or test_wait)";
  else if (earlier.seq == kAsyncSeq)
    f.detail = "hazard at __shared__ address " + hex(address) +
               ": a bulk copy's write (the asynchronous proxy) and an access that did not wait "
               "for the copy's mbarrier phase (mbarrier.try_wait or test_wait)";
  else if (earlier.rank != seat_.rank() || ownerRank != seat_.rank())
    f.detail = "hazard at __shared__ address " + hex(address) + " of the cluster's CTA of rank " +
               std::to_string(ownerRank) +
               " (distributed shared memory): CTAs of the cluster with no cluster.sync() "
               "(barrier.cluster.arrive and wait) between them";

  else if (earlierWarp == e.warp)
    f.detail = "intra-warp hazard at __shared__ address " + hex(address) +
               ": lanes of one warp with no __syncwarp() between them";
  else
    f.detail = "hazard at __shared__ address " + hex(address) +
               ": threads of the CTA with no __syncthreads() between them";
  findings_.add(std::move(f));
}

void RacecheckObserver::shared(RacecheckObserver& owner, const sim::MemoryEvent& e, unsigned lane,
                               uint64_t a) {
  const unsigned w = e.warp;
  const uint32_t thread = w * 32 + lane;
  AccessStamp now{e.inst,      clock(w, w),      warpSync_[w],
                  warpSeq_[w], uint16_t(thread), uint16_t(seat_.rank())};
  const bool reduces = e.kind == sim::AccessKind::Atomic;  // a bulk reduction's element
  if ((e.kind == sim::AccessKind::Store || reduces) && isBulkCopy(*e.inst)) {
    // Numbered among the copies into the owner's memory (a multicast writes several CTAs').
    const uint64_t copy = uint64_t(seat_.rank()) << 48 | uint64_t(w) << 32 | warpSeq_[w];
    if (copy != owner.asyncCopy_) {
      owner.asyncCopy_ = copy;
      ++owner.asyncEpoch_;
    }
    now.epoch = owner.asyncEpoch_;
    now.seq = kAsyncSeq;
    now.atomic = reduces;
  }
  // Two accesses conflict when they come from different threads, are not the same warp
  // instruction, and nothing orders them.
  auto conflicts = [&](const AccessStamp& s) {
    if (!s.inst) return false;
    // Two bulk reductions' element updates are atomics: they do not race with each other.
    if (s.atomic && now.atomic) return false;
    // (A bulk copy's write is the asynchronous proxy's, not its issuing thread's.)
    if (s.rank == seat_.rank() && s.seq != kAsyncSeq &&
        (s.thread == thread || (s.thread / 32 == w && s.seq == now.seq)))
      return false;
    return !ordered(s, w);
  };
  std::vector<Cell>& cells = owner.cells_;
  const unsigned ownerRank = owner.seat_.rank();
  const bool write = e.kind != sim::AccessKind::Load;
  bool reported = false;  // one hazard per lane access
  for (unsigned b = 0; b < e.bytes; ++b) {
    Cell& c = cells[a + b];
    if (!reported) {
      if (conflicts(c.write)) {
        report(c.write, "Write", e, lane, write ? "Write" : "Read", a + b, ownerRank);
        reported = true;
      } else if (write && (conflicts(c.read) || conflicts(c.read2))) {
        report(conflicts(c.read) ? c.read : c.read2, "Read", e, lane, "Write", a + b, ownerRank);
        reported = true;
      }
    }
    if (write) {
      c.write = now;
      c.read = c.read2 = AccessStamp{};
    } else if (!c.read.inst || (c.read.thread == thread && c.read.rank == now.rank)) {
      c.read = now;
    } else {
      c.read2 = c.read;
      c.read = now;
    }
  }
}

CtaPoint RacecheckObserver::pointNow(const isa::Inst* in, unsigned warp, unsigned lane) {
  if (warpSnapshot_[warp] == kStale) {  // a copy of the row, once per release it is used after
    warpSnapshot_[warp] = uint32_t(snapshots_.size() / warps_);
    snapshots_.insert(snapshots_.end(), rows_.begin() + size_t(warp) * warps_,
                      rows_.begin() + size_t(warp + 1) * warps_);
  }
  return {in,
          warp * 32 + lane,
          clock(warp, warp),
          warpSync_[warp],
          warpSeq_[warp],
          warpSnapshot_[warp],
          clusterWaits_[warp]};
}

namespace {

bool gpuScope(isa::MemScope s) {
  return s == isa::MemScope::None || s == isa::MemScope::Gpu || s == isa::MemScope::Sys;
}

// fence.sc / fence.acq_rel / membar at GPU or system scope (not the proxy fences): what makes
// a strong write after it a release and a strong read before it an acquire.
bool gpuFence(const isa::Inst& in) {
  const isa::Fence f = in.fence;
  return (f.kind == isa::FenceKind::Sc || f.kind == isa::FenceKind::AcqRel) &&
         (f.scope == isa::MemScope::Gpu || f.scope == isa::MemScope::Sys);
}

}  // namespace

void RacecheckObserver::fence(const sim::MemoryEvent& e) {
  if (!gpuFence(*e.inst)) return;
  isa::forLanes(e.mask, [&](unsigned lane) {
    const uint32_t t = e.warp * 32 + lane;
    fences_[t] = pointNow(e.inst, e.warp, lane);
    if (!seen_[t].none()) {
      addAcquire(seen_[t], fences_[t]);
      seen_[t] = SeenReleases{};
    }
  });
}

void RacecheckObserver::addAcquire(SeenReleases seen, const CtaPoint& at) {
  if (!acquires_.empty() && accessesAtAcquire_ == accesses_.size()) {
    Acquire& last = acquires_.back();
    if (last.at.thread == at.thread && last.seen.sequence == seen.sequence &&
        last.at.epoch == at.epoch && last.at.wsync == at.wsync && last.at.snapshot == at.snapshot) {
      last.seen.length = std::max(last.seen.length, seen.length);
      last.at = at;
      return;
    }
  }
  acquires_.push_back({seen, at});
  accessesAtAcquire_ = accesses_.size();
}

void RacecheckObserver::release(const sim::MemoryEvent& e, unsigned lane, uint64_t a) {
  if (!owner_) return;
  const uint32_t t = e.warp * 32 + lane;
  const uint64_t word = a >> 2;
  const bool atomic = e.kind == sim::AccessKind::Atomic;
  const isa::MemOrder o = e.order;
  const bool releases = gpuScope(e.scope) && (o == isa::MemOrder::Release ||
                                              o == isa::MemOrder::AcqRel || o == isa::MemOrder::Sc);
  if (releases || fences_[t].inst) {
    const CtaPoint at = releases ? pointNow(e.inst, e.warp, lane) : fences_[t];
    const std::vector<uint32_t> row(snapshots_.begin() + size_t(at.snapshot) * warps_,
                                    snapshots_.begin() + size_t(at.snapshot + 1) * warps_);
    owner_->publish(word, {view_.info().linear, at, row}, atomic);
  } else if (!atomic) {
    owner_->overwrite(word);
  }
}

void RacecheckObserver::acquire(const sim::MemoryEvent& e, unsigned lane, uint64_t a) {
  if (!owner_) return;
  const SeenReleases seen = owner_->observe(a >> 2, view_.info().linear);
  if (seen.none()) return;
  const isa::MemOrder o = e.order;
  const bool acquires = gpuScope(e.scope) && (o == isa::MemOrder::Acquire ||
                                              o == isa::MemOrder::AcqRel || o == isa::MemOrder::Sc);
  if (acquires)
    addAcquire(seen, pointNow(e.inst, e.warp, lane));
  else
    seen_[e.warp * 32 + lane] = seen;
}

void RacecheckObserver::global(const sim::MemoryEvent& e, unsigned lane, uint64_t a) {
  const bool write = e.kind == sim::AccessKind::Store;
  const uint32_t thread = e.warp * 32 + lane;
  if (!bulk_.empty() && !bulk_[thread].writing.empty()) bulkInFlight(e, lane, a);
  pointNow(e.inst, e.warp, lane);  // makes the warp's snapshot current
  forWords(a, e.bytes, [&](uint64_t word, uint8_t mask) {
    GlobalAccess* prev = accesses_.empty() ? nullptr : &accesses_.back();
    if (prev && prev->word == word && prev->write == write && prev->inst == e.inst &&
        prev->seq == warpSeq_[e.warp] && prev->thread / 32 == e.warp)
      prev->mask |= mask;  // lanes of one instruction in one word (byte loads, ...)
    else
      accesses_.push_back({word, e.inst, thread, clock(e.warp, e.warp), warpSnapshot_[e.warp],
                           warpSync_[e.warp], warpSeq_[e.warp],
                           uint16_t(std::min<uint32_t>(clusterWaits_[e.warp], 0xffff)), mask,
                           write});
  });
}

void RacecheckObserver::ctaFinished(const sim::FaultInfo*) {
  seat_.leave();
  // Bulk writes no wait_group covered are done when the CTA's threads have finished.
  for (size_t t = 0; t < bulk_.size(); ++t)
    if (!bulk_[t].writing.empty()) bulkDone(unsigned(t), ~0u);
  bulk_ = {};
  // Stable: the first reader and writer of a word stay the first in the CTA's order.
  std::stable_sort(accesses_.begin(), accesses_.end(),
                   [](const GlobalAccess& x, const GlobalAccess& y) { return x.word < y.word; });
  globalHazards();
  for (const GlobalAccess& g : accesses_) {
    if (g.mask & kAtomicWrite) continue;  // synchronization between CTAs, as atomics are
    if (words_.empty() || words_.back().word != g.word) words_.emplace_back().word = g.word;
    GlobalWordUse& u = words_.back();
    const CtaPoint at{g.inst, g.thread, g.epoch, g.wsync, g.seq, g.snapshot, g.clusterWaits};
    if (g.write) {
      if (!u.write.inst) u.write = at;
      u.writeMask |= g.mask;
    } else {
      if (!u.read.inst) u.read = at;
      u.readMask |= g.mask;
    }
  }
  accesses_ = {};
}

void RacecheckObserver::globalHazards() {
  // `a` before `b` in the CTA's order: ordered when one thread made both, when they are one
  // warp instruction, when a barrier released b's warp after a's warp arrived at it, or, within
  // a warp, when a __syncwarp (or a barrier) came between.
  auto ordered = [&](const GlobalAccess& a, const GlobalAccess& b) {
    const unsigned aw = a.thread / 32, bw = b.thread / 32;
    if (a.thread == b.thread) return true;
    if (aw == bw ? a.seq == b.seq || b.wsync > a.wsync
                 : snapshots_[size_t(b.snapshot) * warps_ + aw] > a.epoch)
      return true;
    return beforeClusterPhase(clusterArrivals_, aw, a.epoch, b.clusterWaits);
  };
  auto report = [&](const GlobalAccess& a, const GlobalAccess& b) {
    const bool intraWarp = a.thread / 32 == b.thread / 32;
    const char* aKind = a.write ? "Write" : "Read";
    const char* bKind = b.write ? "Write" : "Read";
    Finding f;
    f.tool = Tool::Racecheck;
    f.kernel = view_.kernel();
    f.title = raceTitle(aKind, bKind);
    f.first = {aKind, siteOf(*view_.info().program, *a.inst),
               view_.threadOf(a.thread / 32, a.thread % 32), view_.info().id};
    f.second = Actor{bKind, siteOf(*view_.info().program, *b.inst),
                     view_.threadOf(b.thread / 32, b.thread % 32), view_.info().id};
    f.address = a.word << 2;
    f.space = "__global__";
    const bool async = (a.write && isBulkCopy(*a.inst)) || (b.write && isBulkCopy(*b.inst));
    f.detail = "hazard at __global__ address " + hex(a.word << 2) +
               (async       ? ": a bulk copy's write (the asynchronous proxy), done only at its "
                              "thread's cp.async.bulk.wait_group, and an access not ordered after "
                              "that wait"
                : intraWarp ? ": lanes of one warp with no __syncwarp() between them"
                            : ": threads of the CTA with no __syncthreads() between them");
    findings_.add(std::move(f));
  };
  const GlobalAccess *write = nullptr, *read = nullptr, *read2 = nullptr;
  for (size_t i = 0; i < accesses_.size(); ++i) {
    const GlobalAccess& b = accesses_[i];
    if (i == 0 || accesses_[i - 1].word != b.word) write = read = read2 = nullptr;
    auto conflicts = [&](const GlobalAccess* a) {
      // Two bulk reductions' updates are atomics: they never race with each other.
      if (a && (a->mask & b.mask & kAtomicWrite)) return false;
      return a && (a->mask & b.mask & ~kAtomicWrite) && !ordered(*a, b);
    };
    if (conflicts(write))
      report(*write, b);
    else if (b.write && conflicts(read))
      report(*read, b);
    else if (b.write && conflicts(read2))
      report(*read2, b);
    if (b.write) {
      write = &b;
      read = read2 = nullptr;
    } else if (!read || read->thread == b.thread) {
      read = &b;
    } else {
      read2 = read;
      read = &b;
    }
  }
}

RacecheckObserver::MbarrierClock& RacecheckObserver::mbarrierAt(uint64_t offset) {
  MbarrierClock& m = mbarriers_[offset];
  if (m.row.empty()) m.row.assign(warps_, 0);
  return m;
}

bool RacecheckObserver::knownMbarrier(const sim::MemoryEvent& e, unsigned lane) const {
  const auto [space, a] = landing(e, lane);
  if (space != isa::Space::Shared) return false;
  if (!sim::namesRank(a)) return mbarriers_.count(a) != 0;
  const RacecheckObserver* owner = peer(sim::rankOfClusterAddress(a));
  return owner && owner->mbarriers_.count(a & sim::kClusterOffsetMask) != 0;
}

void RacecheckObserver::mbarrier(const sim::MemoryEvent& e) {
  const bool release = e.kind == sim::AccessKind::Atomic && releasesIntoMbarrier(*e.inst);
  if (!release && !(e.kind == sim::AccessKind::Load && e.inst->sync == isa::SyncRole::MbarrierWait))
    return;
  const unsigned w = e.warp;
  uint64_t last = ~0ull;
  isa::forLanes(e.mask, [&](unsigned lane) {
    // A bulk reduction's atomics are its elements but for its complete_tx on the mbarrier.
    if (isBulkReduce(*e.inst) && !knownMbarrier(e, lane)) return;
    const auto [space, a] = landing(e, lane);
    if (space != isa::Space::Shared || a == last) return;
    last = a;
    if (sim::namesRank(a)) {
      // Another CTA's mbarrier: a bulk copy's complete_tx there (a multicast's, or a copy to
      // a mapa'd address) releases the copy's writes into that CTA. (Other remote arrivals
      // are not followed: clocks of two CTAs' warps do not compare.)
      RacecheckObserver* owner = const_cast<RacecheckObserver*>(peer(sim::rankOfClusterAddress(a)));
      if (owner && release && isBulkCopy(*e.inst)) {
        MbarrierClock& m = owner->mbarrierAt(a & sim::kClusterOffsetMask);
        m.async = std::max(m.async, owner->asyncEpoch_);
      }
      return;
    }
    MbarrierClock& m = mbarrierAt(a);
    if (release) {
      // As a barrier arrival: what the warp did before is ordered before every waiter; a bulk
      // copy's complete_tx also releases the copy's own writes.
      ++clock(w, w);
      for (unsigned u = 0; u < warps_; ++u) m.row[u] = std::max(m.row[u], clock(w, u));
      m.async = std::max(m.async, asyncSeen_[w]);
      if (isBulkCopy(*e.inst)) m.async = std::max(m.async, asyncEpoch_);
    } else {
      for (unsigned u = 0; u < warps_; ++u) clock(w, u) = std::max(clock(w, u), m.row[u]);
      asyncSeen_[w] = std::max(asyncSeen_[w], m.async);
      ++warpSync_[w];  // the arrivals of the warp's own lanes too
      warpSnapshot_[w] = kStale;
    }
  });
}

void RacecheckObserver::memory(const sim::MemoryEvent& e) {
  if (e.kind == sim::AccessKind::Fence) return fence(e);
  if (!e.addresses) return;
  if (e.kind != sim::AccessKind::Store) mbarrier(e);
  const uint32_t sharedBytes = view_.info().sharedBytes;
  const bool plain = e.kind != sim::AccessKind::Atomic && isPlain(e);
  isa::forLanes(e.mask, [&](unsigned lane) {
    const auto [space, a] = landing(e, lane);
    if (space == isa::Space::Shared) {
      // Atomics order nothing and race with nothing here, except a bulk reduction's element
      // updates (the asynchronous proxy's, as a bulk copy's writes; its complete_tx is not one).
      if (e.kind == sim::AccessKind::Atomic && (!isBulkReduce(*e.inst) || knownMbarrier(e, lane)))
        return;
      if (!sim::namesRank(a)) {
        if (a <= sharedBytes && e.bytes <= sharedBytes - a) shared(*this, e, lane, a);
        return;
      }
      // Distributed shared memory: the shadow of the CTA of that rank.
      RacecheckObserver* owner = const_cast<RacecheckObserver*>(peer(sim::rankOfClusterAddress(a)));
      const uint64_t offset = a & sim::kClusterOffsetMask;
      if (owner && offset <= owner->cells_.size() && e.bytes <= owner->cells_.size() - offset)
        shared(*owner, e, lane, offset);
    } else if (space == isa::Space::Global) {
      // A bulk copy's or reduction's write into global memory (.bulk_group): in flight until
      // the thread's wait_group.
      if ((e.kind == sim::AccessKind::Store && isBulkCopy(*e.inst)) ||
          (e.kind == sim::AccessKind::Atomic && isBulkReduce(*e.inst)))
        bulkWrite(e, lane, a);
      else if (plain)
        global(e, lane, a);
      else if (e.kind == sim::AccessKind::Load)
        acquire(e, lane, a);
      else
        release(e, lane, a);  // a store, or an atomic's write part (its read part: below)
    }
  });
}

void RacecheckObserver::atomicCompleted(const sim::MemoryEvent& e) {
  isa::forLanes(e.mask, [&](unsigned lane) {
    const auto [space, a] = landing(e, lane);
    if (space == isa::Space::Global && !isBulkReduce(*e.inst)) acquire(e, lane, a);
  });
}

void RacecheckObserver::bulkWrite(const sim::MemoryEvent& e, unsigned lane, uint64_t a) {
  if (bulk_.empty()) bulk_.resize(size_t(warps_) * 32);
  BulkGroups& g = bulk_[e.warp * 32 + lane];
  const uint8_t atomic = e.kind == sim::AccessKind::Atomic ? kAtomicWrite : 0;
  forWords(a, e.bytes, [&](uint64_t word, uint8_t mask) {
    g.writing.push_back({word, e.inst, g.committed, uint8_t(mask | atomic)});
  });
}

void RacecheckObserver::bulkDone(unsigned thread, uint32_t upTo) {
  std::vector<BulkWrite>& writing = bulk_[thread].writing;
  const unsigned w = thread / 32;
  size_t kept = 0;
  for (const BulkWrite& b : writing) {
    if (b.group >= upTo) {
      writing[kept++] = b;
      continue;
    }
    pointNow(b.inst, w, thread % 32);  // makes the warp's snapshot current
    accesses_.push_back({b.word, b.inst, thread, clock(w, w), warpSnapshot_[w], warpSync_[w],
                         warpSeq_[w], uint16_t(std::min<uint32_t>(clusterWaits_[w], 0xffff)),
                         b.mask, true});
  }
  writing.resize(kept);
}

void RacecheckObserver::bulkInFlight(const sim::MemoryEvent& e, unsigned lane, uint64_t a) {
  const uint32_t thread = e.warp * 32 + lane;
  for (const BulkWrite& b : bulk_[thread].writing) {
    if (b.word < a >> 2 || b.word > (a + e.bytes - 1) >> 2) continue;
    const char* kind = e.kind == sim::AccessKind::Store ? "Write" : "Read";
    Finding f;
    f.tool = Tool::Racecheck;
    f.kernel = view_.kernel();
    f.title = raceTitle("Write", kind);
    f.first = {"Write", siteOf(*view_.info().program, *b.inst), view_.threadOf(e.warp, lane),
               view_.info().id};
    f.second = Actor{kind, siteOf(*view_.info().program, *e.inst), view_.threadOf(e.warp, lane),
                     view_.info().id};
    f.address = b.word << 2;
    f.space = "__global__";
    f.detail = "hazard at __global__ address " + hex(b.word << 2) +
               ": the thread's own bulk copy (the asynchronous proxy) may still be writing it; "
               "no cp.async.bulk.wait_group completed it first";
    findings_.add(std::move(f));
    return;  // one hazard per lane access
  }
}

void Racecheck::merge(sim::Observer& finished) {
  auto& o = static_cast<RacecheckObserver&>(finished);
  if (o.info().linear == 0) launchFinished();  // a new launch: judge the one before
  findings_.merge(o.findings());
  if (!o.globalWords().empty())
    ctas_.push_back({o.info(), std::move(o.globalWords()), std::move(o.acquires()),
                     std::move(o.snapshots()), o.warps(), o.info().cluster.count() > 1,
                     o.clusterKey(), std::move(o.clusterArrivals())});
}

void Racecheck::publish(uint64_t word, Release r, bool rmw) {
  std::lock_guard<std::mutex> lock(flagsMutex_);
  const uint32_t index = uint32_t(releases_.size());
  releases_.push_back(std::move(r));
  auto it = flags_.find(word);
  if (rmw && it != flags_.end()) {
    sequences_[it->second].push_back(index);
  } else {
    flags_[word] = uint32_t(sequences_.size());
    sequences_.push_back({index});
  }
}

void Racecheck::overwrite(uint64_t word) {
  std::lock_guard<std::mutex> lock(flagsMutex_);
  flags_.erase(word);
}

SeenReleases Racecheck::observe(uint64_t word, uint64_t cta) {
  std::lock_guard<std::mutex> lock(flagsMutex_);
  auto it = flags_.find(word);
  if (it == flags_.end()) return {};
  const std::vector<uint32_t>& s = sequences_[it->second];
  if (s.size() == 1 && releases_[s[0]].cta == cta) return {};  // only its own CTA's release
  return {it->second, uint32_t(s.size())};
}

namespace {

// Point `early` of a CTA is ordered before its point `late`: program order in one thread (or a
// __syncwarp between them in one warp), else `lateRow`, the clock row of late's warp there,
// holds early's epoch. (A release is after what it releases; an acquire before what it orders.)
bool orderedBefore(const CtaPoint& early, const CtaPoint& late, const uint32_t* lateRow) {
  const unsigned ew = early.thread / 32, lw = late.thread / 32;
  return ew == lw
             ? early.seq < late.seq && (early.thread == late.thread || late.wsync > early.wsync)
             : lateRow[ew] > early.epoch;
}

}  // namespace

bool Racecheck::synchronized(uint64_t cx, const CtaPoint& x, uint64_t cy, const CtaPoint& y) const {
  const CtaWords& a = ctas_[cx];
  const CtaWords& b = ctas_[cy];
  for (const Acquire& q : b.acquires) {
    if (!orderedBefore(q.at, y, &b.snapshots[size_t(y.snapshot) * b.warps])) continue;
    const std::vector<uint32_t>& sequence = sequences_[q.seen.sequence];
    for (uint32_t k = 0; k < q.seen.length; ++k) {
      const Release& r = releases_[sequence[k]];
      if (r.cta == a.info.linear && orderedBefore(x, r.at, r.row.data())) return true;
    }
  }
  return false;
}

void Racecheck::race(const CtaWords& a, const CtaPoint& aAt, const char* aKind, const CtaWords& b,
                     const CtaPoint& bAt, const char* bKind, uint64_t word) {
  auto actor = [](const CtaWords& c, const CtaPoint& at, const char* kind) {
    return Actor{kind, siteOf(*c.info.program, *at.inst), sim::positionIn(c.info.block, at.thread),
                 c.info.id};
  };
  Finding f;
  f.tool = Tool::Racecheck;
  f.kernel = a.info.entry ? a.info.entry->name : "";
  f.title = raceTitle(aKind, bKind);
  f.first = actor(a, aAt, aKind);
  f.second = actor(b, bAt, bKind);
  f.address = word << 2;
  f.space = "__global__";
  f.detail = "hazard at __global__ address " + hex(word << 2) +
             " between CTAs: no barrier, and no release and acquire at GPU scope, orders them";
  findings_.add(std::move(f));
}

void Racecheck::launchFinished() {
  // Writes first: the first writer of each word, and any second CTA writing it. Then every
  // CTA's reads against the writers: only words some CTA writes can race, and outputs are
  // few next to inputs, so reads are looked up, never inserted. A pair is no race when a
  // release of one CTA that the other acquired orders them.
  // CTAs of one cluster: also its barrier's phases.
  auto clustered = [&](uint64_t cx, const CtaPoint& x, uint64_t cy, const CtaPoint& y) {
    const CtaWords &a = ctas_[cx], &b = ctas_[cy];
    return a.inCluster && b.inCluster && a.clusterKey == b.clusterKey &&
           beforeClusterPhase(a.arrivals, x.thread / 32, x.epoch, y.clusterWaits);
  };
  auto ordered = [&](uint64_t cx, const CtaPoint& x, uint64_t cy, const CtaPoint& y) {
    return synchronized(cx, x, cy, y) || synchronized(cy, y, cx, x) || clustered(cx, x, cy, y) ||
           clustered(cy, y, cx, x);
  };
  WordTable<Writer> writers;
  for (uint64_t c = 0; c < ctas_.size(); ++c)
    for (const GlobalWordUse& u : ctas_[c].words) {
      if (!u.writeMask) continue;
      Writer& w = writers[u.word];
      if (!w.at.inst) {
        w = {c, u.write, u.writeMask};
      } else if (w.cta != c && (w.mask & u.writeMask) && !ordered(w.cta, w.at, c, u.write)) {
        race(ctas_[w.cta], w.at, "Write", ctas_[c], u.write, "Write", u.word);
      }
    }
  if (writers.size())
    for (uint64_t c = 0; c < ctas_.size(); ++c)
      for (const GlobalWordUse& u : ctas_[c].words) {
        if (!u.readMask) continue;
        const Writer* w = writers.find(u.word);
        if (!w || w->cta == c || !(w->mask & u.readMask)) continue;
        if (ordered(w->cta, w->at, c, u.read)) continue;
        if (w->cta < c)
          race(ctas_[w->cta], w->at, "Write", ctas_[c], u.read, "Read", u.word);
        else
          race(ctas_[c], u.read, "Read", ctas_[w->cta], w->at, "Write", u.word);
      }
  ctas_.clear();
  // The next launch's CTAs have run already (its first merge calls this): releases_ keeps their
  // releases (acquires name them by index); flags_ forgets the words, so a flag released in
  // this launch and only read in a later one gives no edge (kernels launched one after the other
  // are ordered anyway; a read of it in the very next launch may still see it).
  std::lock_guard<std::mutex> lock(flagsMutex_);
  flags_.clear();
}

}  // namespace warpsim::check
