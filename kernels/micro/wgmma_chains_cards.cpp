#include "kernels/micro/wgmma_chains_cards.h"

#include <bit>
#include <cmath>
#include <string>

#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/micro/launch.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kNs[] = {64, 128, 256};
struct Shape {
  const char* mode;
  uint32_t threads;
};
constexpr Shape kShapes[] = {{"x1", 128}, {"x8", 128}, {"x8", 256}};
constexpr uint32_t kOne = 0x3C003C00u, kHalving = 0x04000400u;  // f16 1.0 twice; one exponent
constexpr uint32_t kSixteenth = 0x2C002C00u;                    // f16 1/16 twice

}  // namespace

// Launches in the order: N, then shape. The seed picks A's elements among 1, 1/2, 1/4, 1/8.
Problem makeWgmmaChain(uint64_t rounds, uint64_t seed) {
  Problem p;
  p.size = rounds;
  const uint32_t a = kOne - uint32_t(seed % 4) * kHalving;
  for (uint32_t n : kNs)
    for (const Shape& s : kShapes) {
      const uint32_t out = uint32_t(p.buffers.size());
      const std::string entry = "micro_wgmma_n" + std::to_string(n) + "_" + s.mode;
      p.buffers.push_back(
          poisonBuffer("out_n" + std::to_string(n) + "_" + s.mode + "_" + std::to_string(s.threads),
                       ElemType::F32, uint64_t(s.threads) * n / 2));
      p.launches.push_back(
          oneBlock(entry.c_str(), s.threads,
                   {KernelArg::buf(out), KernelArg::u32(a), KernelArg::u32(kSixteenth),
                    KernelArg::u32(uint32_t(rounds))}));
    }
  return p;
}

// Each wgmma adds a (16 products of a and 1/16, exact) to every accumulator element.
void referenceWgmmaChain(Problem& p) {
  const uint32_t a = scalarOf<uint32_t>(p.launches[0].args[1]);
  const int halvings = int((kOne - a) / kHalving);
  const float value = std::ldexp(float(8 * p.size), -halvings);
  for (HostBuffer& b : p.buffers)
    writeBuffer(b, std::vector<float>(b.bytes.size() / sizeof(float), value));
}

}  // namespace warpsim::kernels
