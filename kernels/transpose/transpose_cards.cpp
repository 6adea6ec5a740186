// Cards of the transpose family: naive, shared-tiled and padded-tiled, on a non-square matrix
// (width = size, height = 3*size/4 + 1) so that swapped indices or dimensions show, and with
// partial edge tiles for most sizes.
#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kTile = 32, kRows = 8;

struct Shape {
  uint32_t width, height;
};
Shape shapeFor(uint64_t size) { return {uint32_t(size), uint32_t(size * 3 / 4 + 1)}; }

Problem makeTranspose(const char* entry, uint64_t size, uint64_t seed) {
  Rng rng(seed);
  const Shape s = shapeFor(size);
  const uint64_t count = uint64_t(s.width) * s.height;
  Problem p;
  p.size = size;
  p.buffers.push_back(
      makeBuffer("in", ElemType::F32, randomFloats(rng, count, -1e3f, 1e3f), false));
  p.buffers.push_back(poisonBuffer("out", ElemType::F32, count));
  Launch l;
  l.entry = entry;
  l.grid = {ceilDiv(s.width, kTile), ceilDiv(s.height, kTile), 1};
  l.block = {kTile, kRows, 1};
  l.args = {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(s.width),
            KernelArg::u32(s.height)};
  p.launches.push_back(std::move(l));
  return p;
}

void referenceTranspose(Problem& p) {
  const Shape s = shapeFor(p.size);
  const auto in = readBuffer<float>(p.buffers[0]);
  std::vector<float> out(in.size());
  for (uint32_t y = 0; y < s.height; ++y)
    for (uint32_t x = 0; x < s.width; ++x)
      out[size_t(x) * s.height + y] = in[size_t(y) * s.width + x];
  writeBuffer(p.buffers[1], out);
}

Problem makeNaive(uint64_t n, uint64_t seed) {
  return makeTranspose("transpose_naive_f32", n, seed);
}
Problem makeTiled(uint64_t n, uint64_t seed) {
  return makeTranspose("transpose_tiled_f32", n, seed);
}
Problem makePadded(uint64_t n, uint64_t seed) {
  return makeTranspose("transpose_padded_f32", n, seed);
}

Card transposeCard(std::string name, std::string demonstrates, Problem (*mk)(uint64_t, uint64_t)) {
  return {.name = name,
          .family = "transpose",
          .source = name,
          .demonstrates = std::move(demonstrates),
          .defaultSize = 512,
          .minSize = 1,
          .maxSize = 1024,
          .tolerance = bitExact(),
          .make = mk,
          .reference = referenceTranspose};
}

}  // namespace

std::vector<Card> transposeCards() {
  return {
      transposeCard("transpose_naive", "coalesced reads, strided uncoalesced writes (2-D grid)",
                    makeNaive),
      transposeCard("transpose_tiled",
                    "shared-memory tile: coalesced both ways, 32-way bank conflicts on reads",
                    makeTiled),
      transposeCard("transpose_padded", "tile[32][33]: the padding column removes the conflicts",
                    makePadded),
  };
}

}  // namespace warpsim::kernels
