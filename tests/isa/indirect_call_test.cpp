// Indirect control flow (issue 10, item 1; isa/indirect.h): calls through a function pointer
// with a .callprototype or a .calltargets list, lanes of one warp calling different functions
// (the SIMT stack splits by target and reconverges after the call), a virtual call through a
// vtable as nvcc emits it, brx.idx through a .branchtargets list, and the faults of a bad
// target or index (kind, message, thread, block, PTX and CUDA line).
#include <gtest/gtest.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "isa/diagnostic.h"
#include "isa/indirect.h"
#include "isa/lower.h"
#include "isa/parser.h"
#include "sim/func/fault.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::test {
namespace {

// Three functions of one prototype, a function-pointer table, a kernel in which lane i calls
// table[i % 3] (three targets in one warp) and then counts the lanes that reconverged.
constexpr const char* kPtx = R"(.version 9.0
.target sm_90
.address_size 64
.func (.param .b32 r) add1(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  add.s32 %r2, %r1, 1;
  st.param.b32 [r], %r2;
  ret;
}
.func (.param .b32 r) times2(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  shl.b32 %r2, %r1, 1;
  st.param.b32 [r], %r2;
  ret;
}
.func (.param .b32 r) negate(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  neg.s32 %r2, %r1;
  st.param.b32 [r], %r2;
  ret;
}
.func (.param .b64 r) wide(.param .b64 a)
{
  .reg .b64 %rd<2>;
  ld.param.b64 %rd1, [a];
  st.param.b64 [r], %rd1;
  ret;
}
.global .align 8 .u64 table[4] = {add1, times2, negate, wide};
.visible .entry divergent(.param .u64 out, .param .u64 lanes)
{
  .reg .b64 %rd<8>;
  .reg .b32 %r<8>;
  .loc 1 10 3
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  rem.u32 %r2, %r1, 3;
  mul.wide.u32 %rd2, %r2, 8;
  mov.u64 %rd3, table;
  add.s64 %rd4, %rd3, %rd2;
  ld.global.u64 %rd5, [%rd4];
  {
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  .param .b32 retval0;
  prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
  .loc 1 11 5
  call (retval0), %rd5, (param0), prototype_0;
  ld.param.b32 %r3, [retval0];
  }
  activemask.b32 %r4;
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd1, %rd6;
  st.global.u32 [%rd7], %r3;
  ld.param.u64 %rd1, [lanes];
  add.s64 %rd7, %rd1, %rd6;
  st.global.u32 [%rd7], %r4;
  ret;
}
.visible .entry through(.param .u64 out, .param .u64 fn, .param .u32 guarded)
{
  .reg .b64 %rd<4>;
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [fn];
  ld.param.u32 %r2, [guarded];
  mov.u32 %r1, %tid.x;
  mov.u32 %r3, 100;
  setp.lt.u32 %p1, %r1, %r2;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  .param .b32 retval0;
  prototype_1 : .callprototype (.param .b32 _) _ (.param .b32 _);
  .loc 1 20 7
  @%p1 call (retval0), %rd2, (param0), prototype_1;
  @%p1 ld.param.b32 %r3, [retval0];
  }
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd3, %rd1, %rd3;
  st.global.u32 [%rd3], %r3;
  ret;
}
.visible .entry listed(.param .u64 out, .param .u64 fn)
{
  .reg .b64 %rd<4>;
  .reg .b32 %r<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [fn];
  mov.u32 %r1, %tid.x;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  .param .b32 retval0;
  targets : .calltargets add1, negate;
  .loc 1 30 7
  call (retval0), %rd2, (param0), targets;
  ld.param.b32 %r2, [retval0];
  }
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd3, %rd1, %rd3;
  st.global.u32 [%rd3], %r2;
  ret;
}
.visible .entry indexed(.param .u64 out, .param .u64 lanes)
{
  .reg .b64 %rd<6>;
  .reg .b32 %r<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 3;
  ts: .branchtargets L0, L1, L2, L3;
  .loc 1 40 3
  brx.idx %r2, ts;
L0:
  mov.u32 %r3, 10;
  bra.uni DONE;
L1:
  mov.u32 %r3, 11;
  bra.uni DONE;
L2:
  mov.u32 %r3, 12;
  bra.uni DONE;
L3:
  mov.u32 %r3, 13;
DONE:
  activemask.b32 %r4;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ld.param.u64 %rd4, [lanes];
  add.s64 %rd5, %rd4, %rd2;
  st.global.u32 [%rd5], %r4;
  ret;
}
.visible .entry badIndex(.param .u32 index)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [index];
  ts: .branchtargets A, B;
  .loc 1 50 9
  brx.idx %r1, ts;
A:
  ret;
B:
  ret;
}
.file 1 "calls.cu"
)";

sim::LaunchResult launchDivergent(PtxRunner& r, uint64_t out, uint64_t lanes, unsigned threads) {
  return r.launch("divergent", {1, 1, 1}, {threads, 1, 1},
                  {PtxRunner::ptr(out), PtxRunner::ptr(lanes)});
}

TEST(IndirectCall, LanesCallingDifferentFunctionsDivergeAndReconvergeAfterTheCall) {
  PtxRunner r(kPtx);
  const uint64_t out = r.buffer<int32_t>(64), lanes = r.buffer<uint32_t>(64);
  const auto res = launchDivergent(r, out, lanes, 64);
  ASSERT_FALSE(res.fault) << res.fault->describe("test.ptx");
  const auto v = r.read<int32_t>(out, 64);
  const auto active = r.read<uint32_t>(lanes, 64);
  for (int i = 0; i < 64; ++i) {
    const int expect = i % 3 == 0 ? i + 1 : i % 3 == 1 ? 2 * i : -i;
    EXPECT_EQ(v[size_t(i)], expect) << "thread " << i;
    // After the call every lane of the warp runs together again.
    EXPECT_EQ(active[size_t(i)], 0xFFFFFFFFu) << "thread " << i;
  }
}

TEST(IndirectCall, AUniformCallThroughAPointerEntersTheFunction) {
  PtxRunner r(kPtx);
  const uint64_t out = r.buffer<int32_t>(32);
  // Lanes 0..19 call times2 (index 1 of the module's functions); the others keep 100.
  const auto res =
      r.launch("through", {1, 1, 1}, {32, 1, 1},
               {PtxRunner::ptr(out), PtxRunner::u64(isa::functionAddress(1)), PtxRunner::u32(20)});
  ASSERT_FALSE(res.fault) << res.fault->describe("test.ptx");
  const auto v = r.read<int32_t>(out, 32);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(v[size_t(i)], i < 20 ? 2 * i : 100) << i;
}

// The fault of a call through `address` in kernel `through` (every lane calls).
sim::FaultInfo throughFault(uint64_t address) {
  PtxRunner r(kPtx);
  const uint64_t out = r.buffer<int32_t>(64);
  const auto res = r.launch("through", {2, 1, 1}, {32, 1, 1},
                            {PtxRunner::ptr(out), PtxRunner::u64(address), PtxRunner::u32(32)});
  EXPECT_TRUE(res.fault);
  return res.fault ? *res.fault : sim::FaultInfo{};
}

TEST(IndirectCall, ACallThroughAnAddressThatIsNoFunctionIsAKernelFault) {
  const sim::FaultInfo f = throughFault(0x1234);
  EXPECT_EQ(f.kind, sim::FaultKind::InvalidInstruction);
  EXPECT_EQ(f.message, "indirect call to 0x1234, which is not the address of a function");
  EXPECT_EQ(f.cta.x, 0u);
  EXPECT_EQ(f.thread.x, 0u);
  EXPECT_EQ(f.cudaFile, "calls.cu");
  EXPECT_EQ(f.cudaLine, 20u);
  EXPECT_EQ(f.ptxLine, 83u);
  EXPECT_EQ(f.instruction, "call");
  // Past the module's functions, and between two of them.
  EXPECT_EQ(throughFault(isa::functionAddress(40)).kind, sim::FaultKind::InvalidInstruction);
  EXPECT_EQ(
      throughFault(isa::functionAddress(1) + 8).message, "indirect call to " + [] {
        char b[32];
        std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)(isa::functionAddress(1) + 8));
        return std::string(b);
      }() + ", which is not the address of a function");
}

TEST(IndirectCall, ACallToAKernelOrAFunctionThePrototypeDoesNotMatchIsAKernelFault) {
  PtxRunner probe(kPtx);
  const int wide = probe.module().program.findFunction("wide");
  const int kernel = probe.module().program.findEntry("divergent");
  ASSERT_GE(wide, 0);
  ASSERT_GE(kernel, 0);
  const sim::FaultInfo k = throughFault(isa::functionAddress(size_t(kernel)));
  EXPECT_EQ(k.kind, sim::FaultKind::InvalidInstruction);
  EXPECT_EQ(k.message, "indirect call to kernel 'divergent' (a .entry cannot be called)");
  const sim::FaultInfo m = throughFault(isa::functionAddress(size_t(wide)));
  EXPECT_EQ(m.message,
            "indirect call to 'wide', whose parameters (8) and return values (8) (bytes) do not "
            "match its prototype 'prototype_1': (4) and (4)");
}

TEST(IndirectCall, ADivergentCallFaultsAtTheLowestLaneWithABadTarget) {
  // A table entry overwritten with garbage: the lanes i % 3 == 2 fault, lane 2 first, although
  // lanes 0 and 1 call valid functions.
  PtxRunner r(kPtx);
  const uint64_t out = r.buffer<int32_t>(32), lanes = r.buffer<uint32_t>(32);
  const uint64_t garbage = 0xdead0;
  r.gpu().memory().copyIn(r.module().variables.at("table").first + 16, &garbage, 8);
  const auto res = launchDivergent(r, out, lanes, 32);
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->message, "indirect call to 0xdead0, which is not the address of a function");
  EXPECT_EQ(res.fault->thread.x, 2u);
  EXPECT_EQ(res.fault->cudaLine, 11u);
}

TEST(IndirectCall, ACallTargetsListAllowsOnlyItsFunctions) {
  PtxRunner r(kPtx);
  const int add1 = r.module().program.findFunction("add1");
  const int times2 = r.module().program.findFunction("times2");
  const uint64_t out = r.buffer<int32_t>(32);
  auto run = [&](int fn) {
    return r.launch("listed", {1, 1, 1}, {32, 1, 1},
                    {PtxRunner::ptr(out), PtxRunner::u64(isa::functionAddress(size_t(fn)))});
  };
  ASSERT_FALSE(run(add1).fault);
  const auto v = r.read<int32_t>(out, 32);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(v[size_t(i)], i + 1);
  const auto res = run(times2);
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->message,
            "indirect call to 'times2', which is not in its .calltargets list 'targets'");
  EXPECT_EQ(res.fault->cudaLine, 30u);
}

TEST(BranchIndexed, LanesGoToTheirTableEntryAndReconverge) {
  for (const bool contract : {true, false}) {
    isa::LowerOptions o;
    o.contract = contract;
    PtxRunner r(kPtx, "test.ptx", o);
    const uint64_t out = r.buffer<uint32_t>(40), lanes = r.buffer<uint32_t>(40);
    const auto res =
        r.launch("indexed", {1, 1, 1}, {40, 1, 1}, {PtxRunner::ptr(out), PtxRunner::ptr(lanes)});
    ASSERT_FALSE(res.fault) << res.fault->describe("test.ptx");
    const auto v = r.read<uint32_t>(out, 40);
    const auto active = r.read<uint32_t>(lanes, 40);
    for (uint32_t i = 0; i < 40; ++i) {
      EXPECT_EQ(v[i], 10 + i % 4) << i;
      EXPECT_EQ(active[i], i < 32 ? 0xFFFFFFFFu : 0xFFu) << i;  // the second warp has 8 lanes
    }
    // The branch diverged into four paths in each warp.
    EXPECT_GE(res.stats.divergentBranches, 2u);
  }
}

TEST(BranchIndexed, AnIndexPastTheTableIsAKernelFault) {
  PtxRunner r(kPtx);
  EXPECT_FALSE(r.launch("badIndex", {1, 1, 1}, {4, 1, 1}, {PtxRunner::u32(1)}).fault);
  const auto res = r.launch("badIndex", {1, 1, 1}, {4, 1, 1}, {PtxRunner::u32(2)});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::InvalidInstruction);
  EXPECT_EQ(res.fault->message,
            "brx.idx index 2 is outside its .branchtargets list 'ts' of 2 labels");
  EXPECT_EQ(res.fault->cudaLine, 50u);
  EXPECT_EQ(res.fault->instruction, "brx.idx");
}

// Recursion through a pointer counts against the stack as a direct call does.
constexpr const char* kRecursion = R"(.version 9.0
.target sm_90
.address_size 64
.global .align 8 .u64 self[1] = {down};
.func (.param .b32 r) down(.param .b32 a)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .reg .pred %p<2>;
  ld.param.b32 %r1, [a];
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.global.u64 %rd1, [self];
  {
  .param .b32 param0;
  sub.s32 %r2, %r1, 1;
  st.param.b32 [param0], %r2;
  .param .b32 retval0;
  prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
  call (retval0), %rd1, (param0), prototype_0;
  ld.param.b32 %r3, [retval0];
  }
  add.s32 %r1, %r3, 1;
DONE:
  st.param.b32 [r], %r1;
  ret;
}
.visible .entry k(.param .u64 out, .param .u32 depth)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [depth];
  {
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  .param .b32 retval0;
  call (retval0), down, (param0);
  ld.param.b32 %r2, [retval0];
  }
  st.global.u32 [%rd1], %r2;
  ret;
}
)";

TEST(IndirectCall, RecursionThroughAPointerRunsAndOverflowsTheStackAsDirectRecursionDoes) {
  PtxRunner r(kRecursion);
  const uint64_t out = r.buffer<uint32_t>(1);
  ASSERT_FALSE(
      r.launch("k", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(out), PtxRunner::u32(10)}).fault);
  EXPECT_EQ(r.read<uint32_t>(out, 1)[0], 10u);
  const auto res =
      r.launch("k", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(out), PtxRunner::u32(1000000)});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::StackOverflow);
}

// A virtual call as nvcc compiles one (cuda-samples newdelete): an object's first word points
// 16 bytes into its class's vtable, a `.global` table of function addresses; the kernel loads
// the method's address from there and calls it with `this`. Objects of two classes in one warp
// call two different methods.
constexpr const char* kVirtual = R"(.version 9.0
.target sm_90
.address_size 64
.func _ZN4Base3getEv(.param .b64 self, .param .b32 v);
.func _ZN7Derived3getEv(.param .b64 self, .param .b32 v);
.global .align 8 .u64 _ZTV4Base[3] = {0, 0, _ZN4Base3getEv};
.global .align 8 .u64 _ZTV7Derived[3] = {0, 0, _ZN7Derived3getEv};
.func _ZN4Base3getEv(.param .b64 self, .param .b32 v)
{
  .reg .b64 %rd<2>;
  .reg .b32 %r<3>;
  ld.param.u64 %rd1, [self];
  ld.param.u32 %r1, [v];
  ld.u32 %r2, [%rd1+8];
  add.s32 %r2, %r2, %r1;
  st.u32 [%rd1+8], %r2;
  ret;
}
.func _ZN7Derived3getEv(.param .b64 self, .param .b32 v)
{
  .reg .b64 %rd<2>;
  .reg .b32 %r<3>;
  ld.param.u64 %rd1, [self];
  ld.param.u32 %r1, [v];
  ld.u32 %r2, [%rd1+8];
  mul.lo.s32 %r2, %r2, %r1;
  st.u32 [%rd1+8], %r2;
  ret;
}
.visible .entry setup(.param .u64 objs)
{
  .reg .b64 %rd<8>;
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [objs];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  and.b32 %r2, %r1, 1;
  setp.eq.s32 %p1, %r2, 0;
  mov.u64 %rd4, _ZTV4Base;
  mov.u64 %rd5, _ZTV7Derived;
  selp.b64 %rd6, %rd4, %rd5, %p1;
  add.s64 %rd6, %rd6, 16;
  st.global.u64 [%rd3], %rd6;
  st.global.u32 [%rd3+8], 10;
  ret;
}
.visible .entry use(.param .u64 objs)
{
  .reg .b64 %rd<8>;
  .reg .b32 %r<3>;
  ld.param.u64 %rd1, [objs];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  ld.u64 %rd4, [%rd3];
  ld.u64 %rd5, [%rd4];
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd3;
  .param .b32 param1;
  st.param.b32 [param1+0], 3;
  prototype_0 : .callprototype ()_ (.param .b64 _, .param .b32 _);
  call %rd5, (param0, param1), prototype_0;
  }
  ret;
}
)";

TEST(IndirectCall, VirtualCallsThroughVtablesInOneWarp) {
  PtxRunner r(kVirtual);
  const uint64_t objs = r.buffer<uint64_t>(2 * 32);
  ASSERT_FALSE(r.launch("setup", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(objs)}).fault);
  const auto res = r.launch("use", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(objs)});
  ASSERT_FALSE(res.fault) << res.fault->describe("test.ptx");
  EXPECT_EQ(res.stats.divergentBranches, 1u);  // one split, by target
  const auto v = r.read<uint32_t>(objs, 2 * 2 * 32);
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(v[4 * i + 2], i % 2 == 0 ? 13u : 30u) << i;
}

// A function's address is taken where an instruction other than a direct call names it, or
// an initializer stores it; the callee a direct call names is not (its role, not its opcode
// text, tells the call: isa/facts.h).
TEST(IndirectCall, ADirectCallTakesNoAddressAMoveOrAnInitializerDoes) {
  const ir::Module m = isa::parseModule(R"(.version 9.0
.target sm_90
.address_size 64
.func called() { ret; }
.func moved() { ret; }
.func stored() { ret; }
.global .align 8 .u64 table[1] = {stored};
.visible .entry k()
{
  .reg .b64 %rd<2>;
  call called;
  mov.u64 %rd1, moved;
  ret;
}
)",
                                        "taken.ptx");
  std::unordered_map<std::string, int> index;
  for (size_t i = 0; i < m.functions.size(); ++i) index[m.functions[i].name] = int(i);
  const std::vector<bool> taken = isa::addressTakenFunctions(m, index);
  ASSERT_EQ(taken.size(), 4u);
  EXPECT_FALSE(taken[size_t(index.at("called"))]);
  EXPECT_TRUE(taken[size_t(index.at("moved"))]);
  EXPECT_TRUE(taken[size_t(index.at("stored"))]);
  EXPECT_FALSE(taken[size_t(index.at("k"))]);
}

// Malformed forms are PTX errors at file:line:col.
std::string loadError(const std::string& body, const std::string& entryName = "k") {
  const std::string ptx =
      ".version 9.0\n.target sm_90\n.address_size 64\n"
      ".func f(.param .b32 a)\n{\n  ret;\n}\n"
      ".visible .entry k(.param .u64 p)\n{\n  .reg .b64 %rd<2>;\n"
      "  .reg .b32 %r<2>;\n" +
      body + "  ret;\n}\n";
  try {
    sim::Gpu gpu;
    const sim::LoadedModule& m = gpu.loadPtx(ptx, "bad.ptx");
    const int e = m.program.findEntry(entryName);
    if (auto err = m.program.buildError(e)) return err->what();
    return "";
  } catch (const isa::PtxError& e) {
    return e.what();
  }
}

TEST(IndirectForms, MalformedListsAndOperandsAreErrorsAtTheirLine) {
  EXPECT_NE(loadError("  ts: .branchtargets ;\n")
                .find("bad.ptx:12:22: error: expected a label in "
                      ".branchtargets"),
            std::string::npos)
      << loadError("  ts: .branchtargets ;\n");
  EXPECT_NE(loadError("  ts: .branchtargets A, NOWHERE;\n  brx.idx %r1, ts;\nA:\n")
                .find("bad.ptx:12:3: error: kernel 'k' cannot run: 'NOWHERE' in .branchtargets "
                      "'ts' is not a label of 'k'"),
            std::string::npos)
      << loadError("  ts: .branchtargets A, NOWHERE;\n  brx.idx %r1, ts;\nA:\n");
  EXPECT_NE(loadError("  brx.idx %r1, NOLIST;\n").find("bad.ptx:12:"), std::string::npos)
      << loadError("  brx.idx %r1, NOLIST;\n");
  EXPECT_NE(loadError("  {\n  .param .b32 p0;\n  call %rd1, (p0);\n  }\n")
                .find("bad.ptx:14:3: error: kernel 'k' cannot run: an indirect call needs a "
                      ".callprototype or .calltargets list after its arguments"),
            std::string::npos)
      << loadError("  {\n  .param .b32 p0;\n  call %rd1, (p0);\n  }\n");
  EXPECT_NE(loadError("  t: .calltargets f, nosuch;\n  call %rd1, t;\n")
                .find("bad.ptx:12:3: error: kernel 'k' cannot run: 'nosuch' in .calltargets 't' "
                      "is not a function"),
            std::string::npos)
      << loadError("  t: .calltargets f, nosuch;\n  call %rd1, t;\n");
  EXPECT_NE(loadError("  ts: .branchtargets A;\n  call %rd1, ts;\nA:\n")
                .find("'ts' is a .branchtargets list, which only brx.idx takes"),
            std::string::npos);
  EXPECT_NE(loadError("  p: .callprototype _ (.param .b32 _);\n  brx.idx %r1, p;\n")
                .find("'p' lists call targets, which only an indirect call takes"),
            std::string::npos);
  EXPECT_NE(loadError("  p: .callprototype (.param .b32 _) (.param .b32 _);\n")
                .find("bad.ptx:12:37: error: expected '_' (the function name) in .callprototype"),
            std::string::npos)
      << loadError("  p: .callprototype (.param .b32 _) (.param .b32 _);\n");
  EXPECT_NE(loadError("  t: .calltargets f;\n  t: .calltargets f;\n")
                .find("bad.ptx:13:3: error: 't' names a second list in 'k'"),
            std::string::npos)
      << loadError("  t: .calltargets f;\n  t: .calltargets f;\n");
}

}  // namespace
}  // namespace warpsim::test
