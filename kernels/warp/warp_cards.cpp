// Cards of the warp-primitive family: ballot/popc stream compaction, a warp-per-row gemv, and a
// block sum written for any warp size (warpSize, PTX WARP_SZ).
#include <array>
#include <cmath>

#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

// ---- compact -----------------------------------------------------------------------------
constexpr uint32_t kCompactBlock = 256, kScanBlock = 1024;
enum CompactBuf : size_t { kIn, kCounts, kOffsets, kTotal, kOut };

Launch blocksLaunch(const char* entry, uint32_t blocks, uint32_t threads,
                    std::vector<KernelArg> args) {
  Launch l;
  l.entry = entry;
  l.grid = {blocks, 1, 1};
  l.block = {threads, 1, 1};
  l.args = std::move(args);
  return l;
}

// The threshold keeps 30% to 70% of the values; out starts poisoned and keeps its poison past
// the survivors. The counts' scan is one block, so at most 1024 blocks (n <= 262144).
Problem makeCompact(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  const uint32_t threshold = rng.u32(uint32_t(0.3 * 4294967296.0), uint32_t(0.7 * 4294967296.0));
  const uint32_t blocks = ceilDiv(n, kCompactBlock);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("in", ElemType::U32, randomU32(rng, n, 0, ~0u), false));
  p.buffers.push_back(poisonBuffer("blockCounts", ElemType::U32, blocks));
  p.buffers.push_back(poisonBuffer("blockOffsets", ElemType::U32, blocks));
  p.buffers.push_back(poisonBuffer("total", ElemType::U32, 1));
  p.buffers.push_back(poisonBuffer("out", ElemType::U32, n));
  using A = KernelArg;
  const A nArg = A::u32(uint32_t(n)), tArg = A::u32(threshold);
  p.launches.push_back(blocksLaunch("compact_count_u32", blocks, kCompactBlock,
                                    {A::buf(kIn), A::buf(kCounts), nArg, tArg}));
  p.launches.push_back(
      blocksLaunch("compact_scan_counts_u32", 1, kScanBlock,
                   {A::buf(kCounts), A::buf(kOffsets), A::buf(kTotal), A::u32(blocks)}));
  p.launches.push_back(blocksLaunch("compact_scatter_u32", blocks, kCompactBlock,
                                    {A::buf(kIn), A::buf(kOffsets), A::buf(kOut), nArg, tArg}));
  return p;
}

void referenceCompact(Problem& p) {
  const uint32_t threshold = scalarOf<uint32_t>(p.launches[0].args[3]);
  const auto in = readBuffer<uint32_t>(p.buffers[kIn]);
  std::vector<uint32_t> counts(p.buffers[kCounts].count(), 0), offsets(counts.size());
  auto out = readBuffer<uint32_t>(p.buffers[kOut]);
  uint32_t total = 0;
  for (size_t i = 0; i < in.size(); ++i)
    if (in[i] < threshold) {
      ++counts[i / kCompactBlock];
      out[total++] = in[i];
    }
  for (size_t b = 0, sum = 0; b < counts.size(); sum += counts[b], ++b) offsets[b] = uint32_t(sum);
  writeBuffer(p.buffers[kCounts], counts);
  writeBuffer(p.buffers[kOffsets], offsets);
  writeBuffer(p.buffers[kTotal], std::vector<uint32_t>{total});
  writeBuffer(p.buffers[kOut], out);
}

// ---- gemv --------------------------------------------------------------------------------
constexpr uint32_t kGemvWarps = 8;
enum GemvBuf : size_t { kA, kX, kY };

struct GemvShape {
  uint32_t rows, cols;
};
// cols = 2*rows + 5: the lanes' column strides end raggedly.
GemvShape gemvShape(uint64_t size) { return {uint32_t(size), uint32_t(2 * size + 5)}; }

Problem makeGemv(uint64_t size, uint64_t seed) {
  Rng rng(seed);
  const GemvShape s = gemvShape(size);
  Problem p;
  p.size = size;
  p.buffers.push_back(makeBuffer("A", ElemType::F32,
                                 randomFloats(rng, uint64_t(s.rows) * s.cols, -1.0f, 1.0f), false));
  p.buffers.push_back(
      makeBuffer("x", ElemType::F32, randomFloats(rng, s.cols, -1.0f, 1.0f), false));
  p.buffers.push_back(poisonBuffer("y", ElemType::F32, s.rows));
  p.launches.push_back(blocksLaunch("gemv_warp_f32", ceilDiv(s.rows, kGemvWarps),
                                    kGemvWarps * kWarp,
                                    {KernelArg::buf(kA), KernelArg::buf(kX), KernelArg::buf(kY),
                                     KernelArg::u32(s.rows), KernelArg::u32(s.cols)}));
  return p;
}

// Lane l: acc = fma(A[r][c], x[c], acc) over c = l, l+32, ...; then the shfl.down tree.
void referenceGemv(Problem& p) {
  const GemvShape s = gemvShape(p.size);
  const auto A = readBuffer<float>(p.buffers[kA]), x = readBuffer<float>(p.buffers[kX]);
  std::vector<float> y(s.rows);
  for (uint32_t r = 0; r < s.rows; ++r) {
    std::array<float, kWarp> acc{};
    for (uint32_t l = 0; l < kWarp; ++l)
      for (uint32_t c = l; c < s.cols; c += kWarp)
        acc[l] = std::fmaf(A[size_t(r) * s.cols + c], x[c], acc[l]);
    y[r] = shflDownTree(acc, [](float a, float b) { return a + b; })[0];
  }
  writeBuffer(p.buffers[kY], y);
}

// ---- reduce_warpsize ----------------------------------------------------------------------
constexpr uint32_t kWarpsizeBlock = 256;
enum WarpsizeBuf : size_t { kWsIn, kWsSums };

Problem makeWarpsize(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  const uint32_t blocks = ceilDiv(n, kWarpsizeBlock);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("in", ElemType::U32, randomU32(rng, n, 0, ~0u), false));
  p.buffers.push_back(poisonBuffer("blockSums", ElemType::U32, blocks));
  p.launches.push_back(
      blocksLaunch("reduce_warpsize_u32", blocks, kWarpsizeBlock,
                   {KernelArg::buf(kWsIn), KernelArg::buf(kWsSums), KernelArg::u32(uint32_t(n))}));
  return p;
}

void referenceWarpsize(Problem& p) {
  const auto in = readBuffer<uint32_t>(p.buffers[kWsIn]);
  std::vector<uint32_t> sums(p.buffers[kWsSums].count(), 0);
  for (size_t i = 0; i < in.size(); ++i) sums[i / kWarpsizeBlock] += in[i];
  writeBuffer(p.buffers[kWsSums], sums);
}

}  // namespace

std::vector<Card> warpCards() {
  return {
      {.name = "compact_ballot",
       .family = "warp",
       .source = "compact",
       .demonstrates = "order-preserving stream compaction: ballot, popc, %lanemask_lt, 3 launches",
       .defaultSize = 1 << 16,
       .minSize = 1,
       .maxSize = 1 << 17,
       // compact_scan_counts_u32 scans the block counts in one block of 1,024 threads: 1,024
       // blocks of 256 elements at most (SCAN_BLOCK and BLOCK of compact.cu).
       .largestSize = 1 << 18,
       .tolerance = bitExact(),
       .make = makeCompact,
       .reference = referenceCompact},
      {.name = "gemv_warp",
       .family = "warp",
       .source = "gemv_warp",
       .demonstrates = "matrix-vector product, warp per row, lane-strided fma and shfl.down sum",
       .defaultSize = 512,
       .minSize = 1,
       .maxSize = 768,
       .tolerance = bitExact(),
       .make = makeGemv,
       .reference = referenceGemv},
      {.name = "reduce_warpsize",
       .family = "warp",
       .source = "reduce_warpsize",
       .demonstrates = "block sum written for any warp size: warpSize is PTX's WARP_SZ",
       .defaultSize = 1 << 16,
       .minSize = 1,
       .maxSize = 1 << 18,
       .tolerance = bitExact(),
       .make = makeWarpsize,
       .reference = referenceWarpsize},
  };
}

}  // namespace warpsim::kernels
