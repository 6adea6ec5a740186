// The timed launch's thread-block clusters and cooperative grids: clusters placed whole on a
// GPC (cluster_dispatch.h), started together and joined in one Cluster, so that distributed
// shared memory and barrier.cluster work as in the functional driver (sim/func/group.h);
// barrier.cluster's wake-ups, distributed shared memory's latency, and the deadlock of a
// cluster whose warps all wait for one another.
#include <algorithm>
#include <array>

#include "sim/func/group.h"
#include "sim/func/memory.h"
#include "sim/gpu.h"
#include "sim/timing/engine.h"
#include "sim/timing/engine_slots.h"

namespace warpsim::sim::timing {

void Engine::checkCooperativeFits(uint64_t ctasAtOnce) const {
  if (!ctx_.cooperative || ctx_.grid.count() <= ctasAtOnce) return;
  throw LaunchError("a cooperative grid of " + std::to_string(ctx_.grid.count()) +
                    " CTAs does not fit the timing model's chip at once: " +
                    std::to_string(ctasAtOnce) + " CTAs resident (sm.count " +
                    std::to_string(c_.smCount) + " x " + std::to_string(occ_.ctasPerSm) +
                    " per SM" + (ctx_.cluster.count() > 1 ? ", in whole clusters per GPC" : "") +
                    ") (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)");
}

void Engine::startClusters(uint64_t at) {
  while (std::optional<ClusterDispatcher::Placement> p = clusterDispatch_->next()) {
    // The cluster's CTAs start together, when every SM it goes to may start one.
    uint64_t start = at;
    for (uint32_t sm : p->sms) start = std::max(start, sms_[sm].nextCtaStart);
    for (uint32_t sm : p->sms)
      sms_[sm].nextCtaStart = std::max(sms_[sm].nextCtaStart, start) + c_.ctaLaunchInterval;
    if (start == at) {
      launchCluster(p->cluster, p->sms, at);
      if (fault_) return;
    } else {
      placedSms_[p->cluster] = std::move(p->sms);
      pendingClusters_.push({start, p->cluster});
    }
  }
}

void Engine::launchCluster(uint64_t cluster, const std::vector<uint32_t>& sms, uint64_t at) {
  auto run = std::make_unique<ClusterRun>();
  run->index = cluster;
  std::vector<Cta*> members;
  for (uint32_t rank = 0; rank < sms.size(); ++rank) {
    const uint32_t slot = launchCta(sms[rank], ctaOfCluster(ctx_, cluster, rank), at);
    if (slot == kNoSlot) return;  // fault_ says why
    run->slots.push_back(slot);
    members.push_back(ctas_[slot]->cta.get());
  }
  run->cluster.reset(members);
  for (uint32_t slot : run->slots) {
    ctas_[slot]->cta->joinCluster(run->cluster);
    ctas_[slot]->run = run.get();
  }
  run->live = unsigned(run->slots.size());
  clusterRuns_[cluster] = std::move(run);
}

void Engine::releaseCluster(ClusterRun& run, uint64_t t) {
  run.phase = run.cluster.phase();
  // barrier.cluster.arrive has release and .wait acquire semantics by default (PTX ISA): the
  // waiters go on once every member's shared stores are performed.
  uint64_t at = t + c_.clusterBarrierLatency + uint64_t(c_.clusterBarrierPerCta) * run.slots.size();
  // A finished member's warp slots may hold another CTA's warps by now.
  for (uint32_t slot : run.slots)
    if (!ctas_[slot]->finished)
      for (uint32_t wi : ctas_[slot]->warps) at = std::max(at, warps_[wi].sharedStoreDone);
  run.releasedAt = at;
  for (uint32_t slot : run.slots) {
    CtaSlot& cs = *ctas_[slot];
    if (cs.finished) continue;
    for (unsigned k = 0; k < cs.warps.size(); ++k) {
      WarpCtx& o = warps_[cs.warps[k]];
      if (o.done || !o.atBarrier || cs.cta->warp(k).state != WarpState::Ready) continue;
      o.atBarrier = false;
      o.holdUntil(at, Stall::Barrier);
      o.hoistFloor = std::max(o.hoistFloor, at);
      wake(o.sm * c_.smspPerSm + o.smsp, at);
    }
  }
}

void Engine::finishClusterMember(uint32_t slot, uint64_t t) {
  CtaSlot& cs = *ctas_[slot];
  ClusterRun& run = *cs.run;
  clusterDispatch_->release(cs.sm);
  if (--run.live == 0) {
    for (uint32_t s : run.slots) {
      CtaSlot& m = *ctas_[s];
      m.run = nullptr;
      if (m.cta) spareCtas_.push_back(std::move(m.cta));
      freeCtas_.push_back(s);
    }
    clusterRuns_.erase(run.index);  // destroys `run`
  }
  if (!fault_) startClusters(t + 1 + c_.ctaLaunchLatency);
}

std::optional<AccessTiming> Engine::remoteSharedAccess(WarpCtx& w, const MemoryEvent& e) {
  if (!clusterDispatch_ || e.kind == AccessKind::Fence) return std::nullopt;
  const unsigned own = ctas_[w.cta]->cta->clusterRank();
  bool remote = false;
  std::array<uint64_t, 32> sectors;  // the 32-byte pieces the request moves between SMs
  unsigned lanes = 0;
  for (isa::LaneMask m = e.mask; m; m &= m - 1) {
    uint64_t a = e.addresses[std::countr_zero(m)];
    if (e.space == isa::Space::Generic) a -= kSharedWindow;
    if (namesRank(a) && rankOfClusterAddress(a) != own) remote = true;
    sectors[lanes++] = a >> 5;
  }
  if (!remote) return std::nullopt;
  std::sort(sectors.begin(), sectors.begin() + lanes);
  const uint64_t pieces =
      uint64_t(std::unique(sectors.begin(), sectors.begin() + lanes) - sectors.begin());
  SmState& s = sms_[w.sm];
  // One 32-byte piece a cycle through the SM's port to the others [unverified].
  const uint64_t start = std::max(curT_, s.dsmemFree);
  s.dsmemFree = start + pieces;
  AccessTiming a;
  a.ready = start + pieces + c_.dsmemLatency;
  a.kind = Stall::LongScoreboard;
  a.performed = a.ready;
  a.paced = start + pieces;
  if (e.kind == AccessKind::Store || e.kind == AccessKind::Atomic)
    w.sharedStoreDone = std::max(w.sharedStoreDone, a.performed);
  return a;
}

void Engine::failClusterDeadlock() {
  // A cluster in flight keeps its CTAs until the last finishes: each member is there.
  const ClusterRun& run = *clusterRuns_.begin()->second;
  std::vector<Cta*> members;
  for (uint32_t slot : run.slots) members.push_back(ctas_[slot]->cta.get());
  try {
    failGroupDeadlock(members, false);
  } catch (const KernelFault& f) {
    fault_ = f.info();
  }
}

}  // namespace warpsim::sim::timing
