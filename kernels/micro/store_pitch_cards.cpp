#include "kernels/micro/store_pitch_cards.h"

#include <algorithm>
#include <string>

#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/micro/launch.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

// Words between a warp's neighbouring lanes' stores: consecutive words (whole sectors), one word
// a sector in consecutive sectors, 256 bytes, and transpose_naive's output rows at 512, 2048 and
// 4096 (2, 8 and 16 KB).
constexpr uint32_t kPitches[] = {1, 8, 64, 512, 2048, 4096};
constexpr uint32_t kRounds = 4;

}  // namespace

Problem makeStorePitch(uint64_t words, uint64_t seed) {
  Rng rng(seed);
  const uint32_t base = randomU32(rng, 1, 0, 1u << 30)[0];
  Problem p;
  p.size = words;
  for (uint32_t pitch : kPitches) {
    p.buffers.push_back(poisonBuffer("dst_p" + std::to_string(pitch), ElemType::U32, words));
    Launch l =
        launch1d("micro_store_pitch", words, 256,
                 {KernelArg::buf(uint32_t(p.buffers.size() - 1)), KernelArg::u32(uint32_t(words)),
                  KernelArg::u32(pitch), KernelArg::u32(kRounds), KernelArg::u32(base)});
    l.grid.x = std::min<uint32_t>(l.grid.x, 132 * 8);  // grid-stride: at most 8 CTAs per SM
    p.launches.push_back(l);
  }
  return p;
}

// The last round's values (base + thread + round) in the matrix's words; the words past it
// keep their poison.
void referenceStorePitch(Problem& p) {
  for (const Launch& l : p.launches) {
    HostBuffer& b = p.buffers[l.args[0].buffer];
    auto dst = readBuffer<uint32_t>(b);
    const uint32_t pitch = scalarOf<uint32_t>(l.args[2]), base = scalarOf<uint32_t>(l.args[4]);
    const uint64_t rows = p.size / pitch;
    for (uint64_t t = 0; t < rows * pitch; ++t)
      dst[t % rows * pitch + t / rows] = base + uint32_t(t) + kRounds - 1;
    writeBuffer(b, dst);
  }
}

}  // namespace warpsim::kernels
