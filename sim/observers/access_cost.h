// Pure functions of a warp's addresses and mask: how many shared-memory wavefronts an access
// needs (32 banks of 4 bytes, one word broadcast to every lane that asks for it) and how many
// 32-byte sectors a global access touches. The statistics and the timing model both use them.
#pragma once

#include <cstdint>

namespace warpsim::sim {

inline constexpr unsigned kSharedBanks = 32;
inline constexpr unsigned kSectorBytes = 32;

// Wavefronts for one shared access: each lane reads `bytes` at addrs[lane] (lanes in mask).
// Accesses wider than 4 bytes are served in half-warp phases (8- and 16-byte alike, as ncu's
// wavefronts on the H200 show); within a phase the cost is the largest number of distinct words
// in one bank. The ideal (conflict-free) count is, per phase with an active lane, one wavefront
// per 32 distinct words it reads.
struct SharedCost {
  unsigned wavefronts = 0;
  unsigned ideal = 0;
};
SharedCost sharedAccessCost(const uint64_t* addrs, uint32_t mask, unsigned bytes);

// Distinct 32-byte sectors touched by the lanes in mask, each reading `bytes` at addrs[lane].
unsigned sectorsTouched(const uint64_t* addrs, uint32_t mask, unsigned bytes);

}  // namespace warpsim::sim
