// Tests of atom / red (isa/insns/atomic.cpp): hand-checked integer and bit cases, the H200's
// recorded floating-point results, vector forms, addressing, classes, the form table (every
// combination the spec accepts binds or is refused with a message, against ptxas 13.0's rules),
// and RapidCheck properties against independent host references.
//
// The recorded cases (kH200) come from probe kernels run on an H200 (CUDA 13.0, driver 580):
// one thread stores `old` to global or shared memory, runs the atom/red with operand `b` through
// inline PTX, and reads back the old value (always `old`) and the memory (`mem`). Where 'g'/'s'
// is given the instruction used a generic address into global/shared memory.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
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

constexpr uint64_t kA = 0x1000;  // a global address the tests use
using P = std::pair<uint64_t, uint64_t>;

// ---- a machine that knows spaces: generic addresses at or above kSharedWindow are shared ------

constexpr uint64_t kSharedWindow = 0x1000000000ull;

class SpaceMachine final : public Machine {
 public:
  std::map<uint64_t, uint8_t> mem;
  void poke(uint64_t a, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; ++i) mem[a + i] = uint8_t(v >> (8 * i));
  }
  uint64_t peek(uint64_t a, unsigned n) const {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i)
      if (auto it = mem.find(a + i); it != mem.end()) v |= uint64_t(it->second) << (8 * i);
    return v;
  }
  void load(const Inst&, Space, LaneMask, const uint64_t*, unsigned, unsigned, uint64_t*) override {
  }
  void store(const Inst&, Space, LaneMask, const uint64_t*, unsigned, unsigned,
             const uint64_t*) override {}
  void atomic(const Inst&, Space, LaneMask mask, const uint64_t* addrs, unsigned bytes, AtomFn fn,
              const uint64_t* a, const uint64_t* b, uint64_t* old) override {
    forLanes(mask, [&](unsigned l) {
      old[l] = peek(addrs[l], bytes);
      poke(addrs[l], fn(old[l], a[l], b ? b[l] : 0), bytes);
    });
  }
  uint64_t toGeneric(Space, uint64_t a, unsigned) override { return a; }
  uint64_t fromGeneric(Space, uint64_t a, unsigned) override { return a; }
  void fence(const Inst&, LaneMask) override {}
  Space spaceOf(uint64_t a, unsigned) override {
    return a >= kSharedWindow ? Space::Shared : Space::Global;
  }
  void branch(const Inst&, LaneMask) override {}
  void call(const Inst&, LaneMask) override {}
  void ret(const Inst&, LaneMask) override {}
  void exit(const Inst&, LaneMask) override {}
  [[noreturn]] void trap(const Inst&, LaneMask, const char* why) override {
    throw HarnessFault(why);
  }
  void barrier(const Inst&, BarrierKind, LaneMask, uint32_t, uint32_t, LaneMask,
               uint32_t) override {}
  uint32_t printf(const Inst&, unsigned, uint64_t, uint64_t) override { return 0; }
  void nanosleep(const Inst&) override {}
  uint64_t special(Special, unsigned) override { return 0; }
  [[noreturn]] void unsupported(const Inst&, const char* w) override { throw HarnessFault(w); }
  [[noreturn]] void warpSyncFault(const Inst&, LaneMask, LaneMask) override {
    throw HarnessFault("warp sync");
  }
};

// Binds through the instruction table as lowering does and runs on a 32-lane register file.
struct Rig {
  std::vector<uint64_t> regs = std::vector<uint64_t>(64 * 32, 0);
  std::vector<uint32_t> preds = std::vector<uint32_t>(8, 0);
  SpaceMachine m;
  Inst in;
  explicit Rig(const std::string& opcode, std::vector<Opnd> ops) {
    std::vector<std::string> words;
    std::stringstream ss(opcode);
    for (std::string w; std::getline(ss, w, '.');) words.push_back(w);
    in.text = opcode;
    in.mods = decodeMods(std::vector<std::string>(words.begin() + 1, words.end()));
    in.ops = std::move(ops);
    const OpcodeSpec* spec = findSpec(words[0], in.mods);
    if (!spec) throw std::invalid_argument("no spec for " + opcode);
    if (std::string e = spec->bind(in); !e.empty()) throw std::invalid_argument(e);
  }
  uint64_t& r(uint32_t reg, unsigned lane) { return regs[reg * 32 + lane]; }
  void run(LaneMask mask) {
    Exec x;
    x.regs = regs.data();
    x.preds = preds.data();
    x.mask = x.active = mask;
    x.machine = &m;
    in.run(x, in);
  }
};

// ---- hand-checked integer and bit-size cases ------------------------------------------------

// Runs a one-lane atom `opcode d(r1), [r2], b(r3) [, c(r4)]` on memory `old` (bytes wide at kA);
// returns {d, memory after}.
std::pair<uint64_t, uint64_t> atom1(const std::string& opcode, uint64_t old, uint64_t b,
                                    uint64_t c = 0, bool cas = false) {
  std::vector<Opnd> ops = {H::reg(1), H::addr(2), H::reg(3)};
  if (cas) ops.push_back(H::reg(4));
  H h(opcode, ops);
  const unsigned bytes = typeBytes(h.inst().mods.type());
  h.poke(kA, old, bytes);
  h.poke(kA + bytes, 0xA5, 1);  // a neighbour that must not change
  h.set(1, 0, 0xDEADBEEFDEADBEEFull);
  h.set(2, 0, kA);
  h.set(3, 0, b);
  h.set(4, 0, c);
  h.run(1);
  EXPECT_EQ(h.peek(kA + bytes, 1), 0xA5u) << opcode << " wrote past its " << bytes << " bytes";
  return {h.get(1, 0), h.peek(kA, bytes)};
}

TEST(AtomInt, AddWrapsAndReturnsTheOldValue) {
  EXPECT_EQ(atom1("atom.global.add.u32", 0xFFFFFFFF, 2), P(0xFFFFFFFFull, 1ull));
  EXPECT_EQ(atom1("atom.global.add.u64", ~0ull, 2), P(~0ull, 1ull));
  // Only the low 32 bits of the operand count (an immediate slot holds 64 bits).
  EXPECT_EQ(atom1("atom.shared.add.u32", 5, 0xFFFFFFFF00000003ull).second, 8u);
}

TEST(AtomInt, S32OldValueIsSignExtendedLikeLd) {
  EXPECT_EQ(atom1("atom.global.add.s32", 0x80000000, 1), P(0xFFFFFFFF80000000ull, 0x80000001ull));
  EXPECT_EQ(atom1("atom.global.add.u32", 0x80000000, 1).first, 0x80000000ull);
  EXPECT_EQ(atom1("atom.global.min.s32", 0xFFFFFFFE, 3).first, 0xFFFFFFFFFFFFFFFEull);
}

TEST(AtomInt, MinMaxCompareSignedOrUnsigned) {
  EXPECT_EQ(atom1("atom.global.min.u32", 0xFFFFFFFF, 1).second, 1u);
  EXPECT_EQ(atom1("atom.global.min.s32", 0xFFFFFFFF, 1).second, 0xFFFFFFFFu);
  EXPECT_EQ(atom1("atom.global.max.u32", 0xFFFFFFFF, 1).second, 0xFFFFFFFFu);
  EXPECT_EQ(atom1("atom.global.max.s32", 0xFFFFFFFF, 1).second, 1u);
  EXPECT_EQ(atom1("atom.global.min.s64", 1, 0x8000000000000000ull).second, 0x8000000000000000ull);
  EXPECT_EQ(atom1("atom.global.max.s64", 1, 0x8000000000000000ull).second, 1u);
  EXPECT_EQ(atom1("atom.global.min.u64", 1, 0x8000000000000000ull).second, 1u);
  EXPECT_EQ(atom1("atom.global.max.u64", 1, 0x8000000000000000ull).second, 0x8000000000000000ull);
  EXPECT_EQ(atom1("atom.global.max.s32", 0x80000000, 0x7FFFFFFF).second, 0x7FFFFFFFu);
}

TEST(AtomInt, IncDecWrapRules) {
  // inc(r, s) = r >= s ? 0 : r + 1;  dec(r, s) = (r == 0 || r > s) ? s : r - 1 (the H200 agrees).
  struct {
    uint32_t r, s, inc, dec;
  } cases[] = {
      {5, 5, 0, 4},          {6, 5, 0, 5},          {0, 5, 1, 5},
      {0, 0, 0, 0},          {7, 0, 0, 0},          {0xFFFFFFFF, 0xFFFFFFFF, 0, 0xFFFFFFFE},
      {3, 0xFFFFFFFF, 4, 2}, {0xFFFFFFFF, 3, 0, 3}, {4, 5, 5, 3},
  };
  for (auto c : cases) {
    EXPECT_EQ(atom1("atom.global.inc.u32", c.r, c.s), P(uint64_t(c.r), uint64_t(c.inc)));
    EXPECT_EQ(atom1("atom.global.dec.u32", c.r, c.s), P(uint64_t(c.r), uint64_t(c.dec)));
  }
}

TEST(AtomBits, AndOrXorExch) {
  EXPECT_EQ(atom1("atom.global.and.b32", 0x12345678, ~0ull).second, 0x12345678u);
  EXPECT_EQ(atom1("atom.global.and.b32", 0x12345678, 0x0F0F0F0F).second, 0x02040608u);
  EXPECT_EQ(atom1("atom.global.or.b32", 0x12345678, 0x80000001).second, 0x92345679u);
  EXPECT_EQ(atom1("atom.global.xor.b32", 0xFFFF0000, 0x0FF00FF0).second, 0xF00F0FF0u);
  EXPECT_EQ(atom1("atom.global.and.b64", ~0ull, 0x8000000000000001ull).second,
            0x8000000000000001ull);
  EXPECT_EQ(atom1("atom.global.or.b64", 1ull << 40, 1).second, (1ull << 40) | 1);
  EXPECT_EQ(atom1("atom.global.xor.b64", ~0ull, 1ull << 63).second, ~0ull >> 1);
  EXPECT_EQ(atom1("atom.global.exch.b32", 7, 0x1234567899ull), P(7ull, 0x34567899ull));
  EXPECT_EQ(atom1("atom.global.exch.b64", 7, ~0ull), P(7ull, ~0ull));
}

TEST(AtomBits, CompareAndSwap) {
  EXPECT_EQ(atom1("atom.global.cas.b32", 5, 5, 9, true), P(5ull, 9ull));
  EXPECT_EQ(atom1("atom.global.cas.b32", 5, 6, 9, true), P(5ull, 5ull));
  // Compared at the type's width: the high bits of b do not matter.
  EXPECT_EQ(atom1("atom.global.cas.b32", 5, 0xAB00000005ull, 9, true).second, 9u);
  EXPECT_EQ(atom1("atom.global.cas.b64", 1ull << 33, 1ull << 33, 3, true).second, 3u);
  EXPECT_EQ(atom1("atom.global.cas.b64", 1ull << 33, 0, 3, true).second, 1ull << 33);
  EXPECT_EQ(atom1("atom.shared.cas.b16", 0xBEEF, 0x1BEEF, 0x12345, true), P(0xBEEFull, 0x2345ull));
  EXPECT_EQ(atom1("atom.global.cas.b16", 0xBEEF, 0xBEEE, 0x1234, true).second, 0xBEEFu);
}

TEST(AtomLanes, SameAddressIsUpdatedInLaneOrder) {
  H h("atom.global.add.u32", {H::reg(1), H::addr(2), H::reg(3)});
  h.poke(kA, 100, 4);
  for (unsigned l = 0; l < 32; ++l) h.set(2, l, kA), h.set(3, l, l + 1), h.set(1, l, 0xEE);
  const LaneMask mask = 0xF0F0F0F0u;
  h.run(mask);
  uint64_t sum = 100;
  for (unsigned l = 0; l < 32; ++l) {
    if (!((mask >> l) & 1)) {
      EXPECT_EQ(h.get(1, l), 0xEEu) << "lane " << l << " does not execute";
      continue;
    }
    EXPECT_EQ(h.get(1, l), sum) << "lane " << l;
    sum += l + 1;
  }
  EXPECT_EQ(h.peek(kA, 4), sum);
}

TEST(AtomLanes, EachLaneItsOwnAddress) {
  H h("atom.global.exch.b32", {H::reg(1), H::addr(2, 8), H::reg(3)});
  for (unsigned l = 0; l < 32; ++l)
    h.set(2, l, kA + 4 * l), h.poke(kA + 8 + 4 * l, l, 4), h.set(3, l, 1000 + l);
  h.run();
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(h.get(1, l), l) << l;
    EXPECT_EQ(h.peek(kA + 8 + 4 * l, 4), 1000 + l) << l;
  }
}

TEST(AtomAddressing, OffsetAnd32BitBaseZeroExtended) {
  H h("atom.shared.add.u32", {H::reg(1), H::addr(2, 0x10, Type::U32), H::reg(3)});
  h.set(2, 0, 0xFFFFFFF8ull);  // 0xFFFFFFF8 + 0x10 wraps to 0x8 in 32 bits
  h.set(3, 0, 1);
  h.poke(0x8, 41, 4);
  h.run(1);
  EXPECT_EQ(h.peek(0x8, 4), 42u);
  EXPECT_EQ(h.get(1, 0), 41u);
  H abs("atom.global.add.u32", {H::reg(1), H::addr(kNoSlot, 0x40), H::reg(3)});
  abs.set(3, 0, 2);
  abs.run(1);
  EXPECT_EQ(abs.peek(0x40, 4), 2u);
}

TEST(Red, WritesMemoryAndNoRegister) {
  H h("red.global.add.u32", {H::addr(2), H::reg(3)});
  h.set(1, 0, 0x77);
  h.set(2, 0, kA);
  h.set(3, 0, 5);
  h.poke(kA, 10, 4);
  h.run(1);
  EXPECT_EQ(h.peek(kA, 4), 15u);
  EXPECT_EQ(h.get(1, 0), 0x77u);
  h.bind("red.shared.min.s32", {H::addr(2), H::reg(3)});
  h.set(3, 0, 0xFFFFFFFF);
  h.run(1);
  EXPECT_EQ(h.peek(kA, 4), 0xFFFFFFFFu);
  h.bind("red.release.gpu.global.inc.u32", {H::addr(2), H::reg(3)});
  h.poke(kA, 3, 4);
  h.set(3, 0, 3);
  h.run(1);
  EXPECT_EQ(h.peek(kA, 4), 0u);
}

TEST(AtomForms, SinkDestinationCacheHintAndOrders) {
  H h("atom.global.add.u32", {H::sink(), H::addr(2), H::reg(3)});
  h.set(2, 0, kA);
  h.set(3, 0, 3);
  h.run(1);
  EXPECT_EQ(h.peek(kA, 4), 3u);
  H hint("atom.global.add.L2::cache_hint.u32", {H::reg(1), H::addr(2), H::reg(3), H::reg(4)});
  hint.set(2, 0, kA);
  hint.set(3, 0, 3);
  hint.run(1);
  EXPECT_EQ(hint.peek(kA, 4), 3u);
  EXPECT_NO_THROW(
      H("atom.acq_rel.sys.global.cas.b32", {H::reg(1), H::addr(2), H::reg(3), H::reg(4)}));
  EXPECT_NO_THROW(
      H("atom.acquire.cluster.shared::cluster.exch.b64", {H::reg(1), H::addr(2), H::reg(3)}));
}

TEST(AtomForms, ClassFollowsTheSpace) {
  auto cls = [](const std::string& op) {
    return H(op, {H::reg(1), H::addr(2), H::reg(3)}).inst().cls;
  };
  EXPECT_EQ(cls("atom.shared.add.u32"), InsnClass::AtomicShared);
  EXPECT_EQ(cls("atom.shared::cta.add.u32"), InsnClass::AtomicShared);
  EXPECT_EQ(cls("atom.shared::cluster.add.u32"), InsnClass::AtomicShared);
  EXPECT_EQ(cls("atom.global.add.u32"), InsnClass::AtomicGlobal);
  EXPECT_EQ(cls("atom.add.u32"), InsnClass::AtomicGlobal);
  EXPECT_EQ(H("red.shared.add.u32", {H::addr(2), H::reg(3)}).inst().cls, InsnClass::AtomicShared);
}

TEST(AtomForms, B128IsReportedAsNotSupportedWhenExecuted) {
  H h("atom.global.exch.b128", {H::reg(1), H::addr(2), H::reg(3)});
  h.set(2, 0, kA);
  h.run(0);  // no lane executes: nothing happens
  try {
    h.run(1);
    FAIL() << "expected a fault";
  } catch (const HarnessFault& f) {
    EXPECT_NE(std::string(f.what()).find("not supported yet"), std::string::npos) << f.what();
  }
  EXPECT_NO_THROW(H("atom.shared.cas.b128", {H::reg(1), H::addr(2), H::reg(3), H::reg(4)}));
  EXPECT_NO_THROW(
      H("atom.global.exch.L2::cache_hint.b128", {H::reg(1), H::addr(2), H::reg(3), H::reg(4)}));
}

// ---- vector forms --------------------------------------------------------------------------

TEST(AtomVector, F32V4AddsFourConsecutiveWordsAndReturnsEach) {
  H h("atom.global.v4.f32.add",
      {H::vec({H::reg(10), H::reg(11), H::sink(), H::reg(13)}), H::addr(2),
       H::vec({H::reg(20), H::reg(21), H::reg(22), H::reg(23)})});
  h.set(2, 0, kA);
  const float old[4] = {1.0f, 2.0f, 3.0f, 1e-40f}, add[4] = {0.5f, -2.0f, 1e30f, 1e-40f};
  for (int i = 0; i < 4; ++i)
    h.poke(kA + 4 * i, std::bit_cast<uint32_t>(old[i]), 4),
        h.set(20 + i, 0, std::bit_cast<uint32_t>(add[i]));
  h.poke(kA + 16, 0x5A, 1);
  h.run(1);
  EXPECT_EQ(h.peek(kA, 4), std::bit_cast<uint32_t>(1.5f));
  EXPECT_EQ(h.peek(kA + 4, 4), 0u);
  EXPECT_EQ(h.peek(kA + 8, 4), std::bit_cast<uint32_t>(1e30f));
  EXPECT_EQ(h.peek(kA + 12, 4), 0u) << "global f32 atomics flush subnormals";
  EXPECT_EQ(h.peek(kA + 16, 1), 0x5Au);
  EXPECT_EQ(h.get(10, 0), std::bit_cast<uint32_t>(1.0f));
  EXPECT_EQ(h.get(11, 0), std::bit_cast<uint32_t>(2.0f));
  EXPECT_EQ(h.get(13, 0), std::bit_cast<uint32_t>(1e-40f)) << "d holds the old bits unflushed";
}

TEST(AtomVector, RedV8Bf16AndV2F16x2Min) {
  std::vector<Opnd> src;
  for (uint32_t i = 0; i < 8; ++i) src.push_back(H::reg(20 + i));
  H h("red.global.v8.bf16.add.noftz", {H::addr(2), H::vec(src)});
  h.set(2, 0, kA);
  for (unsigned i = 0; i < 8; ++i)
    h.poke(kA + 2 * i, 0x3F80, 2), h.set(20 + i, 0, i == 7 ? 0x7FC1 : 0x3F80 + (i << 7));
  h.run(1);
  for (unsigned i = 0; i < 7; ++i) {
    const float want = 1.0f + std::bit_cast<float>(uint32_t(0x3F80 + (i << 7)) << 16);
    EXPECT_EQ(h.peek(kA + 2 * i, 2), std::bit_cast<uint32_t>(want) >> 16) << i;
  }
  EXPECT_EQ(h.peek(kA + 14, 2), 0x7FFFu);
  H m("atom.global.v2.f16x2.min.noftz",
      {H::vec({H::reg(10), H::reg(11)}), H::addr(2), H::vec({H::reg(20), H::reg(21)})});
  m.set(2, 0, kA);
  m.poke(kA, 0x3C00BC00, 4);      // {-1, 1}
  m.poke(kA + 4, 0x7E010000, 4);  // {+0, NaN}
  m.set(20, 0, 0x4000C000);       // {-2, 2}
  m.set(21, 0, 0x3C008000);       // {-0, 1}
  m.run(1);
  EXPECT_EQ(m.peek(kA, 4), 0x3C00C000u);
  EXPECT_EQ(m.peek(kA + 4, 4), 0x3C008000u);
  EXPECT_EQ(m.get(10, 0), 0x3C00BC00u);
  EXPECT_EQ(m.get(11, 0), 0x7E010000u);
}

// ---- the H200's floating-point results ------------------------------------------------------

struct H200Case {
  const char* opcode;
  char where;  // G global, S shared, g generic -> global, s generic -> shared
  std::vector<std::array<uint64_t, 3>> cases;  // {old, b, memory after}
};

// clang-format off
const std::vector<H200Case> kH200 = {
    {"atom.global.add.f32", 'G', {
        {0x1, 0x0, 0x0}, {0x80000001, 0x0, 0x0}, {0x800001, 0x80800000, 0x0}, {0x0, 0x3, 0x0},
        {0x7fffff, 0x1, 0x0}, {0x7fc00001, 0x3f800000, 0x7fffffff},
        {0x3f800000, 0xffc00002, 0x7fffffff}, {0x7f800001, 0x3f800000, 0x7fffffff},
        {0x7f800000, 0xff800000, 0x7fffffff}, {0x7f7fffff, 0x7f7fffff, 0x7f800000},
        {0x80000000, 0x80000000, 0x80000000}, {0x80000000, 0x0, 0x0},
        {0x3f800000, 0x33800000, 0x3f800000}, {0x3f800001, 0x33800000, 0x3f800002},
        {0x3f800000, 0xbf800000, 0x0}, {0x0, 0x80000001, 0x0}, {0x400000, 0x400000, 0x0},
     }},
    {"atom.shared.add.f32", 'S', {
        {0x1, 0x0, 0x1}, {0x80000001, 0x0, 0x80000001}, {0x800001, 0x80800000, 0x1},
        {0x0, 0x3, 0x3}, {0x7fffff, 0x1, 0x800000}, {0x7fc00001, 0x3f800000, 0x7fffffff},
        {0x3f800000, 0xffc00002, 0x7fffffff}, {0x7f800001, 0x3f800000, 0x7fffffff},
        {0x7f800000, 0xff800000, 0x7fffffff}, {0x7f7fffff, 0x7f7fffff, 0x7f800000},
        {0x80000000, 0x80000000, 0x80000000}, {0x80000000, 0x0, 0x0},
        {0x3f800000, 0x33800000, 0x3f800000}, {0x3f800001, 0x33800000, 0x3f800002},
        {0x3f800000, 0xbf800000, 0x0}, {0x0, 0x80000001, 0x80000001},
        {0x400000, 0x400000, 0x800000},
     }},
    {"atom.add.f32", 'g', {
        {0x1, 0x0, 0x0}, {0x80000001, 0x0, 0x0}, {0x800001, 0x80800000, 0x0}, {0x0, 0x3, 0x0},
        {0x7fffff, 0x1, 0x0}, {0x7fc00001, 0x3f800000, 0x7fffffff},
        {0x3f800000, 0xffc00002, 0x7fffffff}, {0x7f800001, 0x3f800000, 0x7fffffff},
        {0x7f800000, 0xff800000, 0x7fffffff}, {0x7f7fffff, 0x7f7fffff, 0x7f800000},
        {0x80000000, 0x80000000, 0x80000000}, {0x80000000, 0x0, 0x0},
        {0x3f800000, 0x33800000, 0x3f800000}, {0x3f800001, 0x33800000, 0x3f800002},
        {0x3f800000, 0xbf800000, 0x0}, {0x0, 0x80000001, 0x0}, {0x400000, 0x400000, 0x0},
     }},
    {"atom.add.f32", 's', {
        {0x1, 0x0, 0x1}, {0x80000001, 0x0, 0x80000001}, {0x800001, 0x80800000, 0x1},
        {0x0, 0x3, 0x3}, {0x7fffff, 0x1, 0x800000}, {0x7fc00001, 0x3f800000, 0x7fffffff},
        {0x3f800000, 0xffc00002, 0x7fffffff}, {0x7f800001, 0x3f800000, 0x7fffffff},
        {0x7f800000, 0xff800000, 0x7fffffff}, {0x7f7fffff, 0x7f7fffff, 0x7f800000},
        {0x80000000, 0x80000000, 0x80000000}, {0x80000000, 0x0, 0x0},
        {0x3f800000, 0x33800000, 0x3f800000}, {0x3f800001, 0x33800000, 0x3f800002},
        {0x3f800000, 0xbf800000, 0x0}, {0x0, 0x80000001, 0x80000001},
        {0x400000, 0x400000, 0x800000},
     }},
    {"atom.shared::cluster.add.f32", 'S', {
        {0x1, 0x0, 0x1}, {0x80000001, 0x0, 0x80000001}, {0x800001, 0x80800000, 0x1},
        {0x0, 0x3, 0x3}, {0x7fffff, 0x1, 0x800000}, {0x7fc00001, 0x3f800000, 0x7fffffff},
        {0x3f800000, 0xffc00002, 0x7fffffff}, {0x7f800001, 0x3f800000, 0x7fffffff},
        {0x7f800000, 0xff800000, 0x7fffffff}, {0x7f7fffff, 0x7f7fffff, 0x7f800000},
        {0x80000000, 0x80000000, 0x80000000}, {0x80000000, 0x0, 0x0},
        {0x3f800000, 0x33800000, 0x3f800000}, {0x3f800001, 0x33800000, 0x3f800002},
        {0x3f800000, 0xbf800000, 0x0}, {0x0, 0x80000001, 0x80000001},
        {0x400000, 0x400000, 0x800000},
     }},
    {"atom.global.v2.f32.add", 'G', {
        {0x3f80000000000001, 0x100000000, 0x3f80000000000000},
        {0x3f80000080000001, 0x100000000, 0x3f80000000000000},
        {0x3f80000000800001, 0x180800000, 0x3f80000000000000},
        {0x3f80000000000000, 0x100000003, 0x3f80000000000000},
        {0x3f800000007fffff, 0x100000001, 0x3f80000000000000},
        {0x3f8000007fc00001, 0x13f800000, 0x3f8000007fffffff},
        {0x3f8000003f800000, 0x1ffc00002, 0x3f8000007fffffff},
        {0x3f8000007f800001, 0x13f800000, 0x3f8000007fffffff},
        {0x3f8000007f800000, 0x1ff800000, 0x3f8000007fffffff},
        {0x3f8000007f7fffff, 0x17f7fffff, 0x3f8000007f800000},
        {0x3f80000080000000, 0x180000000, 0x3f80000080000000},
        {0x3f80000080000000, 0x100000000, 0x3f80000000000000},
        {0x3f8000003f800000, 0x133800000, 0x3f8000003f800000},
        {0x3f8000003f800001, 0x133800000, 0x3f8000003f800002},
        {0x3f8000003f800000, 0x1bf800000, 0x3f80000000000000},
        {0x3f80000000000000, 0x180000001, 0x3f80000000000000},
        {0x3f80000000400000, 0x100400000, 0x3f80000000000000},
     }},
    {"atom.global.add.f64", 'G', {
        {0x1, 0x0, 0x1}, {0x8000000000000001, 0x0, 0x8000000000000001},
        {0x7ff0000000000001, 0x3ff0000000000000, 0x7ff0000000000001},
        {0x3ff0000000000000, 0x7ff8000000000005, 0x7ff8000000000005},
        {0x7ff8000000000007, 0xfff8000000000009, 0xfff8000000000009},
        {0x7ff0000000000000, 0xfff0000000000000, 0xfff8000000000000},
        {0x8000000000000000, 0x8000000000000000, 0x8000000000000000},
        {0x3ff0000000000000, 0x3ca0000000000000, 0x3ff0000000000000},
        {0x3ff0000000000000, 0x7ff0000000000005, 0x7ff0000000000005},
        {0x7ff8000000000007, 0x7ff0000000000009, 0x7ff0000000000009},
        {0x7ff0000000000007, 0x7ff8000000000009, 0x7ff8000000000009},
        {0x1, 0x8000000000000000, 0x1},
        {0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000},
        {0x400000, 0x400000, 0x800000}, {0x7fc00001, 0x3f800000, 0xbf400001},
     }},
    {"atom.global.add.noftz.f16", 'G', {
        {0x1, 0x0, 0x1}, {0x8001, 0x0, 0x8001}, {0x1, 0x1, 0x2}, {0x3ff, 0x1, 0x400},
        {0x7e01, 0x3c00, 0x7fff}, {0x3c00, 0xfe05, 0x7fff}, {0x7d00, 0x3c00, 0x7fff},
        {0x7c00, 0xfc00, 0x7fff}, {0x7bff, 0x7bff, 0x7c00}, {0x8000, 0x8000, 0x8000},
        {0x8000, 0x0, 0x0}, {0x3c00, 0x1000, 0x3c00}, {0x3c01, 0x1000, 0x3c02},
        {0x3c00, 0xbc00, 0x0},
     }},
    {"atom.shared.add.noftz.f16", 'S', {
        {0x1, 0x0, 0x1}, {0x8001, 0x0, 0x8001}, {0x1, 0x1, 0x2}, {0x3ff, 0x1, 0x400},
        {0x7e01, 0x3c00, 0x7fff}, {0x3c00, 0xfe05, 0x7fff}, {0x7d00, 0x3c00, 0x7fff},
        {0x7c00, 0xfc00, 0x7fff}, {0x7bff, 0x7bff, 0x7c00}, {0x8000, 0x8000, 0x8000},
        {0x8000, 0x0, 0x0}, {0x3c00, 0x1000, 0x3c00}, {0x3c01, 0x1000, 0x3c02},
        {0x3c00, 0xbc00, 0x0},
     }},
    {"atom.global.add.noftz.f16x2", 'G', {
        {0x3c000001, 0xfe050000, 0x7fff0001}, {0x7d008001, 0x3c000000, 0x7fff8001},
        {0x7c000001, 0xfc000001, 0x7fff0002}, {0x7bff03ff, 0x7bff0001, 0x7c000400},
        {0x80007e01, 0x80003c00, 0x80007fff}, {0x80003c00, 0xfe05, 0x7fff},
        {0x3c007d00, 0x10003c00, 0x3c007fff}, {0x3c017c00, 0x1000fc00, 0x3c027fff},
        {0x3c007bff, 0xbc007bff, 0x7c00}, {0x18000, 0x8000, 0x18000},
        {0x80018000, 0x0, 0x80010000}, {0x13c00, 0x11000, 0x23c00},
        {0x3ff3c01, 0x11000, 0x4003c02}, {0x7e013c00, 0x3c00bc00, 0x7fff0000},
     }},
    {"atom.global.add.noftz.bf16", 'G', {
        {0x1, 0x0, 0x1}, {0x8001, 0x0, 0x8001}, {0x1, 0x1, 0x2}, {0x7f, 0x1, 0x80},
        {0x7fc1, 0x3f80, 0x7fff}, {0x3f80, 0xffc5, 0x7fff}, {0x7f81, 0x3f80, 0x7fff},
        {0x7f80, 0xff80, 0x7fff}, {0x7f7f, 0x7f7f, 0x7f80}, {0x8000, 0x8000, 0x8000},
        {0x8000, 0x0, 0x0}, {0x3f80, 0x3b80, 0x3f80}, {0x3f81, 0x3b80, 0x3f82},
        {0x3f80, 0xbf80, 0x0},
     }},
    {"atom.global.add.noftz.bf16x2", 'G', {
        {0x7f0001, 0x10000, 0x800001}, {0x7fc18001, 0x3f800000, 0x7fff8001},
        {0x3f800001, 0xffc50001, 0x7fff0002}, {0x7f81007f, 0x3f800001, 0x7fff0080},
        {0x7f807fc1, 0xff803f80, 0x7fff7fff}, {0x7f7f3f80, 0x7f7fffc5, 0x7f807fff},
        {0x80007f81, 0x80003f80, 0x80007fff}, {0x80007f80, 0xff80, 0x7fff},
        {0x3f807f7f, 0x3b807f7f, 0x3f807f80}, {0x3f818000, 0x3b808000, 0x3f828000},
        {0x3f808000, 0xbf800000, 0x0}, {0x13f80, 0x3b80, 0x13f80},
        {0x80013f81, 0x3b80, 0x80013f82}, {0x13f80, 0x1bf80, 0x20000},
     }},
    {"atom.global.v2.f16.min.noftz", 'G', {
        {0x3c007e01, 0x7e013c00, 0x3c003c00}, {0x7e013c00, 0xfe057e01, 0x7fff3c00},
        {0x80007e01, 0xfe05, 0x80007fff}, {0x8000, 0x80000000, 0x80008000},
        {0x10000, 0x8000, 0x8000}, {0x7d000001, 0x3c000000, 0x3c000000},
        {0x3c007d00, 0x7d003c00, 0x3c003c00}, {0xfc003c00, 0x7c007d00, 0xfc003c00},
        {0x8001fc00, 0x17c00, 0x8001fc00}, {0x7e018001, 0x3c000001, 0x3c008001},
     }},
    {"atom.global.v2.f16.max.noftz", 'G', {
        {0x3c007e01, 0x7e013c00, 0x3c003c00}, {0x7e013c00, 0xfe057e01, 0x7fff3c00},
        {0x80007e01, 0xfe05, 0x7fff}, {0x8000, 0x80000000, 0x0}, {0x10000, 0x8000, 0x10000},
        {0x7d000001, 0x3c000000, 0x3c000001}, {0x3c007d00, 0x7d003c00, 0x3c003c00},
        {0xfc003c00, 0x7c007d00, 0x7c003c00}, {0x8001fc00, 0x17c00, 0x17c00},
        {0x7e018001, 0x3c000001, 0x3c000001},
     }},
    {"atom.global.v2.bf16.min.noftz", 'G', {
        {0x3f807fc1, 0x7fc13f80, 0x3f803f80}, {0x7fc13f80, 0xffc57fc1, 0x7fff3f80},
        {0x80007fc1, 0xffc5, 0x80007fff}, {0x8000, 0x80000000, 0x80008000},
        {0x10000, 0x8000, 0x8000}, {0x7f810001, 0x3f800000, 0x3f800000},
        {0x3f807f81, 0x7f813f80, 0x3f803f80}, {0xff803f80, 0x7f807f81, 0xff803f80},
        {0x8001ff80, 0x17f80, 0x8001ff80}, {0x7fc18001, 0x3f800001, 0x3f808001},
     }},
    {"atom.global.v2.bf16.max.noftz", 'G', {
        {0x3f807fc1, 0x7fc13f80, 0x3f803f80}, {0x7fc13f80, 0xffc57fc1, 0x7fff3f80},
        {0x80007fc1, 0xffc5, 0x7fff}, {0x8000, 0x80000000, 0x0}, {0x10000, 0x8000, 0x10000},
        {0x7f810001, 0x3f800000, 0x3f800001}, {0x3f807f81, 0x7f813f80, 0x3f803f80},
        {0xff803f80, 0x7f807f81, 0x7f803f80}, {0x8001ff80, 0x17f80, 0x17f80},
        {0x7fc18001, 0x3f800001, 0x3f800001},
     }},
    {"atom.global.v2.f16x2.min.noftz", 'G', {
        {0x3c007e013c007e01, 0x7e013c007e013c00, 0x3c003c003c003c00},
        {0x7e013c007e013c00, 0xfe057e01fe057e01, 0x7fff3c007fff3c00},
        {0x80007e0180007e01, 0xfe050000fe05, 0x80007fff80007fff},
        {0x800000008000, 0x8000000080000000, 0x8000800080008000},
        {0x1000000010000, 0x800000008000, 0x800000008000},
        {0x7d0000017d000001, 0x3c0000003c000000, 0x3c0000003c000000},
        {0x3c007d003c007d00, 0x7d003c007d003c00, 0x3c003c003c003c00},
        {0xfc003c00fc003c00, 0x7c007d007c007d00, 0xfc003c00fc003c00},
        {0x8001fc008001fc00, 0x17c0000017c00, 0x8001fc008001fc00},
        {0x7e0180017e018001, 0x3c0000013c000001, 0x3c0080013c008001},
     }},
    {"atom.global.inc.u32", 'G', {
        {0x5, 0x5, 0x0}, {0x6, 0x5, 0x0}, {0x0, 0x5, 0x1}, {0x0, 0x0, 0x0}, {0x7, 0x0, 0x0},
        {0xffffffff, 0xffffffff, 0x0}, {0x3, 0xffffffff, 0x4}, {0xffffffff, 0x3, 0x0},
        {0x4, 0x5, 0x5},
     }},
    {"atom.global.dec.u32", 'G', {
        {0x5, 0x5, 0x4}, {0x6, 0x5, 0x5}, {0x0, 0x5, 0x5}, {0x0, 0x0, 0x0}, {0x7, 0x0, 0x0},
        {0xffffffff, 0xffffffff, 0xfffffffe}, {0x3, 0xffffffff, 0x2}, {0xffffffff, 0x3, 0x3},
        {0x4, 0x5, 0x3},
     }},
    {"atom.add.noftz.f16", 's', {
        {0x1, 0x0, 0x1}, {0x8001, 0x0, 0x8001}, {0x1, 0x1, 0x2}, {0x3ff, 0x1, 0x400},
        {0x7e01, 0x3c00, 0x7fff}, {0x3c00, 0xfe05, 0x7fff}, {0x7d00, 0x3c00, 0x7fff},
        {0x7c00, 0xfc00, 0x7fff}, {0x7bff, 0x7bff, 0x7c00}, {0x8000, 0x8000, 0x8000},
        {0x8000, 0x0, 0x0}, {0x3c00, 0x1000, 0x3c00}, {0x3c01, 0x1000, 0x3c02},
        {0x3c00, 0xbc00, 0x0},
     }},
    {"atom.shared.add.f64", 'S', {
        {0x1, 0x0, 0x1}, {0x8000000000000001, 0x0, 0x8000000000000001},
        {0x7ff0000000000001, 0x3ff0000000000000, 0x7ff8000000000001},
        {0x3ff0000000000000, 0x7ff8000000000005, 0x7ff8000000000005},
        {0x7ff8000000000007, 0xfff8000000000009, 0x7ff8000000000007},
        {0x7ff0000000000000, 0xfff0000000000000, 0xfff8000000000000},
        {0x8000000000000000, 0x8000000000000000, 0x8000000000000000},
        {0x3ff0000000000000, 0x3ca0000000000000, 0x3ff0000000000000},
        {0x3ff0000000000000, 0x7ff0000000000005, 0x7ff8000000000005},
        {0x7ff8000000000007, 0x7ff0000000000009, 0x7ff8000000000007},
        {0x7ff0000000000007, 0x7ff8000000000009, 0x7ff8000000000007},
        {0x1, 0x8000000000000000, 0x1},
        {0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000},
        {0x400000, 0x400000, 0x800000}, {0x7fc00001, 0x3f800000, 0xbf400001},
     }},
    {"atom.add.f64", 's', {
        {0x7ff0000000000001, 0x3ff0000000000000, 0x7ff8000000000001},
        {0x3ff0000000000000, 0x7ff0000000000005, 0x7ff8000000000005},
        {0x7ff8000000000007, 0x7ff0000000000009, 0x7ff8000000000007},
        {0x7ff0000000000007, 0x7ff8000000000009, 0x7ff8000000000007},
        {0x7ff8000000000007, 0xfff8000000000009, 0x7ff8000000000007},
        {0x7ff0000000000000, 0xfff0000000000000, 0xfff8000000000000},
        {0x1, 0x8000000000000000, 0x1},
        {0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000}, {0x1, 0x0, 0x1},
        {0x400000, 0x400000, 0x800000}, {0x7fc00001, 0x3f800000, 0xbf400001},
     }},
    {"atom.add.f64", 'g', {
        {0x7ff0000000000001, 0x3ff0000000000000, 0x7ff0000000000001},
        {0x3ff0000000000000, 0x7ff0000000000005, 0x7ff0000000000005},
        {0x7ff8000000000007, 0x7ff0000000000009, 0x7ff0000000000009},
        {0x7ff0000000000007, 0x7ff8000000000009, 0x7ff8000000000009},
        {0x7ff8000000000007, 0xfff8000000000009, 0xfff8000000000009},
        {0x7ff0000000000000, 0xfff0000000000000, 0xfff8000000000000},
        {0x1, 0x8000000000000000, 0x1},
        {0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000}, {0x1, 0x0, 0x1},
        {0x400000, 0x400000, 0x800000}, {0x7fc00001, 0x3f800000, 0xbf400001},
     }},
    {"red.global.add.f64", 'G', {
        {0x7ff0000000000001, 0x3ff0000000000000, 0x7ff0000000000001},
        {0x3ff0000000000000, 0x7ff0000000000005, 0x7ff0000000000005},
        {0x7ff8000000000007, 0x7ff0000000000009, 0x7ff0000000000009},
        {0x7ff0000000000007, 0x7ff8000000000009, 0x7ff8000000000009},
        {0x7ff8000000000007, 0xfff8000000000009, 0xfff8000000000009},
        {0x7ff0000000000000, 0xfff0000000000000, 0xfff8000000000000},
        {0x1, 0x8000000000000000, 0x1},
        {0x7ff0000000000000, 0x7ff0000000000000, 0x7ff0000000000000}, {0x1, 0x0, 0x1},
        {0x400000, 0x400000, 0x800000}, {0x7fc00001, 0x3f800000, 0xbf400001},
     }},
    {"red.global.add.f32", 'G', {
        {0x1, 0x0, 0x0}, {0x0, 0x5, 0x0}, {0x7, 0x9, 0x0}, {0x0, 0x0, 0x0},
        {0x400000, 0x400000, 0x0}, {0x7fc00001, 0x3f800000, 0x7fffffff},
     }},
    {"red.shared.add.f32", 'S', {
        {0x1, 0x0, 0x1}, {0x0, 0x5, 0x5}, {0x7, 0x9, 0x10}, {0x0, 0x0, 0x0},
        {0x400000, 0x400000, 0x800000}, {0x7fc00001, 0x3f800000, 0x7fffffff},
     }},
};
// clang-format on

TEST(AtomH200, RecordedFloatAndIncDecResults) {
  int checked = 0;
  for (const H200Case& k : kH200) {
    const std::string op = k.opcode;
    const bool red = op.rfind("red", 0) == 0;
    Mods mods = decodeMods({});
    {
      std::vector<std::string> words;
      std::stringstream ss(op);
      for (std::string w; std::getline(ss, w, '.');) words.push_back(w);
      mods = decodeMods(std::vector<std::string>(words.begin() + 1, words.end()));
    }
    const unsigned vec = mods.vec, bytes = typeBytes(mods.type());
    std::vector<Opnd> d, b;
    for (unsigned i = 0; i < vec; ++i) d.push_back(H::reg(10 + i)), b.push_back(H::reg(20 + i));
    std::vector<Opnd> ops;
    if (!red) ops.push_back(vec == 1 ? d[0] : H::vec(d));
    ops.push_back(H::addr(2));
    ops.push_back(vec == 1 ? b[0] : H::vec(b));
    for (const auto& [old, bv, after] : k.cases) {
      Rig rig(op, ops);
      const uint64_t addr = (k.where == 'S' ? 0x200 : k.where == 's' ? kSharedWindow + 0x200 : kA);
      rig.r(2, 0) = addr;
      for (unsigned i = 0; i < vec; ++i)
        rig.r(20 + i, 0) = (bv >> (8 * bytes * i)) & lowMask(8 * bytes);
      rig.m.poke(addr, old, vec * bytes);
      rig.run(1);
      EXPECT_EQ(rig.m.peek(addr, vec * bytes), after)
          << op << " (" << k.where << ") old=0x" << std::hex << old << " b=0x" << bv;
      if (!red) {
        for (unsigned i = 0; i < vec; ++i)
          EXPECT_EQ(rig.r(10 + i, 0), (old >> (8 * bytes * i)) & lowMask(8 * bytes)) << op;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(AtomGeneric, EachLaneRoundsAsTheSpaceItsAddressIsIn) {
  Rig rig("atom.add.f32", {H::reg(1), H::addr(2), H::reg(3)});
  for (unsigned l = 0; l < 32; ++l) {
    rig.r(2, l) = (l % 3 == 0 ? kSharedWindow : 0) + 0x100 + 4 * l;
    rig.r(3, l) = 0x00000001;  // the smallest subnormal
    rig.m.poke(rig.r(2, l), 0x00000002, 4);
  }
  rig.run(0xFFFFFFFEu);
  for (unsigned l = 1; l < 32; ++l) {
    EXPECT_EQ(rig.m.peek(rig.r(2, l), 4), l % 3 == 0 ? 3u : 0u) << "lane " << l;
    EXPECT_EQ(rig.r(1, l), 2u);
  }
  EXPECT_EQ(rig.m.peek(rig.r(2, 0), 4), 2u) << "lane 0 does not execute";
}

// ---- the form table: what binds and what is refused ----------------------------------------

// Operands for a form: atom d, [a], b [, c] [, policy]; red [a], b [, policy]; vectors where .vN.
std::vector<Opnd> operandsFor(const std::string& text, int extra = 0) {
  std::vector<std::string> w;
  std::stringstream ss(text);
  for (std::string s; std::getline(ss, s, '.');) w.push_back(s);
  const Mods m = decodeMods(std::vector<std::string>(w.begin() + 1, w.end()));
  const bool red = w[0] == "red";
  auto data = [&](uint32_t base) {
    if (m.vec == 1) return H::reg(base);
    std::vector<Opnd> e;
    for (uint32_t i = 0; i < m.vec; ++i) e.push_back(H::reg(base + i));
    return H::vec(e);
  };
  std::vector<Opnd> ops;
  if (!red) ops.push_back(data(10));
  ops.push_back(H::addr(2));
  ops.push_back(data(20));
  if (m.has("cas")) ops.push_back(H::reg(4));
  if (m.has("L2::cache_hint")) ops.push_back(H::reg(5));
  for (int i = 0; i < extra; ++i) ops.push_back(H::reg(6));
  for (int i = 0; i > extra; --i) ops.pop_back();
  return ops;
}

std::string tryForm(const std::string& text, int extra = 0) {
  H h("atom.global.add.u32", {H::reg(1), H::addr(2), H::reg(3)});
  return h.tryBind(text, operandsFor(text, extra));
}

TEST(AtomTable, FormsPtxasAcceptsBind) {
  // Each of these assembled with ptxas 13.0 for sm_90.
  for (const char* f : {"atom.global.min.s64",
                        "atom.global.add.f32",
                        "atom.global.add.f64",
                        "atom.shared.add.f64",
                        "atom.global.add.noftz.f16",
                        "atom.global.add.noftz.f16x2",
                        "atom.global.add.noftz.bf16",
                        "atom.global.add.noftz.bf16x2",
                        "atom.shared.add.noftz.bf16x2",
                        "atom.global.noftz.add.f16",
                        "atom.shared::cluster.add.noftz.f16",
                        "atom.shared::cluster.add.f32",
                        "atom.global.cas.b16",
                        "atom.shared.cas.b16",
                        "atom.global.exch.b128",
                        "atom.global.cas.b128",
                        "atom.shared.exch.b128",
                        "atom.global.v2.f16x2.min.noftz",
                        "atom.global.v8.f16.max.noftz",
                        "atom.global.v8.bf16.add.noftz",
                        "atom.global.v4.f16.add.noftz",
                        "atom.global.v2.f16.add.noftz",
                        "atom.global.v4.f32.add",
                        "atom.global.v2.f32.add",
                        "atom.v2.f32.add",
                        "atom.global.add.v2.f32",
                        "atom.global.v4.f16x2.add.noftz",
                        "atom.global.v4.bf16x2.max.noftz",
                        "atom.acq_rel.gpu.global.add.u32",
                        "atom.global.acq_rel.gpu.add.u32",
                        "atom.release.cluster.shared::cluster.add.u32",
                        "atom.global.add.L2::cache_hint.u32",
                        "atom.shared::cta.add.u32",
                        "atom.global.cta.add.u32",
                        "atom.global.exch.b64",
                        "atom.sys.add.u32",
                        "atom.global.release.add.u32",
                        "atom.global.or.b64",
                        "atom.global.exch.L2::cache_hint.b128",
                        "atom.global.v4.f32.add.L2::cache_hint",
                        "atom.global.v2.f16.min.noftz.L2::cache_hint",
                        "atom.global.inc.u32",
                        "atom.global.dec.u32",
                        "atom.global.add.u64",
                        "atom.global.add.s32",
                        "red.global.add.u32",
                        "red.global.add.u64",
                        "red.global.inc.u32",
                        "red.global.min.s64",
                        "red.global.and.b64",
                        "red.global.add.f32",
                        "red.global.add.f64",
                        "red.global.add.noftz.f16",
                        "red.global.add.noftz.bf16x2",
                        "red.global.v4.f32.add",
                        "red.global.v8.bf16.min.noftz",
                        "red.global.v4.f16x2.max.noftz",
                        "red.release.sys.global.add.u32",
                        "red.relaxed.cta.shared.add.u32",
                        "red.shared::cluster.add.u32",
                        "red.global.add.L2::cache_hint.u32"})
    EXPECT_EQ(tryForm(f), "") << f;
}

TEST(AtomTable, FormsPtxasRefusesAreRejectedWithAMessage) {
  // Each of these was refused by ptxas 13.0 for sm_90 (its message in the comment).
  for (const char* f : {"atom.global.min.f32",
                        "atom.global.max.f64",  // .min requires integer/16-bit float
                        "atom.global.inc.u64",
                        "atom.global.dec.s32",  // .inc/.dec require .u32
                        "atom.global.add.s64",
                        "atom.global.add.b32",  // .add types
                        "atom.global.and.u32",
                        "atom.global.and.s32",  // .and requires .b32/.b64
                        "atom.global.exch.u32",
                        "atom.global.exch.f32",  // .exch requires .b32/.b64/.b128
                        "atom.global.cas.u32",
                        "atom.global.cas.f32",  // unexpected types
                        "atom.global.exch.b16",
                        "atom.global.xor.b16",  // arguments mismatch
                        "atom.global.add.f16",
                        "atom.global.add.f16x2",  // .noftz required
                        "atom.global.v2.bf16.add",
                        "atom.global.add.noftz.f32",  // .noftz illegal for f32
                        "atom.global.add.noftz.f64",
                        "atom.global.add.noftz.u32",
                        "atom.global.v2.f32.add.noftz",
                        "atom.global.min.noftz.f16",
                        "atom.global.min.noftz.f16x2",  // vector modifier required
                        "atom.global.max.noftz.bf16",
                        "atom.global.v2.f32.max",
                        "red.global.v2.f32.max",
                        "atom.shared.v2.f32.add",
                        "red.shared.v2.f32.add",  // vector: global only
                        "atom.global.v8.f16x2.add.noftz",
                        "atom.global.v8.f32.add",  // .v2/.v4 only
                        "atom.global.v2.u32.add",  // no integer vectors
                        "atom.sc.global.add.u32",
                        "atom.weak.global.add.u32",
                        "atom.volatile.global.add.u32",
                        "atom.local.add.u32",
                        "atom.param.add.u32",
                        "atom.const.add.u32",  // state space
                        "atom.global.add.u16",
                        "atom.global.add.s16",
                        "atom.global.min.u16",
                        "atom.shared.add.L2::cache_hint.u32",
                        "atom.global.cas.L2::cache_hint.b32",
                        "red.global.exch.b32",
                        "red.global.cas.b32",
                        "red.acquire.global.add.u32",
                        "red.acq_rel.global.add.u32",
                        "atom.global.u32",
                        "atom.global.add.min.u32",
                        "atom.global.add.u32.s32",
                        "atom.global.add.ftz.f32",
                        "atom.global.add.rn.f32"}) {
    const std::string e = tryForm(f);
    EXPECT_NE(e, "") << f << " should be refused";
  }
  // Operand shapes ptxas refuses: an extra operand, cas without c, red with a destination.
  EXPECT_NE(tryForm("atom.global.add.u32", 1), "");
  EXPECT_NE(tryForm("atom.global.cas.b32", -1), "");
  H h("atom.global.add.u32", {H::reg(1), H::addr(2), H::reg(3)});
  EXPECT_NE(h.tryBind("red.global.add.u32", {H::reg(1), H::addr(2), H::reg(3)}), "");
  EXPECT_NE(h.tryBind("atom.global.add.u32", {H::reg(1), H::reg(2), H::reg(3)}), "");
  EXPECT_NE(h.tryBind("atom.global.add.u32", {H::addr(1), H::addr(2), H::reg(3)}), "");
  EXPECT_NE(h.tryBind("atom.global.v2.f32.add", {H::vec({H::reg(1), H::reg(2)}), H::addr(2),
                                                 H::vec({H::reg(3), H::reg(4), H::reg(5)})}),
            "");
  EXPECT_NE(h.tryBind("atom.global.v2.f32.add", {H::reg(1), H::addr(2), H::reg(3)}), "");
  EXPECT_NE(h.tryBind("atom.global.add.u32", {H::reg(1), H::addr(2), H::sink()}), "");
}

// The rules ptxas 13.0 applies for sm_90, written from its answers (independently of atomic.cpp).
bool ptxasAccepts(const std::string& op, Type t, bool red, const std::string& space, unsigned vec,
                  bool noftz, bool hint, const std::string& order) {
  auto in = [&](std::initializer_list<Type> ts) {
    return std::find(ts.begin(), ts.end(), t) != ts.end();
  };
  const bool half = in({Type::F16, Type::F16x2, Type::BF16, Type::BF16x2});
  bool typeOk = false;
  if (op == "add") typeOk = in({Type::U32, Type::S32, Type::U64, Type::F32, Type::F64}) || half;
  if (op == "min" || op == "max") typeOk = in({Type::U32, Type::S32, Type::U64, Type::S64}) || half;
  if (op == "inc" || op == "dec") typeOk = t == Type::U32;
  if (op == "and" || op == "or" || op == "xor") typeOk = in({Type::B32, Type::B64});
  if (op == "exch") typeOk = !red && in({Type::B32, Type::B64, Type::B128});
  if (op == "cas") typeOk = !red && in({Type::B16, Type::B32, Type::B64, Type::B128});
  if (!typeOk || half != noftz) return false;
  const bool shared = space.rfind("shared", 0) == 0;
  if (space == "local") return false;
  if (vec > 1) {
    if (shared) return false;
    if (t == Type::F32) {
      if (op != "add" || vec > 4) return false;
    } else if (!half || !(op == "add" || op == "min" || op == "max"))
      return false;
    else if ((t == Type::F16x2 || t == Type::BF16x2) && vec > 4)
      return false;
  } else if (half && op != "add") {
    return false;
  }
  if (hint && (shared || op == "cas")) return false;
  if (order == "sc") return false;
  if (red && (order == "acquire" || order == "acq_rel")) return false;
  return true;
}

TEST(AtomTable, EveryCombinationBindsExactlyWhenPtxasWouldAndRunsWithoutCrashing) {
  const std::vector<std::string> opsWords = {"add", "min", "max", "inc",  "dec",
                                             "and", "or",  "xor", "exch", "cas"};
  const std::vector<Type> types = {
      Type::B16, Type::B32,   Type::B64,  Type::B128,   Type::U32, Type::U64, Type::S32, Type::S64,
      Type::F16, Type::F16x2, Type::BF16, Type::BF16x2, Type::F32, Type::F64, Type::U16, Type::S16};
  const std::vector<std::string> spaces = {
      "", "global", "shared", "shared::cta", "shared::cluster", "local"};
  const std::vector<std::string> orders = {"", "relaxed", "acquire", "release", "acq_rel", "sc"};
  H h("atom.global.add.u32", {H::reg(1), H::addr(2), H::reg(3)});
  for (unsigned l = 0; l < 32; ++l) h.set(2, l, kA + 64 * l);
  int bound = 0, refused = 0;
  for (bool red : {false, true})
    for (const auto& op : opsWords)
      for (Type t : types)
        for (const auto& sp : spaces)
          for (unsigned vec : {1u, 2u, 4u, 8u})
            for (bool noftz : {false, true})
              for (bool hint : {false, true})
                for (const auto& ord : orders) {
                  if (!ord.empty() && ord != "acquire" && (vec > 1 || hint || sp != "global"))
                    continue;
                  std::string text = red ? "red" : "atom";
                  if (!ord.empty()) text += "." + ord + ".gpu";
                  if (!sp.empty()) text += "." + sp;
                  text += "." + op;
                  if (noftz) text += ".noftz";
                  if (hint) text += ".L2::cache_hint";
                  if (vec > 1) text += ".v" + std::to_string(vec);
                  text += std::string(".") + typeName(t);
                  std::string err;
                  ASSERT_NO_THROW(err = h.tryBind(text, operandsFor(text))) << text;
                  const bool want = ptxasAccepts(op, t, red, sp, vec, noftz, hint, ord);
                  EXPECT_EQ(err.empty(), want) << text << ": " << err;
                  if (!err.empty()) {
                    ++refused;
                    EXPECT_GT(err.size(), 10u) << text;
                    continue;
                  }
                  ++bound;
                  try {
                    h.run(0x80000001u);
                  } catch (const HarnessFault& f) {
                    EXPECT_EQ(t, Type::B128) << text << ": " << f.what();
                  }
                }
  EXPECT_GT(bound, 500);
  EXPECT_GT(refused, 5000);
}

// ---- properties against host references ----------------------------------------------------

// Values with the special ones weighted in.
rc::Gen<uint64_t> word(unsigned bytes) {
  const uint64_t m = lowMask(8 * bytes), top = 1ull << (8 * bytes - 1);
  return rc::gen::map(
      rc::gen::weightedOneOf<uint64_t>(
          {{4, rc::gen::arbitrary<uint64_t>()},
           {3, rc::gen::elementOf(std::vector<uint64_t>{0, 1, 2, m, m - 1, top, top - 1, top + 1})},
           {2, rc::gen::inRange<uint64_t>(0, 8)}}),
      [m](uint64_t v) { return v & m; });
}

struct IntCase {
  const char* opcode;
  unsigned bytes;
  bool signExtend;
  uint64_t (*ref)(uint64_t old, uint64_t b, uint64_t c);  // the new memory value
};

template <class T>
T cast(uint64_t v) {
  T t;
  std::memcpy(&t, &v, sizeof t);
  return t;
}
template <class T>
uint64_t bitsU(T v) {
  uint64_t u = 0;
  std::memcpy(&u, &v, sizeof v);
  return u;
}

const IntCase kIntCases[] = {
    {"atom.global.add.u32", 4, false,
     [](uint64_t o, uint64_t b, uint64_t) { return uint64_t(uint32_t(o + b)); }},
    {"atom.global.add.s32", 4, true,
     [](uint64_t o, uint64_t b, uint64_t) { return uint64_t(uint32_t(o + b)); }},
    {"atom.global.add.u64", 8, false, [](uint64_t o, uint64_t b, uint64_t) { return o + b; }},
    {"atom.global.min.u32", 4, false,
     [](uint64_t o, uint64_t b, uint64_t) { return std::min(o, b); }},
    {"atom.global.max.u32", 4, false,
     [](uint64_t o, uint64_t b, uint64_t) { return std::max(o, b); }},
    {"atom.global.min.s32", 4, true,
     [](uint64_t o, uint64_t b, uint64_t) {
       return bitsU(std::min(cast<int32_t>(o), cast<int32_t>(b)));
     }},
    {"atom.global.max.s32", 4, true,
     [](uint64_t o, uint64_t b, uint64_t) {
       return bitsU(std::max(cast<int32_t>(o), cast<int32_t>(b)));
     }},
    {"atom.global.min.u64", 8, false,
     [](uint64_t o, uint64_t b, uint64_t) { return std::min(o, b); }},
    {"atom.global.max.u64", 8, false,
     [](uint64_t o, uint64_t b, uint64_t) { return std::max(o, b); }},
    {"atom.global.min.s64", 8, false,
     [](uint64_t o, uint64_t b, uint64_t) {
       return bitsU(std::min(cast<int64_t>(o), cast<int64_t>(b)));
     }},
    {"atom.global.max.s64", 8, false,
     [](uint64_t o, uint64_t b, uint64_t) {
       return bitsU(std::max(cast<int64_t>(o), cast<int64_t>(b)));
     }},
    {"atom.global.inc.u32", 4, false,
     [](uint64_t o, uint64_t b, uint64_t) { return o >= b ? 0 : o + 1; }},
    {"atom.global.dec.u32", 4, false,
     [](uint64_t o, uint64_t b, uint64_t) { return (o == 0 || o > b) ? b : o - 1; }},
    {"atom.global.and.b32", 4, false, [](uint64_t o, uint64_t b, uint64_t) { return o & b; }},
    {"atom.global.or.b32", 4, false, [](uint64_t o, uint64_t b, uint64_t) { return o | b; }},
    {"atom.global.xor.b32", 4, false, [](uint64_t o, uint64_t b, uint64_t) { return o ^ b; }},
    {"atom.global.and.b64", 8, false, [](uint64_t o, uint64_t b, uint64_t) { return o & b; }},
    {"atom.global.or.b64", 8, false, [](uint64_t o, uint64_t b, uint64_t) { return o | b; }},
    {"atom.global.xor.b64", 8, false, [](uint64_t o, uint64_t b, uint64_t) { return o ^ b; }},
    {"atom.global.exch.b32", 4, false, [](uint64_t, uint64_t b, uint64_t) { return b; }},
    {"atom.global.exch.b64", 8, false, [](uint64_t, uint64_t b, uint64_t) { return b; }},
    {"atom.global.cas.b16", 2, false,
     [](uint64_t o, uint64_t b, uint64_t c) { return o == b ? c : o; }},
    {"atom.global.cas.b32", 4, false,
     [](uint64_t o, uint64_t b, uint64_t c) { return o == b ? c : o; }},
    {"atom.global.cas.b64", 8, false,
     [](uint64_t o, uint64_t b, uint64_t c) { return o == b ? c : o; }},
};

RC_GTEST_PROP(AtomProps, IntegerOperationsMatchTheManual, ()) {
  const IntCase& k = kIntCases[*rc::gen::inRange<size_t>(0, std::size(kIntCases))];
  RC_LOG() << k.opcode << "\n";
  const uint64_t old = *word(k.bytes), b = *rc::gen::oneOf(word(k.bytes), rc::gen::just(old));
  const uint64_t c = *word(k.bytes);
  const bool cas = std::string(k.opcode).find(".cas.") != std::string::npos;
  const auto [d, mem] = atom1(k.opcode, old, b, c, cas);
  RC_ASSERT(mem == k.ref(old, b, c));
  RC_ASSERT(d == (k.signExtend ? uint64_t(signExtend(old, 8 * k.bytes)) : old));
}

RC_GTEST_PROP(AtomProps, LanesOnOneAddressSeeEachOthersResults, (uint32_t mask, uint32_t init)) {
  H h("atom.global.add.u32", {H::reg(1), H::addr(2), H::reg(3)});
  std::vector<uint32_t> v =
      *rc::gen::container<std::vector<uint32_t>>(32, rc::gen::arbitrary<uint32_t>());
  h.poke(kA, init, 4);
  for (unsigned l = 0; l < 32; ++l) h.set(2, l, kA), h.set(3, l, v[l]);
  h.run(mask);
  uint32_t sum = init;
  for (unsigned l = 0; l < 32; ++l)
    if ((mask >> l) & 1) {
      RC_ASSERT(h.get(1, l) == sum);
      sum += v[l];
    }
  RC_ASSERT(h.peek(kA, 4) == sum);
}

// f32 add: the host's round-to-nearest float add on (flushed, when global) inputs.
uint32_t refAddF32(uint32_t a, uint32_t b, bool flush) {
  auto fl = [&](uint32_t x) { return flush && (x & 0x7F800000u) == 0 ? x & 0x80000000u : x; };
  float fa, fb;
  const uint32_t ua = fl(a), ub = fl(b);
  std::memcpy(&fa, &ua, 4), std::memcpy(&fb, &ub, 4);
  const float s = fa + fb;
  if (std::isnan(s)) return 0x7FFFFFFFu;
  uint32_t r;
  std::memcpy(&r, &s, 4);
  return fl(r);
}

rc::Gen<uint32_t> f32Bits() {
  return rc::gen::weightedOneOf<uint32_t>(
      {{3, rc::gen::arbitrary<uint32_t>()},
       {2, rc::gen::elementOf(std::vector<uint32_t>{
               0, 0x80000000u, 1, 0x80000001u, 0x007FFFFFu, 0x00800000u, 0x80800000u, 0x7F800000u,
               0xFF800000u, 0x7FC00000u, 0x7F800001u, 0x7F7FFFFFu, 0x3F800000u, 0x33800000u})},
       {2,
        rc::gen::map(rc::gen::arbitrary<uint32_t>(), [](uint32_t x) { return x & 0x80FFFFFFu; })}});
}

RC_GTEST_PROP(AtomProps, F32AddFlushesOnGlobalOnly, ()) {
  const uint32_t a = *f32Bits(), b = *f32Bits();
  RC_ASSERT(atom1("atom.global.add.f32", a, b).second == refAddF32(a, b, true));
  RC_ASSERT(atom1("atom.shared::cta.add.f32", a, b).second == refAddF32(a, b, false));
  Rig rig("atom.add.f32", {H::reg(1), H::addr(2), H::reg(3)});
  rig.r(2, 0) = kSharedWindow + 0x40;
  rig.r(3, 0) = b;
  rig.m.poke(kSharedWindow + 0x40, a, 4);
  rig.run(1);
  RC_ASSERT(rig.m.peek(kSharedWindow + 0x40, 4) == refAddF32(a, b, false));
}

bool isNaN64(uint64_t x) { return (x & ~(1ull << 63)) > 0x7FF0000000000000ull; }

RC_GTEST_PROP(AtomProps, F64AddNaNsFollowTheSpace, ()) {
  auto gen = rc::gen::weightedOneOf<uint64_t>(
      {{3, rc::gen::arbitrary<uint64_t>()},
       {2,
        rc::gen::elementOf(std::vector<uint64_t>{
            0, 1ull << 63, 1, 0x7FF0000000000000ull, 0xFFF0000000000000ull, 0x7FF0000000000001ull,
            0x7FF8000000000000ull, 0xFFF8000000000123ull, 0x3FF0000000000000ull})}});
  const uint64_t a = *gen, b = *gen;
  double da, db;
  std::memcpy(&da, &a, 8), std::memcpy(&db, &b, 8);
  const double s = da + db;
  uint64_t sum;
  std::memcpy(&sum, &s, 8);
  const uint64_t invalid = 0xFFF8000000000000ull, quiet = 1ull << 51;
  const uint64_t global = isNaN64(b) ? b : isNaN64(a) ? a : std::isnan(s) ? invalid : sum;
  const uint64_t shared = isNaN64(a)      ? a | quiet
                          : isNaN64(b)    ? b | quiet
                          : std::isnan(s) ? invalid
                                          : sum;
  RC_ASSERT(atom1("atom.global.add.f64", a, b).second == global);
  RC_ASSERT(atom1("atom.shared.add.f64", a, b).second == shared);
}

// f16: the host's _Float16 (a correctly rounded conversion from the exact sum in double).
uint16_t refAddF16(uint16_t a, uint16_t b) {
  _Float16 ha, hb;
  std::memcpy(&ha, &a, 2), std::memcpy(&hb, &b, 2);
  const _Float16 s = _Float16(double(ha) + double(hb));
  if (s != s) return 0x7FFF;
  uint16_t r;
  std::memcpy(&r, &s, 2);
  return r;
}

// bf16: the exact sum (in double: two bf16 values' sum is exact there, or so far below the
// larger one's half ulp that it cannot change the rounding) rounded to 8 significant bits.
double bf16Value(uint16_t h) { return double(std::bit_cast<float>(uint32_t(h) << 16)); }
uint16_t bf16Round(double v) {
  if (std::isnan(v)) return 0x7FFF;
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isinf(v)) return sign | 0x7F80;
  const double a = std::fabs(v);
  if (a == 0) return sign;
  const int e = std::max(std::ilogb(a), -126);
  const double ulp = std::ldexp(1.0, e - 7);
  double q = std::floor(a / ulp);
  const double frac = a / ulp - q;
  if (frac > 0.5 || (frac == 0.5 && std::fmod(q, 2.0) != 0)) q += 1;
  const double r = q * ulp;
  if (r >= 0x1p128) return sign | 0x7F80;  // rounded past the largest finite (0x1.FCp127)
  return sign | uint16_t(std::bit_cast<uint32_t>(float(r)) >> 16);
}
uint16_t refAddBF16(uint16_t a, uint16_t b) {
  if ((a & 0x7FFF) > 0x7F80 || (b & 0x7FFF) > 0x7F80) return 0x7FFF;
  return bf16Round(bf16Value(a) + bf16Value(b));
}

template <bool BF>
uint16_t refMinMax(uint16_t a, uint16_t b, bool max) {
  const uint16_t inf = BF ? 0x7F80 : 0x7C00;
  const bool na = (a & 0x7FFF) > inf, nb = (b & 0x7FFF) > inf;
  if (na && nb) return 0x7FFF;
  if (na) return b;
  if (nb) return a;
  double va, vb;
  if constexpr (BF)
    va = bf16Value(a), vb = bf16Value(b);
  else {
    _Float16 ha, hb;
    std::memcpy(&ha, &a, 2), std::memcpy(&hb, &b, 2);
    va = double(ha), vb = double(hb);
  }
  if (va == vb) return max ? uint16_t(a & b) : uint16_t(a | b);  // +-0: max +0, min -0
  return (va < vb) != max ? a : b;
}

rc::Gen<uint16_t> halfBits(bool bf) {
  const std::vector<uint16_t> f16 = {0,      0x8000, 1,      0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00,
                                     0x7BFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE05, 0x1000};
  const std::vector<uint16_t> b16 = {0,      0x8000, 1,      0x8001, 0x007F, 0x0080, 0x3F80, 0xBF80,
                                     0x7F7F, 0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0xFFC5, 0x3B80};
  return rc::gen::weightedOneOf<uint16_t>(
      {{3, rc::gen::arbitrary<uint16_t>()}, {2, rc::gen::elementOf(bf ? b16 : f16)}});
}

RC_GTEST_PROP(AtomProps, HalfAddMinMaxMatchReferences, ()) {
  const bool bf = *rc::gen::arbitrary<bool>();
  const uint16_t a0 = *halfBits(bf), b0 = *halfBits(bf), a1 = *halfBits(bf), b1 = *halfBits(bf);
  auto add = [&](uint16_t a, uint16_t b) { return bf ? refAddBF16(a, b) : refAddF16(a, b); };
  const std::string t = bf ? "bf16" : "f16";
  RC_ASSERT(atom1("atom.global.add.noftz." + t, a0, b0).second == add(a0, b0));
  const uint32_t a2 = a0 | uint32_t(a1) << 16, b2 = b0 | uint32_t(b1) << 16;
  RC_ASSERT(atom1("atom.shared.add.noftz." + t + "x2", a2, b2).second ==
            (add(a0, b0) | uint32_t(add(a1, b1)) << 16));
  for (bool max : {false, true}) {
    H h("atom.global.v2." + t + (max ? ".max" : ".min") + ".noftz",
        {H::vec({H::reg(10), H::reg(11)}), H::addr(2), H::vec({H::reg(20), H::reg(21)})});
    h.set(2, 0, kA);
    h.poke(kA, a2, 4);
    h.set(20, 0, b0), h.set(21, 0, b1);
    h.run(1);
    auto ref = [&](uint16_t a, uint16_t b) {
      return bf ? refMinMax<true>(a, b, max) : refMinMax<false>(a, b, max);
    };
    RC_ASSERT(h.peek(kA, 2) == ref(a0, b0));
    RC_ASSERT(h.peek(kA + 2, 2) == ref(a1, b1));
    RC_ASSERT(h.get(10, 0) == a0 && h.get(11, 0) == a1);
  }
}

}  // namespace
}  // namespace warpsim::isa
