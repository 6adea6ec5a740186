// Cards of the low-precision family: half2 axpy and a bfloat162 fma with relu. References
// compute each fma exactly in double (the drawn magnitudes keep products and sums exact there)
// and round once to the format, as the fused instructions do.
#include <cmath>

#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/lowp.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kBlock = 256;

// Values with a random sign and a magnitude in [lo, hi], as format encodings.
std::vector<uint16_t> randomHalves(Rng& rng, uint64_t n, double lo, double hi) {
  std::vector<uint16_t> v(n);
  for (auto& h : v) h = toHalf(rng.signedMagnitude(lo, hi));
  return v;
}
std::vector<uint16_t> randomBf16s(Rng& rng, uint64_t n, double lo, double hi) {
  std::vector<uint16_t> v(n);
  for (auto& b : v) b = toBf16(rng.signedMagnitude(lo, hi));
  return v;
}

// ---- haxpy -------------------------------------------------------------------------------
// |alpha| in [0.5, 4] and |x|, |y| in [1/16, 2]: alpha*x has at most 22 significant bits and
// the exact sum spans well under 53 bits, so double holds a*x + y exactly.
Problem makeHaxpy(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  const float alpha = float(rng.signedMagnitude(0.5, 4.0));
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("x", ElemType::F16, randomHalves(rng, n, 1.0 / 16, 2.0), false));
  p.buffers.push_back(makeBuffer("y", ElemType::F16, randomHalves(rng, n, 1.0 / 16, 2.0), true));
  p.launches.push_back(launch1d(
      "haxpy_half2", n / 2 + 1, kBlock,
      {KernelArg::f32(alpha), KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(n))}));
  return p;
}

// cvt.rn.f16.f32 of alpha, then fma.rn.f16x2 / fma.rn.f16: one rounding of the exact value.
void referenceHaxpy(Problem& p) {
  const double a = halfToDouble(toHalf(scalarOf<float>(p.launches[0].args[0])));
  const auto x = readBuffer<uint16_t>(p.buffers[0]);
  auto y = readBuffer<uint16_t>(p.buffers[1]);
  for (size_t i = 0; i < y.size(); ++i)
    y[i] = toHalf(std::fma(a, halfToDouble(x[i]), halfToDouble(y[i])));
  writeBuffer(p.buffers[1], y);
}

// ---- bf16 fma relu -----------------------------------------------------------------------
enum BfBuf : size_t { kX, kW, kB, kOut };

// |x|, |w| in [1/4, 4] and |b| in [1/2, 8]: products of 16 bits and sums within about 24 bits,
// exact in double. Random signs make about half of the results negative, so relu bites.
Problem makeBf16(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("x", ElemType::BF16, randomBf16s(rng, n, 0.25, 4.0), false));
  p.buffers.push_back(makeBuffer("w", ElemType::BF16, randomBf16s(rng, n, 0.25, 4.0), false));
  p.buffers.push_back(makeBuffer("b", ElemType::BF16, randomBf16s(rng, n, 0.5, 8.0), false));
  p.buffers.push_back(poisonBuffer("out", ElemType::BF16, n));
  p.launches.push_back(launch1d("bf16_fma_relu", n / 2 + 1, kBlock,
                                {KernelArg::buf(kX), KernelArg::buf(kW), KernelArg::buf(kB),
                                 KernelArg::buf(kOut), KernelArg::u32(uint32_t(n))}));
  return p;
}

// fma.rn.relu.bf16(x2): round the exact x*w + b once, then a negative result becomes +0. An
// exact cancellation gives +0 under round-to-nearest, and no input is zero, so -0 never occurs.
void referenceBf16(Problem& p) {
  const auto x = readBuffer<uint16_t>(p.buffers[kX]), w = readBuffer<uint16_t>(p.buffers[kW]);
  const auto b = readBuffer<uint16_t>(p.buffers[kB]);
  std::vector<uint16_t> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const uint16_t r = toBf16(std::fma(bf16ToDouble(x[i]), bf16ToDouble(w[i]), bf16ToDouble(b[i])));
    out[i] = (r & 0x8000) ? uint16_t(0) : r;
  }
  writeBuffer(p.buffers[kOut], out);
}

}  // namespace

std::vector<Card> lowpCards() {
  return {
      {.name = "haxpy_half2",
       .family = "lowp",
       .source = "haxpy_half2",
       .demonstrates = "packed fp16 arithmetic: fma.rn.f16x2 on half2 pairs, scalar f16 tail",
       .defaultSize = 1 << 16,
       .minSize = 1,
       .maxSize = 1 << 19,
       .tolerance = bitExact(),
       .make = makeHaxpy,
       .reference = referenceHaxpy},
      {.name = "bf16_fma_relu",
       .family = "lowp",
       .source = "bf16_fma_relu",
       .demonstrates = "packed bf16 arithmetic: fma.rn.relu.bf16x2 (fused relu), scalar tail",
       .defaultSize = 1 << 16,
       .minSize = 1,
       .maxSize = 1 << 19,
       .tolerance = bitExact(),
       .make = makeBf16,
       .reference = referenceBf16},
  };
}

}  // namespace warpsim::kernels
