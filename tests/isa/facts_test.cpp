// Facts about instructions (isa/facts.h): every spec declares its role, and the registers an
// instruction defines and uses follow from it, checked on lowered PTX.
#include "isa/facts.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "isa/lower.h"
#include "isa/parser.h"

namespace warpsim::isa {
namespace {

TEST(InstructionFacts, EverySpecDeclaresItsRoleAndOperationAndOneOpcodeHasOne) {
  std::map<std::string_view, Role> roles;
  std::map<std::string_view, Operation> operations;
  for (const OpcodeSpec& s : instructionTable()) {
    EXPECT_NE(s.role, Role::Unset) << s.opcode << " (" << s.family << ") declares no role";
    EXPECT_NE(s.operation, Operation::Unset)
        << s.opcode << " (" << s.family << ") declares no operation";
    auto [it, fresh] = roles.emplace(s.opcode, s.role);
    EXPECT_TRUE(fresh || it->second == s.role) << s.opcode << ": specs disagree on the role";
    auto [op, first] = operations.emplace(s.opcode, s.operation);
    EXPECT_TRUE(first || op->second == s.operation)
        << s.opcode << ": specs disagree on the operation";
  }
}

// The operations the passes ask for are declared by exactly the opcodes that perform them
// (the timing model's address folding, stride analysis, FLOP counts, fences and pipe choices
// read them, and the launch invariants ld.param, mov and cvta: isa/invariants.h).
TEST(InstructionFacts, OperationsAreDeclaredByTheOpcodesThatPerformThem) {
  const std::map<std::string_view, Operation> expected = {
      {"add", Operation::Add},
      {"addc", Operation::Add},
      {"sub", Operation::Subtract},
      {"subc", Operation::Subtract},
      {"mul", Operation::Multiply},
      {"mul24", Operation::Multiply},
      {"fma", Operation::MultiplyAdd},
      {"mad", Operation::MultiplyAdd},
      {"madc", Operation::MultiplyAdd},
      {"mad24", Operation::MultiplyAdd},
      {"div", Operation::Divide},
      {"neg", Operation::Negate},
      {"membar", Operation::Membar},
      {"fence", Operation::Fence},
      {"shl", Operation::ShiftLeft},
      {"min", Operation::Min},
      {"max", Operation::Max},
      {"abs", Operation::Absolute},
      {"ld", Operation::Load},
      {"mov", Operation::Move},
      {"cvta", Operation::ConvertAddress},
      {"and", Operation::And},
      {"or", Operation::Or},
      {"xor", Operation::Xor},
      {"setp", Operation::Compare},
      {"selp", Operation::Select},
  };
  for (const OpcodeSpec& s : instructionTable()) {
    const auto it = expected.find(s.opcode);
    EXPECT_EQ(s.operation, it == expected.end() ? Operation::Other : it->second)
        << s.opcode << " (" << s.family << ")";
  }
  // With the role, the operation tells the integer add without carry-in from addc.
  const Mods s32 = decodeMods({"s32"}), u32 = decodeMods({"u32"});
  EXPECT_EQ(findSpec("add", s32)->role, Role::Compute);
  EXPECT_EQ(findSpec("addc", u32)->role, Role::ComputeCarryIn);
}

TEST(InstructionFacts, EveryClassHasAName) {
  for (size_t c = 0; c < size_t(InsnClass::Count_); ++c)
    EXPECT_NE(insnClassName(InsnClass(c)), nullptr);
  EXPECT_STREQ(insnClassName(InsnClass::Misc), "misc");
  EXPECT_STREQ(insnClassName(InsnClass::Tensor), "tensor");
}

constexpr const char* kPtx = R"(
.version 8.5
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 s[64];
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  add.s32 %r2, %r1, 7;
  setp.lt.s32 %p1|%p2, %r2, %r1;
  ld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd1+16];
  st.global.v2.u32 [%rd1], {%r3, %r4};
  add.cc.u32 %r7, %r3, %r4;
  addc.u32 %r8, %r5, %r6;
  @!%p1 atom.global.add.u32 %r9, [%rd1], %r2;
  red.global.add.u32 [%rd1], %r2;
  bar.sync 0;
  bar.red.popc.u32 %r10, 0, %p2;
  @%p1 bra DONE;
  shfl.sync.bfly.b32 %r11|%p3, %r10, 1, 31, -1;
DONE:
  ret;
}
)";

struct Lowered {
  ir::Module module;
  Program program;
};

Lowered lowerKernel() {
  Lowered l{parseModule(kPtx, "facts.ptx"), {}};
  l.program = lower(l.module, [](const ir::VarDecl&) { return uint64_t(0x1000); });
  return l;
}

// Register slots by name, to write expectations in PTX's names.
struct Names {
  const FunctionCode& fn;
  RegRef r(const std::string& name) const {
    for (const auto& [n, reg] : fn.regNames)
      if (n == name) return reg;
    ADD_FAILURE() << "no register " << name;
    return {};
  }
};

const Inst& at(const FunctionCode& fn, const std::string& text, int nth = 0) {
  for (const Inst& in : fn.code)
    if (in.text == text && nth-- == 0) return in;
  throw std::runtime_error("no instruction " + text);
}

TEST(InstructionFacts, DefsAndUsesFollowTheRoleOnLoweredPtx) {
  const Lowered l = lowerKernel();
  const FunctionCode& fn = l.program.functions[0];
  const Names n{fn};
  using V = std::vector<RegRef>;
  const RegRef carry{kCarrySlot, false};
  // An immediate and a special register are no registers.
  EXPECT_EQ(at(fn, "mov.u32").defs, (V{n.r("%r1")}));
  EXPECT_EQ(at(fn, "mov.u32").uses, V{});
  EXPECT_EQ(at(fn, "add.s32").uses, (V{n.r("%r1")}));
  EXPECT_EQ(at(fn, "setp.lt.s32").defs, (V{n.r("%p1"), n.r("%p2")}));
  EXPECT_EQ(at(fn, "ld.global.v4.u32").defs, (V{n.r("%r3"), n.r("%r4"), n.r("%r5"), n.r("%r6")}));
  EXPECT_EQ(at(fn, "ld.global.v4.u32").uses, (V{n.r("%rd1")}));
  EXPECT_EQ(at(fn, "st.global.v2.u32").defs, V{});
  EXPECT_EQ(at(fn, "st.global.v2.u32").uses, (V{n.r("%rd1"), n.r("%r3"), n.r("%r4")}));
  EXPECT_EQ(at(fn, "add.cc.u32").defs, (V{n.r("%r7"), carry}));
  EXPECT_EQ(at(fn, "addc.u32").uses, (V{n.r("%r5"), n.r("%r6"), carry}));
  // The guard is read.
  EXPECT_EQ(at(fn, "atom.global.add.u32").defs, (V{n.r("%r9")}));
  EXPECT_EQ(at(fn, "atom.global.add.u32").uses, (V{n.r("%rd1"), n.r("%r2"), n.r("%p1")}));
  EXPECT_EQ(at(fn, "red.global.add.u32").defs, V{});
  EXPECT_EQ(at(fn, "bar.sync").defs, V{});
  EXPECT_EQ(at(fn, "bar.sync").flow, Flow::Barrier);
  EXPECT_EQ(at(fn, "bar.red.popc.u32").defs, (V{n.r("%r10")}));
  EXPECT_EQ(at(fn, "bar.red.popc.u32").uses, (V{n.r("%p2")}));
  EXPECT_EQ(at(fn, "bra").flow, Flow::Branch);
  EXPECT_EQ(at(fn, "bra").uses, (V{n.r("%p1")}));
  EXPECT_EQ(at(fn, "shfl.sync.bfly.b32").defs, (V{n.r("%r11"), n.r("%p3")}));
  EXPECT_EQ(at(fn, "ret").flow, Flow::Return);
  EXPECT_EQ(at(fn, "add.s32").flow, Flow::Next);
}

TEST(InstructionFacts, EveryLoweredInstructionNamesTheSpecThatBoundIt) {
  // What passes ask instead of the opcode text (the timing model's register-stride loops look
  // for an add by in.spec): the spec's opcode is the text's first word, never a prefix of it.
  const Lowered l = lowerKernel();
  const FunctionCode& fn = l.program.functions[0];
  for (const Inst& in : fn.code) {
    ASSERT_NE(in.spec, nullptr) << in.text;
    EXPECT_EQ(std::string(in.spec->opcode), in.text.substr(0, in.text.find('.'))) << in.text;
  }
  EXPECT_EQ(at(fn, "add.s32").spec->opcode, "add");
  EXPECT_EQ(at(fn, "add.s32").spec->family, "int_arith");
  EXPECT_EQ(at(fn, "add.cc.u32").spec->opcode, "add");
  EXPECT_EQ(at(fn, "addc.u32").spec->opcode, "addc");  // its text starts with "add"
  EXPECT_EQ(at(fn, "atom.global.add.u32").spec->opcode, "atom");
  EXPECT_EQ(at(fn, "bar.red.popc.u32").spec->role, Role::Barrier);
}

// What a fence orders is decided when it is bound (Inst::fence), so that the timing model and
// the race checker read a field per fence event instead of the modifier words: membar.level is
// fence.sc at that level (membar.gl at .gpu), fence's default is acq_rel, and the proxy and
// mbarrier_init fences are told apart. Every other instruction is no fence.
TEST(InstructionFacts, AFenceKnowsWhatItOrdersFromItsBinding) {
  const std::string ptx = R"(.version 8.5
.target sm_90
.address_size 64
.visible .entry k()
{
  .reg .b32 %r<2>;
  membar.cta;
  membar.gl;
  membar.sys;
  membar.proxy.alias;
  fence.sc.gpu;
  fence.acq_rel.cluster;
  fence.proxy.async;
  fence.mbarrier_init.release.cluster;
  fence.acquire.sync_restrict::shared::cluster.cluster;
  add.s32 %r1, %r1, 1;
  ret;
}
)";
  const ir::Module m = parseModule(ptx, "fences.ptx");
  const Program p = lower(m, [](const ir::VarDecl&) { return uint64_t(0x1000); });
  const FunctionCode& fn = p.functions[0];
  ASSERT_FALSE(fn.error) << fn.error->message();
  const auto fence = [&](const std::string& text) {
    const Fence f = at(fn, text).fence;
    return std::pair(f.kind, f.scope);
  };
  using K = FenceKind;
  using S = MemScope;
  EXPECT_EQ(fence("membar.cta"), std::pair(K::Sc, S::Cta));
  EXPECT_EQ(fence("membar.gl"), std::pair(K::Sc, S::Gpu));
  EXPECT_EQ(fence("membar.sys"), std::pair(K::Sc, S::Sys));
  EXPECT_EQ(fence("membar.proxy.alias").first, K::Proxy);
  EXPECT_EQ(fence("fence.sc.gpu"), std::pair(K::Sc, S::Gpu));
  EXPECT_EQ(fence("fence.acq_rel.cluster"), std::pair(K::AcqRel, S::Cluster));
  EXPECT_EQ(fence("fence.proxy.async").first, K::Proxy);
  EXPECT_EQ(fence("fence.mbarrier_init.release.cluster"), std::pair(K::MbarrierInit, S::Cluster));
  EXPECT_EQ(fence("fence.acquire.sync_restrict::shared::cluster.cluster"),
            std::pair(K::AcqRel, S::Cluster));
  EXPECT_EQ(fence("add.s32").first, K::None);
  EXPECT_EQ(fence("ret").first, K::None);
}

// The asynchronous groups' commits and waits are told apart when they are bound (Inst::sync),
// so that the timing model finds cp.async's and wgmma's group points by a field, not by the
// opcode's text: wgmma.fence orders registers but is no group point.
TEST(InstructionFacts, AnAsynchronousGroupPointKnowsItsRoleFromItsBinding) {
  const std::string ptx = R"(.version 8.5
.target sm_90a
.address_size 64
.visible .entry k()
{
  .reg .b32 %r<2>;
  cp.async.commit_group;
  cp.async.wait_group 1;
  cp.async.wait_all;
  wgmma.fence.sync.aligned;
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  add.s32 %r1, %r1, 1;
  ret;
}
)";
  const ir::Module m = parseModule(ptx, "groups.ptx");
  const Program p = lower(m, [](const ir::VarDecl&) { return uint64_t(0x1000); });
  const FunctionCode& fn = p.functions[0];
  ASSERT_FALSE(fn.error) << fn.error->message();
  EXPECT_EQ(at(fn, "cp.async.commit_group").sync, SyncRole::AsyncCommit);
  EXPECT_EQ(at(fn, "cp.async.wait_group").sync, SyncRole::AsyncWait);
  EXPECT_EQ(at(fn, "cp.async.wait_all").sync, SyncRole::AsyncWaitAll);
  EXPECT_EQ(at(fn, "wgmma.fence.sync.aligned").sync, SyncRole::None);
  EXPECT_EQ(at(fn, "wgmma.commit_group.sync.aligned").sync, SyncRole::TensorCommit);
  EXPECT_EQ(at(fn, "wgmma.wait_group.sync.aligned").sync, SyncRole::TensorWait);
  EXPECT_EQ(at(fn, "add.s32").sync, SyncRole::None);
}

TEST(InstructionFacts, WritesFirstOperandReadsTheOpcodeText) {
  EXPECT_TRUE(writesFirstOperand("add.s32"));
  EXPECT_TRUE(writesFirstOperand("ld.global.v4.f32"));
  EXPECT_TRUE(writesFirstOperand("atom.global.cas.b32"));
  EXPECT_TRUE(writesFirstOperand("bar.red.popc.u32"));
  EXPECT_FALSE(writesFirstOperand("bar.sync"));
  EXPECT_FALSE(writesFirstOperand("st.shared.u32"));
  EXPECT_FALSE(writesFirstOperand("red.global.add.f32"));
  EXPECT_FALSE(writesFirstOperand("bra.uni"));
  EXPECT_FALSE(writesFirstOperand("ret"));
  EXPECT_FALSE(writesFirstOperand("frobnicate.u32"));
}

TEST(InstructionFacts, RoleOfNamesTheDeclaredRole) {
  EXPECT_EQ(roleOf("st"), Role::Effect);
  EXPECT_EQ(roleOf("call"), Role::Call);
  EXPECT_EQ(roleOf("addc"), Role::ComputeCarryIn);
  EXPECT_EQ(roleOf("trap"), Role::Trap);
  EXPECT_EQ(roleOf("tcgen05"), Role::Unmodelled);
  EXPECT_EQ(roleOf("wgmma"), Role::Compute);
  EXPECT_EQ(roleOf("mma"), Role::Compute);
  EXPECT_EQ(roleOf("nope"), Role::Unset);
}

// The operand forms that only some opcodes accept are spec fields (not opcode names compared in
// the lowering): selectors on the video instructions, `-%r` on vmad, one-element vectors kept
// as vectors on tex/tld4; and fusion roles (fusionOf: from the operation and the class) on the
// f32/f64 and half mul, add, sub and neg, and on the f32/f64 div (its .approx/.full quotient:
// Fusion::Divide) alone.
TEST(InstructionFacts, OperandFormsAndFusionComeFromTheSpecs) {
  for (const OpcodeSpec& s : instructionTable()) {
    EXPECT_EQ(s.forms.selectors, s.family == "video" || s.family == "video_simd") << s.opcode;
    EXPECT_EQ(s.forms.negatedRegisters, s.opcode == "vmad") << s.opcode;
    EXPECT_EQ(s.forms.oneElementVectors, s.opcode == "tex" || s.opcode == "tld4") << s.opcode;
    const bool fusible = (s.family == "float_arith" || s.family == "half_arith") &&
                         (s.opcode == "mul" || s.opcode == "add" || s.opcode == "sub" ||
                          s.opcode == "neg" || (s.opcode == "div" && s.family == "float_arith"));
    EXPECT_EQ(fusionOf(s) != Fusion::None, fusible) << s.opcode << " (" << s.family << ")";
    EXPECT_EQ(fusionOf(s) == Fusion::Divide, fusible && s.opcode == "div") << s.opcode;
  }
}

std::string loweringError(const std::string& line) {
  const std::string ptx = std::string(".version 9.0\n.target sm_90\n.address_size 64\n") +
                          ".visible .entry k()\n{\n  .reg .b32 %r<8>;\n  .reg .pred %p<2>;\n" +
                          line + "\n  ret;\n}\n";
  const ir::Module m = parseModule(ptx, "forms.ptx");
  const Program p = lower(m, [](const ir::VarDecl&) { return uint64_t(0); });
  return p.functions[0].error ? p.functions[0].error->message() : "";
}

TEST(InstructionFacts, OperandFormsAreRefusedWhereTheSpecHasNone) {
  EXPECT_EQ(loweringError("  vadd.u32.u32.u32 %r1, %r2.b1, %r3.b0;"), "");
  EXPECT_EQ(loweringError("  vmad.u32.u32.u32 %r1, -%r2, %r3, %r4;"), "");
  EXPECT_NE(
      loweringError("  dp4a.u32.u32 %r1, %r2.b0, %r3, %r4;").find("takes no operand selector"),
      std::string::npos);
  EXPECT_NE(
      loweringError("  vote.sync.ballot.b32 %r1, %p1.b0, -1;").find("takes no operand selector"),
      std::string::npos);
  EXPECT_NE(loweringError("  vadd.u32.u32.u32 %r1, -%r2, %r3;").find("cannot negate"),
            std::string::npos);
  EXPECT_NE(loweringError("  add.u32 %r1, -%r2, %r3;").find("cannot negate"), std::string::npos);
}

}  // namespace
}  // namespace warpsim::isa
