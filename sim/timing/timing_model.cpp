#include "sim/timing/timing_model.h"

#include "sim/func/cta.h"
#include "sim/timing/engine.h"

namespace warpsim::sim::timing {

TimingModel::TimingModel(TimingConfig config) : config_(std::move(config)) {}

void TimingModel::setResources(const std::string& entry, KernelResources r) {
  resources_[entry] = std::move(r);
}

LaunchResult TimingModel::run(LaunchContext& ctx, const std::vector<ObserverFactory*>& factories) {
  KernelResources k;
  k.staticShared = ctx.entry->sharedBytes;
  k.source = fallbackNote_.empty() ? "ptx" : "ptx (" + fallbackNote_ + ")";
  if (auto it = resources_.find(ctx.entry->name); it != resources_.end()) k = it->second;
  const Occupancy occ =
      computeOccupancy(config_, k, uint32_t(ctx.block.count()), ctx.dynamicShared);
  Engine engine(config_, occ, ctx, factories, k.stackFrames);
  return engine.run(last_);
}

}  // namespace warpsim::sim::timing
