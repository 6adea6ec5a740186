#include "kernels/micro/dram_streams_cards.h"

#include <iterator>
#include <string>
#include <vector>

#include "kernels/buffers.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kStreamCounts[] = {1, 4, 16, 64, 256, 1024, 8192};
constexpr uint32_t kCtas = 1024, kThreads = 256, kWarps = kCtas * kThreads / 32;
constexpr uint64_t kLinesPerMib = (1u << 20) / 128;
constexpr size_t kSrc = 0;  // the buffer read; out of stream count i is buffer 1 + i

}  // namespace

Problem makeDramStreams(uint64_t mib, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = mib;
  const uint64_t lines = mib * kLinesPerMib;
  p.buffers.push_back(
      makeBuffer("src", ElemType::F32, randomFloats(rng, lines * 32, -1.0f, 1.0f), false));
  for (const uint32_t streams : kStreamCounts) {
    const uint32_t out = uint32_t(p.buffers.size());
    p.buffers.push_back(
        poisonBuffer("out_streams" + std::to_string(streams), ElemType::F32, kWarps * 32));
    Launch l;
    l.entry = "micro_dram_streams";
    l.grid = {kCtas, 1, 1};
    l.block = {kThreads, 1, 1};
    l.args = {KernelArg::buf(out), KernelArg::buf(kSrc), KernelArg::u32(uint32_t(lines)),
              KernelArg::u32(streams)};
    p.launches.push_back(std::move(l));
  }
  return p;
}

void referenceDramStreams(Problem& p) {
  const auto src = readBuffer<float>(p.buffers[kSrc]);
  const uint64_t lines = src.size() / 32;
  for (size_t s = 0; s < std::size(kStreamCounts); ++s) {
    const uint64_t streams = kStreamCounts[s], perRegion = kWarps / streams,
                   regionLines = lines / streams;
    std::vector<float> out(kWarps * 32);
    for (uint64_t warp = 0; warp < kWarps; ++warp) {
      const float* region = src.data() + warp % streams * regionLines * 32;
      for (uint64_t lane = 0; lane < 32; ++lane) {
        float sum = 0.0f;
        for (uint64_t l = warp / streams; l < regionLines; l += perRegion)
          sum += region[l * 32 + lane];
        out[warp * 32 + lane] = sum;
      }
    }
    writeBuffer(p.buffers[1 + s], out);
  }
}

}  // namespace warpsim::kernels
