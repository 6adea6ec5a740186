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
constexpr size_t kSrc = 0;  // the buffer read; a launch's out follows it, in launch order

// A problem of `mib` MiB of random floats to read (buffer kSrc), its launches still to add.
Problem withSource(uint64_t mib, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = mib;
  p.buffers.push_back(makeBuffer("src", ElemType::F32,
                                 randomFloats(rng, mib * kLinesPerMib * 32, -1.0f, 1.0f), false));
  return p;
}

}  // namespace

Problem makeDramStreams(uint64_t mib, uint64_t seed) {
  Problem p = withSource(mib, seed);
  const uint64_t lines = mib * kLinesPerMib;
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

namespace {

// micro_dram_inflight: K lines in flight a warp, by 1, 2, 4 and 8 CTAs of 256 threads on each of
// 132 SMs (8 to 64 warps an SM, one wave on an H100 SXM and an H200): 135 KB to 8.4 MB in flight.
constexpr uint32_t kInflightLoads[] = {1, 2, 4, 8};
constexpr uint32_t kInflightCtasPerSm[] = {1, 2, 4, 8};
constexpr uint32_t kSms = 132;

uint32_t inflightWarps(uint32_t ctasPerSm) { return kSms * ctasPerSm * kThreads / 32; }

}  // namespace

Problem makeDramInflight(uint64_t mib, uint64_t seed) {
  Problem p = withSource(mib, seed);
  const uint64_t lines = mib * kLinesPerMib;
  for (const uint32_t ctasPerSm : kInflightCtasPerSm)
    for (const uint32_t k : kInflightLoads) {
      const uint32_t warps = inflightWarps(ctasPerSm);
      const uint32_t perWarp = uint32_t(lines / warps / k * k);  // whole trips of K lines
      const uint32_t out = uint32_t(p.buffers.size());
      p.buffers.push_back(
          poisonBuffer("out_" + std::to_string(ctasPerSm) + "ctas_" + std::to_string(k) + "loads",
                       ElemType::F32, uint64_t(warps) * 32));
      Launch l;
      l.entry = "micro_dram_inflight" + std::to_string(k);
      l.grid = {kSms * ctasPerSm, 1, 1};
      l.block = {kThreads, 1, 1};
      l.args = {KernelArg::buf(out), KernelArg::buf(kSrc), KernelArg::u32(perWarp)};
      p.launches.push_back(std::move(l));
    }
  return p;
}

void referenceDramInflight(Problem& p) {
  const auto src = readBuffer<float>(p.buffers[kSrc]);
  const uint64_t lines = src.size() / 32;
  size_t buffer = 1;
  for (const uint32_t ctasPerSm : kInflightCtasPerSm)
    for (const uint32_t k : kInflightLoads) {
      const uint64_t warps = inflightWarps(ctasPerSm), perWarp = lines / warps / k * k;
      std::vector<float> out(warps * 32);
      for (uint64_t warp = 0; warp < warps; ++warp)
        for (uint64_t lane = 0; lane < 32; ++lane) {
          // The kernel's order: K running sums, each over every K-th line, then summed.
          std::vector<float> sum(k, 0.0f);
          for (uint64_t l = 0; l < perWarp; ++l)
            sum[l % k] += src[(warp * perWarp + l) * 32 + lane];
          float total = 0.0f;
          for (const float s : sum) total += s;
          out[warp * 32 + lane] = total;
        }
      writeBuffer(p.buffers[buffer++], out);
    }
}

}  // namespace warpsim::kernels
