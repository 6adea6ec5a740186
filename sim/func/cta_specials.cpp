// Special registers (%tid, %ctaid, %laneid, %clock, ...) as a lane of a warp of this CTA sees
// them.
#include "sim/func/cta.h"

#include <algorithm>

namespace warpsim::sim {

using isa::kWarpSize;

ThreadPos Cta::threadOf(unsigned warp, unsigned lane) const {
  return positionIn(ctx_->block, uint64_t(warp) * kWarpSize + lane);
}

uint64_t Cta::special(isa::Special s, unsigned lane) {
  return cur_ ? specialOf(*cur_, s, lane) : 0;
}

uint64_t Cta::specialOf(const Warp& w, isa::Special s, unsigned lane) const {
  using isa::Special;
  const unsigned warp = w.index;
  const uint32_t bit = 1u << lane;
  switch (s) {  // the thread's position (divisions) only for %tid: fillSpecial's uniform values
    case Special::TidX:
      return threadOf(warp, lane).x;
    case Special::TidY:
      return threadOf(warp, lane).y;
    case Special::TidZ:
      return threadOf(warp, lane).z;
    case Special::NtidX:
      return ctx_->block.x;
    case Special::NtidY:
      return ctx_->block.y;
    case Special::NtidZ:
      return ctx_->block.z;
    case Special::CtaidX:
      return info_.id.x;
    case Special::CtaidY:
      return info_.id.y;
    case Special::CtaidZ:
      return info_.id.z;
    case Special::NctaidX:
      return ctx_->grid.x;
    case Special::NctaidY:
      return ctx_->grid.y;
    case Special::NctaidZ:
      return ctx_->grid.z;
    case Special::LaneId:
      return lane;
    case Special::WarpId:
      return warp;
    case Special::NWarpId:
      return ctx_->limits.maxWarpsPerSm;
    case Special::SmId:
      return uint32_t(info_.linear % ctx_->limits.smCount);
    case Special::NSmId:
      return ctx_->limits.smCount;
    case Special::GridId:
      return ctx_->gridId;
    case Special::LanemaskEq:
      return bit;
    case Special::LanemaskLe:
      return bit | (bit - 1);
    case Special::LanemaskLt:
      return bit - 1;
    case Special::LanemaskGe:
      return ~(bit - 1);
    case Special::LanemaskGt:
      return ~(bit | (bit - 1));
    // The functional model has no cycles: clocks advance with the warp's instructions, which
    // keeps them monotonic and deterministic (the timing model supplies real cycles).
    case Special::Clock:
      return uint32_t(w.instructions);
    case Special::Clock64:
      return w.instructions;
    case Special::ClockHi:
      return uint32_t(w.instructions >> 32);
    case Special::GlobalTimer:
      return w.instructions * 1000;
    case Special::GlobalTimerLo:
      return uint32_t(w.instructions * 1000);
    case Special::GlobalTimerHi:
      return uint32_t((w.instructions * 1000) >> 32);
    case Special::DynamicSmemSize:
      return ctx_->dynamicShared;
    case Special::TotalSmemSize:
      return uint32_t(shared_.size());
    case Special::AggrSmemSize:  // with the system's reserved part
      return uint32_t(shared_.size()) + isa::kReservedSmemBytes;
    // Clusters (cluster.h): without cluster dimensions every CTA is a cluster of one.
    case Special::ClusterCtaRank:
      return rank_;
    case Special::ClusterNctaRank:
      return ctx_->cluster.count();
    case Special::ClusterCtaidX:
      return info_.id.x % ctx_->cluster.x;
    case Special::ClusterCtaidY:
      return info_.id.y % ctx_->cluster.y;
    case Special::ClusterCtaidZ:
      return info_.id.z % ctx_->cluster.z;
    case Special::ClusterNctaidX:
      return ctx_->cluster.x;
    case Special::ClusterNctaidY:
      return ctx_->cluster.y;
    case Special::ClusterNctaidZ:
      return ctx_->cluster.z;
    case Special::ClusterIdX:
      return info_.id.x / ctx_->cluster.x;
    case Special::ClusterIdY:
      return info_.id.y / ctx_->cluster.y;
    case Special::ClusterIdZ:
      return info_.id.z / ctx_->cluster.z;
    case Special::NClusterIdX:
      return ctx_->grid.x / ctx_->cluster.x;
    case Special::NClusterIdY:
      return ctx_->grid.y / ctx_->cluster.y;
    case Special::NClusterIdZ:
      return ctx_->grid.z / ctx_->cluster.z;
    case Special::IsExplicitCluster:
      return ctx_->explicitCluster ? 1 : 0;
    case Special::EnvReg:
      return 0;
    // The grid-sync workspace of a cooperative launch (cooperative_groups/details/driver_abi.h
    // reads it as envreg1 << 32 | envreg2).
    case Special::EnvReg1:
      return uint32_t(ctx_->gridSyncWorkspace >> 32);
    case Special::EnvReg2:
      return uint32_t(ctx_->gridSyncWorkspace);
    case Special::Count_:
      break;
  }
  return 0;
}

void Cta::fillSpecial(const Warp& w, isa::Special s, uint64_t* dst) const {
  using isa::Special;
  const uint32_t first = w.index * kWarpSize;
  const Dim3& b = ctx_->block;
  // The thread index of each lane, counted up from the warp's first thread with carries (two
  // divisions per warp instead of one or two per lane).
  auto fillTid = [&](unsigned axis) {
    uint32_t t[3] = {first % b.x, first / b.x % b.y, first / (b.x * b.y)};
    if (t[0] + kWarpSize <= b.x) {  // no carry inside the warp (x a multiple of 32, say)
      if (axis == 0)
        for (unsigned lane = 0; lane < kWarpSize; ++lane) dst[lane] = t[0] + lane;
      else
        std::fill_n(dst, kWarpSize, t[axis]);
      return;
    }
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      dst[lane] = t[axis];
      if (++t[0] == b.x) {
        t[0] = 0;
        if (++t[1] == b.y) t[1] = 0, ++t[2];
      }
    }
  };
  switch (s) {
    case Special::TidX:
      fillTid(0);
      return;
    case Special::TidY:
      fillTid(1);
      return;
    case Special::TidZ:
      fillTid(2);
      return;
    case Special::LaneId:
    case Special::LanemaskEq:
    case Special::LanemaskLe:
    case Special::LanemaskLt:
    case Special::LanemaskGe:
    case Special::LanemaskGt:
      for (unsigned lane = 0; lane < kWarpSize; ++lane) dst[lane] = specialOf(w, s, lane);
      return;
    default:  // the same for every lane
      std::fill_n(dst, kWarpSize, specialOf(w, s, 0));
      return;
  }
}

}  // namespace warpsim::sim
