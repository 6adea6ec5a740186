// Tests of mov (isa/insns/move.cpp): every type (the result masked to the type's width), the
// predicate form with negation and immediates, and the vector forms that pack and unpack a
// wide register (PTX ISA "mov": mov.b32 d, {a, b} with .b16 elements, mov.b64 {lo, hi}, d,
// element 0 in the low bits, `_` discarding an element), with the bind errors of bad forms and a
// RapidCheck pack / unpack round trip against a host reference.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "isa/insn_table.h"
#include "tests/support/exec_harness.h"

namespace warpsim::isa {
namespace {

using test::ExecHarness;
using H = ExecHarness;

constexpr uint64_t kSentinel = 0xDEADBEEFCAFEF00Dull;
constexpr uint64_t kPattern = 0xF0E1D2C3B4A59687ull;

TEST(Mov, EveryTypeCopiesTheSourceMaskedToTheTypeWidth) {
  struct Case {
    const char* type;
    unsigned bits;
  };
  const Case cases[] = {{"b8", 8},   {"u8", 8},   {"s8", 8},   {"b16", 16},
                        {"u16", 16}, {"s16", 16}, {"f16", 16}, {"bf16", 16},
                        {"b32", 32}, {"u32", 32}, {"s32", 32}, {"f32", 32},
                        {"b64", 64}, {"u64", 64}, {"s64", 64}, {"f64", 64}};
  for (const Case& c : cases) {
    const std::string op = std::string("mov.") + c.type;
    H h(op, {H::reg(1), H::reg(2)});
    EXPECT_EQ(h.inst().cls, InsnClass::Move) << op;
    for (unsigned l = 0; l < 32; ++l) h.set(2, l, kPattern ^ l);
    h.setAll(1, kSentinel);
    h.run(0x0000FFFFu);
    for (unsigned l = 0; l < 16; ++l)
      EXPECT_EQ(h.get(1, l), (kPattern ^ l) & lowMask(c.bits)) << op << " lane " << l;
    for (unsigned l = 16; l < 32; ++l) EXPECT_EQ(h.get(1, l), kSentinel) << op << " lane " << l;
    // A full warp takes the element-wise loop of the handler bound for the width.
    h.setAll(1, kSentinel);
    h.run(~0u);
    for (unsigned l = 0; l < 32; ++l)
      EXPECT_EQ(h.get(1, l), (kPattern ^ l) & lowMask(c.bits)) << op << " lane " << l;
  }
}

TEST(Mov, ImmediatesAreSlotsMaskedLikeRegisters) {
  H h("mov.u16", {H::reg(1), H::reg(2)});
  const Opnd imm = h.imm(0x12345);
  h.bind("mov.u16", {H::reg(1), imm});
  h.run(1);
  EXPECT_EQ(h.get(1, 0), 0x2345u);
  h.bind("mov.f32", {H::reg(3), h.imm(0x3F800000)});
  h.run(1);
  EXPECT_EQ(h.get(3, 0), 0x3F800000u);
  // A negative s32 immediate is sign-extended in its 64-bit slot by lowering; the register
  // write keeps 32 bits.
  h.bind("mov.s32", {H::reg(4), h.imm(uint64_t(int64_t(-2)))});
  h.run(1);
  EXPECT_EQ(h.get(4, 0), 0xFFFFFFFEu);
}

TEST(Mov, PredicateMovesCopyNegateAndTakeImmediates) {
  H h("mov.pred", {H::pred(1), H::pred(2)});
  EXPECT_EQ(h.inst().cls, InsnClass::Predicate);
  h.setPred(1, 0xFFFF0000u);
  h.setPred(2, 0x12345678u);
  h.run(0x00FF00FFu);
  EXPECT_EQ(h.getPred(1), (0xFFFF0000u & ~0x00FF00FFu) | (0x12345678u & 0x00FF00FFu));

  h.bind("mov.pred", {H::pred(1), H::pred(2, true)});
  h.setPred(1, 0);
  h.run(0xFFFF0000u);
  EXPECT_EQ(h.getPred(1), ~0x12345678u & 0xFFFF0000u);

  h.bind("mov.pred", {H::pred(3), h.imm(1)});
  h.setPred(3, 0);
  h.run(0x0000F00Fu);
  EXPECT_EQ(h.getPred(3), 0x0000F00Fu);
  h.bind("mov.pred", {H::pred(3), h.imm(0)});
  h.run(0x0000000Fu);
  EXPECT_EQ(h.getPred(3), 0x0000F000u);
}

// ---- pack: a wide register from elements, element 0 in the low bits ------------------------

TEST(Mov, PacksElementsIntoAWideRegister) {
  {
    H h("mov.b32", {H::reg(1), H::vec({H::reg(2), H::reg(3)})});
    h.setAll(2, 0xFFFF1234u);  // bits above the element's 16 are not part of it
    h.setAll(3, 0xABCDu);
    h.run(1);
    EXPECT_EQ(h.get(1, 0), 0xABCD1234u);
  }
  {
    H h("mov.b64", {H::reg(1), H::vec({H::reg(2), H::reg(3)})});
    h.setAll(2, 0xFFFFFFFF89ABCDEFull);
    h.setAll(3, 0x01234567u);
    h.run(0x3);
    EXPECT_EQ(h.get(1, 0), 0x0123456789ABCDEFull);
    EXPECT_EQ(h.get(1, 1), 0x0123456789ABCDEFull);
  }
  {
    H h("mov.b64", {H::reg(1), H::vec({H::reg(2), H::reg(3), H::reg(4), H::reg(5)})});
    h.setAll(2, 0x10001u);
    h.setAll(3, 0x2222u);
    h.setAll(4, 0xF3333u);
    h.setAll(5, 0x4444u);
    h.run(1);
    EXPECT_EQ(h.get(1, 0), 0x4444333322220001ull);
  }
  {
    H h("mov.b32", {H::reg(1), H::vec({H::reg(2), H::reg(3), H::reg(4), H::reg(5)})});
    h.setAll(2, 0x1AAu);
    h.setAll(3, 0xBBu);
    h.setAll(4, 0xCCu);
    h.setAll(5, 0x3DDu);
    h.run(1);
    EXPECT_EQ(h.get(1, 0), 0xDDCCBBAAu);
  }
  {
    H h("mov.b16", {H::reg(1), H::vec({H::reg(2), H::reg(3)})});
    h.setAll(2, 0x1F0u);
    h.setAll(3, 0x0Eu);
    h.run(1);
    EXPECT_EQ(h.get(1, 0), 0x0EF0u);
  }
  {
    // Immediates pack like registers; lanes that do not execute keep their value.
    H h("mov.b32", {H::reg(1), H::reg(2)});
    const Opnd lo = h.imm(0x5678), hi = h.imm(0x1234);
    h.bind("mov.b32", {H::reg(1), H::vec({lo, hi})});
    h.setAll(1, kSentinel);
    h.run(0x2);
    EXPECT_EQ(h.get(1, 1), 0x12345678u);
    EXPECT_EQ(h.get(1, 0), kSentinel);
  }
}

// ---- unpack: elements from a wide register, `_` discarding one -----------------------------

TEST(Mov, UnpacksAWideRegisterIntoElements) {
  {
    H h("mov.b64", {H::vec({H::reg(1), H::reg(2)}), H::reg(3)});
    for (unsigned l = 0; l < 32; ++l) h.set(3, l, 0x0123456789ABCDEFull + l);
    h.run(~0u);
    for (unsigned l = 0; l < 32; ++l) {
      EXPECT_EQ(h.get(1, l), 0x89ABCDEFu + l);
      EXPECT_EQ(h.get(2, l), 0x01234567u);
    }
  }
  {
    H h("mov.b32", {H::vec({H::reg(1), H::reg(2)}), H::reg(3)});
    h.setAll(3, 0xFFFFFFFFABCD1234ull);  // only the register's 32 bits are unpacked
    h.run(1);
    EXPECT_EQ(h.get(1, 0), 0x1234u);
    EXPECT_EQ(h.get(2, 0), 0xABCDu);
  }
  {
    H h("mov.b64", {H::vec({H::reg(1), H::reg(2), H::reg(3), H::reg(4)}), H::reg(5)});
    h.setAll(5, 0x4444333322221111ull);
    h.run(1);
    EXPECT_EQ(h.get(1, 0), 0x1111u);
    EXPECT_EQ(h.get(2, 0), 0x2222u);
    EXPECT_EQ(h.get(3, 0), 0x3333u);
    EXPECT_EQ(h.get(4, 0), 0x4444u);
  }
  {
    H h("mov.b32", {H::vec({H::reg(1), H::reg(2), H::reg(3), H::reg(4)}), H::reg(5)});
    h.setAll(5, 0xDDCCBBAAu);
    h.run(1);
    EXPECT_EQ(h.get(1, 0), 0xAAu);
    EXPECT_EQ(h.get(2, 0), 0xBBu);
    EXPECT_EQ(h.get(3, 0), 0xCCu);
    EXPECT_EQ(h.get(4, 0), 0xDDu);
  }
  {
    H h("mov.b16", {H::vec({H::reg(1), H::reg(2)}), H::reg(3)});
    h.setAll(3, 0x0EF0u);
    h.run(1);
    EXPECT_EQ(h.get(1, 0), 0xF0u);
    EXPECT_EQ(h.get(2, 0), 0x0Eu);
  }
  {
    // mov.b64 {%r1, _}, %rd: the high half is discarded; {_, %r2}: the low one.
    H h("mov.b64", {H::vec({H::reg(1), H::sink()}), H::reg(3)});
    h.setAll(1, kSentinel);
    h.setAll(2, kSentinel);
    h.setAll(3, 0x0000000200000001ull);
    h.run(1);
    EXPECT_EQ(h.get(1, 0), 1u);
    EXPECT_EQ(h.get(2, 0), kSentinel);
    h.bind("mov.b64", {H::vec({H::sink(), H::reg(2)}), H::reg(3)});
    h.setAll(1, kSentinel);
    h.run(1);
    EXPECT_EQ(h.get(1, 0), kSentinel);
    EXPECT_EQ(h.get(2, 0), 2u);
    EXPECT_EQ(h.get(2, 1), kSentinel);  // lane 1 did not execute
  }
}

// ---- bind errors ----------------------------------------------------------------------------

TEST(MovForms, BadOperandFormsAreRejectedWithAMessage) {
  H h("mov.u32", {H::reg(1), H::reg(2)});
  struct Case {
    std::string op;
    std::vector<Opnd> ops;
    std::string msg;
  };
  const Opnd v2 = H::vec({H::reg(2), H::reg(3)});
  const std::vector<Case> cases = {
      {"mov.u32", {H::reg(1)}, "'mov.u32' takes 2 operands, 1 given"},
      {"mov.u32", {H::reg(1), H::reg(2), H::reg(3)}, "'mov.u32' takes 2 operands, 3 given"},
      {"mov.pred", {H::reg(1), H::pred(2)}, "'mov.pred' writes a predicate"},
      {"mov.pred",
       {H::pred(1), v2},
       "the source of 'mov.pred' must be a predicate or an immediate"},
      {"mov.pred",
       {H::pred(1), H::addr(2)},
       "the source of 'mov.pred' must be a predicate or an immediate"},
      {"mov.u32", {H::reg(1), H::pred(2)}, "unsupported operand forms for 'mov.u32'"},
      {"mov.u32", {H::pred(1), H::reg(2)}, "unsupported operand forms for 'mov.u32'"},
      {"mov.u64", {H::reg(1), H::addr(2)}, "unsupported operand forms for 'mov.u64'"},
      {"mov.b64", {v2, v2}, "unsupported operand forms for 'mov.b64'"},
      {"mov.b64",
       {H::reg(1), H::vec({H::reg(2), H::reg(3), H::reg(4)})},
       "'mov' packs 2 or 4 elements"},
      {"mov.b64",
       {H::reg(1), H::vec({H::reg(2), H::pred(3)})},
       "'mov' packs registers or immediates"},
      {"mov.b64",
       {H::reg(1), H::vec({H::reg(2), H::sink()})},
       "'mov' packs registers or immediates"},
      {"mov.b64", {H::vec({H::reg(2)}), H::reg(1)}, "'mov' unpacks into 2 or 4 elements"},
      {"mov.b64",
       {H::vec({H::reg(2), H::pred(3)}), H::reg(1)},
       "'mov' unpacks into registers or '_'"},
      // Elements are at least 8 bits: mov.b16 packs two .b8, never four.
      {"mov.b16",
       {H::reg(1), H::vec({H::reg(2), H::reg(3), H::reg(4), H::reg(5)})},
       "'mov.b16' cannot pack 4 elements"},
      {"mov.b16",
       {H::vec({H::reg(2), H::reg(3), H::reg(4), H::reg(5)}), H::reg(1)},
       "'mov.b16' cannot unpack into 4 elements"},
      {"mov.b8", {H::reg(1), v2}, "'mov.b8' cannot pack 2 elements"},
      // 128-bit registers do not fit the 64-bit register slots.
      {"mov.b128",
       {H::reg(1), H::reg(2)},
       "'mov.b128' needs 128-bit registers, which are not supported yet"},
      {"mov.b128",
       {H::reg(1), v2},
       "'mov.b128' needs 128-bit registers, which are not supported yet"},
      {"mov.b128",
       {v2, H::reg(1)},
       "'mov.b128' needs 128-bit registers, which are not supported yet"},
      {"mov.f16x2", {H::reg(1), H::reg(2)}, "no spec for mov.f16x2"},
  };
  for (const Case& c : cases) EXPECT_EQ(h.tryBind(c.op, c.ops), c.msg) << c.op;
}

// Every type of the spec binds in the scalar form (b128 is refused with its message).
TEST(MovForms, EveryTypeOfTheSpecBindsOrIsRefused) {
  H h("mov.u32", {H::reg(1), H::reg(2)});
  size_t n = 0;
  for (const OpcodeSpec& s : instructionTable()) {
    if (s.opcode != "mov") continue;
    EXPECT_EQ(s.family, "move");
    for (Type t : s.types) {
      const std::string op = std::string("mov.") + typeName(t);
      const bool pred = t == Type::Pred;
      const std::string got = h.tryBind(op, pred ? std::vector<Opnd>{H::pred(1), H::pred(2)}
                                                 : std::vector<Opnd>{H::reg(1), H::reg(2)});
      EXPECT_EQ(got, t == Type::B128
                         ? "'mov.b128' needs 128-bit registers, which are not supported yet"
                         : "")
          << op;
      ++n;
    }
  }
  EXPECT_GE(n, 18u);
}

// ---- property: packing then unpacking gives back each element's low bits --------------------

RC_GTEST_PROP(MovProps, PackThenUnpackRoundTripsLikeTheHostReference, ()) {
  struct Form {
    const char* type;
    unsigned bits, elems;
  };
  const Form forms[] = {
      {"b16", 16, 2}, {"b32", 32, 2}, {"b32", 32, 4}, {"b64", 64, 2}, {"b64", 64, 4}};
  const Form f = forms[*rc::gen::inRange<size_t>(0, std::size(forms))];
  const unsigned w = f.bits / f.elems;
  std::vector<Opnd> src, dst;
  std::vector<uint64_t> values;
  for (unsigned i = 0; i < f.elems; ++i) {
    src.push_back(H::reg(1 + i));
    dst.push_back(H::reg(10 + i));
    values.push_back(*rc::gen::arbitrary<uint64_t>());
  }
  H h(std::string("mov.") + f.type, {H::reg(20), H::vec(src)});
  for (unsigned i = 0; i < f.elems; ++i) h.setAll(1 + i, values[i]);
  h.run(~0u);
  uint64_t packed = 0;
  for (unsigned i = 0; i < f.elems; ++i) packed |= (values[i] & lowMask(w)) << (w * i);
  RC_ASSERT(h.get(20, 7) == packed);
  h.bind(std::string("mov.") + f.type, {H::vec(dst), H::reg(20)});
  h.run(~0u);
  for (unsigned i = 0; i < f.elems; ++i) RC_ASSERT(h.get(10 + i, 31) == (values[i] & lowMask(w)));
}

}  // namespace
}  // namespace warpsim::isa
