// Cards of the cluster family: a cluster reduction over distributed shared memory and a
// cooperative grid-sync reduction (sim/func/group.h runs both), each against a CPU reference
// that adds in the kernel's order, so the sums are bit-exact.
#include <algorithm>

#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kBlock = 256;

// The tree of `for (s = 128; s > 0; s >>= 1) if (t < s) v[t] += v[t + s];`: v[0].
float treeSum(std::vector<float> v) {
  for (size_t s = v.size() / 2; s > 0; s >>= 1)
    for (size_t t = 0; t < s; ++t) v[t] = v[t] + v[t + s];
  return v[0];
}

// ---- cluster_reduce ------------------------------------------------------------------------
constexpr uint32_t kClusterCtas = 4, kPerThread = 8;
enum ClusterBuf : size_t { kCIn, kClusterSums, kCtaTotals };

uint32_t clusterGrid(uint64_t n) {
  return uint32_t(roundUp(ceilDiv(n == 0 ? 1 : n, kBlock * kPerThread), kClusterCtas));
}

Problem makeClusterReduce(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  const uint32_t ctas = clusterGrid(n);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("in", ElemType::F32, randomFloats(rng, n, -1.0f, 1.0f), false));
  p.buffers.push_back(poisonBuffer("clusterSums", ElemType::F32, ctas / kClusterCtas));
  p.buffers.push_back(poisonBuffer("ctaTotals", ElemType::F32, ctas));
  Launch l;
  l.entry = "cluster_reduce_f32";
  l.grid = {ctas, 1, 1};
  l.block = {kBlock, 1, 1};
  l.cluster = {kClusterCtas, 1, 1};
  l.args = {KernelArg::buf(kCIn), KernelArg::buf(kClusterSums), KernelArg::buf(kCtaTotals),
            KernelArg::u32(uint32_t(n))};
  p.launches.push_back(l);
  return p;
}

void referenceClusterReduce(Problem& p) {
  const auto in = readBuffer<float>(p.buffers[kCIn]);
  const uint32_t ctas = clusterGrid(p.size);
  std::vector<float> partial(ctas);
  for (uint32_t b = 0; b < ctas; ++b) {
    std::vector<float> part(kBlock);
    for (uint32_t t = 0; t < kBlock; ++t) {
      float acc = 0.0f;
      for (uint32_t k = 0; k < kPerThread; ++k) {
        const uint64_t i = uint64_t(b) * kBlock * kPerThread + k * kBlock + t;
        if (i < in.size()) acc += in[i];
      }
      part[t] = acc;
    }
    partial[b] = treeSum(part);
  }
  std::vector<float> sums(ctas / kClusterCtas), totals(ctas);
  for (uint32_t c = 0; c < sums.size(); ++c) {
    float t = 0.0f;
    for (uint32_t r = 0; r < kClusterCtas; ++r) t += partial[c * kClusterCtas + r];
    sums[c] = t;
    for (uint32_t r = 0; r < kClusterCtas; ++r) totals[c * kClusterCtas + r] = t;
  }
  writeBuffer(p.buffers[kClusterSums], sums);
  writeBuffer(p.buffers[kCtaTotals], totals);
}

// ---- grid_sync_reduce ----------------------------------------------------------------------
// Two CTAs per SM at most: the grid fits the H200 at once, as a cooperative launch must.
constexpr uint32_t kMaxGridCtas = 2 * 132;
enum GridBuf : size_t { kGIn, kPartials, kNeighbours, kOut };

uint32_t gridCtas(uint64_t n) { return std::clamp<uint32_t>(ceilDiv(n, kBlock), 1, kMaxGridCtas); }

Problem makeGridSyncReduce(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  const uint32_t ctas = gridCtas(n);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("in", ElemType::F32, randomFloats(rng, n, -1.0f, 1.0f), false));
  p.buffers.push_back(poisonBuffer("partials", ElemType::F32, ctas));
  p.buffers.push_back(poisonBuffer("neighbours", ElemType::F32, ctas));
  p.buffers.push_back(poisonBuffer("out", ElemType::F32, 1));
  Launch l;
  l.entry = "grid_sync_reduce_f32";
  l.grid = {ctas, 1, 1};
  l.block = {kBlock, 1, 1};
  l.cooperative = true;
  l.args = {KernelArg::buf(kGIn), KernelArg::buf(kPartials), KernelArg::buf(kNeighbours),
            KernelArg::buf(kOut), KernelArg::u32(uint32_t(n))};
  p.launches.push_back(l);
  return p;
}

void referenceGridSyncReduce(Problem& p) {
  const auto in = readBuffer<float>(p.buffers[kGIn]);
  const uint32_t ctas = gridCtas(p.size);
  std::vector<float> partials(ctas), neighbours(ctas);
  for (uint32_t b = 0; b < ctas; ++b) {
    std::vector<float> s(kBlock);
    for (uint32_t t = 0; t < kBlock; ++t) {
      float acc = 0.0f;
      for (uint64_t i = uint64_t(b) * kBlock + t; i < in.size(); i += uint64_t(ctas) * kBlock)
        acc += in[i];
      s[t] = acc;
    }
    partials[b] = treeSum(s);
  }
  for (uint32_t b = 0; b < ctas; ++b) neighbours[b] = partials[(b + 1) % ctas];
  std::vector<float> s(kBlock);
  for (uint32_t t = 0; t < kBlock; ++t) {
    float a = 0.0f;
    for (uint32_t b = t; b < ctas; b += kBlock) a += partials[b];
    s[t] = a;
  }
  writeBuffer(p.buffers[kPartials], partials);
  writeBuffer(p.buffers[kNeighbours], neighbours);
  writeBuffer(p.buffers[kOut], std::vector<float>{treeSum(s)});
}

}  // namespace

std::vector<Card> clusterCards() {
  return {
      {.name = "cluster_reduce",
       .family = "cluster",
       .source = "cluster_reduce",
       .demonstrates = "cluster of 4 CTAs: distributed shared memory (mapa) and cluster.sync()",
       .defaultSize = 1 << 16,
       .minSize = 1,
       .maxSize = 1 << 18,
       .tolerance = bitExact(),
       .make = makeClusterReduce,
       .reference = referenceClusterReduce},
      {.name = "grid_sync_reduce",
       .family = "cluster",
       .source = "grid_sync_reduce",
       .demonstrates = "cooperative launch: two phases split by cg::this_grid().sync()",
       .defaultSize = 1 << 16,
       .minSize = 1,
       .maxSize = 1 << 18,
       .tolerance = bitExact(),
       .make = makeGridSyncReduce,
       .reference = referenceGridSyncReduce},
  };
}

}  // namespace warpsim::kernels
