// What every checker needs of the CTA it watches: thread positions, where a lane's access
// lands, and the findings it has made so far.
#pragma once

#include <utility>

#include "sim/check/finding.h"
#include "sim/func/memory.h"
#include "sim/observer.h"

namespace warpsim::check {

// The space a lane's address lands in and its address there (generic addresses resolved).
inline std::pair<isa::Space, uint64_t> landing(const sim::MemoryEvent& e, unsigned lane) {
  const uint64_t a = e.addresses[lane];
  if (e.space != isa::Space::Generic)
    return {e.space == isa::Space::SharedCluster ? isa::Space::Shared : e.space, a};
  const isa::Space s = sim::genericSpace(a);
  return {s, sim::fromGenericAddress(s, a)};
}

const char* cudaSpaceName(isa::Space s);  // "__global__", "__shared__", "__local__", ...

class CtaView {
 public:
  void start(const sim::CtaInfo& c) { info_ = c; }
  const sim::CtaInfo& info() const { return info_; }
  sim::ThreadPos threadOf(unsigned warp, unsigned lane) const {
    return sim::positionIn(info_.block, uint64_t(warp) * 32 + lane);
  }
  Actor actor(const isa::Inst& in, unsigned warp, unsigned lane, std::string access) const {
    return {std::move(access), siteOf(*info_.program, in), threadOf(warp, lane), info_.id};
  }
  std::string kernel() const;

 private:
  sim::CtaInfo info_;
};

}  // namespace warpsim::check
