// Cards of the texture family: a bilinear resize through a texture object. The source image is
// one buffer holding the object's descriptor and its texels (isa/insns/texture_object.h: what
// `warpsim run --arg NAME=tex2d[...]` makes; the CUDA backend turns it into a CUDA array and a
// texture object on the GPU). The reference filters as the H200 was measured to
// (docs/FIDELITY.md, "Textures"): x - 0.5 split into texel and fraction, the fraction held in
// 9-bit fixed point (8 fractional bits, rounded half up), the weight of texel (i+1, j+1)
// a b rounded to 8 fractional bits and the others completing each row and column, the four
// weighted texels summed exactly and rounded once to f32, ties away from zero. The card
// allows 1 ulp: the chip's sum was not fitted bit for bit everywhere (docs/FIDELITY.md).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "isa/insns/texture_object.h"
#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

namespace tex = isa::tex;

enum Buf : size_t { kSrc, kDst };

struct Shape {
  uint32_t inW, inH, outW, outH;
  float scaleX, scaleY;
};

// Output size x size from a source of about 5/8 x 1/2 of it (an upscale with fractions that
// fall between the filter's weight steps).
Shape shapeFor(uint64_t size) {
  const uint32_t s = uint32_t(size < 4 ? 4 : size);
  Shape sh{std::max(2u, s * 5 / 8), std::max(2u, s / 2), s, s, 0, 0};
  sh.scaleX = float(sh.inW) / float(sh.outW);
  sh.scaleY = float(sh.inH) / float(sh.outH);
  return sh;
}

Problem makeResize(uint64_t size, uint64_t seed) {
  Rng rng(seed);
  const Shape sh = shapeFor(size);
  tex::Object o;
  o.dims = 2;
  o.width = sh.inW;
  o.height = sh.inH;
  o.channel = tex::Channel::F32;
  o.channels = 1;
  o.filter = tex::Filter::Linear;
  o.address[0] = o.address[1] = o.address[2] = tex::Address::Clamp;
  tex::packDense(o);
  std::vector<float> values(tex::kDescriptorBytes / 4);
  std::memcpy(values.data(), &o, sizeof o);
  const std::vector<float> texels = randomFloats(rng, uint64_t(sh.inW) * sh.inH, 0.0f, 1.0f);
  values.insert(values.end(), texels.begin(), texels.end());
  Problem p;
  p.size = size;
  p.buffers.push_back(makeBuffer("src", ElemType::F32, values, false));
  p.buffers.push_back(poisonBuffer("dst", ElemType::F32, uint64_t(sh.outW) * sh.outH));
  Launch l;
  l.entry = "resize_bilinear_f32";
  l.grid = {(sh.outW + 15) / 16, (sh.outH + 15) / 16, 1};
  l.block = {16, 16, 1};
  l.args = {KernelArg::buf(kSrc),    KernelArg::buf(kDst),      KernelArg::u32(sh.outW),
            KernelArg::u32(sh.outH), KernelArg::f32(sh.scaleX), KernelArg::f32(sh.scaleY)};
  p.launches.push_back(l);
  return p;
}

// The four weighted texels (each exact in a double) summed exactly and rounded once to f32 with
// ties away from zero, as the H200 rounds its filter's sum. The running double sum s is
// corrected by the exact errors of its additions (Knuth's two-sum): a tie is s on a midpoint
// between two floats with no error left.
float sumRoundedHalfAway(const double (&terms)[4]) {
  double s = 0, err = 0;
  for (double t : terms) {
    const double n = s + t, bb = n - s;
    err += (s - (n - bb)) + (t - bb);
    s = n;
  }
  const float lo = float(s), other = std::nextafter(lo, s > double(lo) ? INFINITY : -INFINITY);
  if (double(lo) == s || double(other) == s) return float(s);
  const double mid = (double(lo) + double(other)) / 2;  // exact: 25 bits
  if (s != mid) return float(s);
  const bool away = err == 0 || (err > 0) == (s > 0);
  return (std::fabs(double(lo)) > std::fabs(double(other))) == away ? lo : other;
}

void referenceResize(Problem& p) {
  const Shape sh = shapeFor(p.size);
  const auto all = readBuffer<float>(p.buffers[kSrc]);
  const float* t = all.data() + tex::kDescriptorBytes / 4;
  auto at = [&](int64_t x, int64_t y) {
    x = std::clamp<int64_t>(x, 0, sh.inW - 1);
    y = std::clamp<int64_t>(y, 0, sh.inH - 1);
    return double(t[y * sh.inW + x]);
  };
  std::vector<float> out(size_t(sh.outW) * sh.outH);
  for (uint32_t y = 0; y < sh.outH; ++y)
    for (uint32_t x = 0; x < sh.outW; ++x) {
      // The kernel's coordinates, in f32 as it computes them.
      const float u = (float(x) + 0.5f) * sh.scaleX, v = (float(y) + 0.5f) * sh.scaleY;
      const double xb = double(u) - 0.5, yb = double(v) - 0.5;
      const double fx = std::floor(xb), fy = std::floor(yb);
      const int a = int(std::floor((xb - fx) * 256 + 0.5)),
                b = int(std::floor((yb - fy) * 256 + 0.5));
      const int w11 = (a * b + 128) / 256, w10 = a - w11, w01 = b - w11, w00 = 256 - a - b + w11;
      const int64_t i = int64_t(fx), j = int64_t(fy);
      const int w[4] = {w00, w10, w01, w11};
      const double texel[4] = {at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)};
      // The block of texels: each cut toward zero to a multiple of 2^(top - 28), 2^(top - 1)
      // the leading bit of the largest weighted texel.
      double largest = 0;
      for (int k = 0; k < 4; ++k)
        if (w[k]) largest = std::max(largest, std::fabs(texel[k]));
      int top = 0;
      std::frexp(largest, &top);
      const double unit = std::ldexp(1.0, top - 28);
      double terms[4];
      for (int k = 0; k < 4; ++k) terms[k] = w[k] * (std::trunc(texel[k] / unit) * unit);
      out[size_t(y) * sh.outW + x] = sumRoundedHalfAway(terms) / 256;
    }
  writeBuffer(p.buffers[kDst], out);
}

}  // namespace

std::vector<Card> textureCards() {
  return {{.name = "resize_bilinear",
           .family = "texture",
           .source = "resize_bilinear",
           .demonstrates = "a bilinear upscale through a texture object (tex.2d, linear "
                           "filtering with 9-bit weights, clamped addressing)",
           .defaultSize = 128,
           .minSize = 4,
           .maxSize = 512,
           .make = makeResize,
           .reference = referenceResize}};
}

}  // namespace warpsim::kernels
