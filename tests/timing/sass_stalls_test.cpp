// The SASS's fixed stall counts charged to the PTX, exact to the cycle: nvdisasm's listing read
// (line, kind, stall bits), a line's SASS stall cycles spread over its PTX of the same kind less
// ptxas's unrolled copies, a fraction of a cycle carried to the warp's next instruction, and a
// missing disassembler falling back to the model without them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "harness/nvcc.h"
#include "harness/ptxas_resources.h"
#include "harness/sass_listing.h"
#include "sim/timing/sass_stalls.h"
#include "sim/timing/timing_model.h"
#include "tests/support/ptx_runner.h"
#include "tests/timing/one_cta_cycles.h"

namespace warpsim::sim::timing {
namespace {

// What `nvdisasm -c -g -hex` prints (sgemm_tiled's loop, cut): the stall count is bits 41-44
// of the second word (0x000fe8... -> 4, 0x000fe2... -> 1, 0x000fec... -> 6).
constexpr const char* kListing = R"(
//--------------------- .text.k                  --------------------------
	.section	.text.k,"ax",@progbits
k:
.text.k:
	//## File "/src/k.cu", line 20
        /*02a0*/                   LDS R28, [R3] ;                             /* 0x00000000031c7984 */
                                                                               /* 0x000fe80000000800 */
        /*02b0*/              @!P0 LDS.128 R12, [R2] ;                         /* 0x00000000020c8984 */
                                                                               /* 0x000e620000000c00 */
        /*0340*/                   FFMA R12, R28, R12, R23 ;                   /* 0x0000000c1c0c7223 */
                                                                               /* 0x002fc60000000017 */
	//## File "/src/k.cu", line 21 inlined at "/src/k.cu", line 30
        /*04f0*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;               /* 0x0000000000007b1d */
                                                                               /* 0x000fec0000010000 */
        /*0500*/                   NOP ;                                       /* 0x0000000000007918 */
                                                                               /* 0x000fc00000000000 */
)";

TEST(SassStalls, NvdisasmsListingGivesLineKindAndStall) {
  const SassListing l = harness::parseNvdisasm(kListing);
  ASSERT_EQ(l.count("k"), 1u);
  const std::vector<SassInst>& k = l.at("k");
  ASSERT_EQ(k.size(), 4u);  // the NOP left out
  EXPECT_EQ(k[0].file, "/src/k.cu");
  EXPECT_EQ(k[0].line, 20u);
  EXPECT_EQ(k[0].kind, SassKind::Memory);
  EXPECT_EQ(k[0].stall, 4);
  EXPECT_FALSE(k[0].anchor);
  EXPECT_EQ(k[1].kind, SassKind::Memory);  // a predicated LDS.128
  EXPECT_EQ(k[1].stall, 1);
  EXPECT_EQ(k[2].kind, SassKind::Other);
  EXPECT_EQ(k[2].stall, 3);
  EXPECT_TRUE(k[2].anchor);   // FFMA
  EXPECT_EQ(k[3].line, 21u);  // the innermost line of an inlined one
  EXPECT_EQ(k[3].kind, SassKind::Barrier);
  EXPECT_EQ(k[3].stall, 6);
  EXPECT_TRUE(k[3].anchor);
}

constexpr const char* kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

// One warp: `body` at k.cu line 5, then a store at line 6.
std::string kernel(const std::string& body) {
  return std::string(kHeader) + ".file 1 \"/src/k.cu\"\n" +
         ".visible .entry k(.param .u64 out) {\n  .reg .b32 %r<9>;\n  .reg .f32 %f<4>;\n"
         "  .reg .b64 %rd<2>;\n  .loc 1 5 0\n" +
         body + "  .loc 1 6 0\n  mov.u32 %r1, 7;\n  ld.param.u64 %rd1, [out];\n" +
         "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";
}

// Independent fp32 adds: one issue a cycle (two halves of the FMA pipe, issue.fma 2 each), no
// operand to wait for.
std::string adds(int n) {
  std::string s;
  for (int i = 0; i < n; ++i)
    s += "  add.f32 %f" + std::to_string(i) + ", 0f3F800000, 0f40000000;\n";
  return s;
}
const std::string kFourAdds = adds(4);

SassInst sass(uint32_t line, SassKind kind, uint8_t stall, bool anchor = false) {
  SassInst s;
  s.file = "/src/k.cu";
  s.line = line;
  s.kind = kind;
  s.stall = stall;
  s.anchor = anchor;
  return s;
}

std::vector<uint32_t> stallsOf(const std::string& ptx, const std::vector<SassInst>& listing) {
  test::PtxRunner r(ptx, "sass_stalls.ptx");
  return fixedStalls(r.module().program.functions.at(0), listing, r.module().ir.files);
}

TEST(SassStalls, ALinesStallCyclesAreSpreadOverItsPtxOfTheSameKind) {
  // Line 5: four PTX adds, two SASS instructions of 6 cycles each: 3 cycles per add. Line 6
  // has no SASS listed: nothing charged.
  const std::vector<uint32_t> q =
      stallsOf(kernel(kFourAdds), {sass(5, SassKind::Other, 6), sass(5, SassKind::Other, 6)});
  ASSERT_EQ(q.size(), 8u);
  for (int pc = 0; pc < 4; ++pc) EXPECT_EQ(q[pc], 3 * kStallOne) << pc;
  for (int pc = 4; pc < 8; ++pc) EXPECT_EQ(q[pc], 0u) << pc;
}

TEST(SassStalls, AKindWithoutPtxOnItsLineGoesToTheLinesOtherInstructions) {
  // A branch ptxas made on line 5 (13 cycles) where the PTX has only the adds: 4 + 13 = 17
  // cycles over four adds.
  const std::vector<uint32_t> q =
      stallsOf(kernel(kFourAdds), {sass(5, SassKind::Other, 4), sass(5, SassKind::Control, 13)});
  EXPECT_EQ(q[0], uint32_t(17 * kStallOne / 4));
}

TEST(SassStalls, PtxassUnrolledCopiesAreDividedOut) {
  // One PTX fma and one shared load at line 5; SASS: four copies of each (FFMA, the anchor,
  // 4 times): 4 x 4 cycles of FFMA over 4 copies of one fma is 4 cycles; the loads 4 x 2 / 4.
  const std::string body =
      "  mov.u32 %r2, 0;\n  ld.shared.f32 %f1, [%r2];\n  fma.rn.f32 %f2, %f1, %f1, %f1;\n";
  std::vector<SassInst> listing;
  for (int copy = 0; copy < 4; ++copy) {
    listing.push_back(sass(5, SassKind::Memory, 2));
    listing.push_back(sass(5, SassKind::Other, 4, /*anchor=*/true));
  }
  const std::vector<uint32_t> q = stallsOf(kernel(body), listing);
  EXPECT_EQ(q[1], 2 * kStallOne);  // ld.shared
  EXPECT_EQ(q[2], 2 * kStallOne);  // fma and mov share line 5's 16 Other cycles / 4 copies
  EXPECT_EQ(q[0], 2 * kStallOne);
}

TEST(SassStalls, MemoryCountsGiveTheCopiesOfALineWithoutAnchors) {
  // One shared load and one add at line 5; SASS: four LDS (4 cycles) and four IADD3 (6): the
  // loads say ptxas made four copies, so 4 cycles per load and 6 per add.
  const std::string body = "  mov.u32 %r2, 0;\n  ld.shared.u32 %r3, [%r2];\n";
  std::vector<SassInst> listing;
  for (int copy = 0; copy < 4; ++copy) {
    listing.push_back(sass(5, SassKind::Memory, 4));
    listing.push_back(sass(5, SassKind::Other, 6));
  }
  const std::vector<uint32_t> q = stallsOf(kernel(body), listing);
  EXPECT_EQ(q[1], 4 * kStallOne);
  EXPECT_EQ(q[0], 6 * kStallOne);
}

TEST(SassStalls, NoPtxInstructionWaitsLongerThanItsLinesSassDoesOnAverage) {
  // Four IADD3 of 5 cycles for one PTX add, and nothing that tells the copies: not 20 cycles,
  // the line's mean of 5.
  std::vector<SassInst> listing(4, sass(5, SassKind::Other, 5));
  const std::vector<uint32_t> q = stallsOf(kernel(adds(1)), listing);
  EXPECT_EQ(q[0], 5 * kStallOne);
}

uint64_t cycles(const std::string& ptx, const TimingConfig& c,
                std::shared_ptr<const SassListing> listing) {
  KernelResources k;
  k.source = "ptxas";
  k.sass = std::move(listing);
  return warpsim::test::oneCtaCycles(ptx, c, &k, "sass_stalls.ptx");
}

TEST(SassStalls, AWarpWaitsItsLinesStallCyclesAfterEachInstruction) {
  TimingConfig c;
  c.ptxasHoistWindow = 0;
  c.ptxasSassStalls = 1;
  auto listing = std::make_shared<SassListing>();
  (*listing)["k"] = {sass(5, SassKind::Other, 6), sass(5, SassKind::Other, 6)};
  TimingConfig off = c;
  off.ptxasSassStalls = 0;
  const uint64_t without = cycles(kernel(kFourAdds), off, listing);
  // Four adds of 3 cycles each instead of 1: the store issues 8 cycles later.
  EXPECT_EQ(cycles(kernel(kFourAdds), c, listing), without + 8);
  EXPECT_EQ(cycles(kernel(kFourAdds), c, nullptr), without);  // no SASS: the model alone
}

TEST(SassStalls, AFractionOfACycleCarriesToTheNextInstruction) {
  TimingConfig c;
  c.ptxasHoistWindow = 0;
  c.ptxasSassStalls = 1;
  TimingConfig off = c;
  off.ptxasSassStalls = 0;
  const std::string three = adds(3);
  auto listing = std::make_shared<SassListing>();
  (*listing)["k"] = {sass(5, SassKind::Other, 4), sass(5, SassKind::Other, 4)};
  // 8 cycles over three adds: 8/3 each (683/256 rounded), 1 + 2 + 2 cycles more than issue.
  EXPECT_EQ(cycles(kernel(three), c, listing), cycles(kernel(three), off, listing) + 5);
}

TEST(SassStalls, AnOperandWaitLongerThanTheStallIsNotAddedTo) {
  // A chain of dependent fp32 adds (latency.fp32 each): a stall shorter than that latency
  // (2 cycles) costs nothing, as ptxas's stall count covers the same wait; only the last add's
  // shows, as line 6's first instruction does not read its result (one cycle more).
  TimingConfig c;
  c.ptxasHoistWindow = 0;
  c.ptxasSassStalls = 1;
  TimingConfig off = c;
  off.ptxasSassStalls = 0;
  const std::string chain =
      "  mov.f32 %f1, 0f3F800000;\n  add.f32 %f2, %f1, %f1;\n  add.f32 %f3, %f2, %f2;\n"
      "  add.f32 %f3, %f3, %f3;\n";
  auto listing = std::make_shared<SassListing>();
  (*listing)["k"] = {sass(5, SassKind::Other, 2), sass(5, SassKind::Other, 2),
                     sass(5, SassKind::Other, 2), sass(5, SassKind::Other, 2)};
  ASSERT_GT(c.latFp32, 2u);
  EXPECT_EQ(cycles(kernel(chain), c, listing), cycles(kernel(chain), off, listing) + 1);
}

TEST(SassStalls, WithoutNvdisasmTheRunFallsBackAndSaysWhy) {
  const char* old = std::getenv("WARPSIM_NVDISASM");
  const std::string saved = old ? old : "";
  setenv("WARPSIM_NVDISASM", "/nonexistent/nvdisasm", 1);
  const harness::PtxasResources r = harness::ptxasResources(kernel(kFourAdds), true);
  if (old)
    setenv("WARPSIM_NVDISASM", saved.c_str(), 1);
  else
    unsetenv("WARPSIM_NVDISASM");
  if (!r.error.empty()) GTEST_SKIP() << "no ptxas here: " << r.error;
  EXPECT_EQ(r.sass, nullptr);
  EXPECT_NE(r.sassError.find("nvdisasm not found"), std::string::npos) << r.sassError;
  ASSERT_EQ(r.kernels.count("k"), 1u);  // registers still from ptxas
  EXPECT_EQ(r.kernels.at("k").sassNote, r.sassError);
}

TEST(SassStalls, OffByDefaultAndNotAskedForNothingIsListed) {
  EXPECT_EQ(TimingConfig{}.ptxasSassStalls, 0u);
  const harness::PtxasResources r = harness::ptxasResources(kernel(kFourAdds));
  if (!r.error.empty()) GTEST_SKIP() << "no ptxas here: " << r.error;
  EXPECT_EQ(r.sass, nullptr);
  EXPECT_EQ(r.sassError, "");
}

TEST(SassStalls, PtxasAndNvdisasmListTheKernelsLines) {
  harness::PtxasResources r = harness::ptxasResources(kernel(kFourAdds), true);
  if (!r.error.empty()) GTEST_SKIP() << "no ptxas here: " << r.error;
  if (!r.sass) GTEST_SKIP() << r.sassError;
  ASSERT_EQ(r.sass->count("k"), 1u);
  bool line6 = false;
  for (const SassInst& s : r.sass->at("k")) {
    EXPECT_GE(s.stall, 1);
    if (s.line == 6 && s.file == "/src/k.cu") line6 = true;
  }
  EXPECT_TRUE(line6);  // the store's line, from the cubin's line info
  EXPECT_EQ(r.kernels.at("k").sass, r.sass);
}

}  // namespace
}  // namespace warpsim::sim::timing
