// Launch shapes of the micro cards, and the table their load chains read.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "kernels/card.h"
#include "kernels/random.h"

namespace warpsim::kernels {

// One CTA of `threads` threads.
inline Launch oneBlock(const char* entry, uint32_t threads, std::vector<KernelArg> args,
                       uint32_t dynamicShared = 0) {
  Launch l;
  l.entry = entry;
  l.grid = {1, 1, 1};
  l.block = {threads, 1, 1};
  l.dynamicShared = dynamicShared;
  l.args = std::move(args);
  return l;
}

// `words` random multiples of `words`: a chain that adds each loaded word to its index (modulo
// `words`) reads the same word on every load, each load's address depending on the last one's
// data all the same (micro_bank_stride, micro_lds_chain, micro_l1_lines).
inline std::vector<uint32_t> stayingTable(Rng& rng, uint32_t words) {
  std::vector<uint32_t> table(words);
  for (uint32_t& v : table) v = rng.u32(1, 64) * words;
  return table;
}

}  // namespace warpsim::kernels
