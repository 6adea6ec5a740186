// The PTX linker (isa/ptx_link.h): extern functions and variables resolved across units,
// internal names kept apart, weak definitions yielding, .file indices renumbered so that a
// fault names the right CUDA file, and the errors of units that do not link.
#include "isa/ptx_link.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "isa/diagnostic.h"
#include "isa/parser.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::test {
namespace {

const std::string kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

// The kernel: out[0] = twice(base) + bias() + local(); `base` and `twice` come from the
// library unit, `bias` is weak in both units, `local` is internal to each (1 here, 100 there).
const std::string kMain = kHeader + R"(.file 1 "main.cu"
.extern .global .align 4 .u32 base;
.extern .func (.param .b32 r) twice (.param .b32 x);
.weak .func (.param .b32 r) bias ()
{
  .reg .b32 %r<2>;
  mov.u32 %r1, 10;
  st.param.b32 [r], %r1;
  ret;
}
.func (.param .b32 r) local ()
{
  .reg .b32 %r<2>;
  mov.u32 %r1, 1;
  st.param.b32 [r], %r1;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.global.u32 %r1, [base];
  {
  .param .b32 x;
  .param .b32 r;
  st.param.b32 [x], %r1;
  call.uni (r), twice, (x);
  ld.param.b32 %r2, [r];
  }
  {
  .param .b32 r;
  call.uni (r), bias, ();
  ld.param.b32 %r3, [r];
  }
  {
  .param .b32 r;
  call.uni (r), local, ();
  ld.param.b32 %r4, [r];
  }
  add.s32 %r5, %r2, %r3;
  add.s32 %r6, %r5, %r4;
  st.global.u32 [%rd1], %r6;
  ret;
}
.visible .entry faults()
{
  .reg .b64 %rd<2>;
  mov.u64 %rd1, 0;
  .loc 1 42 3
  st.global.u32 [%rd1], 0;
  ret;
}
)";

std::string library(const std::string& biasKind, int bias) {
  return kHeader + R"(.file 1 "lib.cu"
.visible .global .align 4 .u32 base = 20;
.visible .func (.param .b32 r) twice (.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  add.s32 %r2, %r1, %r1;
  st.param.b32 [r], %r2;
  ret;
}
)" + biasKind +
         R"( .func (.param .b32 r) bias ()
{
  .reg .b32 %r<2>;
  mov.u32 %r1, )" +
         std::to_string(bias) +
         R"(;
  st.param.b32 [r], %r1;
  ret;
}
.func (.param .b32 r) local ()
{
  .reg .b32 %r<2>;
  mov.u32 %r1, 100;
  st.param.b32 [r], %r1;
  ret;
}
.visible .entry libfaults()
{
  .reg .b64 %rd<2>;
  mov.u64 %rd1, 0;
  .loc 1 7 5
  st.global.u32 [%rd1], 0;
  ret;
}
)";
}

uint32_t runK(const std::string& linked) {
  PtxRunner r(linked, "linked.ptx");
  const uint64_t out = r.buffer<uint32_t>(1);
  const sim::LaunchResult res = r.launch("k", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(out)});
  EXPECT_FALSE(res.fault.has_value()) << res.fault->describe("linked.ptx") << "\n" << linked;
  return r.read<uint32_t>(out, 1)[0];
}

TEST(PtxLink, ResolvesExternsAndKeepsEachUnitsInternalNames) {
  const std::string linked = isa::linkPtx({{kMain, "main.ptx"}, {library(".weak", 30), "lib.ptx"}});
  // twice(20) = 40, the first unit's weak bias 10, main's own local 1 (the library's 100 is
  // its own).
  EXPECT_EQ(runK(linked), 51u);
  // The library first: its definitions come before main's declarations of them, and its weak
  // bias (30) is the one that stays.
  EXPECT_EQ(runK(isa::linkPtx({{library(".weak", 30), "lib.ptx"}, {kMain, "main.ptx"}})), 71u);
}

TEST(PtxLink, AWeakDefinitionYieldsToAStrongOne) {
  const std::string linked =
      isa::linkPtx({{kMain, "main.ptx"}, {library(".visible", 30), "lib.ptx"}});
  EXPECT_EQ(runK(linked), 40u + 30u + 1u);
}

// One module, a definition before a declaration of the same function and variable: the call
// and the load reach the definitions (lowering once took the last of the name, a declaration).
TEST(PtxLink, ADefinitionBeforeItsDeclarationIsWhatIsUsed) {
  const std::string ptx = kHeader + R"(.visible .global .align 4 .u32 base = 20;
.visible .func (.param .b32 r) twice (.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  add.s32 %r2, %r1, %r1;
  st.param.b32 [r], %r2;
  ret;
}
.weak .func (.param .b32 r) bias ()
{
  .reg .b32 %r<2>;
  mov.u32 %r1, 3;
  st.param.b32 [r], %r1;
  ret;
}
)" + kMain.substr(kHeader.size());
  EXPECT_EQ(runK(ptx), 40u + 3u + 1u);
}

TEST(PtxLink, OneUnitIsItsOwnText) { EXPECT_EQ(isa::linkPtx({{kMain, "main.ptx"}}), kMain); }

TEST(PtxLink, FaultsNameTheirUnitsCudaFile) {
  const std::string linked = isa::linkPtx({{kMain, "main.ptx"}, {library(".weak", 30), "lib.ptx"}});
  const ir::Module m = isa::parseModule(linked, "linked.ptx");
  ASSERT_EQ(m.files.size(), 2u);
  EXPECT_EQ(m.files.at(1), "main.cu");
  EXPECT_EQ(m.files.at(2), "lib.cu");  // the second unit's file 1, renumbered
  PtxRunner r(linked, "linked.ptx");
  const sim::LaunchResult a = r.launch("faults", {1, 1, 1}, {1, 1, 1}, {});
  ASSERT_TRUE(a.fault.has_value());
  EXPECT_NE(a.fault->describe("linked.ptx").find("main.cu:42"), std::string::npos)
      << a.fault->describe("linked.ptx");
  const sim::LaunchResult b = r.launch("libfaults", {1, 1, 1}, {1, 1, 1}, {});
  ASSERT_TRUE(b.fault.has_value());
  EXPECT_NE(b.fault->describe("linked.ptx").find("lib.cu:7"), std::string::npos)
      << b.fault->describe("linked.ptx");
}

TEST(PtxLink, TwoVisibleDefinitionsAreAnErrorNamingBothUnits) {
  const std::string other = kHeader + ".visible .global .align 4 .u32 base = 5;\n";
  try {
    isa::linkPtx({{library(".weak", 30), "lib.ptx"}, {other, "other.ptx"}});
    FAIL() << "linked";
  } catch (const isa::PtxError& e) {
    EXPECT_EQ(e.file(), "other.ptx");
    EXPECT_EQ(e.line(), 4u);
    EXPECT_NE(e.message().find("'base' is defined in lib.ptx and again here"), std::string::npos)
        << e.message();
  }
}

TEST(PtxLink, UnitsOfDifferentAddressSizesDoNotLink) {
  const std::string narrow = ".version 8.0\n.target sm_90\n.address_size 32\n";
  try {
    isa::linkPtx({{kMain, "main.ptx"}, {narrow, "narrow.ptx"}});
    FAIL() << "linked";
  } catch (const isa::PtxError& e) {
    EXPECT_EQ(e.file(), "narrow.ptx");
    EXPECT_NE(e.message().find(".address_size 32 differs from main.ptx's 64"), std::string::npos)
        << e.message();
  }
}

TEST(PtxLink, AUnitThatDoesNotParseIsNamed) {
  try {
    isa::linkPtx({{kMain, "main.ptx"}, {kHeader + ".visible .entry e( {\n", "bad.ptx"}});
    FAIL() << "linked";
  } catch (const isa::PtxError& e) {
    EXPECT_EQ(e.file(), "bad.ptx");
    EXPECT_EQ(e.line(), 4u);
  }
}

TEST(PtxLink, TheHeaderIsTheNewestOfTheUnits) {
  const std::string newer = ".version 9.0\n.target sm_90a\n.address_size 64\n";
  const ir::Module m =
      isa::parseModule(isa::linkPtx({{kMain, "main.ptx"}, {newer, "newer.ptx"}}), "linked.ptx");
  EXPECT_EQ(m.version, "9.0");
  EXPECT_EQ(m.target, "sm_90a");
}

}  // namespace
}  // namespace warpsim::test
