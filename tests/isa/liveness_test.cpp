// The registers a frame must zero at entry (isa/liveness.h): those a function may read before it
// writes them. The SIMT core zeroes nothing else, the carry flag included: a frame whose addc
// may read the carry first finds it zeroed because liveness lists it, and no other.
#include "isa/liveness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "isa/lower.h"
#include "isa/parser.h"

namespace warpsim::isa {
namespace {

Program lowered(const std::string& body) {
  const std::string ptx =
      ".version 9.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k(.param .u64 p)\n{\n  .reg .pred %p<2>;\n"
      "  .reg .b32 %r<8>;\n" +
      body + "  ret;\n}\n";
  return lower(parseModule(ptx, "liveness.ptx"), [](const ir::VarDecl&) { return uint64_t(0); });
}

bool zeroes(const FunctionCode& fn, uint32_t slot) {
  return std::find(fn.zeroAtEntry.begin(), fn.zeroAtEntry.end(), slot) != fn.zeroAtEntry.end();
}

TEST(Liveness, TheCarryIsZeroedAtEntryOnlyWhereItMayBeReadFirst) {
  // addc first: the carry is read before anything sets it.
  const Program first = lowered("  mov.u32 %r1, 1;\n  addc.u32 %r2, %r1, %r1;\n");
  EXPECT_TRUE(zeroes(first.functions.at(0), kCarrySlot));
  // add.cc sets it on every path before addc reads it.
  const Program set =
      lowered("  mov.u32 %r1, 1;\n  add.cc.u32 %r2, %r1, %r1;\n  addc.u32 %r3, %r1, %r1;\n");
  EXPECT_FALSE(zeroes(set.functions.at(0), kCarrySlot));
  // A guarded add.cc leaves the carry of the lanes whose guard is false as it was.
  const Program guarded = lowered(
      "  mov.u32 %r1, %tid.x;\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 add.cc.u32 %r2, %r1, %r1;\n"
      "  addc.u32 %r3, %r1, %r1;\n");
  EXPECT_TRUE(zeroes(guarded.functions.at(0), kCarrySlot));
  // No carry read at all: nothing to zero.
  EXPECT_FALSE(zeroes(lowered("  mov.u32 %r1, 1;\n").functions.at(0), kCarrySlot));
}

bool zeroesPred(const FunctionCode& fn, uint32_t pred) {
  return std::find(fn.predsZeroAtEntry.begin(), fn.predsZeroAtEntry.end(), pred) !=
         fn.predsZeroAtEntry.end();
}

TEST(Liveness, APredicateIsZeroedAtEntryOnlyWhereItMayBeReadFirst) {
  // %p1 guards a move before any setp writes it: read first.
  const Program guardFirst = lowered("  @%p1 mov.u32 %r1, 1;\n  setp.eq.u32 %p1, %r1, 0;\n");
  EXPECT_TRUE(zeroesPred(guardFirst.functions.at(0), 1));
  // setp writes it on every path before the guard reads it.
  const Program setFirst =
      lowered("  mov.u32 %r1, %tid.x;\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 mov.u32 %r2, 1;\n");
  EXPECT_FALSE(zeroesPred(setFirst.functions.at(0), 1));
  // A guarded setp leaves the predicate of the lanes whose guard is false as it was.
  const Program guardedSet = lowered(
      "  mov.u32 %r1, %tid.x;\n  setp.eq.u32 %p0, %r1, 0;\n  @%p0 setp.eq.u32 %p1, %r1, 1;\n"
      "  @%p1 mov.u32 %r2, 1;\n");
  EXPECT_FALSE(zeroesPred(guardedSet.functions.at(0), 0));
  EXPECT_TRUE(zeroesPred(guardedSet.functions.at(0), 1));
  // vote reads other lanes' bits: zeroed though written first.
  const Program vote = lowered(
      "  mov.u32 %r1, %tid.x;\n  setp.eq.u32 %p1, %r1, 0;\n"
      "  vote.sync.ballot.b32 %r2, %p1, -1;\n");
  EXPECT_TRUE(zeroesPred(vote.functions.at(0), 1));
}

}  // namespace
}  // namespace warpsim::isa
