// Cards of the histogram family: 256 bins of bytes, global atomics against block-privatised
// shared atomics. Integer counts are independent of the order the atomics land in.
#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kBins = 256, kBlock = 256, kSharedBlocks = 32;
enum Buf : size_t { kIn, kBinsBuf };

// Half the bytes are uniform, half fall in eight hot bins, so warps often have many lanes on
// one address (the case atomics must serialise). The bins start from drawn counts, so the
// kernel must add to what is there.
Problem makeHistogram(uint64_t n, uint64_t seed, const char* entry, uint32_t blocks) {
  Rng rng(seed);
  std::vector<uint8_t> in(n);
  for (auto& b : in) b = uint8_t(rng.u32(0, 1) ? rng.u32(0, 255) : 16 * rng.u32(0, 7) + 3);
  std::vector<uint32_t> bins = randomU32(rng, kBins, 0, 1000);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("in", ElemType::U8, in, false));
  p.buffers.push_back(makeBuffer("bins", ElemType::U32, bins, true));
  Launch l;
  l.entry = entry;
  l.grid = {blocks, 1, 1};
  l.block = {kBlock, 1, 1};
  l.args = {KernelArg::buf(kIn), KernelArg::buf(kBinsBuf), KernelArg::u32(uint32_t(n))};
  p.launches.push_back(std::move(l));
  return p;
}

Problem makeGlobal(uint64_t n, uint64_t seed) {
  return makeHistogram(n, seed, "histogram_global_u8", ceilDiv(n, kBlock));
}
// A fixed grid with a grid-stride loop: privatisation pays when each block sees many elements.
Problem makeShared(uint64_t n, uint64_t seed) {
  const uint32_t blocks = std::min<uint32_t>(kSharedBlocks, ceilDiv(n, kBlock));
  return makeHistogram(n, seed, "histogram_shared_u8", blocks);
}

void referenceHistogram(Problem& p) {
  auto bins = readBuffer<uint32_t>(p.buffers[kBinsBuf]);
  for (uint8_t b : readBuffer<uint8_t>(p.buffers[kIn])) ++bins[b];
  writeBuffer(p.buffers[kBinsBuf], bins);
}

Card histogramCard(std::string name, std::string demonstrates, Problem (*mk)(uint64_t, uint64_t)) {
  return {.name = name,
          .family = "histogram",
          .source = name,
          .demonstrates = std::move(demonstrates),
          .defaultSize = 1 << 16,
          .minSize = 1,
          .maxSize = 1 << 18,
          .tolerance = bitExact(),
          .make = mk,
          .reference = referenceHistogram};
}

}  // namespace

std::vector<Card> histogramCards() {
  return {
      histogramCard("histogram_global", "one global atomicAdd per element, hot-bin contention",
                    makeGlobal),
      histogramCard("histogram_shared",
                    "per-block shared-memory histogram (shared atomics) merged with global atomics",
                    makeShared),
  };
}

}  // namespace warpsim::kernels
