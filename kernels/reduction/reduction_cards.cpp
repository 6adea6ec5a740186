// Cards of the reduction family: four ways to sum an array, side by side. The three tree
// variants produce one sum per block and are launched again on those sums until one value is
// left (each level's buffer is compared); the atomic variant finishes in one launch.
#include <array>

#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kBlock = 256;

// Element counts per level: n, then the block sums of each level until a single value.
std::vector<uint64_t> levelCounts(uint64_t n, uint64_t perBlock) {
  std::vector<uint64_t> counts{n};
  do counts.push_back(ceilDiv(counts.back(), perBlock));
  while (counts.back() > 1);
  return counts;
}

// Buffer 0 is the input; buffer k+1 holds the block sums of level k, written by launch k.
template <class T>
Problem makeLevels(uint64_t n, const char* entry, uint64_t perBlock, ElemType type,
                   std::vector<T> input) {
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("in", type, input, false));
  const auto counts = levelCounts(n, perBlock);
  for (size_t k = 1; k < counts.size(); ++k) {
    p.buffers.push_back(poisonBuffer("level" + std::to_string(k), type, counts[k]));
    Launch l = launch1d(
        entry, counts[k] * kBlock, kBlock,
        {KernelArg::buf(k - 1), KernelArg::buf(k), KernelArg::u32(uint32_t(counts[k - 1]))});
    p.launches.push_back(std::move(l));
  }
  return p;
}

// Applies `blockSum(values, block)` level by level, as the launches do.
template <class T, class BlockSum>
void referenceLevels(Problem& p, BlockSum blockSum) {
  auto values = readBuffer<T>(p.buffers[0]);
  for (size_t k = 1; k < p.buffers.size(); ++k) {
    std::vector<T> sums(p.buffers[k].count());
    for (size_t b = 0; b < sums.size(); ++b) sums[b] = blockSum(values, b);
    writeBuffer(p.buffers[k], sums);
    values = std::move(sums);
  }
}

Problem makeInterleaved(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  return makeLevels(n, "reduce_interleaved_u32", kBlock, ElemType::U32,
                    randomU32(rng, n, 0, 1u << 20));
}

// Integer sums do not depend on the tree, so a plain sum is the reference.
void referenceInterleaved(Problem& p) {
  referenceLevels<uint32_t>(p, [](const std::vector<uint32_t>& v, size_t b) {
    uint32_t s = 0;
    for (size_t i = b * kBlock; i < std::min(v.size(), (b + 1) * kBlock); ++i) s += v[i];
    return s;
  });
}

Problem makeSequential(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  return makeLevels(n, "reduce_sequential_f32", kBlock, ElemType::F32,
                    randomFloats(rng, n, -1.0f, 1.0f));
}

// The kernel's tree: zeros pad the last block, then s[t] += s[t + stride] for stride 128 .. 1.
void referenceSequential(Problem& p) {
  referenceLevels<float>(p, [](const std::vector<float>& v, size_t b) {
    std::array<float, kBlock> s;
    for (uint32_t t = 0; t < kBlock; ++t) {
      const size_t i = b * kBlock + t;
      s[t] = i < v.size() ? v[i] : 0.0f;
    }
    for (uint32_t stride = kBlock / 2; stride > 0; stride >>= 1)
      for (uint32_t t = 0; t < stride; ++t) s[t] += s[t + stride];
    return s[0];
  });
}

Problem makeShuffle(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  return makeLevels(n, "reduce_shuffle_f32", 2 * kBlock, ElemType::F32,
                    randomFloats(rng, n, -1.0f, 1.0f));
}

// Thread t of block b adds elements b*512+t and b*512+t+256 (each only if present), then the
// shfl.down tree of each warp, then the same tree over the eight warp sums (lanes 8..31 zero).
void referenceShuffle(Problem& p) {
  referenceLevels<float>(p, [](const std::vector<float>& v, size_t b) {
    const auto add = [](float x, float y) { return x + y; };
    std::array<float, kWarp> warpSums{};
    for (uint32_t w = 0; w < kBlock / kWarp; ++w) {
      std::array<float, kWarp> lanes;
      for (uint32_t l = 0; l < kWarp; ++l) {
        const size_t i = b * 2 * kBlock + w * kWarp + l;
        float x = i < v.size() ? v[i] : 0.0f;
        if (i + kBlock < v.size()) x += v[i + kBlock];
        lanes[l] = x;
      }
      warpSums[w] = shflDownTree(lanes, add)[0];
    }
    return shflDownTree(warpSums, add)[0];
  });
}

// The total starts from a drawn value, so the kernel must add to what is there.
Problem makeAtomic(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("in", ElemType::U32, randomU32(rng, n, 0, 1u << 20), false));
  p.buffers.push_back(
      makeBuffer("total", ElemType::U32, std::vector<uint32_t>{rng.u32(1, 1u << 30)}, true));
  p.launches.push_back(
      launch1d("reduce_atomic_u32", n, kBlock,
               {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(n))}));
  return p;
}

void referenceAtomic(Problem& p) {
  auto total = readBuffer<uint32_t>(p.buffers[1]);
  for (uint32_t x : readBuffer<uint32_t>(p.buffers[0])) total[0] += x;
  writeBuffer(p.buffers[1], total);
}

Card reductionCard(std::string name, std::string demonstrates, uint64_t maxSize,
                   Problem (*make)(uint64_t, uint64_t), void (*reference)(Problem&)) {
  Card c;
  c.source = name;
  c.name = std::move(name);
  c.family = "reduction";
  c.demonstrates = std::move(demonstrates);
  c.defaultSize = 1 << 16;
  c.minSize = 1;
  c.maxSize = maxSize;
  c.make = make;
  c.reference = reference;
  return c;
}

}  // namespace

std::vector<Card> reductionCards() {
  return {
      reductionCard("reduce_interleaved",
                    "interleaved addressing: divergent tid % (2*stride) and strided bank access",
                    1 << 16, makeInterleaved, referenceInterleaved),
      reductionCard("reduce_sequential",
                    "sequential addressing: contiguous active threads, conflict-free, float tree",
                    1 << 16, makeSequential, referenceSequential),
      reductionCard("reduce_shuffle",
                    "warp-shuffle (shfl.down) tree with an add during load and one barrier",
                    1 << 17, makeShuffle, referenceShuffle),
      reductionCard("reduce_atomic",
                    "a one-launch grand total: block shuffle reduction plus one global atomicAdd",
                    1 << 17, makeAtomic, referenceAtomic),
  };
}

}  // namespace warpsim::kernels
