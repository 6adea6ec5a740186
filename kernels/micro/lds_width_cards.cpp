#include "kernels/micro/lds_width_cards.h"

#include <cmath>
#include <string>

#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/micro/launch.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kTableWords = 2048;
constexpr uint32_t kPatterns = 4;  // every lane one vector, lane % 16, lane, lane / 16
constexpr uint32_t kChainWarps[] = {1, 8, 16, 32};
constexpr uint32_t kFmaWarps[] = {1, 4, 8, 16};

uint32_t vectorOf(uint32_t pattern, uint32_t lane) {
  switch (pattern) {
    case 0:
      return 0;
    case 1:
      return lane % 16;
    case 2:
      return lane;
    default:
      return lane / 16;
  }
}

}  // namespace

// Launches in the order: width (4 then 16 bytes), pattern, warps.
Problem makeLdsChain(uint64_t iters, uint64_t seed) {
  // Every load of a lane reads the same vector.
  Rng rng(seed);
  const std::vector<uint32_t> table = stayingTable(rng, kTableWords);
  Problem p;
  p.size = iters;
  p.buffers.push_back(makeBuffer("table", ElemType::U32, table, false));
  for (uint32_t wide : {0u, 1u})
    for (uint32_t pattern = 0; pattern < kPatterns; ++pattern)
      for (uint32_t warps : kChainWarps) {
        const uint32_t out = uint32_t(p.buffers.size());
        p.buffers.push_back(poisonBuffer("out_w" + std::to_string(wide) + "_p" +
                                             std::to_string(pattern) + "_" + std::to_string(warps),
                                         ElemType::U32, warps * kWarp));
        p.launches.push_back(
            oneBlock("micro_lds_chain", warps * kWarp,
                     {KernelArg::buf(out), KernelArg::buf(0), KernelArg::u32(pattern),
                      KernelArg::u32(wide), KernelArg::u32(uint32_t(iters))}));
      }
  return p;
}

// Every load of a lane reads its own vector: a 4-byte chain adds word `vec` `iters` times, a
// 16-byte one adds the vector's first word to the chain and the other three beside it.
void referenceLdsChain(Problem& p) {
  const auto table = readBuffer<uint32_t>(p.buffers[0]);
  const uint32_t n = uint32_t(p.size);
  for (const Launch& l : p.launches) {
    const uint32_t pattern = scalarOf<uint32_t>(l.args[2]);
    const bool wide = scalarOf<uint32_t>(l.args[3]) != 0;
    std::vector<uint32_t> out(l.block.x);
    for (uint32_t t = 0; t < l.block.x; ++t) {
      const uint32_t vec = vectorOf(pattern, t % kWarp);
      const uint32_t* w = &table[wide ? vec * 4 : vec];
      out[t] = n * w[0] + (wide ? n * (w[1] + w[2] + w[3]) : 0u) + vec;
    }
    writeBuffer(p.buffers[l.args[0].buffer], out);
  }
}

Problem makeLdsFma(uint64_t rounds, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = rounds;
  // Small operands keep the accumulators finite over many rounds.
  p.buffers.push_back(
      makeBuffer("in", ElemType::F32, randomFloats(rng, 1024, -0.25f, 0.25f), false));
  for (uint32_t warps : kFmaWarps) {
    const uint32_t out = uint32_t(p.buffers.size());
    p.buffers.push_back(
        poisonBuffer("out_" + std::to_string(warps), ElemType::F32, warps * kWarp * 16));
    p.launches.push_back(
        oneBlock("micro_lds_fma", warps * kWarp,
                 {KernelArg::buf(out), KernelArg::buf(0), KernelArg::u32(uint32_t(rounds))}));
  }
  return p;
}

void referenceLdsFma(Problem& p) {
  const auto in = readBuffer<float>(p.buffers[0]);
  for (const Launch& l : p.launches) {
    std::vector<float> out(size_t(l.block.x) * 16);
    for (uint32_t t = 0; t < l.block.x; ++t) {
      const uint32_t tx = t % 16, ty = t / 16 % 16;
      for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t j = 0; j < 4; ++j) {
          float acc = 0.0f;
          for (uint64_t r = 0; r < p.size; ++r)
            for (uint32_t k = 0; k < 8; ++k)
              acc = std::fmaf(in[k * 64 + ty * 4 + i], in[512 + k * 64 + tx * 4 + j], acc);
          out[size_t(t) * 16 + i * 4 + j] = acc;
        }
    }
    writeBuffer(p.buffers[l.args[0].buffer], out);
  }
}

}  // namespace warpsim::kernels
