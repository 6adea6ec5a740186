// Tests of the memory family (isa/insns/memory.cpp): ld / ldu / st in every state space and
// type (zero- and sign-extension into the destination register, PTX ISA "ld"), the
// vector forms with `_` sinks, addressing (64- and 32-bit bases, absolute addresses), the
// ordering / cache modifiers, cvta / cvta.to, isspacep, prefetch / prefetchu, the bind errors
// of bad operand forms, and a RapidCheck round-trip property against a host reference.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "isa/insn_table.h"
#include "tests/support/exec_harness.h"

namespace warpsim::isa {
namespace {

using test::ExecHarness;
using test::HarnessFault;
using H = ExecHarness;

constexpr uint64_t kA = 0x1000;  // a global address the tests use
constexpr uint64_t kSentinel = 0xDEADBEEFCAFEF00Dull;

// ---- a machine that records every access and tells the generic windows apart ---------------

constexpr uint64_t kSharedWin = 0x1000000000ull;
constexpr uint64_t kLocalWin = 0x2000000000ull;
constexpr uint64_t kWin = 1ull << 32;

class SpaceMachine final : public Machine {
 public:
  struct Access {
    bool store;
    Space space;
    LaneMask mask;
    unsigned bytes, vec;
    std::vector<uint64_t> addrs;
  };
  std::vector<Access> log;
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
  void record(bool store, Space s, LaneMask mask, const uint64_t* addrs, unsigned bytes,
              unsigned vec) {
    Access a{store, s, mask, bytes, vec, std::vector<uint64_t>(32, 0)};
    forLanes(mask, [&](unsigned l) { a.addrs[l] = addrs[l]; });
    log.push_back(a);
  }
  void load(const Inst&, Space s, LaneMask mask, const uint64_t* addrs, unsigned bytes,
            unsigned vec, uint64_t* out) override {
    record(false, s, mask, addrs, bytes, vec);
    forLanes(mask, [&](unsigned l) {
      for (unsigned i = 0; i < vec; ++i) out[l * vec + i] = peek(addrs[l] + i * bytes, bytes);
    });
  }
  void store(const Inst&, Space s, LaneMask mask, const uint64_t* addrs, unsigned bytes,
             unsigned vec, const uint64_t* data) override {
    record(true, s, mask, addrs, bytes, vec);
    forLanes(mask, [&](unsigned l) {
      for (unsigned i = 0; i < vec; ++i) poke(addrs[l] + i * bytes, data[l * vec + i], bytes);
    });
  }
  void atomic(const Inst&, Space, LaneMask, const uint64_t*, unsigned, AtomFn, const uint64_t*,
              const uint64_t*, uint64_t*) override {
    throw HarnessFault("atomic");
  }
  uint64_t toGeneric(Space s, uint64_t a, unsigned) override {
    if (s == Space::Shared || s == Space::SharedCluster) return kSharedWin + a;
    if (s == Space::Local) return kLocalWin + a;
    return a;
  }
  uint64_t fromGeneric(Space s, uint64_t a, unsigned) override {
    if (s == Space::Shared || s == Space::SharedCluster) return a - kSharedWin;
    if (s == Space::Local) return a - kLocalWin;
    return a;
  }
  void fence(const Inst&, LaneMask) override {}
  Space spaceOf(uint64_t a, unsigned) override {
    if (a - kSharedWin < kWin) return Space::Shared;
    if (a - kLocalWin < kWin) return Space::Local;
    return Space::Global;
  }
  void branch(const Inst&, LaneMask) override { throw HarnessFault("branch"); }
  void call(const Inst&, LaneMask) override { throw HarnessFault("call"); }
  void ret(const Inst&, LaneMask) override { throw HarnessFault("ret"); }
  void exit(const Inst&, LaneMask) override { throw HarnessFault("exit"); }
  [[noreturn]] void trap(const Inst&, LaneMask, const char* why) override {
    throw HarnessFault(why);
  }
  void barrier(const Inst&, BarrierKind, LaneMask, uint32_t, uint32_t, LaneMask,
               uint32_t) override {
    throw HarnessFault("barrier");
  }
  uint32_t printf(const Inst&, unsigned, uint64_t, uint64_t) override {
    throw HarnessFault("printf");
  }
  void nanosleep(const Inst&) override { throw HarnessFault("nanosleep"); }
  uint64_t special(Special, unsigned) override { return 0; }
  [[noreturn]] void unsupported(const Inst&, const char* w) override { throw HarnessFault(w); }
  [[noreturn]] void warpSyncFault(const Inst&, LaneMask, LaneMask) override {
    throw HarnessFault("warp sync");
  }
};

// Binds through the instruction table as lowering does and runs against a SpaceMachine.
struct Rig {
  std::vector<uint64_t> regs = std::vector<uint64_t>(64 * 32, 0);
  std::vector<uint32_t> preds = std::vector<uint32_t>(8, 0);
  SpaceMachine m;
  Inst in;
  Rig(const std::string& opcode, std::vector<Opnd> ops) {
    std::vector<std::string> words;
    std::stringstream ss(opcode);
    for (std::string w; std::getline(ss, w, '.');) words.push_back(w);
    in.text = opcode;
    in.mods = decodeMods(std::vector<std::string>(words.begin() + 1, words.end()));
    in.ops = std::move(ops);
    const OpcodeSpec* spec = findSpec(words[0], in.mods);
    if (!spec) throw std::invalid_argument("no spec for " + opcode);
    in.cls = spec->cls;
    if (std::string e = spec->bind(in); !e.empty()) throw std::invalid_argument(e);
  }
  uint64_t& r(uint32_t reg, unsigned lane) { return regs[reg * 32 + lane]; }
  void setAll(uint32_t reg, uint64_t v) {
    for (unsigned l = 0; l < 32; ++l) r(reg, l) = v;
  }
  void run(LaneMask mask) {
    Exec x;
    x.regs = regs.data();
    x.preds = preds.data();
    x.mask = x.active = mask;
    x.machine = &m;
    in.run(x, in);
  }
};

Opnd regOf(uint32_t r, Type t) {
  Opnd o = H::reg(r);
  o.regType = t;
  return o;
}

// ---- scalar loads and stores of every type ----------------------------------------------------

struct TypeCase {
  const char* name;
  unsigned bytes;
  bool isSigned;
};
constexpr TypeCase kTypes[] = {
    {"b8", 1, false},    {"u8", 1, false},     {"s8", 1, true},   {"b16", 2, false},
    {"u16", 2, false},   {"s16", 2, true},     {"f16", 2, false}, {"bf16", 2, false},
    {"b32", 4, false},   {"u32", 4, false},    {"s32", 4, true},  {"f32", 4, false},
    {"f16x2", 4, false}, {"bf16x2", 4, false}, {"b64", 8, false}, {"u64", 8, false},
    {"s64", 8, true},    {"f64", 8, false},
};

// Lane l's bytes: distinct low bytes, the top byte negative on even lanes, positive on odd ones.
uint64_t lanePattern(unsigned lane, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i + 1 < bytes; ++i) v |= uint64_t((0x11 * (i + 1) + lane) & 0xFF) << (8 * i);
  const uint64_t top = (lane % 2 ? 0x70u : 0xF0u) | (lane & 0xF);
  return v | top << (8 * (bytes - 1));
}

uint64_t extendRef(uint64_t raw, unsigned bytes, bool isSigned) {
  if (bytes == 8) return raw;
  return isSigned ? uint64_t(signExtend(raw, bytes * 8)) : raw & lowMask(bytes * 8);
}

TEST(LdSt, LoadsEveryTypeZeroExtendingUnsignedAndSignExtendingSigned) {
  for (const TypeCase& t : kTypes) {
    const std::string op = std::string("ld.global.") + t.name;
    H h(op, {H::reg(1), H::addr(2, 8)});
    EXPECT_EQ(h.inst().cls, InsnClass::LoadGlobal) << op;
    for (unsigned l = 0; l < 32; ++l) {
      h.set(1, l, kSentinel);
      h.set(2, l, kA + 16 * l);
      h.poke(kA + 16 * l + 8, lanePattern(l, t.bytes), t.bytes);
      h.poke(kA + 16 * l + 8 + t.bytes, 0x5A, 1);  // a neighbour that must not be read
    }
    h.run(0x7FFFFFFF);  // lane 31 does not execute
    for (unsigned l = 0; l < 31; ++l)
      EXPECT_EQ(h.get(1, l), extendRef(lanePattern(l, t.bytes), t.bytes, t.isSigned))
          << op << " lane " << l;
    EXPECT_EQ(h.get(1, 31), kSentinel) << op;
  }
}

TEST(LdSt, SignedLoadsExtendToTheDestinationRegisterWidth) {
  // PTX ISA, "ld": a destination register wider than the type receives the value
  // sign-extended (signed types) or zero-extended (others) to the register's width; the slot
  // above the register's width stays zero like every other register write.
  struct Case {
    const char* op;
    uint64_t mem;
    Type reg;
    uint64_t want;
  };
  const Case cases[] = {
      {"ld.global.s8", 0x80, Type::B16, 0xFF80},
      {"ld.global.s8", 0x80, Type::B32, 0xFFFFFF80},
      {"ld.global.s8", 0x80, Type::S32, 0xFFFFFF80},
      {"ld.global.s8", 0x80, Type::B64, 0xFFFFFFFFFFFFFF80ull},
      {"ld.global.s8", 0x80, Type::None, 0xFFFFFFFFFFFFFF80ull},  // width unknown: 64 bits
      {"ld.global.s8", 0x7F, Type::B32, 0x7F},
      {"ld.global.s16", 0x8001, Type::B32, 0xFFFF8001},
      {"ld.global.s16", 0x8001, Type::B16, 0x8001},
      {"ld.global.s16", 0x8001, Type::S64, 0xFFFFFFFFFFFF8001ull},
      {"ld.global.s32", 0x80000000, Type::B32, 0x80000000},
      {"ld.global.s32", 0x80000000, Type::S32, 0x80000000},
      {"ld.global.s32", 0x80000000, Type::U64, 0xFFFFFFFF80000000ull},
      {"ld.global.s32", 0x7FFFFFFF, Type::U64, 0x7FFFFFFF},
      {"ld.global.u8", 0x80, Type::B32, 0x80},
      {"ld.global.u16", 0xFFFF, Type::U64, 0xFFFF},
      {"ld.global.b32", 0xFFFFFFFF, Type::B64, 0xFFFFFFFF},
  };
  for (const Case& c : cases) {
    H h(c.op, {regOf(1, c.reg), H::addr(2)});
    h.setAll(1, kSentinel);
    h.setAll(2, kA);
    h.poke(kA, c.mem, 8);
    h.run(1);
    EXPECT_EQ(h.get(1, 0), c.want) << c.op << " into a ." << typeName(c.reg) << " register";
  }
  // The vector forms extend each element the same way.
  H h("ld.global.v2.s8", {H::vec({regOf(1, Type::B16), regOf(2, Type::B32)}), H::addr(3)});
  h.setAll(3, kA);
  h.poke(kA, 0x01FE, 2);
  h.run(1);
  EXPECT_EQ(h.get(1, 0), 0xFFFEu);
  EXPECT_EQ(h.get(2, 0), 0x01u);
}

TEST(LdSt, StoresWriteOnlyTheLowBytesOfTheType) {
  for (const TypeCase& t : kTypes) {
    const std::string op = std::string("st.global.") + t.name;
    H h(op, {H::addr(2, -4), H::reg(1)});
    EXPECT_EQ(h.inst().cls, InsnClass::StoreGlobal) << op;
    for (unsigned i = 0; i < 16; ++i) h.poke(kA - 4 + i, 0xEE, 1);
    h.setAll(1, 0xF8F7F6F5F4F3F2F1ull);
    h.setAll(2, kA);
    h.run(1);
    EXPECT_EQ(h.peek(kA - 4, t.bytes), 0xF8F7F6F5F4F3F2F1ull & lowMask(8 * t.bytes)) << op;
    for (unsigned i = t.bytes; i < 16; ++i) EXPECT_EQ(h.peek(kA - 4 + i, 1), 0xEEu) << op << i;
  }
}

TEST(LdSt, OnlyExecutingLanesAccessMemory) {
  H st("st.shared.u32", {H::addr(2), H::reg(1)});
  for (unsigned l = 0; l < 32; ++l) {
    st.set(1, l, 100 + l);
    st.set(2, l, kA + 4 * l);
  }
  const LaneMask mask = 0x8000F00Fu;
  st.run(mask);
  for (unsigned l = 0; l < 32; ++l)
    EXPECT_EQ(st.peek(kA + 4 * l, 4), (mask >> l & 1) ? 100u + l : 0u) << l;
  st.bind("ld.shared.u32", {H::reg(3), H::addr(2)});
  st.setAll(3, kSentinel);
  st.run(0x0000F000u);
  for (unsigned l = 0; l < 32; ++l)
    EXPECT_EQ(st.get(3, l), (l >= 12 && l < 16) ? 100u + l : kSentinel) << l;
}

// ---- vectors ------------------------------------------------------------------------------

TEST(LdSt, VectorLoadsFillEveryElementFromConsecutiveAddresses) {
  struct Case {
    const char* op;
    unsigned vec, bytes;
    bool isSigned;
  };
  const Case cases[] = {
      {"ld.global.v2.u32", 2, 4, false},    {"ld.global.v4.u32", 4, 4, false},
      {"ld.global.v4.f32", 4, 4, false},    {"ld.global.v2.f64", 2, 8, false},
      {"ld.global.v2.b64", 2, 8, false},    {"ld.global.v4.u16", 4, 2, false},
      {"ld.global.v4.s16", 4, 2, true},     {"ld.global.v4.b8", 4, 1, false},
      {"ld.global.v2.s32", 2, 4, true},     {"ld.global.v8.b16", 8, 2, false},
      {"ld.global.v8.f32", 8, 4, false},    {"ld.shared.v4.b32", 4, 4, false},
      {"ld.global.nc.v4.f32", 4, 4, false}, {"ldu.global.v4.f32", 4, 4, false},
      {"ldu.global.v2.u64", 2, 8, false},
  };
  for (const Case& c : cases) {
    std::vector<Opnd> elems;
    for (unsigned i = 0; i < c.vec; ++i) elems.push_back(H::reg(1 + i));
    H h(c.op, {H::vec(elems), H::addr(20, 32)});
    for (unsigned l : {0u, 5u, 31u}) {
      h.set(20, l, kA + 256 * l);
      for (unsigned i = 0; i < c.vec; ++i)
        h.poke(kA + 256 * l + 32 + i * c.bytes, lanePattern(l + i, c.bytes), c.bytes);
    }
    for (unsigned i = 0; i < c.vec; ++i) h.setAll(1 + i, kSentinel);
    h.run(1u | 1u << 5 | 1u << 31);
    for (unsigned l : {0u, 5u, 31u})
      for (unsigned i = 0; i < c.vec; ++i)
        EXPECT_EQ(h.get(1 + i, l), extendRef(lanePattern(l + i, c.bytes), c.bytes, c.isSigned))
            << c.op << " lane " << l << " element " << i;
    for (unsigned i = 0; i < c.vec; ++i) EXPECT_EQ(h.get(1 + i, 1), kSentinel) << c.op;
  }
}

TEST(LdSt, SinkElementsOfAVectorLoadAreDiscarded) {
  H h("ld.global.v4.u32", {H::vec({H::reg(1), H::sink(), H::reg(3), H::sink()}), H::addr(9)});
  for (uint32_t r = 1; r <= 8; ++r) h.setAll(r, kSentinel);
  h.setAll(9, kA);
  for (unsigned i = 0; i < 4; ++i) h.poke(kA + 4 * i, 0x10 + i, 4);
  h.run(1);
  EXPECT_EQ(h.get(1, 0), 0x10u);
  EXPECT_EQ(h.get(3, 0), 0x12u);
  for (uint32_t r : {2u, 4u, 5u, 6u, 7u, 8u}) EXPECT_EQ(h.get(r, 0), kSentinel) << r;

  H g("ld.global.v2.f64", {H::vec({H::sink(), H::reg(2)}), H::addr(9)});
  g.setAll(9, kA);
  g.setAll(2, 0);
  g.poke(kA, 0x3FF0000000000000ull, 8);
  g.poke(kA + 8, 0x4000000000000000ull, 8);
  g.run(1);
  EXPECT_EQ(g.get(2, 0), 0x4000000000000000ull);
}

TEST(LdSt, VectorStoresWriteConsecutiveElements) {
  struct Case {
    const char* op;
    unsigned vec, bytes;
  };
  const Case cases[] = {{"st.global.v4.b32", 4, 4}, {"st.global.v2.f64", 2, 8},
                        {"st.global.v4.u16", 4, 2}, {"st.global.v2.b8", 2, 1},
                        {"st.shared.v2.u32", 2, 4}, {"st.local.v4.f32", 4, 4},
                        {"st.global.v8.b32", 8, 4}, {"st.param.v2.b64", 2, 8}};
  for (const Case& c : cases) {
    std::vector<Opnd> elems;
    for (unsigned i = 0; i < c.vec; ++i) elems.push_back(H::reg(1 + i));
    H h(c.op, {H::addr(20, 16), H::vec(elems)});
    h.setAll(20, kA);
    for (unsigned i = 0; i < c.vec; ++i) h.setAll(1 + i, 0xA1A2A3A4A5A6A7A8ull + i);
    const unsigned total = c.vec * c.bytes;
    for (unsigned i = 0; i < total + 8; ++i) h.poke(kA + 16 + i, 0xEE, 1);
    h.run(1);
    for (unsigned i = 0; i < c.vec; ++i)
      EXPECT_EQ(h.peek(kA + 16 + i * c.bytes, c.bytes),
                (0xA1A2A3A4A5A6A7A8ull + i) & lowMask(8 * c.bytes))
          << c.op << " element " << i;
    EXPECT_EQ(h.peek(kA + 16 + total, 8), 0xEEEEEEEEEEEEEEEEull) << c.op;
  }
}

// ---- addressing -----------------------------------------------------------------------------

TEST(LdSt, AddressesAreBasePlusOffset) {
  Rig a("ld.global.u32", {H::reg(1), H::addr(2, -12)});
  for (unsigned l = 0; l < 32; ++l) a.r(2, l) = 0x500000000ull + 64 * l;
  a.run(~0u);
  ASSERT_EQ(a.m.log.size(), 1u);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(a.m.log[0].addrs[l], 0x500000000ull + 64 * l - 12);
  EXPECT_EQ(a.m.log[0].bytes, 4u);
  EXPECT_EQ(a.m.log[0].vec, 1u);
  EXPECT_EQ(a.m.log[0].mask, ~0u);

  // [imm]: an absolute address (a symbol folded into the offset), the same for every lane.
  Opnd abs = H::addr(0, 0x7000);
  abs.baseSlot = kNoSlot;
  Rig b("ld.const.v2.u32", {H::vec({H::reg(1), H::reg(2)}), abs});
  b.m.poke(0x7000, 0x0000000200000001ull, 8);
  b.run(0x11);
  EXPECT_EQ(b.m.log[0].addrs[0], 0x7000u);
  EXPECT_EQ(b.m.log[0].addrs[4], 0x7000u);
  EXPECT_EQ(b.m.log[0].space, Space::Const);
  EXPECT_EQ(b.r(1, 4), 1u);
  EXPECT_EQ(b.r(2, 4), 2u);
}

TEST(LdSt, ThirtyTwoBitBasesAreZeroExtendedAndWrapAt32Bits) {
  Rig a("ld.shared.u32", {H::reg(1), H::addr(2, 0x20, Type::U32)});
  a.r(2, 0) = 0xFFFFFFF0u;            // + 0x20 wraps to 0x10
  a.r(2, 1) = 0xABCD000000000100ull;  // bits above the register's 32 are not part of it
  a.r(2, 2) = 0x7FFFFFE0u;            // no wrap: 0x80000000
  a.run(0x7);
  EXPECT_EQ(a.m.log[0].addrs[0], 0x10u);
  EXPECT_EQ(a.m.log[0].addrs[1], 0x120u);
  EXPECT_EQ(a.m.log[0].addrs[2], 0x80000000u);

  Rig n("st.shared.u32", {H::addr(2, -8, Type::B32), H::reg(1)});
  n.r(2, 0) = 4;  // 4 - 8 wraps to 0xFFFFFFFC: a 32-bit address, never a negative 64-bit one
  n.run(1);
  EXPECT_EQ(n.m.log[0].addrs[0], 0xFFFFFFFCu);
}

// ---- state spaces, classes and modifiers -------------------------------------------------------

TEST(LdSt, EverySpaceReachesTheMachineWithItsClass) {
  struct Case {
    const char* word;  // "" = generic
    Space space;
    InsnClass load, store;
  };
  const Case cases[] = {
      {"", Space::Generic, InsnClass::LoadGlobal, InsnClass::StoreGlobal},
      {"global.", Space::Global, InsnClass::LoadGlobal, InsnClass::StoreGlobal},
      {"shared.", Space::Shared, InsnClass::LoadShared, InsnClass::StoreShared},
      {"shared::cta.", Space::Shared, InsnClass::LoadShared, InsnClass::StoreShared},
      {"shared::cluster.", Space::SharedCluster, InsnClass::LoadShared, InsnClass::StoreShared},
      {"local.", Space::Local, InsnClass::LoadLocal, InsnClass::StoreLocal},
      {"param.", Space::Param, InsnClass::LoadParam, InsnClass::StoreParam},
      {"param::entry.", Space::Param, InsnClass::LoadParam, InsnClass::StoreParam},
      {"param::func.", Space::Param, InsnClass::LoadParam, InsnClass::StoreParam},
      {"const.", Space::Const, InsnClass::LoadConst, InsnClass::LoadConst},
  };
  for (const Case& c : cases) {
    Rig ld(std::string("ld.") + c.word + "u16", {H::reg(1), H::addr(2)});
    EXPECT_EQ(ld.in.cls, c.load) << c.word;
    ld.setAll(2, kA);
    ld.m.poke(kA, 0xBEEF, 2);
    ld.run(0x3);
    ASSERT_EQ(ld.m.log.size(), 1u);
    EXPECT_EQ(ld.m.log[0].space, c.space) << c.word;
    EXPECT_FALSE(ld.m.log[0].store);
    EXPECT_EQ(ld.m.log[0].bytes, 2u);
    EXPECT_EQ(ld.r(1, 1), 0xBEEFu);
    if (c.space == Space::Const) continue;  // st.const does not exist
    Rig st(std::string("st.") + c.word + "u16", {H::addr(2), H::reg(1)});
    EXPECT_EQ(st.in.cls, c.store) << c.word;
    st.setAll(2, kA);
    st.setAll(1, 0x1234);
    st.run(0x1);
    ASSERT_EQ(st.m.log.size(), 1u);
    EXPECT_EQ(st.m.log[0].space, c.space) << c.word;
    EXPECT_TRUE(st.m.log[0].store);
    EXPECT_EQ(st.m.peek(kA, 2), 0x1234u);
  }
  for (const char* op : {"ldu.u32", "ldu.global.u32"}) {
    Rig u(op, {H::reg(1), H::addr(2)});
    EXPECT_EQ(u.in.cls, InsnClass::LoadGlobal);
    u.run(1);
    EXPECT_EQ(u.m.log[0].space, std::string(op) == "ldu.u32" ? Space::Generic : Space::Global);
  }
}

TEST(LdSt, OrderingCacheAndEvictionModifiersMakeThePlainAccess) {
  const char* loads[] = {"ld.weak.global.u32",
                         "ld.volatile.global.u32",
                         "ld.volatile.shared.u32",
                         "ld.relaxed.gpu.global.u32",
                         "ld.relaxed.cta.shared.u32",
                         "ld.acquire.sys.global.u32",
                         "ld.acquire.cluster.u32",
                         "ld.global.nc.u32",
                         "ld.global.ca.u32",
                         "ld.global.cg.u32",
                         "ld.global.cs.u32",
                         "ld.global.lu.u32",
                         "ld.global.cv.u32",
                         "ld.global.L1::evict_last.u32",
                         "ld.global.L1::no_allocate.L2::256B.u32",
                         "ld.global.nc.L2::128B.u32",
                         "ld.global.L2::evict_first.u32",
                         "ld.mmio.relaxed.sys.global.u32",
                         "ldu.global.u32"};
  for (const char* op : loads) {
    std::vector<std::string> words;
    std::stringstream ss(op);
    for (std::string w; std::getline(ss, w, '.');) words.push_back(w);
    ir::Instruction ins;
    ins.opcode = words[0];
    ins.mods.assign(words.begin() + 1, words.end());
    EXPECT_EQ(validateInstruction(ins), "") << op;
    H h(op, {H::reg(1), H::addr(2)});
    h.setAll(2, kA);
    h.poke(kA, 0x600DF00D, 4);
    h.run(1);
    EXPECT_EQ(h.get(1, 0), 0x600DF00Du) << op;
  }
  const char* stores[] = {"st.weak.global.u32",
                          "st.volatile.global.u32",
                          "st.relaxed.gpu.global.u32",
                          "st.release.cta.shared.u32",
                          "st.release.sys.u32",
                          "st.global.wb.u32",
                          "st.global.wt.u32",
                          "st.global.cg.u32",
                          "st.global.cs.u32",
                          "st.global.L1::no_allocate.u32",
                          "st.mmio.relaxed.sys.global.u32"};
  for (const char* op : stores) {
    std::vector<std::string> words;
    std::stringstream ss(op);
    for (std::string w; std::getline(ss, w, '.');) words.push_back(w);
    ir::Instruction ins;
    ins.opcode = words[0];
    ins.mods.assign(words.begin() + 1, words.end());
    EXPECT_EQ(validateInstruction(ins), "") << op;
    H h(op, {H::addr(2), H::reg(1)});
    h.setAll(2, kA);
    h.setAll(1, 0xFEEDu);
    h.run(1);
    EXPECT_EQ(h.peek(kA, 4), 0xFEEDu) << op;
  }
}

TEST(LdSt, CacheHintFormsTakeACachePolicyOperand) {
  // ld.global.L2::cache_hint.b32 d, [a], policy: the 64-bit cache policy (createpolicy) only
  // steers L2 eviction; the access is the same.
  H ld("ld.global.L2::cache_hint.u32", {H::reg(1), H::addr(2), H::reg(3)});
  ld.setAll(2, kA);
  ld.setAll(3, 0x1234);
  ld.poke(kA, 77, 4);
  ld.run(1);
  EXPECT_EQ(ld.get(1, 0), 77u);
  H st("st.global.L2::cache_hint.v2.u32", {H::addr(2), H::vec({H::reg(4), H::reg(5)}), H::reg(3)});
  st.setAll(2, kA);
  st.setAll(4, 8);
  st.setAll(5, 9);
  st.run(1);
  EXPECT_EQ(st.peek(kA, 8), 0x0000000900000008ull);
  H probe("ld.global.u32", {H::reg(1), H::addr(2)});
  EXPECT_EQ(probe.tryBind("ld.global.u32", {H::reg(1), H::addr(2), H::reg(3)}),
            "'ld.global.u32' takes 2 operands, 3 given");
  EXPECT_EQ(probe.tryBind("ld.global.L2::cache_hint.u32", {H::reg(1), H::addr(2), H::addr(3)}),
            "the cache policy of 'ld.global.L2::cache_hint.u32' must be a register");
  EXPECT_EQ(probe.tryBind("st.global.L2::cache_hint.u32", {H::addr(2), H::reg(1), H::pred(1)}),
            "the cache policy of 'st.global.L2::cache_hint.u32' must be a register");
}

// ---- bind errors -------------------------------------------------------------------------------

TEST(LdStForms, BadOperandFormsAreRejectedWithAMessage) {
  H h("ld.global.u32", {H::reg(1), H::addr(2)});
  struct Case {
    std::string op;
    std::vector<Opnd> ops;
    std::string msg;
  };
  const std::vector<Case> cases = {
      {"ld.global.u32", {H::reg(1)}, "'ld.global.u32' takes 2 operands, 1 given"},
      {"ld.global.u32", {H::reg(1), H::reg(2)}, "the source of 'ld.global.u32' must be an address"},
      {"ld.global.u32", {H::addr(1), H::addr(2)}, "'ld.global.u32' needs a register operand"},
      {"ld.global.u32", {H::pred(1), H::addr(2)}, "'ld.global.u32' needs a register operand"},
      {"ld.global.u32",
       {H::vec({H::reg(1), H::reg(2)}), H::addr(3)},
       "'ld.global.u32' needs a register operand"},
      {"ld.global.v2.u32",
       {H::reg(1), H::addr(3)},
       "'ld.global.v2.u32' needs a vector of 2 registers"},
      {"ld.global.v4.u32",
       {H::vec({H::reg(1), H::reg(2)}), H::addr(3)},
       "'ld.global.v4.u32' needs a vector of 4 registers"},
      {"ld.global.v2.u32",
       {H::vec({H::reg(1), H::pred(1)}), H::addr(3)},
       "the elements of 'ld.global.v2.u32' must be registers or '_'"},
      {"ld.global.v4.f64",
       {H::vec({H::reg(1), H::reg(2), H::reg(3), H::reg(4)}), H::addr(5)},
       "'ld.global.v4.f64' accesses more than 16 bytes"},
      {"ld.global.v8.u64",
       {H::vec({H::reg(1), H::reg(2), H::reg(3), H::reg(4), H::reg(5), H::reg(6), H::reg(7),
                H::reg(8)}),
        H::addr(9)},
       "'ld.global.v8.u64' accesses more than 16 bytes"},
      {"ld.global.b128",
       {H::reg(1), H::addr(2)},
       "'ld.global.b128': loads of 16-byte elements are not supported yet"},
      {"ldu.global.b128",
       {H::reg(1), H::addr(2)},
       "'ldu.global.b128': loads of 16-byte elements are not supported yet"},
      {"st.global.b128",
       {H::addr(2), H::reg(1)},
       "'st.global.b128': stores of 16-byte elements are not supported yet"},
      {"ld.global.u32.s32", {H::reg(1), H::addr(2)}, "'ld.global.u32.s32' needs exactly one type"},
      {"ld.global", {H::reg(1), H::addr(2)}, "no spec for ld.global"},
      {"st.global.u32",
       {H::reg(2), H::reg(1)},
       "the destination of 'st.global.u32' must be an address"},
      {"st.global.u32", {H::addr(2)}, "'st.global.u32' takes 2 operands, 1 given"},
      {"st.global.u32", {H::addr(2), H::pred(1)}, "'st.global.u32' needs a register operand"},
      {"st.global.u32", {H::addr(2), H::addr(1)}, "'st.global.u32' needs a register operand"},
      {"st.const.u32", {H::addr(2), H::reg(1)}, "st.const is not allowed"},
      {"st.global.v2.u32",
       {H::addr(2), H::vec({H::reg(1), H::sink()})},
       "the elements of 'st.global.v2.u32' must be registers"},
      {"st.global.v2.u32",
       {H::addr(2), H::vec({H::pred(1), H::reg(1)})},
       "the elements of 'st.global.v2.u32' must be registers"},
  };
  for (const Case& c : cases) EXPECT_EQ(h.tryBind(c.op, c.ops), c.msg) << c.op;
}

// Every type x vector width x state space each of ld / ldu / st accepts: either it binds or it
// is refused with its message (and nothing crashes).
TEST(LdStForms, EveryTypeVectorAndSpaceBindsOrIsRefused) {
  const char* spaces[] = {"",       "global.", "shared.",       "shared::cta.", "shared::cluster.",
                          "local.", "param.",  "param::entry.", "param::func.", "const."};
  H h("ld.global.u32", {H::reg(1), H::addr(2)});
  size_t bound = 0, refused = 0;
  for (const OpcodeSpec& s : instructionTable()) {
    if (s.family != "memory" || (s.opcode != "ld" && s.opcode != "ldu" && s.opcode != "st"))
      continue;
    const bool store = s.opcode == "st";
    for (Type t : s.types)
      for (unsigned vec : {1u, 2u, 4u, 8u})
        for (const char* space : spaces) {
          const std::string op = std::string(s.opcode) + "." + space +
                                 (vec > 1 ? "v" + std::to_string(vec) + "." : "") + typeName(t);
          std::vector<Opnd> elems;
          for (unsigned i = 0; i < vec; ++i) elems.push_back(H::reg(1 + i));
          const Opnd data = vec > 1 ? H::vec(elems) : H::reg(1);
          const std::vector<Opnd> ops =
              store ? std::vector<Opnd>{H::addr(20), data} : std::vector<Opnd>{data, H::addr(20)};
          const unsigned bytes = typeBytes(t);
          std::string want;
          if (bytes * vec > 16 && !(vec == 8 && bytes <= 4))
            want = "'" + op + "' accesses more than 16 bytes";
          else if (store && std::string(space) == "const.")
            want = "st.const is not allowed";
          else if (bytes == 16)
            want = "'" + op + "': " + (store ? "stores" : "loads") +
                   " of 16-byte elements are not supported yet";
          const std::string got = h.tryBind(op, ops);
          EXPECT_EQ(got, want) << op;
          (got.empty() ? bound : refused) += 1;
        }
  }
  EXPECT_GT(bound, 1000u);
  EXPECT_GT(refused, 100u);
}

// ---- cvta / cvta.to ---------------------------------------------------------------------------

TEST(Cvta, ConvertsBetweenAStateSpaceAndGenericAddresses) {
  struct Case {
    const char* op;
    uint64_t in, out;
  };
  const Case cases[] = {
      {"cvta.shared.u64", 0x40, kSharedWin + 0x40},
      {"cvta.shared::cta.u64", 0x40, kSharedWin + 0x40},
      {"cvta.shared::cluster.u64", 0x80, kSharedWin + 0x80},
      {"cvta.local.u64", 0x18, kLocalWin + 0x18},
      {"cvta.global.u64", 0x500000010ull, 0x500000010ull},
      {"cvta.const.u64", 0x500000100ull, 0x500000100ull},
      {"cvta.param.u64", 0x20, 0x20},
      {"cvta.to.shared.u64", kSharedWin + 0x40, 0x40},
      {"cvta.to.shared::cta.u64", kSharedWin + 0x44, 0x44},
      {"cvta.to.local.u64", kLocalWin + 0x18, 0x18},
      {"cvta.to.global.u64", 0x500000010ull, 0x500000010ull},
      {"cvta.to.const.u64", 0x500000100ull, 0x500000100ull},
      // .u32: the result is the low 32 bits (32-bit generic addresses).
      {"cvta.shared.u32", 0x40, uint32_t(kSharedWin + 0x40)},
      {"cvta.to.local.u32", kLocalWin + 0x18, 0x18},
      {"cvta.global.u32", 0x1234, 0x1234},
  };
  for (const Case& c : cases) {
    Rig r(c.op, {H::reg(1), H::reg(2)});
    EXPECT_EQ(r.in.cls, InsnClass::Int) << c.op;
    r.setAll(1, kSentinel);
    r.setAll(2, c.in);
    r.run(0xFFFF);
    EXPECT_EQ(r.r(1, 0), c.out) << c.op;
    EXPECT_EQ(r.r(1, 15), c.out) << c.op;
    EXPECT_EQ(r.r(1, 16), kSentinel) << c.op << ": a lane that does not execute";
  }
}

TEST(Cvta, RoundTripsPerLane) {
  Rig to("cvta.shared.u64", {H::reg(1), H::reg(2)});
  for (unsigned l = 0; l < 32; ++l) to.r(2, l) = 16 * l;
  to.run(~0u);
  Rig back("cvta.to.shared.u64", {H::reg(3), H::reg(1)});
  back.regs = to.regs;
  back.run(~0u);
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(to.r(1, l), kSharedWin + 16 * l);
    EXPECT_EQ(back.r(3, l), 16u * l);
  }
}

TEST(Cvta, BindErrors) {
  H h("cvta.global.u64", {H::reg(1), H::reg(2)});
  EXPECT_EQ(h.tryBind("cvta.u64", {H::reg(1), H::reg(2)}), "'cvta' needs a state space");
  EXPECT_EQ(h.tryBind("cvta.to.u64", {H::reg(1), H::reg(2)}), "'cvta' needs a state space");
  EXPECT_EQ(h.tryBind("cvta.shared.u64", {H::reg(1), H::addr(2)}),
            "operand 2 of 'cvta.shared.u64' must be a register");
  EXPECT_EQ(h.tryBind("cvta.shared.u64", {H::pred(1), H::reg(2)}),
            "operand 1 of 'cvta.shared.u64' must be a register");
  EXPECT_EQ(h.tryBind("cvta.shared.u64", {H::reg(1), H::reg(2), H::reg(3)}),
            "'cvta.shared.u64' takes 2 operands, 3 given");
  EXPECT_EQ(h.tryBind("cvta.shared.s32", {H::reg(1), H::reg(2)}), "no spec for cvta.shared.s32");
}

// ---- isspacep -----------------------------------------------------------------------------------

TEST(Isspacep, TellsTheWindowOfEachLanesGenericAddress) {
  const uint64_t addrs[] = {
      kA, kSharedWin + 4, kLocalWin + 8, 0x500000000ull, kSharedWin - 1, kLocalWin + kWin};
  struct Case {
    const char* op;
    uint32_t want;  // over lanes 0..5
  };
  const Case cases[] = {
      {"isspacep.global", 0b111001},
      // .const data lives in the global window (cvta.const is the identity): every global
      // address is also a const address to isspacep.const.
      {"isspacep.const", 0b111001},
      {"isspacep.shared", 0b000010},
      {"isspacep.shared::cta", 0b000010},
      {"isspacep.shared::cluster", 0b000010},  // the CTA's own shared memory is in the cluster's
      {"isspacep.local", 0b000100},
      {"isspacep.param", 0},
      {"isspacep.param::entry", 0},
  };
  for (const Case& c : cases) {
    Rig r(c.op, {H::pred(1), H::reg(2)});
    EXPECT_EQ(r.in.cls, InsnClass::Int);
    for (unsigned l = 0; l < 6; ++l) r.r(2, l) = addrs[l];
    r.preds[1] = 0xF0000000u;  // lanes that do not execute keep their bits
    r.run(0x3F);
    EXPECT_EQ(r.preds[1], 0xF0000000u | c.want) << c.op;
    r.preds[1] = 0xFFFFFFFFu;
    r.run(0x3F);
    EXPECT_EQ(r.preds[1], 0xFFFFFFC0u | c.want) << c.op << ": clears the lanes that are not";
  }
}

TEST(Isspacep, BindErrors) {
  H h("isspacep.global", {H::pred(1), H::reg(2)});
  EXPECT_EQ(h.tryBind("isspacep.global", {H::reg(1), H::reg(2)}), "'isspacep' writes a predicate");
  EXPECT_EQ(h.tryBind("isspacep", {H::pred(1), H::reg(2)}), "'isspacep' needs a state space");
  EXPECT_EQ(h.tryBind("isspacep.shared", {H::pred(1)}),
            "'isspacep.shared' takes 2 operands, 1 given");
}

// ---- prefetch / prefetchu ---------------------------------------------------------------------

TEST(Prefetch, EveryFormIsANoOp) {
  for (const char* op :
       {"prefetch.global.L1", "prefetch.global.L2", "prefetch.local.L1", "prefetch.local.L2",
        "prefetch.L1", "prefetch.L2", "prefetch.global.L2::evict_last",
        "prefetch.global.L2::evict_normal", "prefetch.const.tensormap", "prefetch.param.tensormap",
        "prefetch.tensormap", "prefetchu.L1"}) {
    std::vector<std::string> words;
    std::stringstream ss(op);
    for (std::string w; std::getline(ss, w, '.');) words.push_back(w);
    ir::Instruction ins;
    ins.opcode = words[0];
    ins.mods.assign(words.begin() + 1, words.end());
    EXPECT_EQ(validateInstruction(ins), "") << op;
    Rig r(op, {H::addr(2, 8)});
    EXPECT_EQ(r.in.cls, InsnClass::Misc) << op;
    r.setAll(2, kA);
    const auto before = r.regs;
    r.run(~0u);
    EXPECT_TRUE(r.m.log.empty()) << op << " touched memory";
    EXPECT_EQ(r.regs, before) << op << " wrote a register";
  }
  H h("prefetch.global.L1", {H::addr(2)});
  EXPECT_EQ(h.tryBind("prefetch.global.L1", {H::reg(2)}), "'prefetch.global.L1' takes one address");
  EXPECT_EQ(h.tryBind("prefetch.global.L1", {H::addr(2), H::addr(3)}),
            "'prefetch.global.L1' takes one address");
  EXPECT_EQ(h.tryBind("prefetchu.L1", {}), "'prefetchu.L1' takes one address");
}

// ---- property: a store then a load of any type round-trips through memory ----------------------

RC_GTEST_PROP(LdStProps, StoreThenLoadRoundTripsLikeTheHostReference, ()) {
  const TypeCase t = kTypes[*rc::gen::inRange<size_t>(0, std::size(kTypes))];
  const unsigned vec = *rc::gen::element(1u, 2u, 4u);
  RC_PRE(t.bytes * vec <= 16);
  const uint64_t special[] = {0,
                              ~0ull,
                              0x80,
                              0x7F,
                              0x8000,
                              0x7FFF,
                              0x80000000ull,
                              0x7FFFFFFFull,
                              0x8000000000000000ull,
                              0x7FFFFFFFFFFFFFFFull};
  std::vector<uint64_t> values;
  for (unsigned i = 0; i < vec; ++i)
    values.push_back(*rc::gen::weightedOneOf<uint64_t>(
        {{1, rc::gen::elementOf(std::vector<uint64_t>(std::begin(special), std::end(special)))},
         {3, rc::gen::arbitrary<uint64_t>()}}));
  const unsigned slot = *rc::gen::inRange(0u, 8u);
  const uint64_t base = kA + slot * 16;
  const std::string vs = vec > 1 ? "v" + std::to_string(vec) + "." : "";
  std::vector<Opnd> src, dst;
  for (unsigned i = 0; i < vec; ++i) {
    src.push_back(H::reg(1 + i));
    dst.push_back(H::reg(10 + i));
  }
  H h("st.global." + vs + t.name, {H::addr(20), vec > 1 ? H::vec(src) : src[0]});
  h.setAll(20, base);
  for (unsigned i = 0; i < vec; ++i) h.setAll(1 + i, values[i]);
  h.run(1);
  for (unsigned i = 0; i < vec; ++i)
    RC_ASSERT(h.peek(base + i * t.bytes, t.bytes) == (values[i] & lowMask(8 * t.bytes)));
  RC_ASSERT(h.peek(base + vec * t.bytes, 1) == 0u);
  h.bind("ld.global." + vs + t.name, {vec > 1 ? H::vec(dst) : dst[0], H::addr(20)});
  h.run(1);
  for (unsigned i = 0; i < vec; ++i)
    RC_ASSERT(h.get(10 + i, 0) == extendRef(values[i] & lowMask(8 * t.bytes), t.bytes, t.isSigned));
}

}  // namespace
}  // namespace warpsim::isa
