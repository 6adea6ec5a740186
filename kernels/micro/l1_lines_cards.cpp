#include "kernels/micro/l1_lines_cards.h"

#include <string>

#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/micro/launch.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kTableWords = 1024;  // 4 KB: 32 lines, L1-resident after the first trip
// Lane l reads word l * stride: 1 sector; 1, 2 and 4 lines of 4, 8 and 16 sectors; 8, 16 and
// 32 lines of 32 sectors; 32 lines of 32 sectors again at 33, where the lanes' words lie in 32
// different banks of the data array (at 32 all in its first bank, at 16 in two, at 8 in four);
// and at 9, 9 lines of 32 sectors, the words in 32 banks but the sectors at every offset of
// their lines (whether the data array serves words or whole sectors).
constexpr uint32_t kStrides[] = {0, 1, 2, 4, 8, 9, 16, 32, 33};
constexpr uint32_t kWarps[] = {1, 4, 32};

}  // namespace

// Launches in the order: stride, then warps.
Problem makeL1Lines(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  const std::vector<uint32_t> table = stayingTable(rng, kTableWords);
  Problem p;
  p.size = iters;
  p.buffers.push_back(makeBuffer("table", ElemType::U32, table, false));
  for (uint32_t stride : kStrides)
    for (uint32_t warps : kWarps) {
      const uint32_t out = uint32_t(p.buffers.size());
      p.buffers.push_back(
          poisonBuffer("out_s" + std::to_string(stride) + "_" + std::to_string(warps),
                       ElemType::U32, warps * kWarp));
      p.launches.push_back(oneBlock("micro_l1_lines", warps * kWarp,
                                    {KernelArg::buf(out), KernelArg::buf(0), KernelArg::u32(stride),
                                     KernelArg::u32(uint32_t(iters))}));
    }
  return p;
}

// Every load of a lane reads word (lane * stride) % 1024: the lane's sum is iters times it.
void referenceL1Lines(Problem& p) {
  const auto table = readBuffer<uint32_t>(p.buffers[0]);
  for (const Launch& l : p.launches) {
    const uint32_t stride = scalarOf<uint32_t>(l.args[2]);
    std::vector<uint32_t> out(l.block.x);
    for (uint32_t t = 0; t < l.block.x; ++t)
      out[t] = uint32_t(p.size) * table[(t % kWarp * stride) % kTableWords];
    writeBuffer(p.buffers[l.args[0].buffer], out);
  }
}

}  // namespace warpsim::kernels
