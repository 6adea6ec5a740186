#include "kernels/micro/tma_chains_cards.h"

#include <iterator>
#include <stdexcept>
#include <string>

#include "isa/insns/tensor_map.h"
#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/micro/launch.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

namespace tmap = isa::insns::tmap;

constexpr uint32_t kTile = 32, kTiles = 8;  // tma_chains.cu's TILE and TILES
enum Flags : uint32_t { kPrefetch = 1, kFence = 2 };

struct Variant {
  const char* entry;
  uint32_t flags;
  bool tensor;  // through the tensor map (else a plain bulk copy of 4 contiguous KB)
};
constexpr Variant kVariants[] = {{"micro_tma_tensor", kFence, true},
                                 {"micro_tma_tensor", kPrefetch | kFence, true},
                                 {"micro_tma_tensor", 0, true},
                                 {"micro_tma_bulk", kFence, false}};

// The tensor map sees the input as kTiles tiles side by side: dims {32 * kTiles, 32}.
std::vector<uint8_t> inputMap() {
  tmap::TensorMap m;
  const uint64_t dims[2] = {kTile * kTiles, kTile}, strides[1] = {uint64_t(kTile) * kTiles * 4};
  const uint32_t box[2] = {kTile, kTile}, elementStrides[2] = {1, 1};
  const std::string why = tmap::encodeTiled(m, unsigned(tmap::DataType::F32), 2, 0, dims, strides,
                                            box, elementStrides, 0, 0, 0, 0);
  if (!why.empty()) throw std::logic_error("micro_tma_chain: " + why);
  std::vector<uint8_t> bytes(sizeof m);
  tmap::store(m, bytes.data());
  return bytes;
}

// The input element that lane `lane` reads in round r: row 0 of the r-th tile of the tensor
// map's view, or the r-th 4 KB chunk's first row.
size_t elementOf(const Variant& v, uint64_t r, uint32_t lane) {
  const size_t t = r % kTiles;
  return v.tensor ? t * kTile + lane : t * kTile * kTile + lane;
}

}  // namespace

Problem makeTmaChain(uint64_t rounds, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = rounds;
  p.buffers.push_back(makeBuffer("in", ElemType::F32,
                                 randomFloats(rng, kTile * kTile * kTiles, -4.0f, 4.0f), false));
  for (const Variant& v : kVariants) {
    const size_t out = p.buffers.size();
    p.buffers.push_back(poisonBuffer("out" + std::to_string(out - 1), ElemType::F32, kWarp));
    p.launches.push_back(
        oneBlock(v.entry, kWarp,
                 {v.tensor ? KernelArg::tensorMap(0, inputMap()) : KernelArg::buf(0),
                  KernelArg::buf(out), KernelArg::u32(uint32_t(rounds)), KernelArg::u32(v.flags)}));
  }
  return p;
}

// Each lane's sum in round order, as the kernel adds.
void referenceTmaChain(Problem& p) {
  const auto in = readBuffer<float>(p.buffers[0]);
  for (size_t i = 0; i < std::size(kVariants); ++i) {
    std::vector<float> sums(kWarp, 0.0f);
    for (uint64_t r = 0; r < p.size; ++r)
      for (uint32_t lane = 0; lane < kWarp; ++lane)
        sums[lane] += in[elementOf(kVariants[i], r, lane)];
    writeBuffer(p.buffers[i + 1], sums);
  }
}

}  // namespace warpsim::kernels
