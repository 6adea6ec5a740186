#include "kernels/micro/mma_chains_cards.h"

#include <bit>
#include <cmath>
#include <string>

#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/micro/launch.h"

namespace warpsim::kernels {
namespace {

// A kind of mma_chains.cu: its A word with every element 1 and what lowers those elements'
// exponent by one (0: the integer kind keeps 1), its B word (every element 1/K), the accumulator's
// 32-bit words per lane and chain. A round adds A's element to every element of D (32 for the
// integer kind).
struct MmaKind {
  const char* name;
  uint64_t aOne, aHalving, b;
  uint32_t words;  // 32-bit words of D per lane and chain
  enum Acc { F32, F16x2, F64, S32 } acc;
};

constexpr MmaKind kKinds[] = {
    {"f16f32", 0x3C003C00u, 0x04000400u, 0x2C002C00u, 4, MmaKind::F32},  // 1 and 1/16 in f16
    {"f16f16", 0x3C003C00u, 0x04000400u, 0x2C002C00u, 2, MmaKind::F16x2},
    {"bf16f32", 0x3F803F80u, 0x00800080u, 0x3D803D80u, 4, MmaKind::F32},  // 1 and 1/16 in bf16
    {"tf32f32", 0x3F800000u, 0x00800000u, 0x3E000000u, 4, MmaKind::F32},  // 1 and 1/8 (k = 8)
    {"f64", 0x3FF0000000000000ull, 1ull << 52, 0x3FD0000000000000ull, 4, MmaKind::F64},
    {"s8s32", 0x01010101u, 0, 0x01010101u, 4, MmaKind::S32},  // k = 32 products of 1
    {"wmma_f16f32", 0x3C003C00u, 0x04000400u, 0x2C002C00u, 8, MmaKind::F32},
};

// The seed picks A's elements among 1, 1/2, 1/4 and 1/8: every sum stays exact.
uint32_t halvingsOf(uint64_t seed) { return uint32_t(seed % 4); }

struct Shape {
  uint32_t chains, warps;
};
constexpr Shape kShapes[] = {{1, 1}, {4, 1}, {4, 4}, {4, 16}};

// D's words after `ops` mma of a chain whose A elements are 2^-halvings.
std::vector<uint32_t> chainWords(const MmaKind& k, uint64_t ops, uint32_t halvings) {
  const double v = std::ldexp(double(ops), -int(halvings));
  std::vector<uint32_t> w(k.words);
  switch (k.acc) {
    case MmaKind::F32:
      std::fill(w.begin(), w.end(), std::bit_cast<uint32_t>(float(v)));
      break;
    case MmaKind::S32:
      std::fill(w.begin(), w.end(), uint32_t(32 * ops));
      break;
    case MmaKind::F16x2: {
      // v (at most 1024, a multiple of 1/8) is exact in f16: 2^e * (1 + m / 1024).
      const int e = std::ilogb(v);
      const uint32_t m = uint32_t(std::ldexp(v, -e) * 1024) & 0x3FF;
      const uint32_t half = uint32_t(e + 15) << 10 | m;
      std::fill(w.begin(), w.end(), half | half << 16);
      break;
    }
    case MmaKind::F64:
      for (uint32_t i = 0; i < k.words; i += 2) {
        const uint64_t bits = std::bit_cast<uint64_t>(v);
        w[i] = uint32_t(bits);
        w[i + 1] = uint32_t(bits >> 32);
      }
      break;
  }
  return w;
}

}  // namespace

// Launches in the order: kind, then shape.
Problem makeMmaChain(uint64_t rounds, uint64_t seed) {
  Problem p;
  p.size = rounds;
  for (const MmaKind& k : kKinds)
    for (const Shape& s : kShapes) {
      const uint32_t out = uint32_t(p.buffers.size());
      const std::string entry =
          std::string("micro_mma_") + k.name + (s.chains == 1 ? "_x1" : "_x4");
      p.buffers.push_back(poisonBuffer("out_" + std::string(k.name) + "_x" +
                                           std::to_string(s.chains) + "_" + std::to_string(s.warps),
                                       ElemType::U32,
                                       uint64_t(s.warps) * kWarp * s.chains * k.words));
      p.launches.push_back(
          oneBlock(entry.c_str(), s.warps * kWarp,
                   {KernelArg::buf(out), KernelArg::u64(k.aOne - halvingsOf(seed) * k.aHalving),
                    KernelArg::u64(k.b), KernelArg::u32(uint32_t(rounds))}));
    }
  return p;
}

void referenceMmaChain(Problem& p) {
  size_t i = 0;
  for (const MmaKind& k : kKinds)
    for (const Shape& s : kShapes) {
      const uint64_t a = scalarOf<uint64_t>(p.launches[i].args[1]);
      const uint32_t halvings = k.aHalving ? uint32_t((k.aOne - a) / k.aHalving) : 0;
      const std::vector<uint32_t> chain = chainWords(k, 32 * p.size, halvings);
      std::vector<uint32_t> all;
      for (uint32_t t = 0; t < s.warps * kWarp * s.chains; ++t)
        all.insert(all.end(), chain.begin(), chain.end());
      writeBuffer(p.buffers[i++], all);
    }
}

}  // namespace warpsim::kernels
