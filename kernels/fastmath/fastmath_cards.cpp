// Cards of the fast-math family: kernels built the way real code is (--use_fast_math, or
// rsqrtf), whose outputs depend on the special-function unit's exact bits and on which
// multiplies ptxas fuses with the adds after them. Each reference follows the PTX nvcc 13
// emits, operation for operation, with the SFU forms as the simulator's MUFU models (proven on
// all 2^32 inputs against the H200) and ptxas's contractions as its SASS shows them: so each
// card is bit-exact, and a difference names a wrong SFU model or contraction rule.
#include <array>
#include <cmath>

#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/fastmath/ftz_ops.h"
#include "kernels/norm/row_problems.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kRows = kNormRows, kBlock = 256;
// Grid-stride kernels get at most two CTAs per SM of the H200, so that large problems loop.
constexpr uint32_t kMaxStrideBlocks = 2 * 132;

Launch strideLaunch(const char* entry, uint64_t n, std::vector<KernelArg> args) {
  Launch l = launch1d(entry, n, kBlock, std::move(args));
  l.grid.x = std::min(l.grid.x, kMaxStrideBlocks);
  return l;
}

// ---- softmax (--use_fast_math) -------------------------------------------------------------
Problem makeSoftmax(uint64_t cols, uint64_t seed) {
  return makeSoftmaxRows("softmax_fast_f32", cols, seed);
}

// max.ftz per lane and by butterfly; e = ex2.approx.ftz(mul.ftz(sub.ftz(x, max), log2e));
// add.ftz per lane and by butterfly; y = div.approx.ftz(e, sum) (MUFU.RCP and FMUL).
void referenceSoftmax(Problem& p) {
  const uint64_t cols = p.size;
  const auto x = readBuffer<float>(p.buffers[kSoftmaxX]);
  std::vector<float> y(x.size());
  const float log2e = bitsToFloat(0x3FB8AA3B);
  for (uint32_t r = 0; r < kRows; ++r) {
    const float* xr = &x[r * cols];
    float* yr = &y[r * cols];
    std::array<float, kWarp> m, s;
    for (uint32_t l = 0; l < kWarp; ++l) {
      m[l] = -INFINITY;
      for (uint64_t c = l; c < cols; c += kWarp) m[l] = ftz::max(m[l], xr[c]);
    }
    const float rowMax = shflXorTree(m, ftz::max)[0];
    for (uint32_t l = 0; l < kWarp; ++l) {
      s[l] = 0.0f;
      for (uint64_t c = l; c < cols; c += kWarp) {
        yr[c] = ftz::ex2(ftz::mul(ftz::sub(xr[c], rowMax), log2e));
        s[l] = ftz::add(s[l], yr[c]);
      }
    }
    const float sum = shflXorTree(s, ftz::add)[0];
    for (uint64_t c = 0; c < cols; ++c) yr[c] = ftz::div(yr[c], sum);
  }
  writeBuffer(p.buffers[kSoftmaxY], y);
}

// ---- GELU, tanh form (--use_fast_math) -------------------------------------------------------
Problem makeGelu(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = n;
  // [-6, 6] covers tanh's curved part and its saturation, where GELU meets 0 and x.
  p.buffers.push_back(makeBuffer("x", ElemType::F32, randomFloats(rng, n, -6.0f, 6.0f), false));
  p.buffers.push_back(poisonBuffer("y", ElemType::F32, n));
  p.launches.push_back(strideLaunch(
      "gelu_fast_f32", n, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(n))}));
  return p;
}

// inner = mul.ftz(fma.ftz(v, mul.ftz(v, mul.ftz(v, 0.044715)), v), sqrt(2/pi));
// y = mul.ftz(mul.ftz(v, 0.5), add.ftz(tanh.approx(inner), 1)).
void referenceGelu(Problem& p) {
  const auto x = readBuffer<float>(p.buffers[0]);
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float v = x[i];
    const float cubic = ftz::fma(v, ftz::mul(v, ftz::mul(v, 0.044715f)), v);
    const float inner = ftz::mul(cubic, 0.7978845608f);
    y[i] = ftz::mul(ftz::mul(v, 0.5f), ftz::add(ftz::tanh(inner), 1.0f));
  }
  writeBuffer(p.buffers[1], y);
}

// ---- layernorm with rsqrtf -------------------------------------------------------------------
Problem makeLayernorm(uint64_t cols, uint64_t seed) {
  return makeLayernormRows("layernorm_rsqrt_f32", cols, seed);
}

// inv = rcp.rn(cvt.rn(cols)); mean = sum * inv; q = fma(d, d, q) with d = x - mean;
// rstd = rsqrt.approx(fma(inv, q-sum, eps)) (nvcc fused that one itself);
// y = fma(rstd * (x - mean), gamma, beta).
void referenceLayernorm(Problem& p) {
  const uint64_t cols = p.size;
  const auto x = readBuffer<float>(p.buffers[kLayernormX]);
  const auto gamma = readBuffer<float>(p.buffers[kLayernormGamma]);
  const auto beta = readBuffer<float>(p.buffers[kLayernormBeta]);
  const float eps = scalarOf<float>(p.launches[0].args[6]);
  const float inv = 1.0f / float(cols);
  const auto add = [](float a, float b) { return a + b; };
  std::vector<float> y(x.size());
  for (uint32_t r = 0; r < kRows; ++r) {
    const float* xr = &x[r * cols];
    std::array<float, kWarp> s{}, q{};
    for (uint32_t l = 0; l < kWarp; ++l)
      for (uint64_t c = l; c < cols; c += kWarp) s[l] += xr[c];
    const float mean = shflXorTree(s, add)[0] * inv;
    for (uint32_t l = 0; l < kWarp; ++l)
      for (uint64_t c = l; c < cols; c += kWarp) {
        const float d = xr[c] - mean;
        q[l] = std::fmaf(d, d, q[l]);
      }
    const float rstd = ftz::rsqrt(std::fmaf(inv, shflXorTree(q, add)[0], eps));
    for (uint64_t c = 0; c < cols; ++c)
      y[r * cols + c] = std::fmaf(rstd * (xr[c] - mean), gamma[c], beta[c]);
  }
  writeBuffer(p.buffers[kLayernormY], y);
}

// ---- Black-Scholes (--use_fast_math) ---------------------------------------------------------
enum BlackScholesBuf : size_t { kBsCall, kBsPut, kBsPrice, kBsStrike, kBsYears };
constexpr float kRiskFree = 0.02f, kVolatility = 0.30f;

// The ranges of the CUDA samples' BlackScholes: price 5..30, strike 1..100, 0.25..10 years.
Problem makeBlackScholes(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = n;
  p.buffers.push_back(poisonBuffer("call", ElemType::F32, n));
  p.buffers.push_back(poisonBuffer("put", ElemType::F32, n));
  p.buffers.push_back(makeBuffer("price", ElemType::F32, randomFloats(rng, n, 5.0f, 30.0f), false));
  p.buffers.push_back(
      makeBuffer("strike", ElemType::F32, randomFloats(rng, n, 1.0f, 100.0f), false));
  p.buffers.push_back(
      makeBuffer("years", ElemType::F32, randomFloats(rng, n, 0.25f, 10.0f), false));
  using A = KernelArg;
  p.launches.push_back(strideLaunch(
      "black_scholes_fast_f32", n,
      {A::buf(kBsCall), A::buf(kBsPut), A::buf(kBsPrice), A::buf(kBsStrike), A::buf(kBsYears),
       A::f32(kRiskFree), A::f32(kVolatility), A::u32(uint32_t(n))}));
  return p;
}

// normalCdf as the PTX computes it: k = rcp.approx(fma(|d|, 0.2316419, 1)); the density
// ex2.approx(mul(mul(d, mul(d, -0.5)), log2e)) * rsqrt(2 pi); the polynomial by Horner in
// fma.rn.ftz; 1 - c where d > 0.
float normalCdf(float d) {
  const float k = ftz::rcp(ftz::fma(std::fabs(d), bitsToFloat(0x3E6D3389), 1.0f));
  const float density =
      ftz::mul(ftz::ex2(ftz::mul(ftz::mul(d, ftz::mul(d, -0.5f)), bitsToFloat(0x3FB8AA3B))),
               bitsToFloat(0x3ECC422A));
  float poly = ftz::fma(k, bitsToFloat(0x3FAA466F), bitsToFloat(0xBFE91EEA));  // a5, a4
  poly = ftz::fma(k, poly, bitsToFloat(0x3FE40778));                           // a3
  poly = ftz::fma(k, poly, bitsToFloat(0xBEB68F87));                           // a2
  poly = ftz::fma(k, poly, bitsToFloat(0x3EA385FA));                           // a1
  const float c = ftz::mul(density, ftz::mul(k, poly));
  return ftz::flush(d) > 0.0f ? ftz::sub(1.0f, c) : c;
}

// d1 = div.approx(fma(fma(0.5 v, v, r), T, lg2(div.approx(S, X)) * ln2), sqrt.approx(T) * v);
// the discount ex2.approx(T * r * -log2e). The PTX ends both prices in mul + sub pairs that
// ptxas contracts (FFMA with a negated addend, in its SASS): call = fma(S, N(d1), -(X e N(d2))),
// put = fma(X e, 1 - N(d2), -(S (1 - N(d1)))).
void referenceBlackScholes(Problem& p) {
  const auto price = readBuffer<float>(p.buffers[kBsPrice]);
  const auto strike = readBuffer<float>(p.buffers[kBsStrike]);
  const auto years = readBuffer<float>(p.buffers[kBsYears]);
  const float r = scalarOf<float>(p.launches[0].args[5]);
  const float v = scalarOf<float>(p.launches[0].args[6]);
  const float drift = ftz::fma(ftz::mul(v, 0.5f), v, r);
  std::vector<float> call(price.size()), put(price.size());
  for (size_t i = 0; i < price.size(); ++i) {
    const float s = price[i], x = strike[i], t = years[i];
    const float logRatio = ftz::mul(ftz::lg2(ftz::div(s, x)), bitsToFloat(0x3F317218));
    const float spread = ftz::mul(ftz::sqrt(t), v);
    const float d1 = ftz::div(ftz::fma(drift, t, logRatio), spread);
    const float d2 = ftz::sub(d1, spread);
    const float n1 = normalCdf(d1), n2 = normalCdf(d2);
    const float discount = ftz::ex2(ftz::mul(ftz::mul(t, r), bitsToFloat(0xBFB8AA3B)));
    const float strikeNow = ftz::mul(x, discount);
    call[i] = ftz::fma(s, n1, -ftz::mul(strikeNow, n2));
    put[i] = ftz::fma(strikeNow, ftz::sub(1.0f, n2), -ftz::mul(s, ftz::sub(1.0f, n1)));
  }
  writeBuffer(p.buffers[kBsCall], call);
  writeBuffer(p.buffers[kBsPut], put);
}

}  // namespace

std::vector<Card> fastmathCards() {
  return {
      {.name = "softmax_fast",
       .family = "fastmath",
       .source = "softmax_fast",
       .demonstrates = "--use_fast_math softmax: ex2.approx.ftz, div.approx.ftz, .ftz arithmetic",
       .defaultSize = 256,
       .minSize = 1,
       .maxSize = 1024,
       .tolerance = bitExact(),
       .make = makeSoftmax,
       .reference = referenceSoftmax},
      {.name = "gelu_fast",
       .family = "fastmath",
       .source = "gelu_fast",
       .demonstrates = "--use_fast_math GELU (tanh form): tanh.approx.f32 in a grid-stride loop",
       .defaultSize = 1 << 16,
       .minSize = 1,
       .maxSize = 1 << 19,
       .tolerance = bitExact(),
       .make = makeGelu,
       .reference = referenceGelu},
      {.name = "layernorm_rsqrt",
       .family = "fastmath",
       .source = "layernorm_rsqrt",
       .demonstrates = "layernorm with rsqrtf (rsqrt.approx.f32) and a reciprocal of the width",
       .defaultSize = 256,
       .minSize = 1,
       .maxSize = 2048,
       .tolerance = bitExact(),
       .make = makeLayernorm,
       .reference = referenceLayernorm},
      {.name = "black_scholes_fast",
       .family = "fastmath",
       .source = "black_scholes_fast",
       .demonstrates = "--use_fast_math option pricer: lg2/ex2/sqrt/rcp.approx, ptxas's fused ends",
       .defaultSize = 1 << 16,
       .minSize = 1,
       .maxSize = 1 << 19,
       .tolerance = bitExact(),
       .make = makeBlackScholes,
       .reference = referenceBlackScholes},
  };
}

}  // namespace warpsim::kernels
