// A CTA's part in its cluster (cluster.h): mapa and getctarank, loads, stores and atomics on
// another CTA's shared memory (distributed shared memory), and barrier.cluster.
#include <bit>
#include <cstdio>

#include "sim/func/cta.h"

namespace warpsim::sim {

using isa::Inst;
using isa::LaneMask;
using isa::Space;

namespace {
std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}
}  // namespace

uint64_t Cta::mapSharedRank(const Inst& in, Space space, uint64_t addr, uint32_t rank,
                            unsigned lane) {
  if (rank >= cluster_->size())
    fault(FaultKind::OutOfBounds,
          "mapa names CTA rank " + std::to_string(rank) + " of a cluster of " +
              std::to_string(cluster_->size()) + " CTAs",
          &in, lane);
  if (space == Space::Generic) {
    if (genericSpace(addr) != Space::Shared)
      fault(FaultKind::OutOfBounds,
            "mapa of the generic address " + hex(addr) + ", which is not in shared memory", &in,
            lane, addr);
    return kSharedWindow + clusterAddress(rank, addr - kSharedWindow);
  }
  return clusterAddress(rank, addr);
}

uint32_t Cta::ctaRankOf(const Inst& in, Space space, uint64_t addr, unsigned lane) {
  if (space == Space::Generic) {
    if (genericSpace(addr) != Space::Shared)
      fault(FaultKind::OutOfBounds,
            "getctarank of the generic address " + hex(addr) + ", which is not in shared memory",
            &in, lane, addr);
    addr -= kSharedWindow;
  }
  return namesRank(addr) ? rankOfClusterAddress(addr) : rank_;
}

uint8_t* Cta::resolveCluster(const Inst& in, uint64_t addr, unsigned bytes, unsigned lane,
                             bool write) {
  const char* what = write ? "store" : "load";
  const unsigned rank = rankOfClusterAddress(addr);
  const uint64_t offset = addr & kClusterOffsetMask;
  if (rank >= cluster_->size())
    return badAccess(FaultKind::OutOfBounds,
                     std::string(what) + " of " + std::to_string(bytes) + " bytes at " + hex(addr) +
                         " names CTA rank " + std::to_string(rank) + " of a cluster of " +
                         std::to_string(cluster_->size()) + " CTAs (shared::cluster)",
                     in, lane, addr, Space::SharedCluster, bytes, write);
  SharedMemory& mem = rank == rank_ ? shared_ : cluster_->member(rank).sharedMemory();
  if (!mem.fits(offset, bytes))
    return badAccess(FaultKind::OutOfBounds,
                     std::string(what) + " of " + std::to_string(bytes) + " bytes at " + hex(addr) +
                         " is outside the " + std::to_string(mem.size()) +
                         " bytes of shared memory of the cluster's CTA of rank " +
                         std::to_string(rank),
                     in, lane, addr, Space::SharedCluster, bytes, write);
  return mem.data() + offset;
}

void Cta::clusterBarrier(const Inst& in, LaneMask mask, bool arrive) {
  Warp& w = *cur_;
  const uint32_t next = cluster_->phase() + 1;
  if (arrive) {
    if (w.clusterPending && w.clusterTarget == next && (w.clusterLanes & mask))
      fault(FaultKind::InvalidInstruction,
            "barrier.cluster.arrive again before barrier.cluster.wait (a thread may arrive once "
            "per phase)",
            &in, unsigned(std::countr_zero(w.clusterLanes & mask)));
    if (!w.clusterPending || w.clusterTarget != next) w.clusterLanes = 0;
    w.clusterPending = true;
    w.clusterTarget = next;
    w.clusterLanes |= mask;
    cluster_->arrive(uint32_t(std::popcount(mask)));
    return;
  }
  if (!w.clusterPending)
    fault(FaultKind::InvalidInstruction,
          "barrier.cluster.wait without a barrier.cluster.arrive before it", &in,
          unsigned(std::countr_zero(mask)));
  if (cluster_->phase() >= w.clusterTarget) {
    w.clusterPending = false;
    return;
  }
  w.state = WarpState::AtClusterBarrier;
  w.barrierPc = in.ptxLine;
  stop_ |= kBlocked;
}

void Cta::releaseClusterWaiters(uint32_t phase) {
  for (Warp& w : warps_)
    if (w.state == WarpState::AtClusterBarrier && w.clusterTarget <= phase) {
      w.state = WarpState::Ready;
      w.clusterPending = false;
    }
}

void Cta::clusterThreadsExited(const Warp& w, LaneMask lanes) {
  const bool arrivedNow = w.clusterPending && w.clusterTarget == cluster_->phase() + 1;
  cluster_->exited(uint32_t(std::popcount(lanes)),
                   arrivedNow ? uint32_t(std::popcount(lanes & w.clusterLanes)) : 0);
}

void Cta::failGroupDeadlock(const std::string& what, std::string details) {
  cur_ = nullptr;
  fault(FaultKind::BarrierDeadlock, what, nullptr, 0, std::nullopt, std::move(details));
}

}  // namespace warpsim::sim
