// Cards of the micro family: the calibration microbenchmarks of the timing model
// (../shared/TIMING.md section 6; docs/TIMING_MODEL.md says which parameter each one measures).
// Each is checked against a CPU reference like any card; the sizes are small by default so the
// suite's tests stay fast. Measured on the H200 under ncu, they give the config its numbers.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/families.h"
#include "kernels/micro/branch_chains_cards.h"
#include "kernels/micro/call_chains_cards.h"
#include "kernels/micro/dram_streams_cards.h"
#include "kernels/micro/heap_calls_cards.h"
#include "kernels/micro/l1_lines_cards.h"
#include "kernels/micro/launch.h"
#include "kernels/micro/lds_width_cards.h"
#include "kernels/micro/mma_chains_cards.h"
#include "kernels/micro/store_pitch_cards.h"
#include "kernels/micro/tma_chains_cards.h"
#include "kernels/micro/wgmma_chains_cards.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint64_t kChainOps = 32;  // operations per round of a chain kernel (CHAIN32)

// ---- dependent ALU chains: size = rounds of 32 operations -----------------------------------
Problem makeFfma(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = iters;
  p.buffers.push_back(poisonBuffer("out", ElemType::F32, kWarp));
  p.buffers.push_back(makeBuffer("in", ElemType::F32, randomFloats(rng, kWarp, 0.0f, 1.0f), false));
  p.launches.push_back(oneBlock("micro_ffma_chain", kWarp,
                                {KernelArg::buf(0), KernelArg::buf(1), KernelArg::f32(0.5f),
                                 KernelArg::f32(0.25f), KernelArg::u32(uint32_t(iters))}));
  return p;
}

void referenceFfma(Problem& p) {
  auto x = readBuffer<float>(p.buffers[1]);
  for (float& v : x)
    for (uint64_t k = 0; k < kChainOps * p.size; ++k) v = std::fmaf(v, 0.5f, 0.25f);
  writeBuffer(p.buffers[0], x);
}

Problem makeIadd(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  const uint32_t k = rng.u32(1, 0xFFFFFFFFu);
  Problem p;
  p.size = iters;
  p.buffers.push_back(poisonBuffer("out", ElemType::U32, kWarp));
  p.buffers.push_back(makeBuffer("in", ElemType::U32, randomU32(rng, kWarp, 0, ~0u), false));
  p.launches.push_back(oneBlock(
      "micro_iadd_chain", kWarp,
      {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(k), KernelArg::u32(uint32_t(iters))}));
  return p;
}

void referenceIadd(Problem& p) {
  const uint32_t k = scalarOf<uint32_t>(p.launches[0].args[2]);
  auto x = readBuffer<uint32_t>(p.buffers[1]);
  for (uint32_t& v : x) v += uint32_t(kChainOps * p.size) * k;  // add.u32 wraps
  writeBuffer(p.buffers[0], x);
}

Problem makeDfma(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = iters;
  p.buffers.push_back(poisonBuffer("out", ElemType::F64, kWarp));
  p.buffers.push_back(makeBuffer("in", ElemType::F64, randomDoubles(rng, kWarp, 0.0, 1.0), false));
  p.launches.push_back(oneBlock("micro_dfma_chain", kWarp,
                                {KernelArg::buf(0), KernelArg::buf(1), KernelArg::f64(0.5),
                                 KernelArg::f64(0.25), KernelArg::u32(uint32_t(iters))}));
  return p;
}

void referenceDfma(Problem& p) {
  auto x = readBuffer<double>(p.buffers[1]);
  for (double& v : x)
    for (uint64_t k = 0; k < kChainOps * p.size; ++k) v = std::fma(v, 0.5, 0.25);
  writeBuffer(p.buffers[0], x);
}

Problem makeMufu(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = iters;
  p.buffers.push_back(poisonBuffer("out", ElemType::F32, kWarp));
  p.buffers.push_back(makeBuffer("in", ElemType::F32, randomFloats(rng, kWarp, 0.0f, 1.0f), false));
  p.launches.push_back(
      oneBlock("micro_mufu_chain", kWarp,
               {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(iters))}));
  return p;
}

void referenceMufu(Problem& p) {
  auto x = readBuffer<float>(p.buffers[1]);
  for (float& v : x)
    for (uint64_t k = 0; k < kChainOps * p.size; ++k) v = ex2ApproxModel(-v);
  writeBuffer(p.buffers[0], x);
}

// ---- pointer chases -------------------------------------------------------------------------
// A table of `entries` u32 whose chased entries (every `stride`-th) form one random cycle
// starting at 0; the rest hold a pattern nobody reads.
std::vector<uint32_t> chaseTable(Rng& rng, uint64_t entries, uint32_t stride) {
  std::vector<uint32_t> next(entries, 0xA5A5A5A5u);
  const uint64_t nodes = std::max<uint64_t>(1, entries / stride);
  std::vector<uint32_t> order(nodes);
  std::iota(order.begin(), order.end(), 0u);
  for (uint64_t i = nodes - 1; i > 1; --i)
    std::swap(order[i], order[1 + rng.u32(0, uint32_t(i - 1))]);
  for (uint64_t i = 0; i < nodes; ++i)
    next[uint64_t(order[i]) * stride] = order[(i + 1) % nodes] * stride;
  return next;
}

uint32_t chase(const std::vector<uint32_t>& next, uint64_t steps) {
  uint32_t i = 0;
  for (uint64_t s = 0; s < steps; ++s) i = next[i];
  return i;
}

// size = the table's bytes; one 128-byte line per node. `passes` passes over the table (the
// first cold, as ncu's --cache-control all starts, the second at the level the table fits in),
// at most `maxSteps` steps.
Problem makeChaseGlobal(uint64_t bytes, uint64_t seed, uint64_t passes, uint64_t maxSteps) {
  Rng rng(seed);
  const uint64_t entries = std::max<uint64_t>(32, bytes / 4);
  const uint64_t steps = std::min<uint64_t>(passes * (entries / 32), maxSteps);
  Problem p;
  p.size = bytes;
  p.buffers.push_back(poisonBuffer("out", ElemType::U32, 1));
  p.buffers.push_back(makeBuffer("next", ElemType::U32, chaseTable(rng, entries, 32), false));
  p.launches.push_back(
      oneBlock("micro_chase_global", 1,
               {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(steps))}));
  return p;
}

Problem makeChaseCached(uint64_t bytes, uint64_t seed) {
  return makeChaseGlobal(bytes, seed, 2, ~0ull);
}
// One partial pass: every step a first touch, so with cold caches every load comes from DRAM.
Problem makeChaseDram(uint64_t bytes, uint64_t seed) {
  return makeChaseGlobal(bytes, seed, 1, 4096);
}

// micro_chase_global's chase through cp.async: a .ca launch (4 bytes), then a .cg one (16).
Problem makeChaseAsync(uint64_t bytes, uint64_t seed) {
  Problem p = makeChaseGlobal(bytes, seed, 2, ~0ull);
  p.buffers.push_back(poisonBuffer("out_cg", ElemType::U32, 1));
  Launch& ca = p.launches[0];
  ca.entry = "micro_chase_async";
  Launch cg = ca;
  ca.args.push_back(KernelArg::u32(0));
  cg.args[0] = KernelArg::buf(2);
  cg.args.push_back(KernelArg::u32(1));
  p.launches.push_back(std::move(cg));
  return p;
}

void referenceChaseAsync(Problem& p) {
  const auto next = readBuffer<uint32_t>(p.buffers[1]);
  const uint32_t steps = scalarOf<uint32_t>(p.launches[0].args[2]);
  writeBuffer(p.buffers[0], std::vector<uint32_t>{chase(next, steps)});
  writeBuffer(p.buffers[2], std::vector<uint32_t>{chase(next, steps)});
}

void referenceChaseGlobal(Problem& p) {
  const auto next = readBuffer<uint32_t>(p.buffers[1]);
  const uint32_t steps = scalarOf<uint32_t>(p.launches[0].args[2]);
  writeBuffer(p.buffers[0], std::vector<uint32_t>{chase(next, steps)});
}

// size = table entries (4 bytes each, all chased), two passes.
Problem makeChaseShared(uint64_t entries, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = entries;
  p.buffers.push_back(poisonBuffer("out", ElemType::U32, 1));
  p.buffers.push_back(makeBuffer("next", ElemType::U32, chaseTable(rng, entries, 1), false));
  p.launches.push_back(
      oneBlock("micro_chase_shared", 256,
               {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(entries)),
                KernelArg::u32(uint32_t(2 * entries))},
               uint32_t(entries * 4)));
  return p;
}

void referenceChaseShared(Problem& p) {
  const auto next = readBuffer<uint32_t>(p.buffers[1]);
  writeBuffer(p.buffers[0], std::vector<uint32_t>{chase(next, 2 * p.size)});
}

// Lane `thread`'s final value in micro_bank_stride's chain of `iters` loads.
uint32_t strideChain(const std::vector<uint32_t>& table, uint32_t thread, uint32_t stride,
                     uint64_t iters) {
  const uint32_t base = thread * stride;
  uint32_t v = 0;
  for (uint64_t i = 0; i < iters; ++i) v = table[(base + v) & 1023] + v;
  return v + base;
}

// ---- bank conflicts: one launch per stride 1..32, size = loads per launch -------------------
constexpr uint32_t kStrides = 32;

Problem makeBankStride(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = iters;
  p.buffers.push_back(makeBuffer("table", ElemType::U32, stayingTable(rng, 1024), false));
  for (uint32_t s = 1; s <= kStrides; ++s) {
    p.buffers.push_back(poisonBuffer("out_s" + std::to_string(s), ElemType::U32, kWarp));
    p.launches.push_back(oneBlock("micro_bank_stride", kWarp,
                                  {KernelArg::buf(s), KernelArg::buf(0), KernelArg::u32(s),
                                   KernelArg::u32(uint32_t(iters))}));
  }
  return p;
}

void referenceBankStride(Problem& p) {
  const auto table = readBuffer<uint32_t>(p.buffers[0]);
  for (uint32_t s = 1; s <= kStrides; ++s) {
    std::vector<uint32_t> out(kWarp);
    for (uint32_t lane = 0; lane < kWarp; ++lane) out[lane] = strideChain(table, lane, s, p.size);
    writeBuffer(p.buffers[s], out);
  }
}

// ---- conflicted loads beside skipping warps: size = rounds ---------------------------------
// For each stride, two launches: one warp alone (as micro_bank_stride), then the same warp's
// loads in a CTA of 8 warps whose other 7 run the loop and skip the load.
constexpr uint32_t kSkipStrides[] = {1, 2, 8, 32};
constexpr uint32_t kSkipBlocks[] = {kWarp, 8 * kWarp};

Problem makeSkipConflict(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = iters;
  p.buffers.push_back(makeBuffer("table", ElemType::U32, stayingTable(rng, 1024), false));
  for (uint32_t s : kSkipStrides)
    for (uint32_t block : kSkipBlocks) {
      const uint32_t out = uint32_t(p.buffers.size());
      p.buffers.push_back(poisonBuffer("out_s" + std::to_string(s) + "_t" + std::to_string(block),
                                       ElemType::U32, block));
      p.launches.push_back(
          oneBlock("micro_skip_conflict", block,
                   {KernelArg::buf(out), KernelArg::buf(0), KernelArg::u32(s),
                    KernelArg::u32(uint32_t(iters)), KernelArg::u32(kWarp), KernelArg::u32(0)}));
    }
  return p;
}

void referenceSkipConflict(Problem& p) {
  const auto table = readBuffer<uint32_t>(p.buffers[0]);
  size_t out = 1;
  for (uint32_t s : kSkipStrides)
    for (uint32_t block : kSkipBlocks) {
      std::vector<uint32_t> v(block);
      for (uint32_t t = 0; t < block; ++t)
        v[t] = t < kWarp ? strideChain(table, t, s, p.size) : t * s;
      writeBuffer(p.buffers[out++], v);
    }
}

// ---- predicated-off loads beside a conflicted one: size = rounds --------------------------
// For each stride, one warp alone, then the same warp beside 7 warps whose load is predicated
// off.
Problem makePredConflict(uint64_t iters, uint64_t seed) {
  Problem p = makeSkipConflict(iters, seed);
  for (Launch& l : p.launches) {
    l.entry = "micro_pred_conflict";
    l.args.pop_back();  // no `zero`: the predicate is the PTX's
  }
  return p;
}

// ---- the MIO queue: size = rounds of 8 stores ----------------------------------------------
constexpr uint32_t kBurstStrides[] = {1, 32};
constexpr uint32_t kBurstWarps[] = {1, 2, 4, 8, 16, 32};

Problem makeStoreBurst(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  const uint32_t base = rng.u32(0, 1u << 30);
  Problem p;
  p.size = iters;
  for (uint32_t s : kBurstStrides)
    for (uint32_t w : kBurstWarps) {
      const uint32_t out = uint32_t(p.buffers.size());
      p.buffers.push_back(poisonBuffer("out_s" + std::to_string(s) + "_w" + std::to_string(w),
                                       ElemType::U32, w * kWarp));
      p.launches.push_back(oneBlock("micro_store_burst", w * kWarp,
                                    {KernelArg::buf(out), KernelArg::u32(s),
                                     KernelArg::u32(uint32_t(iters)), KernelArg::u32(base)}));
    }
  return p;
}

// Each thread reads its word of the last round: base plus the round's number.
void referenceStoreBurst(Problem& p) {
  const uint32_t base = scalarOf<uint32_t>(p.launches[0].args[3]);
  for (HostBuffer& b : p.buffers)
    writeBuffer(b, std::vector<uint32_t>(b.bytes.size() / 4, base + uint32_t(p.size - 1)));
}

// ---- store streams: size = words written per launch ----------------------------------------
// Launch 0 writes words 0..size-1 (whole sectors), launch 1 every 8th word of 8 x size (one
// word per sector: partial-sector writes), each a grid-stride loop of at most 8 CTAs per SM.
constexpr uint32_t kPartialStride = 8;

Problem makeStoreStride(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  const uint32_t base = rng.u32(0, 1u << 30);
  Problem p;
  p.size = n;
  p.buffers.push_back(poisonBuffer("dst", ElemType::U32, kPartialStride * n));
  for (uint32_t stride : {1u, kPartialStride}) {
    Launch l = launch1d("micro_store_stride", n, 256,
                        {KernelArg::buf(0), KernelArg::u32(uint32_t(n)), KernelArg::u32(stride),
                         KernelArg::u32(base)});
    l.grid.x = std::min<uint32_t>(l.grid.x, 132 * 8);
    p.launches.push_back(l);
  }
  return p;
}

void referenceStoreStride(Problem& p) {
  auto dst = readBuffer<uint32_t>(p.buffers[0]);
  const uint32_t base = scalarOf<uint32_t>(p.launches[0].args[3]);
  for (uint32_t stride : {1u, kPartialStride})
    for (uint64_t i = 0; i < p.size; ++i) dst[i * stride] = base + uint32_t(i);
  writeBuffer(p.buffers[0], dst);
}

// ---- bandwidth copy: size = float4 vectors --------------------------------------------------
Problem makeCopy(uint64_t n4, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = n4;
  p.buffers.push_back(poisonBuffer("dst", ElemType::F32, 4 * n4));
  p.buffers.push_back(
      makeBuffer("src", ElemType::F32, randomFloats(rng, 4 * n4, -1.0f, 1.0f), false));
  Launch l = launch1d("micro_copy", n4, 256,
                      {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(n4))});
  l.grid.x = std::min<uint32_t>(l.grid.x, 132 * 8);  // grid-stride: at most 8 CTAs per SM
  p.launches.push_back(l);
  return p;
}

void referenceCopy(Problem& p) { p.buffers[0].bytes = p.buffers[1].bytes; }

// ---- shuffle and barrier chains: size = rounds ----------------------------------------------
Problem makeShfl(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = iters;
  p.buffers.push_back(poisonBuffer("out", ElemType::U32, kWarp));
  p.buffers.push_back(makeBuffer("in", ElemType::U32, randomU32(rng, kWarp, 0, 1u << 30), false));
  p.launches.push_back(
      oneBlock("micro_shfl_chain", kWarp,
               {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(iters))}));
  return p;
}

// Round r: lane l gets lane l+1's value plus one, so after n rounds lane l holds
// in[(l + n) mod 32] + n.
void referenceShfl(Problem& p) {
  const auto in = readBuffer<uint32_t>(p.buffers[1]);
  std::vector<uint32_t> out(kWarp);
  for (uint32_t l = 0; l < kWarp; ++l) out[l] = in[(l + p.size) % kWarp] + uint32_t(p.size);
  writeBuffer(p.buffers[0], out);
}

constexpr uint32_t kBarBlock = 256;

Problem makeBar(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = iters;
  p.buffers.push_back(poisonBuffer("out", ElemType::U32, kBarBlock));
  p.buffers.push_back(
      makeBuffer("in", ElemType::U32, randomU32(rng, kBarBlock, 0, 1u << 30), false));
  p.launches.push_back(
      oneBlock("micro_bar_chain", kBarBlock,
               {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(iters))}));
  return p;
}

void referenceBar(Problem& p) {
  const auto in = readBuffer<uint32_t>(p.buffers[1]);
  std::vector<uint32_t> out(kBarBlock);
  for (uint32_t t = 0; t < kBarBlock; ++t) out[t] = in[(t + p.size) % kBarBlock] + uint32_t(p.size);
  writeBuffer(p.buffers[0], out);
}

// Barriers after conflicted stores: one launch per stride, size = rounds of a store and a
// bar.sync over 256 threads.
constexpr uint32_t kBarStoreStrides[] = {1, 2, 4, 8, 16, 32};

Problem makeBarStore(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = iters;
  p.buffers.push_back(
      makeBuffer("in", ElemType::U32, randomU32(rng, kBarBlock, 0, 1u << 30), false));
  for (uint32_t s : kBarStoreStrides) {
    const uint32_t out = uint32_t(p.buffers.size());
    p.buffers.push_back(poisonBuffer("out_s" + std::to_string(s), ElemType::U32, kBarBlock));
    p.launches.push_back(oneBlock("micro_bar_store", kBarBlock,
                                  {KernelArg::buf(out), KernelArg::buf(0), KernelArg::u32(s),
                                   KernelArg::u32(uint32_t(iters))}));
  }
  return p;
}

// Thread t reads its neighbour's word of the last round.
void referenceBarStore(Problem& p) {
  const auto in = readBuffer<uint32_t>(p.buffers[0]);
  std::vector<uint32_t> out(kBarBlock);
  for (uint32_t t = 0; t < kBarBlock; ++t) out[t] = in[(t + 1) % kBarBlock] + uint32_t(p.size - 1);
  for (size_t b = 1; b < p.buffers.size(); ++b) writeBuffer(p.buffers[b], out);
}

// ---- thread-block clusters: size = rounds (barrier) or chase steps (DSMEM) --------------------
constexpr uint32_t kClusterBlock = 128;
constexpr uint32_t kClusterSizes[] = {2, 4, 8};

Launch clusterLaunch(const char* entry, uint32_t ctas, uint32_t threads,
                     std::vector<KernelArg> args) {
  Launch l = oneBlock(entry, threads, std::move(args));
  l.grid = {ctas, 1, 1};
  l.cluster = {ctas, 1, 1};
  return l;
}

// One launch per cluster size, one cluster each.
Problem makeClusterBar(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = iters;
  p.buffers.push_back(
      makeBuffer("in", ElemType::U32, randomU32(rng, kClusterBlock, 0, ~0u), false));
  for (uint32_t k : kClusterSizes) {
    const uint32_t out = uint32_t(p.buffers.size());
    p.buffers.push_back(
        poisonBuffer("out_c" + std::to_string(k), ElemType::U32, k * kClusterBlock));
    p.launches.push_back(
        clusterLaunch("micro_cluster_bar", k, kClusterBlock,
                      {KernelArg::buf(out), KernelArg::buf(0), KernelArg::u32(uint32_t(iters))}));
  }
  return p;
}

void referenceClusterBar(Problem& p) {
  const auto in = readBuffer<uint32_t>(p.buffers[0]);
  for (size_t b = 1; b < p.buffers.size(); ++b) {
    const uint32_t ctas = kClusterSizes[b - 1];
    std::vector<uint32_t> out(size_t(ctas) * kClusterBlock);
    for (uint32_t c = 0; c < ctas; ++c)
      for (uint32_t t = 0; t < kClusterBlock; ++t) {
        uint32_t v = in[t];
        for (uint64_t i = 0; i < p.size; ++i) v = v * 3u + 1u;
        out[c * kClusterBlock + t] = v;
      }
    writeBuffer(p.buffers[b], out);
  }
}

constexpr uint32_t kDsmemEntries = 1024;

Problem makeDsmemChase(uint64_t steps, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = steps;
  p.buffers.push_back(poisonBuffer("out", ElemType::U32, 1));
  p.buffers.push_back(makeBuffer("next", ElemType::U32, chaseTable(rng, kDsmemEntries, 1), false));
  p.launches.push_back(
      clusterLaunch("micro_dsmem_chase", 2, kClusterBlock,
                    {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(kDsmemEntries),
                     KernelArg::u32(uint32_t(steps))}));
  return p;
}

void referenceDsmemChase(Problem& p) {
  const auto next = readBuffer<uint32_t>(p.buffers[1]);
  writeBuffer(p.buffers[0], std::vector<uint32_t>{chase(next, p.size)});
}

// ---- memory ordering: size = rounds, one warp per launch -------------------------------------
// Launches in this order: none, gl, release (store rounds), acquire, relaxed (load chains).
constexpr const char* kFenceKernels[] = {"micro_fence_none", "micro_fence_gl",
                                         "micro_fence_release", "micro_fence_acquire",
                                         "micro_fence_relaxed"};

Problem makeFence(uint64_t iters, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = iters;
  for (const char* k : kFenceKernels) {
    const uint32_t out = uint32_t(p.buffers.size());
    const bool chain = std::string(k).find("acquire") != std::string::npos ||
                       std::string(k).find("relaxed") != std::string::npos;
    p.buffers.push_back(poisonBuffer(std::string("out_") + (k + 12), ElemType::U32, kWarp));
    p.buffers.push_back(makeBuffer(std::string("flags_") + (k + 12), ElemType::U32,
                                   randomU32(rng, kWarp, 1, 1u << 30), !chain));
    std::vector<KernelArg> args = {KernelArg::buf(out), KernelArg::buf(out + 1)};
    if (chain) args.push_back(KernelArg::u32(0));
    args.push_back(KernelArg::u32(uint32_t(iters)));
    p.launches.push_back(oneBlock(k, kWarp, std::move(args)));
  }
  return p;
}

void referenceFence(Problem& p) {
  for (size_t k = 0; k < std::size(kFenceKernels); ++k) {
    HostBuffer& out = p.buffers[2 * k];
    HostBuffer& flags = p.buffers[2 * k + 1];
    auto f = readBuffer<uint32_t>(flags);
    std::vector<uint32_t> o(kWarp);
    const std::string name = kFenceKernels[k];
    for (uint32_t t = 0; t < kWarp; ++t) {
      if (name == "micro_fence_release") {
        uint32_t sum = 0;
        for (uint64_t i = 0; i < p.size; ++i) sum += f[t] + uint32_t(i);
        o[t] = sum;
        f[t] += uint32_t(p.size);
      } else if (name == "micro_fence_acquire" || name == "micro_fence_relaxed") {
        o[t] = p.size ? f[t] : 0;
      } else {
        o[t] = uint32_t(p.size - 1);
        f[t] += 1;
      }
    }
    writeBuffer(out, o);
    writeBuffer(flags, f);
  }
}

Card card(const char* name, const char* source, const char* demonstrates, uint64_t def, uint64_t lo,
          uint64_t hi, Problem (*make)(uint64_t, uint64_t), void (*reference)(Problem&),
          Tolerance tol = bitExact()) {
  return {.name = name,
          .family = "micro",
          .source = source,
          .demonstrates = demonstrates,
          .defaultSize = def,
          .minSize = lo,
          .maxSize = hi,
          .tolerance = std::move(tol),
          .make = make,
          .reference = reference};
}

}  // namespace

std::vector<Card> microCards() {
  return {
      card("micro_ffma_chain", "alu_chains",
           "calibration: 32 x size dependent fma.rn.f32 on one warp (FP32 latency)", 8, 1, 32,
           makeFfma, referenceFfma),
      card("micro_iadd_chain", "alu_chains",
           "calibration: 32 x size dependent add.u32 on one warp (INT latency)", 8, 1, 32, makeIadd,
           referenceIadd),
      card("micro_dfma_chain", "alu_chains",
           "calibration: 32 x size dependent fma.rn.f64 on one warp (FP64 latency)", 8, 1, 32,
           makeDfma, referenceDfma),
      card("micro_mufu_chain", "alu_chains",
           "calibration: 32 x size dependent ex2.approx on one warp (SFU latency)", 8, 1, 32,
           makeMufu, referenceMufu,
           {.maxUlp = 4,
            .why = "ex2.approx.ftz.f32: the chip is within 2 ulp of the correctly rounded 2^x "
                   "the reference uses; x -> 2^-x contracts errors (slope < 0.7)"}),
      card("micro_chase_l1", "chase",
           "calibration: one-thread pointer chase over size bytes, 128 B apart, two passes "
           "(16 KB: L1 hit latency)",
           16 << 10, 128, 64 << 10, makeChaseCached, referenceChaseGlobal),
      card("micro_chase_l2", "chase",
           "calibration: the same chase over size bytes (4 MB: L2 hit latency, past the L1)",
           4 << 20, 512 << 10, 8 << 20, makeChaseCached, referenceChaseGlobal),
      card("micro_chase_dram", "chase",
           "calibration: up to 4096 chase steps, each a line touched first, over size bytes "
           "(cold caches: DRAM latency)",
           2 << 20, 1 << 20, 8 << 20, makeChaseDram, referenceChaseGlobal),
      card("micro_chase_async", "chase",
           "calibration: the same chase by cp.async (.ca 4 bytes, then .cg 16), each step "
           "committed, waited for and read from shared memory (an asynchronous copy's latency)",
           4 << 20, 16 << 10, 8 << 20, makeChaseAsync, referenceChaseAsync),
      card("micro_chase_shared", "chase",
           "calibration: one-thread pointer chase over size shared-memory words, two passes "
           "(shared latency)",
           1024, 2, 12288, makeChaseShared, referenceChaseShared),
      card("micro_bank_stride", "bank_stride",
           "calibration: one launch per stride 1..32 words, size dependent shared loads each "
           "(bank-conflict replay cost)",
           64, 1, 256, makeBankStride, referenceBankStride),
      card("micro_skip_conflict", "bank_stride",
           "calibration: micro_bank_stride's conflicted loads (strides 1, 2, 8, 32) by one warp "
           "alone, then beside 7 warps that skip the load (size rounds)",
           64, 1, 256, makeSkipConflict, referenceSkipConflict),
      card("micro_pred_conflict", "bank_stride",
           "calibration: micro_skip_conflict with the load predicated off (inline PTX) in the "
           "7 other warps instead of branched around",
           64, 1, 256, makePredConflict, referenceSkipConflict),
      card("micro_lds_chain", "lds_width",
           "calibration: size dependent 4- and 16-byte shared loads per lane, four lane "
           "patterns, by 1 to 32 warps (a wide load's latency under load)",
           64, 1, 1024, makeLdsChain, referenceLdsChain),
      card("micro_l1_lines", "l1_lines",
           "calibration: size dependent L1-hit loads per lane, the warp's request touching 1 "
           "sector, 1, 2 and 4 lines of 4, 8 and 16 sectors, or 8, 16 and 32 lines of 32 "
           "sectors (32 twice: one bank, 32 banks), or 9 lines of 32 sectors, by 1, 4 and 32 "
           "warps of one CTA (an L1 hit's cost against its lines)",
           64, 1, 4096, makeL1Lines, referenceL1Lines),
      card("micro_lds_fma", "lds_width",
           "calibration: size rounds of sgemm_regblock's inner loop (per k two LDS.128 and 16 "
           "FFMA) by 1 to 16 warps of one CTA",
           16, 1, 256, makeLdsFma, referenceLdsFma),
      card("micro_mma_chain", "mma_chains",
           "calibration: size rounds of 32 dependent mma.sync per chain (f16 -> f32 and f16, "
           "bf16, tf32, f64, s8, and wmma m16n16k16), one chain by one warp, four by 1, 4 and "
           "16 warps (the tensor pipe's latency and throughput)",
           8, 1, 32, makeMmaChain, referenceMmaChain),
      card("micro_wgmma_chain", "wgmma_chains_sm90a",
           "calibration: size rounds of 8 wgmma.mma_async m64nNk16 (f16 -> f32) into one "
           "accumulator, N = 64, 128, 256: each waited for by one warpgroup, 8 at a time by one "
           "and by two (wgmma's latency and rate)",
           4, 1, 32, makeWgmmaChain, referenceWgmmaChain),
      card("micro_tma_chain", "tma_chains",
           "calibration: size 4 KB bulk copies into shared memory one after the other by one "
           "warp, each waited for on an mbarrier: through a tensor map (with the barrier-init "
           "fence, with prefetch.tensormap too, with neither) and as a plain cp.async.bulk (a "
           "copy's round trip, a tensor map's first use)",
           4, 1, 256, makeTmaChain, referenceTmaChain),
      card("micro_store_burst", "bank_stride",
           "calibration: size rounds of 8 independent shared stores, stride 1 and 32, by 1 to "
           "32 warps without a barrier (the MIO queue)",
           64, 1, 256, makeStoreBurst, referenceStoreBurst),
      card("micro_copy", "copy",
           "calibration: grid-stride float4 copy of size vectors (DRAM/L2 bandwidth)", 1 << 16, 1,
           1 << 18, makeCopy, referenceCopy),
      card("micro_dram_streams", "dram_streams",
           "calibration: size MiB read from device memory as 1, 4, 16, 64, 256, 1,024 and "
           "8,192 concurrent streams by 8,192 warps (a launch each: HBM's rate against its "
           "access pattern, daxpy's neighbouring lines to gemv_warp's row a warp)",
           1, 1, 4, makeDramStreams, referenceDramStreams),
      card("micro_dram_inflight", "dram_streams",
           "calibration: size MiB read from device memory by 1, 2, 4 and 8 CTAs of 256 threads "
           "an SM, each warp keeping 1, 2, 4 or 8 lines in flight (a launch each: HBM's latency "
           "against the bytes in flight, 135 KB to 8.4 MB)",
           1, 1, 4, makeDramInflight, referenceDramInflight),
      card("micro_branch_chain", "branch_chains",
           "calibration: size rounds of an if/else that stays a branch in SASS, by one warp: "
           "every lane left, all lanes one way by the round, the lanes split by parity (what a "
           "branch and a divergence cost)",
           64, 1, 1024, makeBranchChain, referenceBranchChain),
      card("micro_call_chain", "call_chains",
           "calibration: size dependent calls by one warp to a __noinline__ leaf and to a "
           "function with a stack frame (two levels), by 32 and 16 lanes, and with the lanes' "
           "depths diverging (what a call and its return cost)",
           64, 1, 1024, makeCallChain, referenceCallChain),
      card("micro_heap_calls", "heap_calls",
           "calibration: size device-side mallocs of 16 bytes a thread, then their frees, by 1 "
           "thread, 1 warp, 4 warps and 32 CTAs of 128 threads (what a malloc and a free cost, "
           "alone and contended)",
           4, 1, 16, makeHeapCalls, referenceHeapCalls),
      card("micro_heap_lanes", "heap_calls",
           "calibration: size device-side mallocs of 16 bytes, then their frees, by the first "
           "32, 31, 16, 4 and 1 lanes of every warp of 32 CTAs of 128 threads (whether a "
           "contended call costs by the lane, by the warp, or by the warp's mask)",
           4, 1, 16, makeHeapLanes, referenceHeapLanes),
      card("micro_heap_shrink", "heap_calls",
           "calibration: device-side mallocs of 16 bytes, then their frees, by 32 CTAs of 128 "
           "threads, lane l of each warp making size - size * l / 32 of them (each warp's mask "
           "shrinking from round to round, as heap_list's)",
           8, 1, 24, makeHeapShrink, referenceHeapShrink),
      card("micro_shfl_chain", "sync_chains",
           "calibration: size dependent shfl.sync on one warp (shuffle latency)", 64, 1, 512,
           makeShfl, referenceShfl),
      card("micro_bar_chain", "sync_chains",
           "calibration: size rounds of shared write + 2 bar.sync over 256 threads (barrier cost)",
           16, 1, 128, makeBar, referenceBar),
      card("micro_bar_store", "sync_chains",
           "calibration: size rounds of a store with lane stride 1..32 words and a bar.sync "
           "over 256 threads (what a conflicted store costs a barrier)",
           64, 1, 256, makeBarStore, referenceBarStore),
      card("micro_cluster_bar", "cluster_chains",
           "calibration: size rounds of cluster.sync() over one cluster of 2, 4 and 8 CTAs of "
           "128 threads (barrier.cluster's cost)",
           64, 1, 512, makeClusterBar, referenceClusterBar),
      card("micro_dsmem_chase", "cluster_chains",
           "calibration: size dependent loads by one thread through the other CTA's shared "
           "memory in a cluster of 2 (distributed shared memory latency)",
           256, 1, 4096, makeDsmemChase, referenceDsmemChase),
      card("micro_fence", "fence_chains",
           "calibration: size rounds of a store and membar.gl, or of a store and "
           "atom.add.release.gpu, or dependent ld.acquire.gpu / ld.relaxed.gpu, one warp each "
           "(what memory ordering costs)",
           64, 1, 1024, makeFence, referenceFence),
      card("micro_store_stride", "copy",
           "calibration: a grid-stride store of size words, whole sectors, then one word per "
           "32-byte sector over 8 x size words (the L2's partial-sector writes)",
           1 << 16, 1, 1 << 20, makeStoreStride, referenceStoreStride),
      card("micro_store_pitch", "store_pitch",
           "calibration: a warp's stores of one word in each of 32 rows, the rows 1, 8, 64, 512, "
           "2048 and 4096 words apart (transpose_naive's writes without its reads), four rounds "
           "over a region of size words that stays in the L2 (the L2's rate against the pitch)",
           1 << 18, 1 << 17, 1 << 18, makeStorePitch, referenceStorePitch),
  };
}

}  // namespace warpsim::kernels
