// Launch shapes of the micro cards.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "kernels/card.h"

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

}  // namespace warpsim::kernels
