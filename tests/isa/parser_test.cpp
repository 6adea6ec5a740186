// The PTX parser on real nvcc 13 output (tests/isa/nvcc_ptx_samples.h) and on one snippet per
// grammar feature; plus the golden error messages of tests/golden/parse_errors.
#include "isa/parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/isa/nvcc_ptx_samples.h"

namespace warpsim::isa {
namespace {

using ir::OperandKind;

ir::Module parse(const std::string& text) { return parseModule(text, "test.ptx"); }

const std::string kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

// A module holding one kernel `k` with `body` as its body.
std::string kernel(const std::string& body, const std::string& params = "") {
  return kHeader + ".visible .entry k(" + params + ")\n{\n" + body + "\n}\n";
}

const ir::Function& fn(const ir::Module& m, const std::string& name) {
  for (const ir::Function& f : m.functions)
    if (f.name == name && f.hasBody) return f;
  const ir::Function* decl = m.findFunction(name);
  if (!decl) throw std::runtime_error("no function " + name);
  return *decl;
}

std::vector<const ir::Instruction*> instrs(const ir::Function& f) {
  std::vector<const ir::Instruction*> out;
  for (const ir::Statement& s : f.body)
    if (s.kind == ir::Statement::Kind::Instr) out.push_back(&s.instr);
  return out;
}

// The first instruction whose full opcode is `op` (nth occurrence).
const ir::Instruction& find(const ir::Function& f, const std::string& op, int nth = 0) {
  for (const ir::Instruction* in : instrs(f))
    if (in->fullOpcode() == op && nth-- == 0) return *in;
  throw std::runtime_error("no instruction " + op);
}

const ir::Instruction& atLine(const ir::Function& f, uint32_t line) {
  for (const ir::Instruction* in : instrs(f))
    if (in->loc.line == line) return *in;
  throw std::runtime_error("no instruction at line " + std::to_string(line));
}

const ir::VarDecl& local(const ir::Function& f, const std::string& name) {
  for (const ir::VarDecl& v : f.locals)
    if (v.name == name) return v;
  throw std::runtime_error("no local " + name);
}

std::vector<std::string> labels(const ir::Function& f) {
  std::vector<std::string> out;
  for (const ir::Statement& s : f.body)
    if (s.kind == ir::Statement::Kind::Label) out.push_back(s.label);
  return out;
}

void expectReg(const ir::Operand& o, const std::string& name) {
  EXPECT_EQ(o.kind, OperandKind::Reg) << name;
  EXPECT_EQ(o.name, name);
}
void expectSymbol(const ir::Operand& o, const std::string& name) {
  EXPECT_EQ(o.kind, OperandKind::Symbol) << name;
  EXPECT_EQ(o.name, name);
}
void expectAddress(const ir::Operand& o, std::optional<OperandKind> base, const std::string& name,
                   int64_t offset) {
  ASSERT_EQ(o.kind, OperandKind::Address);
  EXPECT_EQ(o.baseKind, base);
  EXPECT_EQ(o.name, name);
  EXPECT_EQ(o.offset, offset);
}
void expectInt(const ir::Operand& o, uint64_t bits) {
  EXPECT_EQ(o.kind, OperandKind::IntImm);
  EXPECT_EQ(o.bits, bits);
}

uint64_t f64Bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

// Runs `text` expecting a PtxError; returns it.
PtxError parseError(const std::string& text, const OpcodeValidator& v = {}) {
  try {
    parseModule(text, "test.ptx", v);
  } catch (const PtxError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return PtxError("", 0, 0, "", "");
}

// ---- real nvcc output --------------------------------------------------------------------

TEST(ParserNvcc, CallsModuleStructure) {
  ir::Module m = parseModule(samples::kCallsPtx, "calls.ptx");
  EXPECT_EQ(m.path, "calls.ptx");
  EXPECT_EQ(m.version, "9.0");
  EXPECT_EQ(m.target, "sm_90");
  EXPECT_TRUE(m.targetOptions.empty());
  EXPECT_EQ(m.addressSize, 64u);
  ASSERT_EQ(m.files.size(), 1u);
  EXPECT_EQ(m.files.at(1), "/tmp/warpsim_ptx/calls.cu");

  ASSERT_EQ(m.functions.size(), 4u);
  const ir::Function& vprintf = m.functions[0];
  EXPECT_EQ(vprintf.name, "vprintf");
  EXPECT_TRUE(vprintf.isExtern);
  EXPECT_FALSE(vprintf.hasBody);
  ASSERT_EQ(vprintf.returns.size(), 1u);
  EXPECT_EQ(vprintf.returns[0].name, "func_retval0");
  EXPECT_EQ(vprintf.returns[0].type, "b32");
  EXPECT_EQ(vprintf.returns[0].space, ir::StateSpace::Param);
  ASSERT_EQ(vprintf.params.size(), 2u);
  EXPECT_EQ(vprintf.params[1].name, "vprintf_param_1");
  EXPECT_EQ(vprintf.params[1].type, "b64");

  const ir::Function& sq = fn(m, "_Z2sqf");
  EXPECT_FALSE(sq.isEntry);
  EXPECT_FALSE(sq.isVisible);
  ASSERT_EQ(sq.returns.size(), 1u);
  ASSERT_EQ(sq.params.size(), 1u);
  EXPECT_EQ(sq.params[0].name, "_Z2sqf_param_0");
  ASSERT_EQ(instrs(sq).size(), 4u);
  const ir::Instruction& st = find(sq, "st.param.f32");
  expectAddress(st.operands[0], OperandKind::Symbol, "func_retval0", 0);
  expectReg(st.operands[1], "%f2");
  const ir::Instruction& mul = find(sq, "mul.f32");
  EXPECT_EQ(mul.loc.line, 32u);
  EXPECT_EQ(mul.cuda.file, 1);
  EXPECT_EQ(mul.cuda.line, 2u);
  EXPECT_EQ(mul.cuda.col, 44u);
  EXPECT_FALSE(mul.inlinedAt.known());
  // The ld before `.loc 1 2 44` carries the function's opening `.loc 1 2 0`.
  EXPECT_EQ(find(sq, "ld.param.f32").cuda.col, 0u);

  const ir::Function& k = fn(m, "_Z1kPfPKfi");
  EXPECT_TRUE(k.isEntry);
  EXPECT_TRUE(k.isVisible);
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_EQ(k.params[0].type, "u64");
  EXPECT_EQ(k.params[2].type, "u32");
  EXPECT_EQ(k.params[2].name, "_Z1kPfPKfi_param_2");
  EXPECT_EQ(instrs(k).size(), 37u);
  EXPECT_EQ(labels(k), (std::vector<std::string>{"$L__BB2_2", "$L__BB2_4"}));

  const ir::VarDecl& depot = local(k, "__local_depot2");
  EXPECT_EQ(depot.space, ir::StateSpace::Local);
  EXPECT_EQ(depot.align, 16u);
  EXPECT_EQ(depot.dims, std::vector<uint64_t>{16});
  EXPECT_EQ(depot.totalBytes(), 16u);
  EXPECT_EQ(local(k, "%rd").rangeCount, 12);
  EXPECT_EQ(local(k, "%p").type, "pred");

  const ir::Instruction& bra = find(k, "bra");
  EXPECT_EQ(bra.guard, "%p1");
  EXPECT_FALSE(bra.guardNegated);
  EXPECT_EQ(bra.loc.line, 96u);
  EXPECT_EQ(bra.loc.col, 2u);  // the guard's column
  expectSymbol(bra.operands[0], "$L__BB2_2");
  expectReg(find(k, "mov.u32").operands[1], "%ntid.x");
  expectAddress(find(k, "st.local.f64").operands[0], OperandKind::Reg, "%rd9", 8);
  expectSymbol(find(k, "mov.u64", 0).operands[1], "__local_depot2");
  expectSymbol(find(k, "mov.u64", 1).operands[1], "$str$1");
  // `.loc 1 0 3`: line 0 is kept, and is not a known location.
  const ir::Instruction& cvta = atLine(k, 99);
  EXPECT_EQ(cvta.cuda.line, 0u);
  EXPECT_FALSE(cvta.cuda.known());
}

TEST(ParserNvcc, CallseqBlocksAreRenamedPerScope) {
  ir::Module m = parseModule(samples::kCallsPtx, "calls.ptx");
  const ir::Function& k = fn(m, "_Z1kPfPKfi");
  // callseq 1 (the first nested scope) declares its names first: they keep them. callseq 2
  // and 3 repeat them and get their scope's ordinal.
  std::vector<std::string> names;
  for (const ir::VarDecl& v : k.locals) names.push_back(v.name);
  for (const char* n : {"temp_param_reg", "param0", "retval0", "temp_param_reg$2",
                        "temp_param_reg$3", "param0$3", "param1", "retval0$3"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  EXPECT_EQ(local(k, "temp_param_reg$3").space, ir::StateSpace::Reg);
  EXPECT_EQ(local(k, "param0$3").type, "b64");

  // callseq 1: st.param.f32 [param0+0] then call.uni (retval0), _Z2sqf, (param0).
  expectAddress(atLine(k, 107).operands[0], OperandKind::Symbol, "param0", 0);
  const ir::Instruction& callSq = atLine(k, 109);
  EXPECT_EQ(callSq.fullOpcode(), "call.uni");
  ASSERT_EQ(callSq.operands.size(), 3u);
  ASSERT_EQ(callSq.operands[0].kind, OperandKind::List);
  expectSymbol(callSq.operands[0].elems.at(0), "retval0");
  expectSymbol(callSq.operands[1], "_Z2sqf");
  expectSymbol(callSq.operands[2].elems.at(0), "param0");

  // callseq 3: every use inside the scope is rewritten, addresses and lists alike.
  expectAddress(atLine(k, 143).operands[0], OperandKind::Symbol, "param0$3", 0);
  const ir::Instruction& callPrintf = atLine(k, 147);
  expectSymbol(callPrintf.operands[0].elems.at(0), "retval0$3");
  expectSymbol(callPrintf.operands[1], "vprintf");
  ASSERT_EQ(callPrintf.operands[2].elems.size(), 2u);
  expectSymbol(callPrintf.operands[2].elems[0], "param0$3");
  expectSymbol(callPrintf.operands[2].elems[1], "param1");
  expectAddress(atLine(k, 153).operands[1], OperandKind::Symbol, "retval0$3", 0);

  // callseq 2 calls a function without arguments: `call.uni _Z3foov, ();`.
  const ir::Instruction& callFoo = atLine(k, 123);
  ASSERT_EQ(callFoo.operands.size(), 2u);
  expectSymbol(callFoo.operands[0], "_Z3foov");
  EXPECT_EQ(callFoo.operands[1].kind, OperandKind::List);
  EXPECT_TRUE(callFoo.operands[1].elems.empty());

  // In _Z3foov, the only callseq is the first: nothing is renamed.
  const ir::Function& foo = fn(m, "_Z3foov");
  expectAddress(find(foo, "st.param.b64").operands[0], OperandKind::Symbol, "param0", 0);
  expectInt(find(foo, "st.param.b64", 1).operands[1], 0);
}

TEST(ParserNvcc, GlobalsAndInitializers) {
  ir::Module calls = parseModule(samples::kCallsPtx, "calls.ptx");
  const ir::VarDecl* str = calls.findGlobal("$str");
  ASSERT_NE(str, nullptr);
  EXPECT_EQ(str->space, ir::StateSpace::Global);
  EXPECT_EQ(str->dims, std::vector<uint64_t>{5});
  ASSERT_EQ(str->init.size(), 4u);  // "foo\n"; the trailing NUL is implicit
  EXPECT_EQ(str->init[0].bits, 102u);
  EXPECT_EQ(str->init[3].bits, 10u);

  ir::Module m = parseModule(samples::kSmemPtx, "smem.ptx");
  ASSERT_EQ(m.globals.size(), 5u);
  const ir::VarDecl& coeffs = *m.findGlobal("coeffs");
  EXPECT_EQ(coeffs.space, ir::StateSpace::Const);
  EXPECT_EQ(coeffs.align, 4u);
  ASSERT_EQ(coeffs.init.size(), 16u);
  EXPECT_EQ(coeffs.init[2].bits, 128u);  // 1.0f = 0x3F800000, little endian
  EXPECT_EQ(coeffs.init[3].bits, 63u);
  EXPECT_EQ(coeffs.init[11].bits, 192u);  // -3.0f = 0xC0400000
  EXPECT_EQ(m.findGlobal("table")->init.size(), 21u);
  const ir::VarDecl& counter = *m.findGlobal("counter");
  EXPECT_EQ(counter.type, "u32");
  EXPECT_TRUE(counter.dims.empty());
  EXPECT_TRUE(counter.init.empty());
  EXPECT_EQ(counter.totalBytes(), 4u);

  const ir::VarDecl& ptrs = *m.findGlobal("ptrs");
  ASSERT_EQ(ptrs.init.size(), 2u);
  EXPECT_EQ(ptrs.init[0].kind, ir::InitValue::Kind::SymbolAddr);
  EXPECT_EQ(ptrs.init[0].symbol, "counter");
  EXPECT_TRUE(ptrs.init[0].generic);
  EXPECT_EQ(ptrs.init[0].offset, 0);
  EXPECT_EQ(ptrs.init[1].symbol, "table");
  EXPECT_TRUE(ptrs.init[1].generic);
  EXPECT_EQ(ptrs.init[1].offset, 12);

  const ir::VarDecl& dyn = *m.findGlobal("dyn");
  EXPECT_TRUE(dyn.isExtern);
  EXPECT_EQ(dyn.space, ir::StateSpace::Shared);
  EXPECT_EQ(dyn.align, 16u);
  EXPECT_EQ(dyn.dims, std::vector<uint64_t>{0});
  EXPECT_EQ(dyn.totalBytes(), 0u);

  // Function pointers: plain (non-generic) symbol addresses.
  ir::Module ind = parseModule(samples::kIndirectPtx, "indirect.ptx");
  const ir::VarDecl& fns = *ind.findGlobal("fns");
  ASSERT_EQ(fns.init.size(), 2u);
  EXPECT_EQ(fns.init[1].symbol, "_Z2f2i");
  EXPECT_FALSE(fns.init[1].generic);

  ir::Module misc = parseModule(samples::kMiscPtx, "misc.ptx");
  EXPECT_EQ(misc.findGlobal("mg")->totalBytes(), 16u);  // .attribute(.managed) skipped
  EXPECT_EQ(misc.findGlobal("gs")->init.size(), 16u);
  EXPECT_EQ(misc.findGlobal("names")->init[1].symbol, "$str$1");
}

TEST(ParserNvcc, SharedMemoryVectorsShuffles) {
  ir::Module m = parseModule(samples::kSmemPtx, "smem.ptx");
  ASSERT_EQ(m.functions.size(), 1u);
  const ir::Function& k = m.functions[0];
  EXPECT_EQ(k.name, "_Z6reducePK6float4PfPi");
  EXPECT_EQ(k.maxntid[0], 256u);
  EXPECT_EQ(k.maxntid[1], 1u);
  EXPECT_EQ(k.maxntid[2], 1u);
  EXPECT_EQ(k.minnctapersm, 2u);
  EXPECT_EQ(instrs(k).size(), 85u);
  EXPECT_EQ(labels(k).size(), 4u);
  EXPECT_EQ(m.files.size(), 3u);

  const ir::VarDecl& s = local(k, "_ZZ6reducePK6float4PfPiE1s");
  EXPECT_EQ(s.space, ir::StateSpace::Shared);
  EXPECT_EQ(s.totalBytes(), 1024u);

  const ir::Instruction& ld4 = find(k, "ld.global.nc.v4.f32");
  EXPECT_EQ(ld4.opcode, "ld");
  EXPECT_EQ(ld4.mods, (std::vector<std::string>{"global", "nc", "v4", "f32"}));
  ASSERT_EQ(ld4.operands.size(), 2u);
  ASSERT_EQ(ld4.operands[0].kind, OperandKind::Vector);
  ASSERT_EQ(ld4.operands[0].elems.size(), 4u);
  expectReg(ld4.operands[0].elems[0], "%f2");
  expectReg(ld4.operands[0].elems[3], "%f5");
  expectAddress(ld4.operands[1], OperandKind::Reg, "%rd6", 0);

  expectSymbol(find(k, "mov.u32", 3).operands[1], "_ZZ6reducePK6float4PfPiE1s");
  expectSymbol(find(k, "mov.u32", 4).operands[1], "dyn");
  expectAddress(atLine(k, 145).operands[1], OperandKind::Symbol, "dyn", 4);
  expectAddress(atLine(k, 153).operands[1], OperandKind::Symbol, "table", 20);
  expectInt(atLine(k, 104).operands[1], ~uint64_t{0});  // mov.u32 %r19, -1

  const ir::Instruction& shfl = find(k, "shfl.sync.down.b32");
  ASSERT_EQ(shfl.operands.size(), 5u);
  ASSERT_EQ(shfl.operands[0].kind, OperandKind::PredPair);
  expectReg(shfl.operands[0].elems[0], "%r20");
  expectReg(shfl.operands[0].elems[1], "%p4");
  // `.loc 2 440 9, function_name $L__info_string0, inlined_at 1 19 3`
  EXPECT_EQ(shfl.cuda.file, 2);
  EXPECT_EQ(shfl.cuda.line, 440u);
  EXPECT_EQ(shfl.cuda.col, 9u);
  EXPECT_EQ(shfl.inlinedAt.file, 1);
  EXPECT_EQ(shfl.inlinedAt.line, 19u);
  EXPECT_EQ(shfl.inlinedAt.col, 3u);
  // The next plain `.loc 1 19 3` ends the inlined region.
  const ir::Instruction& add = atLine(k, 109);
  EXPECT_EQ(add.cuda.line, 19u);
  EXPECT_FALSE(add.inlinedAt.known());

  const ir::Instruction& atom = find(k, "atom.global.add.u32");
  expectAddress(atom.operands[1], OperandKind::Reg, "%rd14", 0);
  EXPECT_EQ(atom.inlinedAt.line, 20u);
  expectInt(find(k, "atom.global.add.u32", 1).operands[2], 1);
  EXPECT_EQ(find(k, "bar.sync").operands.size(), 1u);
}

TEST(ParserNvcc, HalfPrecisionInlineAsmBlocks) {
  ir::Module m = parseModule(samples::kHalfPtx, "half.ptx");
  const ir::Function& k = fn(m, "_Z2hkP6__halfPKS_i");
  // Inline asm arrives as `{mul.f16 %rs1,%rs2,%rs3;\n}`: a nested scope of instructions.
  const ir::Instruction& mul = find(k, "mul.f16");
  expectReg(mul.operands[0], "%rs1");
  expectReg(mul.operands[2], "%rs3");
  EXPECT_EQ(mul.cuda.line, 2650u);
  // cuda_fp16.hpp:2650 inlined at cuda_fp16.hpp:223, itself inlined into the kernel's line 4:
  // inlinedAt is the outermost frame, the user's line.
  EXPECT_EQ(mul.inlinedAt.file, 1);
  EXPECT_EQ(mul.inlinedAt.line, 4u);
  EXPECT_EQ(find(k, "cvt.rn.f16.f32").operands.size(), 2u);

  const ir::Instruction& movf = find(k, "mov.f32");
  EXPECT_EQ(movf.operands[1].kind, OperandKind::FloatImm);
  EXPECT_FALSE(movf.operands[1].isDouble);
  EXPECT_EQ(movf.operands[1].bits, 0x3FC00000u);  // 1.5f
  const ir::Instruction& mulf64 = find(k, "mul.f64");
  EXPECT_TRUE(mulf64.operands[2].isDouble);
  EXPECT_EQ(mulf64.operands[2].bits, 0x3F50624DD2F1A9FCull);  // 1e-3
  expectReg(find(k, "mov.u64").operands[1], "%clock64");
  expectInt(find(k, "setp.ne.s32", 1).operands[2], 1431655765u);
  const ir::Instruction& vote = find(k, "vote.sync.ballot.b32");
  expectReg(vote.operands[1], "%p3");
  expectAddress(find(k, "st.global.u16", 1).operands[0], OperandKind::Reg, "%rd1", 2);
  EXPECT_EQ(instrs(k).size(), 44u);
}

TEST(ParserNvcc, IndirectCallThroughPrototype) {
  ir::Module m = parseModule(samples::kIndirectPtx, "indirect.ptx");
  // Two forward declarations, two definitions and the kernel.
  ASSERT_EQ(m.functions.size(), 5u);
  EXPECT_FALSE(m.functions[0].hasBody);
  EXPECT_EQ(m.functions[0].name, "_Z2f1i");
  EXPECT_TRUE(m.findFunction("_Z2f1i")->hasBody);
  EXPECT_EQ(m.findFunction("_Z2f1i"), &m.functions[2]);
  EXPECT_EQ(m.findFunction("nope"), nullptr);

  const ir::Function& k = fn(m, "_Z3indPii");
  // `prototype_0 : .callprototype ...;` is not a code label.
  EXPECT_TRUE(labels(k).empty());
  const ir::Instruction& call = find(k, "call");
  ASSERT_EQ(call.operands.size(), 4u);
  expectSymbol(call.operands[0].elems.at(0), "retval0");
  expectReg(call.operands[1], "%rd8");
  expectSymbol(call.operands[2].elems.at(0), "param0");
  expectSymbol(call.operands[3], "prototype_0");
  expectInt(find(fn(m, "_Z2f2i"), "mul.lo.s32").operands[2], 3);
}

TEST(ParserNvcc, CacheHintsAsyncCopiesPragmas) {
  ir::Module m = parseModule(samples::kAtomPtx, "atom.ptx");
  const ir::Function& k = m.functions.at(0);
  const ir::Instruction& ld = find(k, "ld.global.L1::evict_last.L2::256B.v4.f32");
  EXPECT_EQ(ld.mods,
            (std::vector<std::string>{"global", "L1::evict_last", "L2::256B", "v4", "f32"}));
  EXPECT_EQ(ld.operands[0].elems.size(), 4u);
  const ir::Instruction& cp = find(k, "cp.async.cg.shared.global");
  ASSERT_EQ(cp.operands.size(), 4u);
  expectAddress(cp.operands[0], OperandKind::Reg, "%r7", 0);
  expectAddress(cp.operands[1], OperandKind::Reg, "%rd6", 0);
  expectInt(cp.operands[3], 16);
  EXPECT_TRUE(find(k, "cp.async.commit_group").operands.empty());
  EXPECT_EQ(k.pragmas, std::vector<std::string>{"nounroll"});
  const ir::Instruction& atomf = find(k, "atom.global.add.f32");
  EXPECT_EQ(atomf.operands[2].kind, OperandKind::FloatImm);
  EXPECT_EQ(atomf.operands[2].bits, 0x3F800000u);
  expectInt(find(k, "atom.global.exch.b64").operands[2], 7);
  expectReg(find(k, "mov.u32", 4).operands[1], "%lanemask_lt");
  const ir::Instruction& st = find(k, "st.global.v4.f32");
  expectAddress(st.operands[0], OperandKind::Reg, "%rd18", 1024);
  expectReg(st.operands[1].elems[0], "%f24");
  // Four `.loc`s in a row (nested inlining): the last one holds.
  EXPECT_EQ(find(k, "shl.b32").cuda.line, 203u);
  EXPECT_EQ(find(k, "shl.b32").inlinedAt.line, 13u);  // the chain's outermost frame
}

TEST(ParserNvcc, NoreturnClustersTextures) {
  ir::Module m = parseModule(samples::kMiscPtx, "misc.ptx");
  const ir::Function& die = fn(m, "_Z3diei");
  EXPECT_TRUE(die.noreturn);
  EXPECT_EQ(find(die, "trap").operands.size(), 0u);
  const ir::Function& k = fn(m, "_Z2mkPiy1S");
  EXPECT_TRUE(k.explicitCluster);
  EXPECT_EQ(k.reqnctapercluster[0], 2u);
  EXPECT_EQ(k.reqnctapercluster[2], 1u);
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_EQ(k.params[2].align, 8u);
  EXPECT_EQ(k.params[2].dims, std::vector<uint64_t>{16});
  const ir::Instruction& tex = find(k, "tex.1d.v4.s32.s32");
  const ir::Operand& addr = tex.operands.at(1);
  expectAddress(addr, OperandKind::Reg, "%rd3", 0);
  ASSERT_EQ(addr.elems.size(), 1u);
  ASSERT_EQ(addr.elems[0].kind, OperandKind::Vector);
  expectReg(addr.elems[0].elems.at(0), "%r8");
  EXPECT_EQ(find(k, "bra.uni").operands[0].name, "$L__BB1_1");
  EXPECT_EQ(labels(k), (std::vector<std::string>{"$L__BB1_2", "$L__BB1_1"}));
}

// ---- module-scope grammar ----------------------------------------------------------------

TEST(ParserModule, VersionsTargetsAddressSize) {
  for (const char* v : {"7.0", "7.8", "8.0", "8.5", "9.0"}) {
    ir::Module m = parse(std::string(".version ") + v + "\n.target sm_90\n.address_size 64\n");
    EXPECT_EQ(m.version, v);
  }
  ir::Module m = parse(".version 8.0\n.target sm_90a, texmode_unified, debug\n.address_size 32");
  EXPECT_EQ(m.target, "sm_90a");
  EXPECT_EQ(m.targetOptions, (std::vector<std::string>{"texmode_unified", "debug"}));
  EXPECT_EQ(m.addressSize, 32u);
  // Independent texture mode: the chip's driver does not load the module (CUDA_ERROR_NOT_FOUND,
  // texture_forms.chip.txt.xz section indep), so neither does warpsim, at the option.
  const PtxError indep = parseError(".version 8.0\n.target sm_90, texmode_independent\n");
  EXPECT_EQ(indep.refusal(), Refusal::ModuleNotFound);
  EXPECT_EQ(indep.line(), 2u);
  EXPECT_EQ(indep.col(), 16u);
  EXPECT_EQ(indep.message(),
            "the CUDA driver for sm_90 does not load a module in independent texture mode "
            "(.texmode_independent): CUDA_ERROR_NOT_FOUND, as on the chip");
  EXPECT_EQ(parseError(".version 10.0\n").message(),
            "unsupported PTX ISA version '10.0' (supported: 7.x, 8.x, 9.x)");
  EXPECT_EQ(parseError(".version 9\n").message(),
            "expected a PTX ISA version 'major.minor' after .version, found '9'");
  EXPECT_EQ(parseError(kHeader + ".address_size 48\n").message(),
            "address size must be 32 or 64, found '48'");
  EXPECT_EQ(parseError(kHeader + ".version 9.0\n").message(), "duplicate .version directive");
  // Comments and blank lines only: an empty module.
  EXPECT_TRUE(parse("// nothing\n/* at\nall */\n").functions.empty());
  EXPECT_TRUE(parse("").functions.empty());
}

TEST(ParserModule, FunctionHeaders) {
  ir::Module m = parse(kHeader + R"(
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);
.weak .func (.param .b64 r) wf(.param .b32 p0) { ret; }
.visible .func vf() .noreturn { trap; }
.func nop { ret; }
.entry e(.param .u64 .ptr .global .align 16 p, .param .u32 .ptr.const.align 8 q,
         .param .u64 .ptr .align 4 g, .param .align 16 .b8 s[32])
.reqntid 32, 4
.maxnreg 64
.maxnctapersm 3
{ ret; }
.entry one .maxntid 128 .pragma "used_bytes_mask 7"; { ret; }
)");
  ASSERT_EQ(m.functions.size(), 6u);
  const ir::Function& vp = *m.findFunction("vprintf");
  EXPECT_TRUE(vp.isExtern);
  EXPECT_EQ(vp.params.size(), 2u);
  EXPECT_EQ(vp.params[1].name, "b");
  const ir::Function& wf = *m.findFunction("wf");
  EXPECT_TRUE(wf.isWeak);
  EXPECT_EQ(wf.returns.at(0).name, "r");
  EXPECT_EQ(wf.returns.at(0).type, "b64");
  EXPECT_EQ(wf.params.at(0).name, "p0");
  EXPECT_TRUE(m.findFunction("vf")->isVisible);
  EXPECT_TRUE(m.findFunction("vf")->noreturn);
  EXPECT_TRUE(m.findFunction("nop")->params.empty());
  EXPECT_EQ(m.findFunction("nop")->loc.line, 8u);

  const ir::Function& e = *m.findFunction("e");
  EXPECT_TRUE(e.isEntry);
  ASSERT_EQ(e.params.size(), 4u);
  EXPECT_TRUE(e.params[0].ptrAttr);
  EXPECT_EQ(e.params[0].ptrSpace, "global");
  EXPECT_EQ(e.params[0].ptrAlign, 16u);
  EXPECT_EQ(e.params[0].align, 0u);
  EXPECT_EQ(e.params[1].ptrSpace, "const");
  EXPECT_EQ(e.params[1].ptrAlign, 8u);
  EXPECT_TRUE(e.params[2].ptrAttr);
  EXPECT_EQ(e.params[2].ptrSpace, "");
  EXPECT_EQ(e.params[2].ptrAlign, 4u);
  EXPECT_FALSE(e.params[3].ptrAttr);
  EXPECT_EQ(e.params[3].align, 16u);
  EXPECT_EQ(e.params[3].totalBytes(), 32u);
  EXPECT_EQ(e.reqntid[0], 32u);
  EXPECT_EQ(e.reqntid[1], 4u);
  EXPECT_EQ(e.reqntid[2], 1u);
  EXPECT_EQ(e.maxnreg, 64u);
  EXPECT_EQ(e.minnctapersm, 3u);
  const ir::Function& one = *m.findFunction("one");
  EXPECT_EQ(one.maxntid[0], 128u);
  EXPECT_EQ(one.maxntid[1], 1u);
  EXPECT_EQ(one.pragmas, std::vector<std::string>{"used_bytes_mask 7"});
}

TEST(ParserModule, VariablesAndInitializers) {
  ir::Module m = parse(kHeader + R"(
.global .align 4 .s32 t[2][3] = {{1, 2, 3}, {4, 5, 6}};
.global .s32 pad[2][3] = {{1}, {4, 5}};
.const .f32 f[4] = {0f3F800000, 1.5, -2.5, 1e-3};
.global .f64 d = 0d4000000000000000;
.global .u64 addrs[3] = {sym, sym+4, generic(sym)+8};
.global .s32 neg = -7;
.global .b8 inferred[] = {1, 2, 3};
.global .v4 .f32 vec[2] = {{1.0, 2.0, 3.0, 4.0}, {5.0}};
.shared .align 8 .b64 a, b[4];
.visible .global .u32 vis;
.common .global .u32 com;
.extern .shared .align 16 .b8 smem[];
.local .u32 loc0;
.global .texref tex0;
)");
  const ir::VarDecl& t = *m.findGlobal("t");
  EXPECT_EQ(t.dims, (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(t.totalBytes(), 24u);
  ASSERT_EQ(t.init.size(), 6u);
  EXPECT_EQ(t.init[5].bits, 6u);
  // Short inner groups are padded so the flat list stays in element order.
  const ir::VarDecl& pad = *m.findGlobal("pad");
  ASSERT_EQ(pad.init.size(), 6u);
  std::vector<uint64_t> padBits;
  for (const ir::InitValue& v : pad.init) padBits.push_back(v.bits);
  EXPECT_EQ(padBits, (std::vector<uint64_t>{1, 0, 0, 4, 5, 0}));

  const ir::VarDecl& f = *m.findGlobal("f");
  ASSERT_EQ(f.init.size(), 4u);
  EXPECT_EQ(f.space, ir::StateSpace::Const);
  EXPECT_EQ(f.init[0].kind, ir::InitValue::Kind::Float);
  EXPECT_FALSE(f.init[0].isDouble);
  EXPECT_EQ(f.init[0].bits, 0x3F800000u);
  EXPECT_TRUE(f.init[1].isDouble);  // decimal literals are f64
  EXPECT_EQ(f.init[1].bits, f64Bits(1.5));
  EXPECT_EQ(f.init[2].bits, f64Bits(-2.5));
  EXPECT_EQ(f.init[3].bits, f64Bits(1e-3));
  EXPECT_EQ(m.findGlobal("d")->init.at(0).bits, f64Bits(2.0));

  const ir::VarDecl& addrs = *m.findGlobal("addrs");
  ASSERT_EQ(addrs.init.size(), 3u);
  EXPECT_EQ(addrs.init[0].kind, ir::InitValue::Kind::SymbolAddr);
  EXPECT_EQ(addrs.init[0].symbol, "sym");
  EXPECT_EQ(addrs.init[1].offset, 4);
  EXPECT_FALSE(addrs.init[1].generic);
  EXPECT_TRUE(addrs.init[2].generic);
  EXPECT_EQ(addrs.init[2].offset, 8);
  EXPECT_EQ(m.findGlobal("neg")->init.at(0).bits, static_cast<uint64_t>(-7));
  EXPECT_EQ(m.findGlobal("inferred")->dims, std::vector<uint64_t>{3});

  const ir::VarDecl& vec = *m.findGlobal("vec");
  EXPECT_EQ(vec.vecWidth, 4u);
  EXPECT_EQ(vec.elementBytes(), 16u);
  EXPECT_EQ(vec.init.size(), 8u);  // {5.0} is one vector: padded to its 4 lanes

  // `.shared .b64 a, b[4]`: one declaration per name, qualifiers shared.
  EXPECT_EQ(m.findGlobal("a")->align, 8u);
  EXPECT_EQ(m.findGlobal("b")->dims, std::vector<uint64_t>{4});
  EXPECT_EQ(m.findGlobal("b")->space, ir::StateSpace::Shared);
  EXPECT_TRUE(m.findGlobal("vis")->isVisible);
  EXPECT_TRUE(m.findGlobal("com")->isWeak);
  EXPECT_TRUE(m.findGlobal("smem")->isExtern);
  EXPECT_EQ(m.findGlobal("smem")->dims, std::vector<uint64_t>{0});
  EXPECT_EQ(m.findGlobal("loc0")->space, ir::StateSpace::Local);
  EXPECT_EQ(m.findGlobal("tex0")->type, "texref");
  EXPECT_EQ(m.findGlobal("t")->loc.line, 5u);
}

TEST(ParserModule, FilesAndSections) {
  ir::Module m = parse(kHeader + R"(
.file 1 "/src/a.cu", 1589498181, 12345
.file 2 "C:\\src\\b \"q\".cu"
.section .debug_info
{
  .b32 123
  .b8 1, 2 // DW_AT_name
  .b64 $L__func_begin0
  { nested { } }
  .b32 .debug_abbrev
}
.section .debug_str
{
$L__info_string0:
.b8 95,90,0
}
.pragma "nounroll";
.global .u32 after;
)");
  EXPECT_EQ(m.files.at(1), "/src/a.cu");
  EXPECT_EQ(m.files.at(2), "C:\\src\\b \"q\".cu");
  EXPECT_NE(m.findGlobal("after"), nullptr);
  EXPECT_EQ(m.globals.size(), 1u);
  EXPECT_EQ(parseError(kHeader + ".section .debug_str {\n.b8 1\n").message(),
            "expected '}' to close the .section block, found end of file");
}

// ---- function bodies -----------------------------------------------------------------------

TEST(ParserBody, RegisterDeclarations) {
  ir::Module m = parse(kernel(R"(
  .reg .b32 %r<42>;
  .reg .v4 .f32 %v;
  .reg .pred %p, %q;
  .reg .b64 plain;
  .local .align 8 .b8 depot[16];
  .shared .f32 tile[16][17];
  .param .b32 pp;
  ret;)"));
  const ir::Function& k = m.functions.at(0);
  ASSERT_EQ(k.locals.size(), 8u);
  EXPECT_EQ(k.locals[0].name, "%r");
  EXPECT_EQ(k.locals[0].rangeCount, 42);
  EXPECT_EQ(k.locals[0].space, ir::StateSpace::Reg);
  EXPECT_EQ(k.locals[1].vecWidth, 4u);
  EXPECT_EQ(k.locals[1].type, "f32");
  EXPECT_EQ(k.locals[1].rangeCount, -1);
  EXPECT_EQ(k.locals[2].name, "%p");
  EXPECT_EQ(k.locals[3].name, "%q");
  EXPECT_EQ(k.locals[3].type, "pred");
  EXPECT_EQ(k.locals[3].elementBytes(), 1u);
  EXPECT_EQ(k.locals[5].dims, std::vector<uint64_t>{16});
  EXPECT_EQ(k.locals[6].totalBytes(), 16u * 17u * 4u);
  EXPECT_EQ(k.locals[7].space, ir::StateSpace::Param);
}

TEST(ParserBody, LabelsGuardsAndStatementsPerLine) {
  ir::Module m = parse(kernel(R"(
  .reg .pred %p<3>; .reg .b32 %r<4>;
$L__BB1_2:  @%p1 bra $L__BB1_2; @!%p2 bra loop;
loop: /* a comment
  spanning lines */ add.s32 %r1, %r2, %r3; // trailing
  ret;)"));
  const ir::Function& k = m.functions.at(0);
  EXPECT_EQ(labels(k), (std::vector<std::string>{"$L__BB1_2", "loop"}));
  auto in = instrs(k);
  ASSERT_EQ(in.size(), 4u);
  EXPECT_EQ(in[0]->guard, "%p1");
  EXPECT_FALSE(in[0]->guardNegated);
  EXPECT_EQ(in[1]->guard, "%p2");
  EXPECT_TRUE(in[1]->guardNegated);
  expectSymbol(in[1]->operands[0], "loop");
  EXPECT_EQ(in[2]->loc.line, 10u);
  EXPECT_EQ(in[2]->loc.col, 21u);
  EXPECT_EQ(in[3]->opcode, "ret");
  EXPECT_TRUE(in[3]->mods.empty());
  // A body statement sequence is kept in order: label, instr, instr, label, instr, instr.
  ASSERT_EQ(k.body.size(), 6u);
  EXPECT_EQ(k.body[3].kind, ir::Statement::Kind::Label);
}

TEST(ParserBody, OperandForms) {
  ir::Module m = parse(kernel(R"(
  .reg .pred %p, %q; .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .f32 %f<4>;
  ld.global.v4.f32 {%f0, _, %f2, _}, [%rd1+8];
  ld.global.f32 %f1, [%rd1+-8];
  ld.global.f32 %f1, [%rd1-8];
  ld.global.f32 %f1, [gsym];
  ld.global.f32 %f1, [gsym+4];
  ld.global.f32 %f1, [0x100];
  setp.lt.s32 %p|%q, %r1, %r2;
  setp.eq.and.s32 %p, %r1, %r2, !%q;
  selp.b32 %r1, 1, 0, %p;
  mov.b64 %rd1, {%r1, %r2};
  mov.u32 %r9, _ZZ1kE1s;
  mov.u64 %rd2, $str;
  mov.u32 %r1, %tid.x; mov.u32 %r1, %ctaid.y; mov.u32 %r1, %laneid;
  mov.u32 %r1, %lanemask_lt; mov.u64 %rd1, %clock64; mov.u32 %r1, %envreg3;
  ret;)"));
  auto in = instrs(m.functions.at(0));
  const ir::Operand& v = in[0]->operands[0];
  ASSERT_EQ(v.kind, OperandKind::Vector);
  ASSERT_EQ(v.elems.size(), 4u);
  expectReg(v.elems[0], "%f0");
  EXPECT_EQ(v.elems[1].kind, OperandKind::Sink);
  EXPECT_EQ(v.elems[3].kind, OperandKind::Sink);
  expectAddress(in[0]->operands[1], OperandKind::Reg, "%rd1", 8);
  expectAddress(in[1]->operands[1], OperandKind::Reg, "%rd1", -8);
  expectAddress(in[2]->operands[1], OperandKind::Reg, "%rd1", -8);
  expectAddress(in[3]->operands[1], OperandKind::Symbol, "gsym", 0);
  expectAddress(in[4]->operands[1], OperandKind::Symbol, "gsym", 4);
  expectAddress(in[5]->operands[1], std::nullopt, "", 0x100);
  const ir::Operand& pair = in[6]->operands[0];
  ASSERT_EQ(pair.kind, OperandKind::PredPair);
  expectReg(pair.elems[0], "%p");
  expectReg(pair.elems[1], "%q");
  EXPECT_TRUE(in[7]->operands[3].negated);
  expectReg(in[7]->operands[3], "%q");
  EXPECT_FALSE(in[8]->operands[3].negated);
  EXPECT_EQ(in[9]->operands[1].kind, OperandKind::Vector);
  expectSymbol(in[10]->operands[1], "_ZZ1kE1s");
  expectSymbol(in[11]->operands[1], "$str");
  const char* special[] = {"%tid.x", "%ctaid.y", "%laneid", "%lanemask_lt", "%clock64", "%envreg3"};
  for (int i = 0; i < 6; ++i) expectReg(in[12 + i]->operands[1], special[i]);
  EXPECT_EQ(in[0]->operands[1].loc.col, 38u);
}

TEST(ParserBody, EveryImmediateForm) {
  ir::Module m = parse(kernel(R"(
  mov.u32 %r, 42; mov.u32 %r, -1; mov.u32 %r, 0xFF; mov.u32 %r, 0777; mov.u32 %r, 0b1010;
  mov.u32 %r, 1U; mov.u64 %r, 0xFFFFFFFFFFFFFFFF; mov.u32 %r, 0;
  mov.f32 %r, 0f3F800000; mov.f32 %r, 0F7FC00000; mov.f64 %r, 0d3FF0000000000000;
  mov.f64 %r, 1.5; mov.f64 %r, 1e-3; mov.f64 %r, 2.5E+2; mov.f32 %r, -0f3F800000;
  mov.u64 %r, 18446744073709551615; mov.s64 %r, -9223372036854775808; mov.u32 %r, 0x7fffffffU;)"));
  auto in = instrs(m.functions.at(0));
  ASSERT_EQ(in.size(), 18u);
  const uint64_t ints[] = {42, ~uint64_t{0}, 0xFF, 0777, 10, 1, ~uint64_t{0}, 0};
  for (int i = 0; i < 8; ++i) expectInt(in[i]->operands[1], ints[i]);
  auto expectFloat = [](const ir::Operand& o, uint64_t bits, bool dbl) {
    EXPECT_EQ(o.kind, OperandKind::FloatImm);
    EXPECT_EQ(o.bits, bits);
    EXPECT_EQ(o.isDouble, dbl);
  };
  expectFloat(in[8]->operands[1], 0x3F800000, false);
  expectFloat(in[9]->operands[1], 0x7FC00000, false);
  expectFloat(in[10]->operands[1], 0x3FF0000000000000, true);
  expectFloat(in[11]->operands[1], f64Bits(1.5), true);
  expectFloat(in[12]->operands[1], f64Bits(1e-3), true);
  expectFloat(in[13]->operands[1], f64Bits(250.0), true);
  expectFloat(in[14]->operands[1], 0xBF800000, false);  // negation flips the sign bit
  expectInt(in[15]->operands[1], ~uint64_t{0});
  expectInt(in[16]->operands[1], uint64_t{1} << 63);
  expectInt(in[17]->operands[1], 0x7fffffff);

  for (const char* bad : {"0x", "0f3F80000", "0d3FF", "12abc", "09", "0b2", "1.5f", "1e",
                          "18446744073709551616", "0x10000000000000000", "1e999"}) {
    PtxError e = parseError(kernel(std::string("mov.u32 %r, ") + bad + ";"));
    EXPECT_EQ(e.line(), 6u) << bad;
    EXPECT_EQ(e.col(), 13u) << bad;
  }
}

TEST(ParserBody, CallsSpanningLines) {
  ir::Module m = parse(kernel(R"(
  .reg .b64 %rd<3>; .reg .b32 %r<3>;
  { // callseq 0, 0
  .param .b32 param0;
  .param .b32 retval0;
  call.uni (retval0),
  _Z2sqf,
  (
  param0
  );
  }
  call.uni _Z3foov, ();
  call (retval1), %rd5, (param0, param1), prototype_0;
  call.uni.noreturn _Z4diev, (%r1);)"));
  auto in = instrs(m.functions.at(0));
  ASSERT_EQ(in.size(), 4u);
  EXPECT_EQ(in[0]->loc.line, 11u);
  ASSERT_EQ(in[0]->operands.size(), 3u);
  EXPECT_EQ(in[0]->operands[2].elems.size(), 1u);
  EXPECT_EQ(in[1]->operands[1].elems.size(), 0u);
  ASSERT_EQ(in[2]->operands.size(), 4u);
  expectReg(in[2]->operands[1], "%rd5");
  EXPECT_EQ(in[2]->operands[2].elems.size(), 2u);
  expectSymbol(in[2]->operands[3], "prototype_0");
  EXPECT_EQ(in[3]->mods, (std::vector<std::string>{"uni", "noreturn"}));
  expectReg(in[3]->operands[1].elems.at(0), "%r1");
}

TEST(ParserBody, CallPrototypesAndBranchTablesAreSkipped) {
  ir::Module m = parse(kernel(R"(
  prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
  prototype_1 : .callprototype ()_ (.param .b64 _, .param .align 16 .b8 _[32]) .noreturn;
  ts: .branchtargets L0, L1;
L0: ret;
L1: ret;)"));
  const ir::Function& k = m.functions.at(0);
  EXPECT_EQ(labels(k), (std::vector<std::string>{"L0", "L1"}));
  EXPECT_EQ(instrs(k).size(), 2u);
}

TEST(ParserBody, NestedScopesRenameRepeatsAndShadows) {
  ir::Module m = parse(kernel(R"(
  .reg .b32 %r<4>;
  .reg .pred p;
  .reg .b64 x;
  { // scope 1: first declarations keep their names
    .reg .b32 t;
    .param .b64 param0;
    st.param.b64 [param0+0], x;
  }
  { // scope 2: repeats and shadows are renamed, and so are their uses
    .reg .b32 t;
    .reg .pred p;
    .reg .b32 %r<2>;
    .param .b64 param0;
    setp.ne.s32 p, %r1, t;
    @!p st.param.b64 [param0+8], x;
    mov.b64 x, {%r0, t};
    { // scope 3
      .reg .b32 t;
      add.s32 t, %r3, %r1;
    }
    mov.b32 %r3, t;
  }
  @p mov.b32 %r3, %r1;
  mov.b32 t, 0;)",
                              ".param .u64 x"));
  const ir::Function& k = m.functions.at(0);
  std::vector<std::string> names;
  for (const ir::VarDecl& v : k.locals) names.push_back(v.name);
  EXPECT_EQ(names, (std::vector<std::string>{"%r", "p", "x$0", "t", "param0", "t$2", "p$2", "%r$2_",
                                             "param0$2", "t$3"}));
  EXPECT_EQ(local(k, "%r$2_").rangeCount, 2);
  auto in = instrs(k);
  ASSERT_EQ(in.size(), 8u);
  // scope 1: `x` is the body's .reg (renamed x$0 as it shadows the parameter x).
  expectAddress(in[0]->operands[0], OperandKind::Symbol, "param0", 0);
  expectReg(in[0]->operands[1], "x$0");
  // scope 2
  expectReg(in[1]->operands[0], "p$2");
  expectReg(in[1]->operands[1], "%r$2_1");  // a member of the inner %r<2>
  expectReg(in[1]->operands[2], "t$2");
  EXPECT_EQ(in[2]->guard, "p$2");
  EXPECT_TRUE(in[2]->guardNegated);
  expectAddress(in[2]->operands[0], OperandKind::Symbol, "param0$2", 8);
  expectReg(in[3]->operands[1].elems[0], "%r$2_0");
  expectReg(in[3]->operands[1].elems[1], "t$2");
  // scope 3; %r3 is beyond the inner range, so it is the outer %r3.
  expectReg(in[4]->operands[0], "t$3");
  expectReg(in[4]->operands[1], "%r3");
  expectReg(in[4]->operands[2], "%r$2_1");
  expectReg(in[5]->operands[1], "t$2");
  // Back in the body: the outer names again; `t` is out of scope (a Symbol, as written).
  EXPECT_EQ(in[6]->guard, "p");
  expectReg(in[6]->operands[1], "%r1");
  expectSymbol(in[7]->operands[0], "t");
}

TEST(ParserBody, RangeAndSingleNamesCollide) {
  ir::Module m = parse(kernel(R"(
  .reg .b32 %r<4>;
  { .reg .b32 %r3; mov.b32 %r3, %r2; }
  { .reg .b32 %q7; }
  { .reg .b32 %q<9>; mov.b32 %q8, 0; })"));
  const ir::Function& k = m.functions.at(0);
  std::vector<std::string> names;
  for (const ir::VarDecl& v : k.locals) names.push_back(v.name);
  EXPECT_EQ(names, (std::vector<std::string>{"%r", "%r3$1", "%q7", "%q$3_"}));
  auto in = instrs(k);
  expectReg(in[0]->operands[0], "%r3$1");
  expectReg(in[0]->operands[1], "%r2");
  expectReg(in[1]->operands[0], "%q$3_8");
}

TEST(ParserBody, LocDirectives) {
  ir::Module m = parse(kernel(R"(
  .loc 1 9 3
  ret;
  .loc 1 3 38, function_name $L__info_string0, inlined_at 1 9 3
  ret;
  .loc 2 7 1, function_name $L__info_string1+12, inlined_at 1 3 38
  ret;
  .loc 3 5
  ret;)") + ".file 1 \"a.cu\"\n");
  auto in = instrs(m.functions.at(0));
  EXPECT_EQ(in[0]->cuda.file, 1);
  EXPECT_EQ(in[0]->cuda.line, 9u);
  EXPECT_EQ(in[0]->cuda.col, 3u);
  EXPECT_FALSE(in[0]->inlinedAt.known());
  EXPECT_EQ(in[1]->cuda.line, 3u);
  EXPECT_EQ(in[1]->cuda.col, 38u);
  EXPECT_EQ(in[1]->inlinedAt.file, 1);
  EXPECT_EQ(in[1]->inlinedAt.line, 9u);
  EXPECT_EQ(in[1]->inlinedAt.col, 3u);
  EXPECT_EQ(in[2]->cuda.file, 2);
  // Inlined at 1:3:38, which the .loc before said was itself inlined at 1:9:3: the user's frame.
  EXPECT_EQ(in[2]->inlinedAt.line, 9u);
  EXPECT_EQ(in[2]->inlinedAt.col, 3u);
  EXPECT_EQ(in[3]->cuda.file, 3);
  EXPECT_EQ(in[3]->cuda.col, 0u);
  EXPECT_FALSE(in[3]->inlinedAt.known());
}

TEST(ParserBody, PragmasAnywhere) {
  ir::Module m = parse(kHeader + ".pragma \"module wide\";\n" + R"(
.entry k .pragma "nounroll"; {
  .pragma "used_bytes_mask 7";
L: .pragma "nounroll", "other";
  ret;
})");
  EXPECT_EQ(m.functions.at(0).pragmas,
            (std::vector<std::string>{"nounroll", "used_bytes_mask 7", "nounroll", "other"}));
  // Where each "nounroll" stands: the header (0: every loop) and the loop header at PTX line 8.
  EXPECT_EQ(m.functions.at(0).nounrollLines, (std::vector<uint32_t>{0, 8}));
  EXPECT_EQ(m.pragmas, (std::vector<std::string>{"module wide"}));
}

TEST(ParserBody, AModuleScopeNounrollKeepsEveryLoopRolled) {
  // PTX ISA: at module scope it disables unrolling of every loop in the module, those before
  // it too; each function reads it as a header pragma (nounrollLines 0).
  ir::Module m = parse(kHeader + R"(
.entry a { ret; }
.pragma "nounroll";
.entry b { ret; })");
  EXPECT_EQ(m.pragmas, (std::vector<std::string>{"nounroll"}));
  EXPECT_EQ(m.functions.at(0).nounrollLines, (std::vector<uint32_t>{0}));
  EXPECT_EQ(m.functions.at(1).nounrollLines, (std::vector<uint32_t>{0}));
}

TEST(ParserBody, OpcodesAreSplitGenerically) {
  ir::Module m = parse(kernel(R"(
  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], %r2, [%r3];
  frobnicate.x.y.1d %r1;
  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}];
  suld.b.1d.v4.b32.trap {%r1, %r2, %r3, %r4}, [surf0, %r5];)"));
  auto in = instrs(m.functions.at(0));
  EXPECT_EQ(in[0]->opcode, "cp");
  EXPECT_EQ(in[0]->mods, (std::vector<std::string>{"async", "bulk", "shared::cluster", "global",
                                                   "mbarrier::complete_tx::bytes"}));
  EXPECT_EQ(in[0]->fullOpcode(),
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes");
  EXPECT_EQ(in[1]->mods, (std::vector<std::string>{"x", "y", "1d"}));
  const ir::Operand& texAddr = in[2]->operands[1];
  expectAddress(texAddr, OperandKind::Symbol, "tex0", 0);
  ASSERT_EQ(texAddr.elems.size(), 1u);
  EXPECT_EQ(texAddr.elems[0].elems.size(), 2u);
  expectReg(in[3]->operands[1].elems.at(0), "%r5");
}

TEST(ParserBody, ValidatorSeesEveryInstruction) {
  std::vector<std::string> seen;
  OpcodeValidator v = [&](const ir::Instruction& in) {
    seen.push_back(in.fullOpcode() + "/" + std::to_string(in.operands.size()));
    return std::string();
  };
  parseModule(kernel("add.s32 %r1, %r2, 3; @%p bra L; L: ret;"), "v.ptx", v);
  EXPECT_EQ(seen, (std::vector<std::string>{"add.s32/3", "bra/1", "ret/0"}));

  OpcodeValidator reject = [](const ir::Instruction& in) {
    return in.opcode == "bra" ? std::string("no branches here") : std::string();
  };
  PtxError e = parseError(kernel("ret;\n  @%p1  bra L;"), reject);
  EXPECT_EQ(e.message(), "no branches here");
  EXPECT_EQ(e.line(), 7u);
  EXPECT_EQ(e.col(), 9u);  // the opcode's column, not the guard's
  EXPECT_EQ(e.file(), "test.ptx");
  EXPECT_EQ(e.sourceLine(), "  @%p1  bra L;");
}

TEST(ParserBody, WindowsLineEndings) {
  std::string text = kernel(".reg .b32 %r<2>;\nmov.u32 %r1, 1;\nret;");
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  ir::Module m = parse(crlf);
  EXPECT_EQ(instrs(m.functions.at(0)).size(), 2u);
  EXPECT_EQ(instrs(m.functions.at(0))[1]->loc.line, 8u);
  std::string bad;
  for (char c : kernel("ret;\nmov.u32 %r1, 1 oops;\nret;"))
    bad += c == '\n' ? std::string("\r\n") : std::string(1, c);
  PtxError e = parseError(bad);
  EXPECT_EQ(e.line(), 7u);
  EXPECT_EQ(e.col(), 16u);
  EXPECT_EQ(e.sourceLine(), "mov.u32 %r1, 1 oops;");  // no stray '\r' in the diagnostic
}

TEST(ParserErrors, PositionsAndMessages) {
  PtxError e = parseError(kernel("  add.s32 %r1, %r2, %r3\n  foo;"));
  EXPECT_EQ(e.message(), "expected ';' after instruction, found 'foo'");
  EXPECT_EQ(e.line(), 7u);
  EXPECT_EQ(e.col(), 3u);
  EXPECT_EQ(std::string(e.what()),
            "test.ptx:7:3: error: expected ';' after instruction, found 'foo'\n    foo;\n    ^");
  EXPECT_EQ(parseError(kHeader + "/* never closed\n").message(), "unterminated block comment");
  EXPECT_EQ(parseError(kHeader + ".bogus;").message(), "unknown directive '.bogus'");
  EXPECT_EQ(parseError(kHeader + ".loc 1 2 3").message(),
            "unexpected directive '.loc' at module scope");
  EXPECT_EQ(parseError(kernel(".reg .b32 5;")).message(), "expected register name, found '5'");
  EXPECT_EQ(parseError(kernel(".reg .b32 %r<5;")).message(),
            "expected '>' after the register count, found ';'");
  EXPECT_EQ(parseError(kernel(".global .b32 %r<5>;")).message(),
            "a '<N>' register range is only allowed in .reg declarations");
  EXPECT_EQ(parseError(kernel(".reg .b32 %r = 1;")).message(),
            "an initializer is not allowed on a .reg variable");
  EXPECT_EQ(parseError(kernel(".reg %r;")).message(), "expected a type in declaration, found '%r'");
  EXPECT_EQ(parseError(kernel(".reg .b32 .f32 %r;")).message(),
            "declaration has two types, '.b32' and '.f32'");
  EXPECT_EQ(parseError(kernel(".shared .align 3 .b8 s[4];")).message(),
            "alignment must be a power of two, found '3'");
  EXPECT_EQ(parseError(kernel("{ .reg .b32 a; .reg .b32 a; }")).message(), "redeclaration of 'a'");
  EXPECT_EQ(parseError(kernel("@ ;")).message(),
            "expected a predicate register after '@', found ';'");
  EXPECT_EQ(parseError(kernel("%r1: ret;")).message(), "invalid label name '%r1'");
  EXPECT_EQ(parseError(kernel("ld.f32 %f1, [%rd1;")).message(),
            "expected ']' to close the address, found ';'");
  EXPECT_EQ(parseError(kernel("mov.b64 %rd1, {%r1 %r2};")).message(),
            "expected ',' or '}' in vector operand, found '%r2'");
  EXPECT_EQ(parseError(kernel("call f, (a b);")).message(),
            "expected ',' or ')' in call argument list, found 'b'");
  EXPECT_EQ(parseError(kernel("mov.b64 %rd1, {};")).message(), "expected an operand, found '}'");
  EXPECT_EQ(parseError(kernel("setp.lt.s32 %p|5, %r1, %r2;")).message(),
            "expected a predicate register after '|'");
  EXPECT_EQ(parseError(kernel("ret;", ".param .u64 a, .param .u64 a")).message(),
            "redeclaration of 'a'");
  EXPECT_EQ(parseError(kHeader + ".entry k(.param .u64 a .param .u64 b) { ret; }").message(),
            "expected ',' or ')' in parameter list, found '.param'");
  EXPECT_EQ(parseError(kHeader + ".entry k() ret;").message(),
            "expected '{' or ';' after the header of 'k', found 'ret'");
  EXPECT_EQ(parseError(kHeader + ".visible ;").message(),
            "expected '.entry', '.func' or a variable declaration after linkage, found ';'");
  EXPECT_EQ(parseError(kHeader + ".global .u32 x = {1, 2};").message(),
            "too many initializers for 'x': 2 for 1 elements");
}

TEST(ParserErrors, NestingIsBounded) {
  std::string deep(256, '{');
  // 255 scopes inside the body are fine; one more is refused.
  std::string ok = kernel(std::string(255, '{') + "ret;" + std::string(255, '}'));
  EXPECT_NO_THROW(parse(ok));
  EXPECT_EQ(parseError(kernel(deep + "ret;" + std::string(256, '}'))).message(),
            "scopes nested deeper than 256 levels");
  EXPECT_EQ(parseError(kHeader + ".global .b32 x = " + std::string(100000, '{')).message(),
            "initializer braces nested deeper than 256 levels");
  EXPECT_EQ(parseError(kHeader + ".section .s " + std::string(100000, '{')).message(),
            "braces nested deeper than 256 levels");
  EXPECT_EQ(parseError(kHeader + ".global .attribute" + std::string(100000, '(')).message(),
            "parentheses nested deeper than 256 levels");
}

// ---- ir helpers --------------------------------------------------------------------------

TEST(IrHelpers, TypeSizes) {
  const std::pair<const char*, uint32_t> sizes[] = {
      {"pred", 1}, {"b8", 1},    {"u8", 1},     {"s8", 1},   {"b16", 2},    {"u16", 2},
      {"s16", 2},  {"f16", 2},   {"bf16", 2},   {"b32", 4},  {"u32", 4},    {"s32", 4},
      {"f32", 4},  {"f16x2", 4}, {"bf16x2", 4}, {"tf32", 4}, {"b64", 8},    {"u64", 8},
      {"s64", 8},  {"f64", 8},   {"b128", 16},  {"e4m3", 1}, {"e5m2x2", 2}, {"texref", 8},
      {"f8", 0},   {"u128", 0},  {"x32", 0},    {"", 0},     {"b", 0},      {"bf32", 0}};
  for (const auto& [type, bytes] : sizes) EXPECT_EQ(ir::typeBytes(type), bytes) << type;
  ir::VarDecl v;
  v.type = "f32";
  v.vecWidth = 4;
  v.dims = {2, 3};
  EXPECT_EQ(v.elementBytes(), 16u);
  EXPECT_EQ(v.totalBytes(), 96u);
  v.dims = {0};
  EXPECT_EQ(v.totalBytes(), 0u);
  v.dims = {uint64_t{1} << 62, 1 << 8};
  EXPECT_EQ(v.totalBytes(), UINT64_MAX);  // saturates rather than wrapping
  ir::Instruction in;
  in.opcode = "ld";
  EXPECT_EQ(in.fullOpcode(), "ld");
  in.mods = {"global", "L1::evict_last", "v4", "f32"};
  EXPECT_EQ(in.fullOpcode(), "ld.global.L1::evict_last.v4.f32");
}

TEST(IrHelpers, FindGlobalPrefersTheDefinition) {
  ir::Module m = parse(kHeader + ".extern .global .u32 g;\n.global .u32 g = 5;\n");
  ASSERT_EQ(m.globals.size(), 2u);
  EXPECT_EQ(m.findGlobal("g"), &m.globals[1]);
  EXPECT_EQ(m.findGlobal("h"), nullptr);
}

// ---- speed -------------------------------------------------------------------------------

// A 10k-line module of real nvcc text parses whole (its speed is a benchmark figure, recorded
// in docs/PERFORMANCE.md, not a test assertion).
TEST(ParserScale, TenThousandLinesOfNvccText) {
  // The calls module's kernel body, repeated as distinct kernels until the file passes 10k
  // lines: real nvcc text, scopes and renaming included.
  std::string base = samples::kCallsPtx;
  size_t start = base.find(".visible .entry");
  size_t end = base.find("\t.file");
  std::string kernelText = base.substr(start, end - start);
  std::string text = base.substr(0, start);
  int copies = 0;
  while (std::count(text.begin(), text.end(), '\n') < 10000) {
    std::string copy = kernelText;
    copy.replace(copy.find("_Z1kPfPKfi("), 11, "k" + std::to_string(copies++) + "(");
    text += copy;
  }
  ir::Module m = parseModule(text, "big.ptx");
  EXPECT_EQ(m.functions.size(), 3u + copies);
  EXPECT_EQ(instrs(m.functions.back()).size(), 37u);
}

// ---- golden diagnostics ------------------------------------------------------------------

std::string readFile(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(ParserGolden, ErrorMessagesMatch) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(WARPSIM_SOURCE_DIR) / "tests/golden/parse_errors";
  // The stand-in for the instruction table: enough to exercise the validator path.
  OpcodeValidator validate = [](const ir::Instruction& in) -> std::string {
    if (in.opcode == "frobnicate") return "unknown opcode 'frobnicate'";
    for (const std::string& m : in.mods)
      if (m == "bogus") return "'" + in.opcode + "' does not take modifier '.bogus'";
    return {};
  };
  std::vector<fs::path> cases;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".ptx") cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  EXPECT_GE(cases.size(), 12u);
  for (const fs::path& ptx : cases) {
    SCOPED_TRACE(ptx.filename().string());
    fs::path errPath = ptx;
    errPath.replace_extension(".err");
    ASSERT_TRUE(fs::exists(errPath)) << "missing " << errPath;
    std::string expected = readFile(errPath);
    while (!expected.empty() && expected.back() == '\n') expected.pop_back();
    const std::string rel = "tests/golden/parse_errors/" + ptx.filename().string();
    try {
      parseModule(readFile(ptx), rel, validate);
      ADD_FAILURE() << "parsed without error";
    } catch (const PtxError& e) {
      EXPECT_EQ(std::string(e.what()), expected);
    }
  }
}

}  // namespace
}  // namespace warpsim::isa
