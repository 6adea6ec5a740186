// Cards of the stencil family: a 5-point stencil with a shared-memory halo against the same
// stencil read from global memory, on a width = size, height = 3*size/4 + 1 grid (ragged edge
// tiles, non-square so swapped strides show).
#include <cmath>

#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kTile = 16;
enum Buf : size_t { kIn, kOut };

struct Grid2 {
  uint32_t width, height;
};
Grid2 gridFor(uint64_t size) { return {uint32_t(size), uint32_t(size * 3 / 4 + 1)}; }

Problem makeStencil(const char* entry, uint64_t size, uint64_t seed) {
  Rng rng(seed);
  const Grid2 g = gridFor(size);
  const float c1 = rng.f32(0.1f, 0.25f);
  const float c0 = 1.0f - 4.0f * c1;  // a diffusion step: weights sum to one
  Problem p;
  p.size = size;
  p.buffers.push_back(makeBuffer(
      "in", ElemType::F32, randomFloats(rng, uint64_t(g.width) * g.height, 0.0f, 100.0f), false));
  p.buffers.push_back(poisonBuffer("out", ElemType::F32, uint64_t(g.width) * g.height));
  Launch l;
  l.entry = entry;
  l.grid = {ceilDiv(g.width, kTile), ceilDiv(g.height, kTile), 1};
  l.block = {kTile, kTile, 1};
  l.args = {KernelArg::buf(kIn),      KernelArg::buf(kOut), KernelArg::u32(g.width),
            KernelArg::u32(g.height), KernelArg::f32(c0),   KernelArg::f32(c1)};
  p.launches.push_back(std::move(l));
  return p;
}

// The PTX of both variants: fma.rn(c0, u, mul(c1, add(add(n, s), add(w, e)))).
void referenceStencil(Problem& p) {
  const Grid2 g = gridFor(p.size);
  const float c0 = scalarOf<float>(p.launches[0].args[4]);
  const float c1 = scalarOf<float>(p.launches[0].args[5]);
  const auto in = readBuffer<float>(p.buffers[kIn]);
  const auto at = [&](int64_t x, int64_t y) {
    return x < 0 || y < 0 || x >= g.width || y >= g.height ? 0.0f : in[y * g.width + x];
  };
  std::vector<float> out(in.size());
  for (int64_t y = 0; y < g.height; ++y)
    for (int64_t x = 0; x < g.width; ++x) {
      const float sum = (at(x, y - 1) + at(x, y + 1)) + (at(x - 1, y) + at(x + 1, y));
      out[y * g.width + x] = std::fmaf(c0, at(x, y), c1 * sum);
    }
  writeBuffer(p.buffers[kOut], out);
}

Problem makeShared(uint64_t n, uint64_t seed) {
  return makeStencil("stencil5_shared_f32", n, seed);
}
Problem makeNaive(uint64_t n, uint64_t seed) { return makeStencil("stencil5_naive_f32", n, seed); }

Card stencilCard(std::string name, std::string demonstrates, Problem (*mk)(uint64_t, uint64_t)) {
  return {.name = std::move(name),
          .family = "stencil",
          .source = "stencil5",
          .demonstrates = std::move(demonstrates),
          .defaultSize = 256,
          .minSize = 1,
          .maxSize = 512,
          .tolerance = bitExact(),
          .make = mk,
          .reference = referenceStencil};
}

}  // namespace

std::vector<Card> stencilCards() {
  return {
      stencilCard("stencil5_shared",
                  "2-D 5-point stencil, 18x18 shared tile with a cooperatively loaded zero halo",
                  makeShared),
      stencilCard("stencil5_naive",
                  "the same stencil with five bounds-checked global loads per point", makeNaive),
  };
}

}  // namespace warpsim::kernels
