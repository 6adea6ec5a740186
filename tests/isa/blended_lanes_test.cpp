// Tests of the blended lane loops (isa/insns/lanes.h forLanesBlended, lanesWhere): a partial
// warp with at least kBlendLanes executing lanes computes every lane as vectors and keeps the
// executing lanes' results. For masks on both sides of that threshold (and the full warp), each
// handler that uses them (add, sub at 16, 32 and 64 bits, mad.lo, and/or/xor, shl/shr, selp, mov,
// setp) and the whole-warp forms of mov's pack and unpack must write the executing lanes' results
// and leave every other lane's register as it was.
#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <string>
#include <vector>

#include "isa/insns/lanes.h"
#include "tests/support/exec_harness.h"

namespace warpsim::isa {
namespace {

using test::ExecHarness;
using H = ExecHarness;

constexpr uint64_t kSentinel = 0xDEADBEEFCAFEF00Dull;

// Masks of 1 .. 32 lanes around the threshold, contiguous and scattered.
std::vector<LaneMask> masks() {
  std::vector<LaneMask> m = {0x1u,        0x80000000u, 0x7Fu,       0xFEu,       0xFFu,
                             0x1FFu,      0x11111111u, 0x55555555u, 0xAAAAAAAAu, 0x0000FFFFu,
                             0xFFFF0000u, 0x7FFFFFFFu, 0xFFFFFFFEu, ~0u};
  // Exactly kBlendLanes - 1, kBlendLanes and kBlendLanes + 1 lanes, spread over the warp.
  for (int n : {insns::kBlendLanes - 1, insns::kBlendLanes, insns::kBlendLanes + 1}) {
    LaneMask v = 0;
    for (int i = 0; i < n; ++i) v |= 1u << ((i * 5 + 3) % 32);
    EXPECT_EQ(std::popcount(v), n);
    m.push_back(v);
  }
  return m;
}

uint64_t a32(unsigned l) { return 0x9E3779B1u * (l + 1) ^ (uint64_t(l) << 40); }
uint64_t b32(unsigned l) { return (0x85EBCA6Bu * (l + 7)) >> (l % 5); }
uint64_t c32(unsigned l) { return 0xC2B2AE35u + 977u * l; }

// Shift counts 0 .. 39: some past the width.
uint64_t count(unsigned l) { return (l * 7) % 40; }

struct Case {
  std::string op;
  std::function<uint64_t(unsigned)> expected;  // lane l's result in r1
  unsigned sources = 2;                        // r2, r3 (and r4)
  std::function<uint64_t(unsigned)> b = b32;   // r3
};

TEST(BlendedLanes, ExecutingLanesGetTheResultTheOthersKeepTheirRegister) {
  auto u32 = [](uint64_t v) { return uint64_t(uint32_t(v)); };
  const std::vector<Case> cases = {
      {"add.s32", [&](unsigned l) { return u32(a32(l) + b32(l)); }},
      {"sub.u32", [&](unsigned l) { return u32(a32(l) - b32(l)); }},
      {"mad.lo.s32", [&](unsigned l) { return u32(a32(l) * b32(l) + c32(l)); }, 3},
      {"and.b32", [&](unsigned l) { return u32(a32(l) & b32(l)); }},
      {"or.b32", [&](unsigned l) { return u32(a32(l) | b32(l)); }},
      {"xor.b32", [&](unsigned l) { return u32(a32(l) ^ b32(l)); }},
      {"shl.b32", [&](unsigned l) { return count(l) >= 32 ? 0 : u32(a32(l) << count(l)); }, 2,
       count},
      {"shr.u32",
       [&](unsigned l) { return count(l) >= 32 ? 0 : u32(uint32_t(a32(l)) >> count(l)); }, 2,
       count},
      {"mov.b32", [&](unsigned l) { return u32(a32(l)); }, 1},
      {"add.u64", [&](unsigned l) { return a32(l) + b32(l); }},
      // 16- and 32-bit add/sub run in the slots' 64 bits and keep the type's low bits: the
      // sources' bits above the type (a32's at 40 and up) must not reach the result.
      {"add.u16", [&](unsigned l) { return uint64_t(uint16_t(a32(l) + b32(l))); }},
      {"sub.s16", [&](unsigned l) { return uint64_t(uint16_t(a32(l) - b32(l))); }},
      {"sub.s32", [&](unsigned l) { return u32(a32(l) - b32(l)); }},
      {"sub.s64", [&](unsigned l) { return a32(l) - b32(l); }},
  };
  for (const Case& c : cases) {
    std::vector<Opnd> ops = {H::reg(1), H::reg(2)};
    if (c.sources >= 2) ops.push_back(H::reg(3));
    if (c.sources >= 3) ops.push_back(H::reg(4));
    H h(c.op, ops);
    for (LaneMask m : masks()) {
      for (unsigned l = 0; l < 32; ++l)
        h.set(2, l, a32(l)), h.set(3, l, c.b(l)), h.set(4, l, c32(l));
      h.setAll(1, kSentinel);
      h.run(m);
      for (unsigned l = 0; l < 32; ++l)
        EXPECT_EQ(h.get(1, l), (m >> l) & 1 ? c.expected(l) : kSentinel)
            << c.op << " mask " << std::hex << m << " lane " << std::dec << l;
    }
  }
}

TEST(BlendedLanes, SelpAndSetpWriteOnlyTheExecutingLanes) {
  for (LaneMask m : masks()) {
    H h("selp.b32", {H::reg(1), H::reg(2), H::reg(3), H::pred(0)});
    for (unsigned l = 0; l < 32; ++l) h.set(2, l, a32(l)), h.set(3, l, b32(l));
    h.setPred(0, 0x35C9A1F3u);
    h.setAll(1, kSentinel);
    h.run(m);
    for (unsigned l = 0; l < 32; ++l) {
      const uint64_t want = uint32_t((0x35C9A1F3u >> l) & 1 ? a32(l) : b32(l));
      EXPECT_EQ(h.get(1, l), (m >> l) & 1 ? want : kSentinel) << "selp mask " << std::hex << m;
    }
    // setp.lt.s32 p1, r2, r3: the executing lanes' bits are the comparison, the others keep p1.
    H s("setp.lt.s32", {H::pred(1), H::reg(2), H::reg(3)});
    LaneMask lt = 0;
    for (unsigned l = 0; l < 32; ++l) {
      s.set(2, l, a32(l));
      s.set(3, l, b32(l));
      if (int32_t(a32(l)) < int32_t(b32(l))) lt |= 1u << l;
    }
    s.setPred(1, 0xA5A5A5A5u);
    s.run(m);
    EXPECT_EQ(s.getPred(1), (0xA5A5A5A5u & ~m) | (lt & m)) << "setp mask " << std::hex << m;
  }
}

TEST(BlendedLanes, PackAndUnpackWriteOnlyTheExecutingLanes) {
  for (LaneMask m : masks()) {
    H p("mov.b64", {H::reg(1), H::vec({H::reg(2), H::reg(3)})});
    for (unsigned l = 0; l < 32; ++l) p.set(2, l, a32(l)), p.set(3, l, b32(l));
    p.setAll(1, kSentinel);
    p.run(m);
    for (unsigned l = 0; l < 32; ++l) {
      const uint64_t want = uint64_t(uint32_t(a32(l))) | uint64_t(uint32_t(b32(l))) << 32;
      EXPECT_EQ(p.get(1, l), (m >> l) & 1 ? want : kSentinel) << "pack mask " << std::hex << m;
    }
    H u("mov.b64", {H::vec({H::reg(2), H::reg(3)}), H::reg(1)});
    for (unsigned l = 0; l < 32; ++l) u.set(1, l, a32(l) << 32 | b32(l));
    u.setAll(2, kSentinel);
    u.setAll(3, kSentinel);
    u.run(m);
    for (unsigned l = 0; l < 32; ++l) {
      const bool on = (m >> l) & 1;
      EXPECT_EQ(u.get(2, l), on ? uint64_t(uint32_t(b32(l))) : kSentinel) << "unpack lo " << l;
      EXPECT_EQ(u.get(3, l), on ? uint64_t(uint32_t(a32(l))) : kSentinel) << "unpack hi " << l;
    }
  }
}

}  // namespace
}  // namespace warpsim::isa
