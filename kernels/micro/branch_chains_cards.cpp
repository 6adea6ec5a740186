#include "kernels/micro/branch_chains_cards.h"

#include <string>

#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/micro/launch.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kBranchModes = 3;

uint32_t leftBody(uint32_t v) {
  for (int k = 0; k < 4; ++k) {
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
  }
  return v;
}

uint32_t rightBody(uint32_t v) {
  for (int k = 0; k < 6; ++k) v = v * 0x9E3779B1u + (v >> 16);
  return v;
}

}  // namespace

Problem makeBranchChain(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = iters;
  p.buffers.push_back(makeBuffer("in", ElemType::U32, randomU32(rng, kWarp, 0, ~0u), false));
  for (uint32_t mode = 0; mode < kBranchModes; ++mode) {
    const uint32_t out = uint32_t(p.buffers.size());
    p.buffers.push_back(poisonBuffer("out_m" + std::to_string(mode), ElemType::U32, kWarp));
    p.launches.push_back(oneBlock("micro_branch_chain", kWarp,
                                  {KernelArg::buf(out), KernelArg::buf(0), KernelArg::u32(mode),
                                   KernelArg::u32(uint32_t(iters))}));
  }
  return p;
}

void referenceBranchChain(Problem& p) {
  const auto in = readBuffer<uint32_t>(p.buffers[0]);
  for (const Launch& l : p.launches) {
    const uint32_t mode = scalarOf<uint32_t>(l.args[2]);
    std::vector<uint32_t> out(kWarp);
    for (uint32_t t = 0; t < kWarp; ++t) {
      uint32_t v = in[t];
      for (uint32_t i = 0; i < uint32_t(p.size); ++i) {
        const bool left = mode == 0   ? true
                          : mode == 1 ? ((i * 0x9E3779B9u) >> 31) != 0
                                      : (t & 1) != 0;
        v = left ? leftBody(v) : rightBody(v);
      }
      out[t] = v;
    }
    writeBuffer(p.buffers[l.args[0].buffer], out);
  }
}

}  // namespace warpsim::kernels
