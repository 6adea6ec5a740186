// The TMA card: a W x H f32 matrix scaled and shifted tile by tile, each 32 x 32 tile brought
// into shared memory by cp.async.bulk.tensor through a tensor map (kernels/tensor/tma_tiles.cu).
// Bit-exact: each element is one fma.rn.f32 (nvcc contracts `x * a + b`), the reference's
// std::fmaf. W is a multiple of 4 (a tensor map's row stride is a multiple of 16 bytes), H is
// not a multiple of 32 for most sizes, so the copies of the last row of tiles read past the
// matrix and fill zeros there.
#include <algorithm>
#include <cmath>

#include "isa/insns/tensor_map.h"
#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

namespace tmap = isa::insns::tmap;

enum Buf : size_t { kIn, kOut };

constexpr uint32_t kTile = 32;
constexpr float kA = 1.5f, kB = -0.25f;

struct Shape {
  uint32_t width, height;
};
Shape shapeFor(uint64_t size) {
  const uint32_t s = uint32_t(std::max<uint64_t>(size, 4));
  return {uint32_t(roundUp(s, 4)), s / 2 + 3};
}

// The tensor map over the input: rank 2, dims {W, H}, rows W * 4 bytes apart, a 32 x 32 box.
std::vector<uint8_t> inputMap(const Shape& sh) {
  tmap::TensorMap m;
  const uint64_t dims[2] = {sh.width, sh.height}, strides[1] = {uint64_t(sh.width) * 4};
  const uint32_t box[2] = {kTile, kTile}, elementStrides[2] = {1, 1};
  const std::string why = tmap::encodeTiled(m, unsigned(tmap::DataType::F32), 2, 0, dims, strides,
                                            box, elementStrides, 0, 0, 0, 0);
  if (!why.empty()) throw std::logic_error("tma_tiles: " + why);
  std::vector<uint8_t> bytes(sizeof m);
  tmap::store(m, bytes.data());
  return bytes;
}

Problem makeTiles(uint64_t size, uint64_t seed) {
  Rng rng(seed);
  const Shape sh = shapeFor(size);
  const uint64_t n = uint64_t(sh.width) * sh.height;
  Problem p;
  p.size = size;
  p.buffers.push_back(makeBuffer("in", ElemType::F32, randomFloats(rng, n, -4.0f, 4.0f), false));
  p.buffers.push_back(poisonBuffer("out", ElemType::F32, n));
  const uint32_t tiles = ceilDiv(sh.width, kTile) * ceilDiv(sh.height, kTile);
  Launch l;
  l.entry = "tma_tiles_axpb_f32";
  l.grid = {ceilDiv(tiles, 3), 1, 1};  // up to three tiles per block: the pipeline runs
  l.block = {128, 1, 1};
  l.args = {KernelArg::tensorMap(kIn, inputMap(sh)),
            KernelArg::buf(kOut),
            KernelArg::u32(sh.width),
            KernelArg::u32(sh.height),
            KernelArg::f32(kA),
            KernelArg::f32(kB)};
  p.launches.push_back(l);
  return p;
}

void referenceTiles(Problem& p) {
  const auto in = readBuffer<float>(p.buffers[kIn]);
  std::vector<float> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[i] = std::fmaf(in[i], kA, kB);
  writeBuffer(p.buffers[kOut], out);
}

}  // namespace

std::vector<Card> tmaCards() {
  return {
      {.name = "tma_tiles",
       .family = "tensor",
       .source = "tma_tiles",
       .demonstrates = "TMA: cp.async.bulk.tensor.2d of 32x32 f32 tiles through a CUtensorMap "
                       "kernel parameter, two stages each with an mbarrier (expect_tx, "
                       "try_wait.parity), zero fill past the matrix's edge",
       .defaultSize = 256,
       .minSize = 1,
       .maxSize = 1024,
       .tolerance = bitExact(),
       .make = makeTiles,
       .reference = referenceTiles},
  };
}

}  // namespace warpsim::kernels
