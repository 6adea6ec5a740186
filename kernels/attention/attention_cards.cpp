// The fused attention card: single head, head dimension 64, seq queries against seq keys.
#include <array>
#include <cmath>

#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kD = 64, kWarpsPerBlock = 4;
enum Buf : size_t { kQ, kK, kV, kO };

// V is drawn positive, so every output is a weighted mean of positive values: no cancellation,
// and the relative error ex2.approx leaves in the weights stays a relative error of the output.
Problem makeAttention(uint64_t seq, uint64_t seed) {
  Rng rng(seed);
  const uint64_t count = seq * kD;
  Problem p;
  p.size = seq;
  p.buffers.push_back(makeBuffer("Q", ElemType::F32, randomFloats(rng, count, -2.0f, 2.0f), false));
  p.buffers.push_back(makeBuffer("K", ElemType::F32, randomFloats(rng, count, -2.0f, 2.0f), false));
  p.buffers.push_back(makeBuffer("V", ElemType::F32, randomFloats(rng, count, 0.5f, 1.5f), false));
  p.buffers.push_back(poisonBuffer("O", ElemType::F32, count));
  Launch l;
  l.entry = "attention_fwd_f32";
  l.grid = {ceilDiv(seq, kWarpsPerBlock), 1, 1};
  l.block = {kWarpsPerBlock * kWarp, 1, 1};
  l.args = {KernelArg::buf(kQ),
            KernelArg::buf(kK),
            KernelArg::buf(kV),
            KernelArg::buf(kO),
            KernelArg::u32(uint32_t(seq)),
            KernelArg::f32(0.125f)};
  p.launches.push_back(std::move(l));
  return p;
}

// Per query row, as its warp runs it: score_j = fma chain over d, times scale; lane j%32 keeps
// the running max of its keys; xor butterflies; p_j = expf(score_j - max) (cudaExpf), summed
// per lane then by butterfly; o_c = fma chain over j of p_j * v[j][c]; o_c / l with div.rn.
void referenceAttention(Problem& p) {
  const uint64_t seq = p.size;
  const float scale = scalarOf<float>(p.launches[0].args[5]);
  const auto Q = readBuffer<float>(p.buffers[kQ]), K = readBuffer<float>(p.buffers[kK]);
  const auto V = readBuffer<float>(p.buffers[kV]);
  std::vector<float> O(Q.size()), prob(seq);
  for (uint64_t r = 0; r < seq; ++r) {
    std::array<float, kWarp> m, l;
    m.fill(-INFINITY);
    l.fill(0.0f);
    for (uint64_t j = 0; j < seq; ++j) {
      float s = 0.0f;
      for (uint32_t d = 0; d < kD; ++d) s = std::fmaf(Q[r * kD + d], K[j * kD + d], s);
      prob[j] = s * scale;
      m[j % kWarp] = std::fmax(m[j % kWarp], prob[j]);
    }
    const float rowMax = shflXorTree(m, [](float a, float b) { return std::fmax(a, b); })[0];
    for (uint64_t j = 0; j < seq; ++j) {
      prob[j] = cudaExpf(prob[j] - rowMax);
      l[j % kWarp] += prob[j];
    }
    const float sum = shflXorTree(l, [](float a, float b) { return a + b; })[0];
    for (uint32_t c = 0; c < kD; ++c) {
      float acc = 0.0f;
      for (uint64_t j = 0; j < seq; ++j) acc = std::fmaf(prob[j], V[j * kD + c], acc);
      O[r * kD + c] = acc / sum;
    }
  }
  writeBuffer(p.buffers[kO], O);
}

}  // namespace

std::vector<Card> attentionCards() {
  return {
      {.name = "attention_fwd",
       .family = "attention",
       .source = "attention_fwd",
       .demonstrates = "fused QK^T-softmax-V, warp per query, scores kept in shared memory",
       .defaultSize = 128,
       .minSize = 1,
       .maxSize = 128,
       .largestSize = 256,  // a warp's scores row in shared memory: MAX_KEYS of attention_fwd.cu
       // Bit-exact: expf's ex2.approx.ftz.f32 is the chip's (the MUFU.EX2 fit); the recorded
       // cases, which once needed 16 ulp, agree by hash (2026-12-04).
       .tolerance = bitExact(),
       .make = makeAttention,
       .reference = referenceAttention},
  };
}

}  // namespace warpsim::kernels
