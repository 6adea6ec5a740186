#include "sim/timing/occupancy.h"

#include <algorithm>
#include <array>

namespace warpsim::sim::timing {

double Occupancy::theoretical() const {
  return maxWarpsPerSm ? double(ctasPerSm) * warpsPerCta / maxWarpsPerSm : 0;
}

Occupancy computeOccupancy(const TimingConfig& c, const KernelResources& k, uint32_t threads,
                           uint32_t dynamicShared) {
  Occupancy o;
  o.maxWarpsPerSm = c.maxWarpsPerSm;
  o.resourceSource = k.source;
  o.warpsPerCta = (threads + 31) / 32;
  o.registersPerThread = std::max(1u, k.registers);
  o.sharedPerCta = k.staticShared + dynamicShared + c.reservedSharedPerCta;
  // Registers: a warp's allocation is rounded up to the unit.
  const uint32_t unit = c.registerAllocUnit;
  const uint32_t regsPerWarp = (o.registersPerThread * 32 + unit - 1) / unit * unit;
  const uint32_t warpsByRegs = c.registersPerSm / regsPerWarp;
  const uint32_t carveMax = c.sharedCarveoutMaxKb * 1024;
  const std::array<std::pair<const char*, uint32_t>, 5> limits = {{
      {"ctas", c.maxCtasPerSm},
      {"warps", c.maxWarpsPerSm / o.warpsPerCta},
      {"threads", c.maxThreadsPerSm / (o.warpsPerCta * 32)},
      {"registers", warpsByRegs / o.warpsPerCta},
      {"shared", carveMax / o.sharedPerCta},
  }};
  o.ctasPerSm = ~0u;
  for (const auto& [name, n] : limits)
    if (n < o.ctasPerSm) {
      o.ctasPerSm = n;
      o.limiter = name;
    }
  if (o.ctasPerSm == 0)
    throw ConfigError("a CTA of " + std::to_string(threads) + " threads, " +
                      std::to_string(o.registersPerThread) + " registers per thread and " +
                      std::to_string(o.sharedPerCta) + " bytes of shared memory does not fit on " +
                      "an SM (limited by " + o.limiter + ")");
  // The driver picks the smallest carve-out that holds the resident CTAs' shared memory; the
  // unified array's rest is L1. Carve-outs of sm_90 (KB): 0, 8, 16, 32, 64, 100, 132, 164, 196,
  // 228.
  const uint32_t need = o.ctasPerSm * o.sharedPerCta;
  o.carveoutKb = c.sharedCarveoutMaxKb;
  for (uint32_t kb : {0u, 8u, 16u, 32u, 64u, 100u, 132u, 164u, 196u, 228u})
    if (kb <= c.sharedCarveoutMaxKb && kb * 1024 >= need) {
      o.carveoutKb = kb;
      break;
    }
  o.l1Bytes = (c.unifiedL1SharedKb - o.carveoutKb) * 1024;
  return o;
}

}  // namespace warpsim::sim::timing
