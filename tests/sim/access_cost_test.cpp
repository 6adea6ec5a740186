#include "sim/observers/access_cost.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace warpsim::sim {
namespace {

void fill(uint64_t* a, uint64_t (*f)(unsigned)) {
  for (unsigned l = 0; l < 32; ++l) a[l] = f(l);
}

TEST(SharedAccessCost, ConsecutiveWordsAreConflictFree) {
  uint64_t a[32];
  fill(a, [](unsigned l) { return uint64_t(l) * 4; });
  const SharedCost c = sharedAccessCost(a, ~0u, 4);
  EXPECT_EQ(c.wavefronts, 1u);
  EXPECT_EQ(c.ideal, 1u);
}

TEST(SharedAccessCost, OneAddressIsABroadcast) {
  uint64_t a[32];
  fill(a, [](unsigned) { return uint64_t(128); });
  EXPECT_EQ(sharedAccessCost(a, ~0u, 4).wavefronts, 1u);
}

TEST(SharedAccessCost, StrideOf32WordsIs32WayConflict) {
  uint64_t a[32];
  fill(a, [](unsigned l) { return uint64_t(l) * 128; });  // every lane in bank 0
  EXPECT_EQ(sharedAccessCost(a, ~0u, 4).wavefronts, 32u);
  fill(a, [](unsigned l) { return uint64_t(l) * 132; });  // stride 33 words: padded, free
  EXPECT_EQ(sharedAccessCost(a, ~0u, 4).wavefronts, 1u);
  fill(a, [](unsigned l) { return uint64_t(l) * 8; });  // stride 2 words: 2-way
  EXPECT_EQ(sharedAccessCost(a, ~0u, 4).wavefronts, 2u);
}

TEST(SharedAccessCost, WideAccessesRunInPhases) {
  uint64_t a[32];
  fill(a, [](unsigned l) { return uint64_t(l) * 16; });  // float4 per lane, consecutive
  const SharedCost c = sharedAccessCost(a, ~0u, 16);
  EXPECT_EQ(c.ideal, 4u);
  EXPECT_EQ(c.wavefronts, 4u);
  fill(a, [](unsigned l) { return uint64_t(l) * 8; });  // 8-byte, consecutive
  EXPECT_EQ(sharedAccessCost(a, ~0u, 8).wavefronts, 2u);
  EXPECT_EQ(sharedAccessCost(a, 0x1u, 8).ideal, 1u);  // one lane: one phase
}

// sgemm_tiled's As[ty][k..k+3] as one LDS.128: lanes 0-15 read one 16-byte vector, lanes 16-31
// the next row's. ncu on the H200 counts 2 wavefronts (24 per warp and tile: 16 LDS of Bs at 1,
// 4 LDS.128 of As at 2); quarter-warp phases would make it 4. sgemm_regblock's Bs[k][tx*4]
// (each half-warp 16 distinct vectors, the halves alike) takes 4, its As[k][ty*4] 2: 6 per k.
TEST(SharedAccessCost, SixteenByteAccessesGoByHalfWarps) {
  uint64_t a[32];
  fill(a, [](unsigned l) { return uint64_t(l / 16) * 64; });  // As: two rows of 16 floats
  SharedCost c = sharedAccessCost(a, ~0u, 16);
  EXPECT_EQ(c.wavefronts, 2u);
  EXPECT_EQ(c.ideal, 2u);
  fill(a, [](unsigned l) { return 4096 + uint64_t(l % 16) * 16; });  // regblock's Bs row
  c = sharedAccessCost(a, ~0u, 16);
  EXPECT_EQ(c.wavefronts, 4u);
  EXPECT_EQ(c.ideal, 4u);
  fill(a, [](unsigned l) { return uint64_t(l / 16) * 16; });  // regblock's As: 2 vectors
  EXPECT_EQ(sharedAccessCost(a, ~0u, 16).wavefronts, 2u);
  fill(a, [](unsigned l) { return uint64_t(l) * 32; });  // stride 2 vectors: 4 per bank per half
  c = sharedAccessCost(a, ~0u, 16);
  EXPECT_EQ(c.wavefronts, 8u);
  EXPECT_EQ(c.ideal, 4u);
}

TEST(SectorsTouched, CoalescedAndScattered) {
  uint64_t a[32];
  fill(a, [](unsigned l) { return 0x1000 + uint64_t(l) * 4; });
  EXPECT_EQ(sectorsTouched(a, ~0u, 4), 4u);
  fill(a, [](unsigned l) { return 0x1000 + uint64_t(l) * 128; });
  EXPECT_EQ(sectorsTouched(a, ~0u, 4), 32u);
  fill(a, [](unsigned l) { return 0x1000 + uint64_t(l) * 16; });
  EXPECT_EQ(sectorsTouched(a, ~0u, 16), 16u);
  EXPECT_EQ(sectorsTouched(a, 0u, 4), 0u);
  fill(a, [](unsigned) { return uint64_t(0x101e); });  // 4 bytes straddling two sectors
  EXPECT_EQ(sectorsTouched(a, 1u, 4), 2u);
}

// An independent reference: sort and count.
unsigned referenceWavefronts(const uint64_t* a, uint32_t mask, unsigned bytes) {
  const unsigned per = bytes <= 4 ? 32 : 16, words = bytes <= 4 ? 1 : bytes / 4;
  unsigned total = 0;
  for (unsigned p = 0; p < 32; p += per) {
    std::map<unsigned, std::set<uint64_t>> banks;
    for (unsigned l = p; l < p + per; ++l)
      if (mask >> l & 1)
        for (unsigned w = 0; w < words; ++w) banks[(a[l] / 4 + w) % 32].insert(a[l] / 4 + w);
    size_t worst = 0;
    for (auto& [b, s] : banks) worst = std::max(worst, s.size());
    total += unsigned(worst);
  }
  return total;
}

RC_GTEST_PROP(SharedAccessCost, MatchesSortedReference, ()) {
  const unsigned bytes = *rc::gen::element(1u, 2u, 4u, 8u, 16u);
  const uint32_t mask = *rc::gen::arbitrary<uint32_t>();
  const uint64_t spread = *rc::gen::element<uint64_t>(8, 64, 1024, 65536);
  uint64_t a[32];
  for (unsigned l = 0; l < 32; ++l) a[l] = *rc::gen::inRange<uint64_t>(0, spread) / bytes * bytes;
  RC_ASSERT(sharedAccessCost(a, mask, bytes).wavefronts == referenceWavefronts(a, mask, bytes));
}

RC_GTEST_PROP(SectorsTouched, MatchesSetReference, ()) {
  const unsigned bytes = *rc::gen::element(1u, 2u, 4u, 8u, 16u);
  const uint32_t mask = *rc::gen::arbitrary<uint32_t>();
  uint64_t a[32];
  std::set<uint64_t> ref;
  for (unsigned l = 0; l < 32; ++l) {
    a[l] = *rc::gen::inRange<uint64_t>(0, 4096) / bytes * bytes;
    if (mask >> l & 1)
      for (uint64_t s = a[l] / 32; s <= (a[l] + bytes - 1) / 32; ++s) ref.insert(s);
  }
  RC_ASSERT(sectorsTouched(a, mask, bytes) == ref.size());
}

}  // namespace
}  // namespace warpsim::sim
