// Tests of the warp-level primitives (isa/insns/warp.cpp): shfl.sync in every mode with the
// clamp/segment encodings nvcc emits for widths 4, 8, 16 and 32, out-of-range sources and the
// predicate, member masks, vote/match/redux/activemask/elect, results recorded on the H200, the
// form table, and RapidCheck properties against the manual's pseudocode written here again.
//
// The recorded cases come from probe kernels run on an H200 (CUDA 13.0, driver 580), one warp
// of 32 threads, the instruction written as inline PTX:
//  - shfl.sync: all 4 modes x 20 c values x b in 0..35, 63, 67 and two lane-dependent b: the
//    H200 matched the manual's pseudocode in all 102,400 (lane, case) results, d and p; the
//    sweep below replays the same cases against the same pseudocode.
//  - a shfl.sync whose source lane does not execute (inactive, or its guard false) read 0.
//  - with member mask 0x0000ffff and all 32 lanes executing, vote/match/redux covered all 32.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "isa/insn_table.h"
#include "isa/insns/families.h"
#include "tests/support/exec_harness.h"

namespace warpsim::isa {
namespace {

using test::ExecHarness;
using test::HarnessFault;
using H = ExecHarness;

constexpr LaneMask kAll = 0xFFFFFFFFu;

// ---- shfl.sync: the manual's pseudocode --------------------------------------------------

enum Mode { Up, Down, Bfly, Idx };
const char* const kModeName[] = {"up", "down", "bfly", "idx"};

struct Shuffled {
  uint32_t d;
  bool p;
};

// PTX ISA 9.7.13.7 (shfl.sync): lane, bval = b[4:0], cval = c[4:0], segmask = c[12:8];
// a source that does not execute reads 0 (measured on the H200).
Shuffled reference(Mode mode, unsigned lane, uint32_t b, uint32_t c, const uint32_t* a,
                   LaneMask executing) {
  const int bval = int(b & 0x1F), cval = int(c & 0x1F), seg = int((c >> 8) & 0x1F);
  const int l = int(lane);
  const int maxLane = (l & seg) | (cval & ~seg), minLane = l & seg;
  int j = 0;
  bool p = false;
  if (mode == Up) j = l - bval, p = j >= maxLane;
  if (mode == Down) j = l + bval, p = j <= maxLane;
  if (mode == Bfly) j = l ^ bval, p = j <= maxLane;
  if (mode == Idx) j = minLane | (bval & ~seg), p = j <= maxLane;
  if (!p) j = l;
  return {(executing >> j) & 1 ? a[j] : 0u, p};
}

// shfl.sync.mode.b32 r5|p1, r1, r2, r3, r4 with a = r1, b = r2, c = r3, membermask = r4.
struct Shfl {
  H h;
  explicit Shfl(Mode m)
      : h(std::string("shfl.sync.") + kModeName[m] + ".b32",
          {H::vec({H::reg(5), H::pred(1)}), H::reg(1), H::reg(2), H::reg(3), H::reg(4)}) {}
  void operands(const uint32_t* a, uint32_t b, uint32_t c, LaneMask members) {
    for (unsigned l = 0; l < 32; ++l)
      h.set(1, l, a[l]), h.set(2, l, b), h.set(3, l, c), h.set(4, l, members);
  }
};

uint32_t laneValue(unsigned l) { return 0x1000u + 17u * l; }

TEST(Shfl, SweepOfTheH200ProbeMatchesThePseudocode) {
  // The c values of the probe, and b = 0..35, 63, 67, and two per-lane b patterns.
  const uint32_t cs[] = {0x0,    0x1f,   0x181f, 0x101f, 0x1c1f, 0x1e1f,    0x1800,
                         0x1000, 0x1f00, 0x7,    0xf,    0x1807, 0x100f,    0x0a1f,
                         0x1f1f, 0x0005, 0x1510, 0x1c00, 0x1e03, 0xffffe0ff};
  uint32_t a[32];
  for (unsigned l = 0; l < 32; ++l) a[l] = laneValue(l);
  long checked = 0;
  for (Mode m : {Up, Down, Bfly, Idx}) {
    Shfl s(m);
    for (uint32_t c : cs)
      for (int bi = 0; bi < 40; ++bi) {
        s.operands(a, 0, c, kAll);
        auto bOf = [&](unsigned l) {
          return bi < 36 ? uint32_t(bi) : bi == 36 ? 63u : bi == 37 ? 67u : (l * 7 + bi) & 63;
        };
        for (unsigned l = 0; l < 32; ++l) s.h.set(2, l, bOf(l));
        s.h.run(kAll);
        for (unsigned l = 0; l < 32; ++l, ++checked) {
          const Shuffled want = reference(m, l, bOf(l), c, a, kAll);
          ASSERT_EQ(s.h.get(5, l), want.d) << kModeName[m] << " c=" << std::hex << c
                                           << " b=" << bOf(l) << " lane " << std::dec << l;
          ASSERT_EQ((s.h.getPred(1) >> l) & 1, want.p ? 1u : 0u)
              << kModeName[m] << " c=" << c << " lane " << l;
        }
      }
  }
  EXPECT_EQ(checked, 102400);
}

// What nvcc 13 emits for the CUDA intrinsics (c operand per width, see the file comment).
TEST(Shfl, NvccWidthEncodingsHandChecked) {
  uint32_t a[32];
  for (unsigned l = 0; l < 32; ++l) a[l] = 100 + l;
  auto run = [&](Mode m, uint32_t b, uint32_t c, LaneMask exec = kAll) {
    Shfl s(m);
    s.operands(a, b, c, exec);
    s.h.setPred(1, 0);
    s.h.run(exec);
    std::vector<std::pair<uint32_t, bool>> r;
    for (unsigned l = 0; l < 32; ++l)
      r.push_back({uint32_t(s.h.get(5, l)), (s.h.getPred(1) >> l) & 1});
    return r;
  };
  // __shfl_sync(full, v, 3): c = 31.
  for (auto [d, p] : run(Idx, 3, 0x1f)) EXPECT_TRUE(d == 103 && p);
  // __shfl_sync(full, v, 5, 8): c = 0x181f: lane 5 of each group of 8.
  auto r = run(Idx, 5, 0x181f);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(r[l].first, 100 + (l & ~7u) + 5) << l;
  // __shfl_sync(0xffff, v, 5, 16) in lanes 0..15: c = 0x101f.
  r = run(Idx, 5, 0x101f, 0xFFFF);
  for (unsigned l = 0; l < 16; ++l) EXPECT_TRUE(r[l].first == 105 && r[l].second) << l;
  // __shfl_up_sync(full, v, 2): c = 0. Lanes 0 and 1 keep their own value, p false.
  r = run(Up, 2, 0);
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(r[l].first, l < 2 ? 100 + l : 98 + l) << l;
    EXPECT_EQ(r[l].second, l >= 2) << l;
  }
  // __shfl_up_sync(full, v, 2, 8): c = 0x1800: within groups of 8.
  r = run(Up, 2, 0x1800);
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(r[l].first, (l & 7) < 2 ? 100 + l : 98 + l) << l;
    EXPECT_EQ(r[l].second, (l & 7) >= 2) << l;
  }
  // __shfl_down_sync(full, v, 3): c = 31.
  r = run(Down, 3, 0x1f);
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(r[l].first, l <= 28 ? 103 + l : 100 + l) << l;
    EXPECT_EQ(r[l].second, l <= 28) << l;
  }
  // __shfl_down_sync(full, v, 3, 16): c = 0x101f.
  r = run(Down, 3, 0x101f);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(r[l].first, (l & 15) <= 12 ? 103 + l : 100 + l) << l;
  // __shfl_xor_sync(full, v, 1) and (full, v, 1, 4): c = 31, 0x1c1f.
  for (uint32_t c : {0x1fu, 0x1c1fu}) {
    r = run(Bfly, 1, c);
    for (unsigned l = 0; l < 32; ++l) EXPECT_TRUE(r[l].first == 100 + (l ^ 1) && r[l].second) << l;
  }
  // __shfl_xor_sync(full, v, 6, 4): "each group of width consecutive threads are able to access
  // elements from earlier groups of threads, however if they attempt to access elements from
  // later groups of threads their own value of var will be returned" (CUDA Programming Guide).
  r = run(Bfly, 6, 0x1c1f);
  for (unsigned l = 0; l < 32; ++l) {
    const bool in = (l ^ 6) <= (l | 3);
    EXPECT_EQ(r[l].first, in ? 100 + (l ^ 6) : 100 + l) << l;
    EXPECT_EQ(r[l].second, in) << l;
  }
}

TEST(Shfl, OutOfRangeBStillFindsASource) {
  uint32_t a[32];
  for (unsigned l = 0; l < 32; ++l) a[l] = l;
  Shfl s(Idx);
  s.operands(a, 33, 0x1f, kAll);  // bval = b[4:0] = 1
  s.h.run(kAll);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(s.h.get(5, l), 1u);
  EXPECT_EQ(s.h.getPred(1), kAll);
  Shfl d(Down);
  d.operands(a, 40, 0x1f, kAll);  // bval = 8
  d.h.run(kAll);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(d.h.get(5, l), l < 24 ? l + 8 : l) << l;
  EXPECT_EQ(d.h.getPred(1), 0x00FFFFFFu);
  // The clamp above the segment: idx with c = 0x100f (clamp 15, segments of 16): lanes of the
  // upper half have maxLane = 16 | 15 = 31, so every source is in range.
  Shfl c(Idx);
  c.operands(a, 7, 0x100f, kAll);
  c.h.run(kAll);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(c.h.get(5, l), (l & 16) | 7) << l;
}

TEST(Shfl, ANonExecutingSourceLaneReadsZeroAsOnTheH200) {
  uint32_t a[32];
  for (unsigned l = 0; l < 32; ++l) a[l] = 0x700 + l;
  // if (lane < 16) shfl.sync.idx.b32 d, a, 20, 0x1f, 0xffff -> 0 (lane 20 is not there).
  Shfl s(Idx);
  s.operands(a, 20, 0x1f, 0xFFFF);
  for (unsigned l = 16; l < 32; ++l) s.h.set(5, l, 0xDEAD);
  s.h.run(0xFFFF);
  for (unsigned l = 0; l < 16; ++l) EXPECT_EQ(s.h.get(5, l), 0u) << l;
  for (unsigned l = 16; l < 32; ++l)
    EXPECT_EQ(s.h.get(5, l), 0xDEADu) << "lane " << l << " does not execute";
  // shfl.sync.down.b32 d, a, 8, 0x1f, 0xffff in lanes 0..15: 0x708.. for lanes 0..7, then 0.
  Shfl d(Down);
  d.operands(a, 8, 0x1f, 0xFFFF);
  d.h.setPred(1, 0xF0000000u);
  d.h.run(0xFFFF);
  for (unsigned l = 0; l < 16; ++l) EXPECT_EQ(d.h.get(5, l), l < 8 ? 0x708 + l : 0u) << l;
  EXPECT_EQ(d.h.getPred(1), 0xF000FFFFu) << "p is set where the source is in range, others kept";
  // `if (t >= 20) return; out[t] = __shfl_down_sync(0xffffffff, in[t], 8);` with in[i] =
  // (i * 37) % 101: ptxas makes the early return an EXIT, and on the H200 lanes 12..19 (whose
  // sources have exited) read 0. Here the machine is asked about the absent members.
  Shfl e(Down);
  uint32_t in[32];
  for (unsigned l = 0; l < 32; ++l) in[l] = (l * 37) % 101;
  e.operands(in, 8, 0x1f, kAll);
  e.h.run(0x000FFFFF);
  const uint32_t h200[20] = {94, 30, 67, 3, 40, 77, 13, 50, 87, 23, 60, 97, 0, 0, 0, 0, 0, 0, 0, 0};
  for (unsigned l = 0; l < 20; ++l) EXPECT_EQ(e.h.get(5, l), h200[l]) << l;
  EXPECT_EQ(e.h.events, std::vector<std::string>{"barrier 5 0 0 0"});
  // @odd shfl.sync.idx.b32 d, a, 0, 0x1f, 0xaaaaaaaa: lane 0's guard is false -> 0.
  Shfl o(Idx);
  o.operands(a, 0, 0x1f, 0xAAAAAAAAu);
  o.h.run(0xAAAAAAAAu, kAll);
  for (unsigned l = 1; l < 32; l += 2) EXPECT_EQ(o.h.get(5, l), 0u) << l;
}

TEST(Shfl, DestinationMayBeTheSourceAndPredicateMayBeSink) {
  H h("activemask.b32", {H::reg(1)});
  h.bind("shfl.sync.bfly.b32",
         {H::vec({H::reg(1), H::sink()}), H::reg(1), h.imm(16), h.imm(0x1f), h.imm(kAll)});
  for (unsigned l = 0; l < 32; ++l) h.set(1, l, l);
  h.run();
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(h.get(1, l), l ^ 16) << l;
  h.bind("shfl.sync.up.b32", {H::reg(2), H::reg(1), h.imm(1), h.imm(0), h.imm(kAll)});
  h.run();
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(h.get(2, l), l ? (l - 1) ^ 16 : 16u) << l;
}

TEST(Shfl, MemberMaskLanesMustExecute) {
  uint32_t a[32] = {};
  // A member lane whose guard is false never arrives: on the H200 the warp hangs.
  Shfl s(Idx);
  s.operands(a, 0, 0x1f, kAll);
  EXPECT_THROW(s.h.run(0xAAAAAAAAu, kAll), HarnessFault);
  // A member lane that is not active may have exited: the machine decides, as for
  // bar.warp.sync (the harness records the check).
  Shfl t(Idx);
  t.operands(a, 0, 0x1f, kAll);
  t.h.run(0x0000FFFF);
  ASSERT_EQ(t.h.events.size(), 1u);
  EXPECT_EQ(t.h.events[0], "barrier 5 0 0 0");
  // Member mask equal to the executing lanes: no check at all.
  Shfl u(Idx);
  u.operands(a, 0, 0x1f, 0x0000FFFF);
  u.h.run(0x0000FFFF);
  EXPECT_TRUE(u.h.events.empty());
  // Lanes outside the member mask that execute anyway still shuffle (H200: lane l read lane
  // (l + 16) % 32 with member mask 0xffff).
  uint32_t v[32];
  for (unsigned l = 0; l < 32; ++l) v[l] = 0x500 + l;
  Shfl w(Idx);
  w.operands(v, 0, 0x1f, 0xFFFF);
  for (unsigned l = 0; l < 32; ++l) w.h.set(2, l, (l + 16) & 31);
  w.h.run(kAll);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(w.h.get(5, l), 0x500 + ((l + 16) & 31)) << l;
}

RC_GTEST_PROP(ShflProps, MatchesThePseudocodeForAnyOperands, ()) {
  const Mode m = Mode(*rc::gen::inRange(0, 4));
  const LaneMask exec = *rc::gen::weightedOneOf<uint32_t>({{3, rc::gen::just(kAll)},
                                                           {2, rc::gen::arbitrary<uint32_t>()},
                                                           {1, rc::gen::just(0x0000FFFFu)}});
  RC_PRE(exec != 0u);
  const bool uniform = *rc::gen::arbitrary<bool>();
  const auto lanes = [&](rc::Gen<uint32_t> g) {
    return *rc::gen::container<std::vector<uint32_t>>(32, g);
  };
  const std::vector<uint32_t> a = lanes(rc::gen::arbitrary<uint32_t>());
  const auto bGen = rc::gen::weightedOneOf<uint32_t>(
      {{3, rc::gen::inRange<uint32_t>(0, 40)}, {1, rc::gen::arbitrary<uint32_t>()}});
  const auto cGen = rc::gen::weightedOneOf<uint32_t>(
      {{3, rc::gen::elementOf(std::vector<uint32_t>{0, 0x1f, 0x181f, 0x101f, 0x1c1f, 0x1e1f, 0x1800,
                                                    0x1000, 0x1c00, 0x1e00})},
       {2, rc::gen::map(rc::gen::arbitrary<uint32_t>(), [](uint32_t x) { return x & 0x1F1F; })},
       {1, rc::gen::arbitrary<uint32_t>()}});
  std::vector<uint32_t> b = lanes(bGen), c = lanes(cGen);
  if (uniform) b.assign(32, b[0]), c.assign(32, c[0]);
  const uint32_t oldP = *rc::gen::arbitrary<uint32_t>();
  Shfl s(m);
  s.operands(a.data(), 0, 0, exec);
  for (unsigned l = 0; l < 32; ++l) s.h.set(2, l, b[l]), s.h.set(3, l, c[l]), s.h.set(5, l, 0xBAD);
  s.h.setPred(1, oldP);
  s.h.run(exec);
  uint32_t wantP = oldP & ~exec;
  for (unsigned l = 0; l < 32; ++l) {
    if (!((exec >> l) & 1)) {
      RC_ASSERT(s.h.get(5, l) == 0xBADu);
      continue;
    }
    const Shuffled want = reference(m, l, b[l], c[l], a.data(), exec);
    RC_ASSERT(s.h.get(5, l) == want.d);
    wantP |= uint32_t(want.p) << l;
  }
  RC_ASSERT(s.h.getPred(1) == wantP);
}

// ---- vote.sync ------------------------------------------------------------------------------

TEST(Vote, AllAnyUniBallotOverTheExecutingLanes) {
  H h("activemask.b32", {H::reg(1)});
  h.bind("vote.sync.all.pred", {H::pred(1), H::pred(2), h.imm(kAll)});
  auto vote = [&](const std::string& op, uint32_t src, LaneMask exec, bool neg = false) {
    const bool ballot = op == "ballot";
    h.bind("vote.sync." + op + (ballot ? ".b32" : ".pred"),
           {ballot ? H::reg(3) : H::pred(1), H::pred(2, neg), h.imm(exec)});
    h.setPred(2, src);
    h.setPred(1, 0x5A5A5A5Au);
    h.run(exec);
    return ballot ? uint32_t(h.get(3, std::countr_zero(exec))) : h.getPred(1);
  };
  EXPECT_EQ(vote("all", kAll, kAll), kAll);
  EXPECT_EQ(vote("all", 0x7FFFFFFF, kAll), 0u);
  EXPECT_EQ(vote("all", 0x0000FFFF, 0x0000FFFF), 0x5A5AFFFFu) << "lanes outside keep their bits";
  EXPECT_EQ(vote("any", 0x00010000, 0x0000FFFF), 0x5A5A0000u)
      << "a non-executing lane's true does not count";
  EXPECT_EQ(vote("any", 0x00000100, 0x0000FFFF), 0x5A5AFFFFu);
  EXPECT_EQ(vote("uni", 0, kAll), kAll);
  EXPECT_EQ(vote("uni", 0xFFFF0000, 0xFFFF0000), 0xFFFF5A5Au);
  EXPECT_EQ(vote("uni", 0x00000001, 0x00000003), 0x5A5A5A58u);
  EXPECT_EQ(vote("all", 0, kAll, true), kAll) << "!a";
  EXPECT_EQ(vote("ballot", 0x12345678, kAll), 0x12345678u);
  EXPECT_EQ(vote("ballot", 0x12345678, 0x0000FFFF), 0x5678u);
  EXPECT_EQ(vote("ballot", 0x12345678, kAll, true), ~0x12345678u);
  // Every executing lane gets the whole ballot.
  h.bind("vote.sync.ballot.b32", {H::reg(3), H::pred(2), h.imm(0xF0)});
  h.setPred(2, 0xA0);
  h.run(0xF0);
  for (unsigned l = 4; l < 8; ++l) EXPECT_EQ(h.get(3, l), 0xA0u);
}

TEST(Vote, ImmediateSourceAndTheH200sWideMemberMaskCases) {
  H h("activemask.b32", {H::reg(1)});
  h.bind("vote.sync.all.pred", {H::pred(1), h.imm(1), h.imm(kAll)});
  h.run();
  EXPECT_EQ(h.getPred(1), kAll);
  // Recorded with 32 lanes executing and a narrower member mask: the result covers all 32.
  h.bind("vote.sync.ballot.b32", {H::reg(3), H::pred(2), h.imm(0xFFFF)});
  h.setPred(2, 0xEEEEEEEEu);  // lane & 3 != 0
  h.run();
  EXPECT_EQ(h.get(3, 0), 0xEEEEEEEEu);
  h.bind("vote.sync.all.pred", {H::pred(1), H::pred(2), h.imm(0xFF00)});
  h.setPred(2, 0xFFFFFFFEu);  // lane >= 1
  h.run();
  EXPECT_EQ(h.getPred(1), 0u);
  h.bind("vote.sync.any.pred", {H::pred(1), H::pred(2), h.imm(0xFFFE)});
  h.setPred(2, 1);  // only lane 0, outside the member mask
  h.run();
  EXPECT_EQ(h.getPred(1), kAll);
  h.bind("vote.sync.uni.pred", {H::pred(1), H::pred(2), h.imm(0xFF)});
  h.setPred(2, 0xFFFFFF00u);
  h.run();
  EXPECT_EQ(h.getPred(1), 0u);
  // @odd vote.sync.ballot.b32 d, g, 0xaaaaaaaa (g = odd lanes) -> 0xaaaaaaaa.
  h.bind("vote.sync.ballot.b32", {H::reg(3), H::pred(2), h.imm(0xAAAAAAAAu)});
  h.setPred(2, 0xAAAAAAAAu);
  h.run(0xAAAAAAAAu, kAll);
  EXPECT_EQ(h.get(3, 1), 0xAAAAAAAAu);
}

RC_GTEST_PROP(VoteProps, MatchesReference, (uint32_t src, uint32_t exec, uint32_t old, bool neg)) {
  RC_PRE(exec != 0u);
  H h("activemask.b32", {H::reg(1)});
  h.bind("vote.sync.ballot.b32", {H::reg(3), H::pred(2, neg), h.imm(exec)});
  h.setPred(2, src);
  h.run(exec);
  const uint32_t v = (neg ? ~src : src) & exec;
  for (unsigned l = 0; l < 32; ++l) RC_ASSERT(h.get(3, l) == ((exec >> l) & 1 ? v : 0u));
  for (const char* op : {"all", "any", "uni"}) {
    h.bind(std::string("vote.sync.") + op + ".pred", {H::pred(1), H::pred(2, neg), h.imm(exec)});
    h.setPred(1, old);
    h.run(exec);
    const std::string o = op;
    const bool r = o == "all" ? v == exec : o == "any" ? v != 0 : (v == 0 || v == exec);
    RC_ASSERT(h.getPred(1) == ((old & ~exec) | (r ? exec : 0)));
  }
}

// ---- match.sync -----------------------------------------------------------------------------

TEST(Match, AnyGroupsEqualValues) {
  H h("activemask.b32", {H::reg(1)});
  h.bind("match.any.sync.b32", {H::reg(3), H::reg(1), h.imm(kAll)});
  for (unsigned l = 0; l < 32; ++l) h.set(1, l, l & 3);
  h.run();
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(h.get(3, l), 0x11111111u << (l & 3)) << l;
  // The H200 with member mask 0xffff and 32 lanes executing: the same (all 32 compared).
  h.bind("match.any.sync.b32", {H::reg(3), H::reg(1), h.imm(0xFFFF)});
  h.run();
  EXPECT_EQ(h.get(3, 0), 0x11111111u);
  // Lanes 0..15 only (member mask 0xffff): 0x1111 etc.
  h.run(0xFFFF);
  EXPECT_EQ(h.get(3, 0), 0x1111u);
  EXPECT_EQ(h.get(3, 3), 0x8888u);
  // .b64 compares all 64 bits; .b32 only the low 32.
  H w("activemask.b32", {H::reg(1)});
  w.bind("match.any.sync.b64", {H::reg(3), H::reg(1), w.imm(kAll)});
  for (unsigned l = 0; l < 32; ++l) w.set(1, l, (uint64_t(l & 1) << 40) | 7);
  w.run();
  EXPECT_EQ(w.get(3, 0), 0x55555555u);
  EXPECT_EQ(w.get(3, 1), 0xAAAAAAAAu);
  w.bind("match.any.sync.b32", {H::reg(3), H::reg(1), w.imm(kAll)});
  w.run();
  EXPECT_EQ(w.get(3, 1), kAll);
}

TEST(Match, AllGivesTheMaskAndThePredicate) {
  H h("activemask.b32", {H::reg(1)});
  h.bind("match.all.sync.b32", {H::vec({H::reg(3), H::pred(1)}), H::reg(1), h.imm(0xFF)});
  for (unsigned l = 0; l < 32; ++l) h.set(1, l, 5);
  h.setPred(1, 0);
  h.run(0xFF);
  EXPECT_EQ(h.get(3, 0), 0xFFu);
  EXPECT_EQ(h.getPred(1), 0xFFu);
  h.set(1, 7, 6);
  h.run(0xFF);
  EXPECT_EQ(h.get(3, 0), 0u);
  EXPECT_EQ(h.getPred(1), 0u);
  // The H200: lanes 0..7 hold 5, the others their lane id, member mask 0xff, all 32 execute:
  // d = 0 and p false everywhere.
  for (unsigned l = 0; l < 32; ++l) h.set(1, l, l < 8 ? 5 : l);
  h.setPred(1, kAll);
  h.run();
  EXPECT_EQ(h.get(3, 31), 0u);
  EXPECT_EQ(h.getPred(1), 0u);
  // `_|p` and plain d; .b64 looks at the high half.
  H s("activemask.b32", {H::reg(1)});
  s.bind("match.all.sync.b64", {H::vec({H::sink(), H::pred(1)}), H::reg(1), s.imm(kAll)});
  for (unsigned l = 0; l < 32; ++l) s.set(1, l, 1ull << 63);
  s.run();
  EXPECT_EQ(s.getPred(1), kAll);
  s.set(1, 9, 0);
  s.run();
  EXPECT_EQ(s.getPred(1), 0u);
  H d("activemask.b32", {H::reg(1)});
  d.bind("match.all.sync.b32", {H::reg(3), H::reg(1), d.imm(kAll)});
  d.run();
  EXPECT_EQ(d.get(3, 0), kAll);
}

RC_GTEST_PROP(MatchProps, MatchesReference, (uint32_t exec, bool wide)) {
  RC_PRE(exec != 0u);
  const auto vals = *rc::gen::container<std::vector<uint64_t>>(
      32, rc::gen::oneOf(rc::gen::inRange<uint64_t>(0, 3),
                         rc::gen::elementOf(std::vector<uint64_t>{1ull << 32, (1ull << 32) | 1})));
  const std::string t = wide ? "b64" : "b32";
  H h("activemask.b32", {H::reg(1)});
  h.bind("match.any.sync." + t, {H::reg(3), H::reg(1), h.imm(exec)});
  for (unsigned l = 0; l < 32; ++l) h.set(1, l, vals[l]);
  h.run(exec);
  auto eq = [&](unsigned i, unsigned j) {
    return wide ? vals[i] == vals[j] : uint32_t(vals[i]) == uint32_t(vals[j]);
  };
  bool all = true;
  for (unsigned l = 0; l < 32; ++l) {
    if (!((exec >> l) & 1)) continue;
    uint32_t want = 0;
    for (unsigned k = 0; k < 32; ++k) want |= uint32_t(((exec >> k) & 1) && eq(l, k)) << k;
    RC_ASSERT(h.get(3, l) == want);
    all = all && want == exec;
  }
  h.bind("match.all.sync." + t, {H::vec({H::reg(4), H::pred(1)}), H::reg(1), h.imm(exec)});
  h.setPred(1, ~exec);
  h.run(exec);
  RC_ASSERT(h.getPred(1) == (~exec | (all ? exec : 0)));
  RC_ASSERT(h.get(4, std::countr_zero(exec)) == (all ? exec : 0u));
}

// ---- redux.sync -----------------------------------------------------------------------------

uint32_t redux(const std::string& op, const std::vector<uint32_t>& v, LaneMask exec,
               LaneMask members = 0) {
  H h("activemask.b32", {H::reg(1)});
  h.bind("redux.sync." + op, {H::reg(3), H::reg(1), h.imm(members ? members : exec)});
  for (unsigned l = 0; l < 32; ++l) h.set(1, l, v[l]);
  h.run(exec);
  const unsigned first = std::countr_zero(exec);
  for (unsigned l = 0; l < 32; ++l)
    if (((exec >> l) & 1) && h.get(3, l) != h.get(3, first))
      throw std::runtime_error("lane " + std::to_string(l) + " got another result");
  return uint32_t(h.get(3, first));
}

TEST(Redux, OperationsAndTypes) {
  std::vector<uint32_t> lane(32), neg(32);
  for (unsigned l = 0; l < 32; ++l) lane[l] = l, neg[l] = uint32_t(100 - int(l));
  EXPECT_EQ(redux("add.u32", lane, 0xFFFF), 0x78u) << "H200: lanes 0..15";
  EXPECT_EQ(redux("add.u32", lane, kAll, 0xFFFF), 0x1F0u) << "H200: 32 lanes, member mask 0xffff";
  EXPECT_EQ(redux("min.s32", neg, kAll, 0x0FF0), 69u) << "H200: 32 lanes, member mask 0x0ff0";
  EXPECT_EQ(redux("add.u32", lane, 0xAAAAAAAAu), 0x100u) << "H200: @odd";
  std::vector<uint32_t> big(32, 0x80000000u);
  EXPECT_EQ(redux("add.s32", big, 0x7), 0x80000000u) << "wraps to 32 bits";
  std::vector<uint32_t> mix(32, 5);
  mix[3] = 0xFFFFFFFFu;
  mix[9] = 2;
  EXPECT_EQ(redux("min.u32", mix, kAll), 2u);
  EXPECT_EQ(redux("min.s32", mix, kAll), 0xFFFFFFFFu);
  EXPECT_EQ(redux("max.u32", mix, kAll), 0xFFFFFFFFu);
  EXPECT_EQ(redux("max.s32", mix, kAll), 5u);
  EXPECT_EQ(redux("and.b32", mix, kAll), 0u);
  EXPECT_EQ(redux("and.b32", mix, 0x8), 0xFFFFFFFFu);
  EXPECT_EQ(redux("or.b32", mix, kAll & ~0x8u), 7u);
  EXPECT_EQ(redux("xor.b32", lane, kAll), 0u);
  EXPECT_EQ(redux("xor.b32", lane, 0x7), 0u ^ 1 ^ 2);
}

RC_GTEST_PROP(ReduxProps, MatchesReference, (uint32_t exec)) {
  RC_PRE(exec != 0u);
  const auto v = *rc::gen::container<std::vector<uint32_t>>(32, rc::gen::arbitrary<uint32_t>());
  uint32_t add = 0, andv = ~0u, orv = 0, xorv = 0, umin = ~0u, umax = 0;
  int32_t smin = INT32_MAX, smax = INT32_MIN;
  for (unsigned l = 0; l < 32; ++l)
    if ((exec >> l) & 1) {
      add += v[l], andv &= v[l], orv |= v[l], xorv ^= v[l];
      umin = std::min(umin, v[l]), umax = std::max(umax, v[l]);
      smin = std::min(smin, int32_t(v[l])), smax = std::max(smax, int32_t(v[l]));
    }
  RC_ASSERT(redux("add.u32", v, exec) == add);
  RC_ASSERT(redux("add.s32", v, exec) == add);
  RC_ASSERT(redux("min.u32", v, exec) == umin);
  RC_ASSERT(redux("max.u32", v, exec) == umax);
  RC_ASSERT(redux("min.s32", v, exec) == uint32_t(smin));
  RC_ASSERT(redux("max.s32", v, exec) == uint32_t(smax));
  RC_ASSERT(redux("and.b32", v, exec) == andv);
  RC_ASSERT(redux("or.b32", v, exec) == orv);
  RC_ASSERT(redux("xor.b32", v, exec) == xorv);
}

// ---- activemask, elect.sync -----------------------------------------------------------------

TEST(Activemask, TheLanesExecutingIt) {
  H h("activemask.b32", {H::reg(3)});
  for (unsigned l = 0; l < 32; ++l) h.set(3, l, 0xDEAD);
  h.run(0xAAAAAAAAu, kAll);  // @odd activemask: the H200 gave 0xaaaaaaaa in odd lanes
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(h.get(3, l), l & 1 ? 0xAAAAAAAAu : 0xDEADu) << l;
  h.run(0xFFFFFFE0u);  // if (lane >= 5) activemask: 0xffffffe0
  EXPECT_EQ(h.get(3, 31), 0xFFFFFFE0u);
  EXPECT_EQ(h.inst().cls, InsnClass::Warp);
}

// elect is bound through warp.cpp's own spec: isa/insns/unsupported.cpp still lists "elect",
// and findSpec takes the last untyped spec of an opcode, so the table gives that one.
struct Direct {
  std::vector<uint64_t> regs = std::vector<uint64_t>(64 * 32, 0);
  std::vector<uint32_t> preds = std::vector<uint32_t>(8, 0);
  H machine{"activemask.b32", {H::reg(1)}};
  Inst in;
  std::string bind(const std::string& opcode, std::vector<Opnd> ops) {
    std::vector<std::string> w;
    std::stringstream ss(opcode);
    for (std::string s; std::getline(ss, s, '.');) w.push_back(s);
    in = Inst{};
    in.text = opcode;
    in.mods = decodeMods(std::vector<std::string>(w.begin() + 1, w.end()));
    in.ops = std::move(ops);
    for (const OpcodeSpec& s : insns::warpLevel())
      if (s.opcode == w[0]) return s.bind(in);
    return "no spec";
  }
  void run(LaneMask mask, LaneMask active = 0) {
    Exec x;
    x.regs = regs.data();
    x.preds = preds.data();
    x.mask = mask;
    x.active = active ? active : mask;
    x.machine = &machine;
    in.run(x, in);
  }
};

TEST(Elect, TheLowestExecutingLaneLeads) {
  Direct e;
  ASSERT_EQ(e.bind("elect.sync", {H::vec({H::reg(3), H::pred(1)}), H::reg(2)}), "");
  for (unsigned l = 0; l < 32; ++l) e.regs[2 * 32 + l] = 0xF0F0, e.regs[3 * 32 + l] = 0xEE;
  e.preds[1] = 0x1;
  e.run(0xF0F0);  // the H200: d = 4 everywhere, p in lane 4 only
  for (unsigned l = 0; l < 32; ++l)
    EXPECT_EQ(e.regs[3 * 32 + l], (0xF0F0 >> l) & 1 ? 4u : 0xEEu) << l;
  EXPECT_EQ(e.preds[1], 0x10u | 0x1u) << "lane 0 keeps its bit: it does not execute";
  // Lanes 3..31 execute with member mask 0xffffffff: the H200 did not wait and elected lane 3.
  for (unsigned l = 0; l < 32; ++l) e.regs[2 * 32 + l] = kAll;
  e.run(0xFFFFFFF8u);
  EXPECT_EQ(e.regs[3 * 32 + 31], 3u);
  EXPECT_EQ(e.preds[1], 0x8u | 0x1u);
  EXPECT_TRUE(e.machine.events.empty());
  ASSERT_EQ(e.bind("elect.sync", {H::vec({H::sink(), H::pred(1)}), H::reg(2)}), "");
  e.run(0xFF000000u);
  EXPECT_EQ(e.preds[1] & 0xFF000000u, 0x01000000u);
  EXPECT_EQ(e.in.cls, InsnClass::Warp);
}

TEST(Elect, FormsPtxasRefusesAreRejected) {
  Direct e;
  EXPECT_NE(e.bind("elect.sync", {H::reg(3), H::reg(2)}), "") << "p is required";
  EXPECT_NE(e.bind("elect.sync", {H::vec({H::reg(3), H::pred(1)})}), "");
  EXPECT_NE(e.bind("elect.sync", {H::vec({H::reg(3), H::pred(1)}), H::reg(2), H::reg(4)}), "");
  EXPECT_NE(e.bind("elect.sync.b32", {H::vec({H::reg(3), H::pred(1)}), H::reg(2)}), "");
  EXPECT_NE(e.bind("elect", {H::vec({H::reg(3), H::pred(1)}), H::reg(2)}), "");
}

TEST(Elect, IsBoundByTheTable) {
  const OpcodeSpec* s = findSpec("elect", decodeMods({"sync"}));
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->family, "warp");
  H h("activemask.b32", {H::reg(1)});
  h.bind("elect.sync", {H::vec({H::reg(3), H::pred(1)}), h.imm(kAll)});
  h.run(0x6);
  EXPECT_EQ(h.get(3, 1), 1u);
}

// ---- the form table -------------------------------------------------------------------------

std::string tryBind(const std::string& text, std::vector<Opnd> ops) {
  H h("activemask.b32", {H::reg(1)});
  return h.tryBind(text, std::move(ops));
}

TEST(WarpTable, FormsPtxasAcceptsBind) {
  // Each of these assembled with ptxas 13.0 for sm_90.
  const Opnd dp = H::vec({H::reg(1), H::pred(1)});
  EXPECT_EQ(tryBind("shfl.sync.idx.b32", {H::reg(1), H::reg(2), H::reg(3), H::reg(4), H::reg(5)}),
            "");
  EXPECT_EQ(tryBind("shfl.sync.idx.b32", {dp, H::reg(2), H::reg(3), H::reg(4), H::reg(5)}), "");
  EXPECT_EQ(tryBind("shfl.sync.up.b32",
                    {H::vec({H::reg(1), H::sink()}), H::reg(2), H::reg(3), H::reg(4), H::reg(5)}),
            "");
  for (const char* m : {"down", "bfly"})
    EXPECT_EQ(tryBind(std::string("shfl.sync.") + m + ".b32",
                      {dp, H::reg(2), H::reg(3), H::reg(4), H::reg(5)}),
              "");
  EXPECT_EQ(tryBind("vote.sync.ballot.b32", {H::reg(1), H::pred(2, true), H::reg(3)}), "");
  EXPECT_EQ(tryBind("vote.sync.all.pred", {H::pred(1), H::pred(2, true), H::reg(3)}), "");
  EXPECT_EQ(tryBind("vote.sync.any.pred", {H::pred(1), H::pred(2), H::reg(3)}), "");
  EXPECT_EQ(tryBind("vote.sync.uni.pred", {H::pred(1), H::pred(2), H::reg(3)}), "");
  EXPECT_EQ(tryBind("vote.sync.all.pred", {H::pred(1), H::reg(9), H::reg(3)}), "")
      << "immediate source";
  EXPECT_EQ(tryBind("match.any.sync.b32", {H::reg(1), H::reg(2), H::reg(3)}), "");
  EXPECT_EQ(tryBind("match.sync.any.b32", {H::reg(1), H::reg(2), H::reg(3)}), "");
  EXPECT_EQ(tryBind("match.all.sync.b64", {dp, H::reg(2), H::reg(3)}), "");
  EXPECT_EQ(tryBind("match.all.sync.b64", {H::reg(1), H::reg(2), H::reg(3)}), "");
  EXPECT_EQ(tryBind("match.all.sync.b32", {H::vec({H::sink(), H::pred(1)}), H::reg(2), H::reg(3)}),
            "");
  for (const char* r : {"add.u32", "add.s32", "min.u32", "min.s32", "max.u32", "max.s32", "and.b32",
                        "or.b32", "xor.b32"})
    EXPECT_EQ(tryBind(std::string("redux.sync.") + r, {H::reg(1), H::reg(2), H::reg(3)}), "") << r;
  EXPECT_EQ(tryBind("activemask.b32", {H::reg(1)}), "");
}

TEST(WarpTable, FormsPtxasRefusesAreRejectedWithAMessage) {
  const Opnd dp = H::vec({H::reg(1), H::pred(1)});
  const std::vector<std::pair<std::string, std::vector<Opnd>>> bad = {
      {"shfl.idx.b32", {H::reg(1), H::reg(2), H::reg(3), H::reg(4)}},  // no .sync on sm_70+
      {"shfl.idx.b32", {H::reg(1), H::reg(2), H::reg(3), H::reg(4), H::reg(5)}},
      {"shfl.sync.idx.b32",
       {H::vec({H::sink(), H::pred(1)}), H::reg(2), H::reg(3), H::reg(4), H::reg(5)}},
      {"shfl.sync.idx.b32", {dp, H::reg(2), H::reg(3), H::reg(4)}},  // membermask missing
      {"shfl.sync.up.b32", {H::sink(), H::reg(2), H::reg(3), H::reg(4), H::reg(5)}},
      {"shfl.sync.idx.b64", {H::reg(1), H::reg(2), H::reg(3), H::reg(4), H::reg(5)}},
      {"shfl.sync.idx.u32", {H::reg(1), H::reg(2), H::reg(3), H::reg(4), H::reg(5)}},
      {"shfl.sync.b32", {H::reg(1), H::reg(2), H::reg(3), H::reg(4), H::reg(5)}},
      {"shfl.sync.up.down.b32", {H::reg(1), H::reg(2), H::reg(3), H::reg(4), H::reg(5)}},
      {"vote.all.pred", {H::pred(1), H::pred(2)}},
      {"vote.ballot.b32", {H::reg(1), H::pred(2)}},
      {"vote.all.pred", {H::pred(1), H::pred(2), H::reg(3)}},
      {"vote.sync.any.pred", {H::pred(1), H::pred(2)}},
      {"vote.sync.ballot.u32", {H::reg(1), H::pred(2), H::reg(3)}},
      {"vote.sync.ballot.pred", {H::pred(1), H::pred(2), H::reg(3)}},
      {"vote.sync.all.b32", {H::reg(1), H::pred(2), H::reg(3)}},
      {"vote.sync.ballot.b32", {H::sink(), H::pred(2), H::reg(3)}},
      {"match.any.sync.b64", {dp, H::reg(2), H::reg(3)}},  // no predicate for .any
      {"match.any.sync.b32", {H::sink(), H::reg(2), H::reg(3)}},
      {"match.any.sync.u32", {H::reg(1), H::reg(2), H::reg(3)}},
      {"match.any.b32", {H::reg(1), H::reg(2), H::reg(3)}},
      {"match.sync.b32", {H::reg(1), H::reg(2), H::reg(3)}},
      {"redux.sync.add.b32", {H::reg(1), H::reg(2), H::reg(3)}},
      {"redux.sync.and.u32", {H::reg(1), H::reg(2), H::reg(3)}},
      {"redux.sync.min.f32", {H::reg(1), H::reg(2), H::reg(3)}},  // sm_100a
      {"redux.sync.max.abs.NaN.f32", {H::reg(1), H::reg(2), H::reg(3)}},
      {"redux.sync.min.abs.s32", {H::reg(1), H::reg(2), H::reg(3)}},
      {"redux.sync.add.u64", {H::reg(1), H::reg(2), H::reg(3)}},
      {"redux.sync.add.u32", {H::sink(), H::reg(2), H::reg(3)}},
      {"redux.add.u32", {H::reg(1), H::reg(2), H::reg(3)}},
      {"activemask.u32", {H::reg(1)}},
      {"activemask.b64", {H::reg(1)}},
      {"activemask.b32", {H::sink()}},
      {"activemask.sync.b32", {H::reg(1)}},
  };
  for (const auto& [text, ops] : bad) EXPECT_NE(tryBind(text, ops), "") << text;
}

TEST(WarpTable, EveryCombinationBindsOrIsRefusedAndRunsWithoutCrashing) {
  struct Opc {
    std::string name;
    std::vector<std::string> words;
    std::vector<Type> types;
  };
  const std::vector<Opc> opcodes = {
      {"shfl", {"sync", "up", "down", "bfly", "idx"}, {Type::B32, Type::B64, Type::U32}},
      {"vote", {"sync", "all", "any", "uni", "ballot"}, {Type::Pred, Type::B32, Type::U32}},
      {"match", {"sync", "any", "all"}, {Type::B32, Type::B64, Type::U64}},
      {"redux",
       {"sync", "add", "min", "max", "and", "or", "xor", "abs", "NaN"},
       {Type::U32, Type::S32, Type::B32, Type::F32, Type::U64}},
      {"activemask", {"sync"}, {Type::B32, Type::B64}},
  };
  // Operand shapes: every count from 0 to 5 with registers, and the d|p / predicate variants.
  std::vector<std::vector<Opnd>> shapes;
  for (size_t n = 0; n <= 5; ++n) {
    std::vector<Opnd> r, p;
    for (size_t i = 0; i < n; ++i) r.push_back(H::reg(uint32_t(1 + i)));
    shapes.push_back(r);
    if (n) {
      p = r;
      p[0] = H::vec({H::reg(1), H::pred(1)});
      shapes.push_back(p);
      p[0] = H::pred(1);
      if (n > 1) p[1] = H::pred(2, true);
      shapes.push_back(p);
    }
  }
  H h("activemask.b32", {H::reg(1)});
  for (unsigned l = 0; l < 32; ++l)
    for (uint32_t r = 1; r <= 5; ++r) h.set(r, l, r == 5 || r == 3 ? kAll : l);
  int bound = 0, refused = 0;
  for (const Opc& o : opcodes)
    for (unsigned sub = 0; sub < (1u << o.words.size()); ++sub) {
      if (std::popcount(sub) > 3) continue;
      for (Type t : o.types)
        for (const auto& ops : shapes) {
          std::string text = o.name;
          for (size_t i = 0; i < o.words.size(); ++i)
            if ((sub >> i) & 1) text += "." + o.words[i];
          text += std::string(".") + typeName(t);
          std::string err;
          ASSERT_NO_THROW(err = h.tryBind(text, ops)) << text;
          if (!err.empty()) {
            ++refused;
            continue;
          }
          ++bound;
          EXPECT_EQ(h.inst().cls, InsnClass::Warp) << text;
          // Member masks (r3 for vote/match/redux, r5 for shfl) are all lanes: no fault.
          EXPECT_NO_THROW(h.run(kAll)) << text;
          EXPECT_NO_THROW(h.run(0)) << text;
        }
    }
  EXPECT_GT(bound, 20);
  EXPECT_GT(refused, 1000);
}

}  // namespace
}  // namespace warpsim::isa
