#include "kernels/micro/call_chains_cards.h"

#include <string>

#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/micro/launch.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

struct CallMode {
  uint32_t mode, lanes;
};
constexpr CallMode kCallModes[] = {{0, 32}, {0, 16}, {1, 32}, {1, 16}, {2, 32}};

uint32_t callDeep(uint32_t v, uint32_t depth) {
  return depth == 0 ? v + 1u : callDeep(v ^ depth, depth - 1) * 5u + depth;
}

}  // namespace

Problem makeCallChain(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = iters;
  p.buffers.push_back(makeBuffer("in", ElemType::U32, randomU32(rng, kWarp, 0, ~0u), false));
  for (const CallMode& m : kCallModes) {
    const uint32_t out = uint32_t(p.buffers.size());
    p.buffers.push_back(poisonBuffer(
        "out_m" + std::to_string(m.mode) + "_l" + std::to_string(m.lanes), ElemType::U32, kWarp));
    p.launches.push_back(oneBlock("micro_call_chain", kWarp,
                                  {KernelArg::buf(out), KernelArg::buf(0), KernelArg::u32(m.mode),
                                   KernelArg::u32(m.lanes), KernelArg::u32(uint32_t(iters))}));
  }
  return p;
}

void referenceCallChain(Problem& p) {
  const auto in = readBuffer<uint32_t>(p.buffers[0]);
  for (const Launch& l : p.launches) {
    const uint32_t mode = scalarOf<uint32_t>(l.args[2]), lanes = scalarOf<uint32_t>(l.args[3]);
    std::vector<uint32_t> out(kWarp);
    for (uint32_t t = 0; t < kWarp; ++t) {
      uint32_t v = in[t];
      if (t < lanes)
        for (uint64_t i = 0; i < p.size; ++i)
          v = mode == 0 ? v * 3u + 1u : callDeep(v, mode == 1 ? 1u : t % 2);
      out[t] = v;
    }
    writeBuffer(p.buffers[l.args[0].buffer], out);
  }
}

}  // namespace warpsim::kernels
