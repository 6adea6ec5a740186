// Cards of the row-normalisation family: softmax and layernorm over a 128-row matrix whose row
// length is the problem size (so rows shorter than a warp and ragged last column strides both
// occur), one warp per row.
#include <array>
#include <cmath>

#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/families.h"
#include "kernels/norm/row_problems.h"
#include "kernels/random.h"

namespace warpsim::kernels {

namespace {

constexpr uint32_t kRows = kNormRows, kWarpsPerBlock = 4;
constexpr float kEps = 1e-5f;

Launch rowLaunch(const char* entry, std::vector<KernelArg> args) {
  Launch l;
  l.entry = entry;
  l.grid = {ceilDiv(kRows, kWarpsPerBlock), 1, 1};
  l.block = {kWarpsPerBlock * kWarp, 1, 1};
  l.args = std::move(args);
  return l;
}

}  // namespace

Problem makeSoftmaxRows(const char* entry, uint64_t cols, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = cols;
  p.buffers.push_back(
      makeBuffer("x", ElemType::F32, randomFloats(rng, kRows * cols, -8.0f, 8.0f), false));
  p.buffers.push_back(poisonBuffer("y", ElemType::F32, kRows * cols));
  p.launches.push_back(rowLaunch(entry, {KernelArg::buf(kSoftmaxX), KernelArg::buf(kSoftmaxY),
                                         KernelArg::u32(kRows), KernelArg::u32(uint32_t(cols))}));
  return p;
}

// gamma in [0.5, 1] and beta in [2.5, 3.5] keep outputs away from zero: a normalised uniform
// row lies within +-sqrt(3), so y stays in about [0.7, 5.3] and a wrong step shows plainly.
Problem makeLayernormRows(const char* entry, uint64_t cols, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = cols;
  p.buffers.push_back(
      makeBuffer("x", ElemType::F32, randomFloats(rng, kRows * cols, -2.0f, 3.0f), false));
  p.buffers.push_back(
      makeBuffer("gamma", ElemType::F32, randomFloats(rng, cols, 0.5f, 1.0f), false));
  p.buffers.push_back(
      makeBuffer("beta", ElemType::F32, randomFloats(rng, cols, 2.5f, 3.5f), false));
  p.buffers.push_back(poisonBuffer("y", ElemType::F32, kRows * cols));
  using A = KernelArg;
  p.launches.push_back(
      rowLaunch(entry, {A::buf(kLayernormX), A::buf(kLayernormGamma), A::buf(kLayernormBeta),
                        A::buf(kLayernormY), A::u32(kRows), A::u32(uint32_t(cols)), A::f32(kEps)}));
  return p;
}

namespace {

// ---- softmax -----------------------------------------------------------------------------
Problem makeSoftmax(uint64_t cols, uint64_t seed) {
  return makeSoftmaxRows("softmax_row_f32", cols, seed);
}

// Lane by lane as the kernel runs: strided max and sum per lane, xor butterflies, rcp.rn,
// mul; expf as nvcc expands it (cudaExpf), with ex2.approx modelled as correctly rounded.
void referenceSoftmax(Problem& p) {
  const uint64_t cols = p.size;
  const auto x = readBuffer<float>(p.buffers[kSoftmaxX]);
  std::vector<float> y(x.size());
  for (uint32_t r = 0; r < kRows; ++r) {
    const float* xr = &x[r * cols];
    float* yr = &y[r * cols];
    std::array<float, kWarp> m, s;
    for (uint32_t l = 0; l < kWarp; ++l) {
      m[l] = -INFINITY;
      for (uint64_t c = l; c < cols; c += kWarp) m[l] = std::fmax(m[l], xr[c]);
    }
    const float rowMax = shflXorTree(m, [](float a, float b) { return std::fmax(a, b); })[0];
    for (uint32_t l = 0; l < kWarp; ++l) {
      s[l] = 0.0f;
      for (uint64_t c = l; c < cols; c += kWarp) {
        yr[c] = cudaExpf(xr[c] - rowMax);
        s[l] += yr[c];
      }
    }
    const float sum = shflXorTree(s, [](float a, float b) { return a + b; })[0];
    const float inv = 1.0f / sum;
    for (uint64_t c = 0; c < cols; ++c) yr[c] *= inv;
  }
  writeBuffer(p.buffers[kSoftmaxY], y);
}

// ---- layernorm ---------------------------------------------------------------------------
Problem makeLayernorm(uint64_t cols, uint64_t seed) {
  return makeLayernormRows("layernorm_row_f32", cols, seed);
}

// The PTX: add.f32 per lane, xor butterfly, div.rn by cvt.rn(cols); d = sub, q = fma(d, d, q);
// butterfly, div.rn; rstd = rcp.rn(sqrt.rn(var + eps)); y = fma(gamma, rstd * d, beta).
void referenceLayernorm(Problem& p) {
  const uint64_t cols = p.size;
  const auto x = readBuffer<float>(p.buffers[kLayernormX]);
  const auto gamma = readBuffer<float>(p.buffers[kLayernormGamma]);
  const auto beta = readBuffer<float>(p.buffers[kLayernormBeta]);
  const float eps = scalarOf<float>(p.launches[0].args[6]);
  const auto add = [](float a, float b) { return a + b; };
  std::vector<float> y(x.size());
  for (uint32_t r = 0; r < kRows; ++r) {
    const float* xr = &x[r * cols];
    std::array<float, kWarp> s{}, q{};
    for (uint32_t l = 0; l < kWarp; ++l)
      for (uint64_t c = l; c < cols; c += kWarp) s[l] += xr[c];
    const float mean = shflXorTree(s, add)[0] / float(cols);
    for (uint32_t l = 0; l < kWarp; ++l)
      for (uint64_t c = l; c < cols; c += kWarp) {
        const float d = xr[c] - mean;
        q[l] = std::fmaf(d, d, q[l]);
      }
    const float var = shflXorTree(q, add)[0] / float(cols);
    const float rstd = 1.0f / std::sqrt(var + eps);
    for (uint64_t c = 0; c < cols; ++c)
      y[r * cols + c] = std::fmaf(gamma[c], rstd * (xr[c] - mean), beta[c]);
  }
  writeBuffer(p.buffers[kLayernormY], y);
}

}  // namespace

std::vector<Card> normCards() {
  return {
      {.name = "softmax_row",
       .family = "norm",
       .source = "softmax_row",
       .demonstrates = "warp-per-row softmax: shfl.bfly max and sum butterflies, expf (ex2.approx)",
       .defaultSize = 256,
       .minSize = 1,
       .maxSize = 1024,
       // Bit-exact: expf's ex2.approx.ftz.f32 is the chip's (the MUFU.EX2 fit); the recorded
       // cases, which once needed 16 ulp, agree by hash (2026-12-04).
       .tolerance = bitExact(),
       .make = makeSoftmax,
       .reference = referenceSoftmax},
      {.name = "layernorm_row",
       .family = "norm",
       .source = "layernorm_row",
       .demonstrates = "warp-per-row two-pass mean/variance with shfl.bfly and IEEE sqrt.rn/rcp.rn",
       .defaultSize = 256,
       .minSize = 1,
       .maxSize = 2048,
       .tolerance = bitExact(),
       .make = makeLayernorm,
       .reference = referenceLayernorm},
  };
}

}  // namespace warpsim::kernels
