// A tensor map's 128 bytes read or written by one lane through the machine's loads and stores
// (16 bytes at a time), so that faults name the instruction and observers see the accesses:
// what cp.async.bulk.tensor (bulk_copy.cpp) and tensormap.replace (tensor_map_replace.cpp) do.
#pragma once

#include <cstdint>
#include <cstring>

#include "isa/exec.h"
#include "isa/insns/tensor_map.h"

namespace warpsim::isa::insns::tmap {

inline void loadBytes(Exec& x, const Inst& in, Space space, unsigned l, uint64_t base,
                      uint8_t* bytes) {
  uint64_t addrs[kWarpSize] = {}, words[kWarpSize * 4] = {};
  for (unsigned c = 0; c < 8; ++c) {
    addrs[l] = base + 16 * c;
    x.machine->load(in, space, LaneMask{1} << l, addrs, 4, 4, words);
    for (unsigned w = 0; w < 4; ++w) {
      const uint32_t v = uint32_t(words[l * 4 + w]);
      std::memcpy(bytes + 16 * c + 4 * w, &v, 4);
    }
  }
}

inline void storeBytes(Exec& x, const Inst& in, Space space, unsigned l, uint64_t base,
                       const uint8_t* bytes) {
  uint64_t addrs[kWarpSize] = {}, words[kWarpSize * 4] = {};
  for (unsigned c = 0; c < 8; ++c) {
    addrs[l] = base + 16 * c;
    for (unsigned w = 0; w < 4; ++w) {
      uint32_t v;
      std::memcpy(&v, bytes + 16 * c + 4 * w, 4);
      words[l * 4 + w] = v;
    }
    x.machine->store(in, space, LaneMask{1} << l, addrs, 4, 4, words);
  }
}

}  // namespace warpsim::isa::insns::tmap
