// Finding a kernel by the name a user gives (warpsim run --kernel, Module.get_kernel): mangled,
// demangled, base name, unique prefix; a wrong or ambiguous name lists the kernels.
#include "harness/kernel_lookup.h"

#include <gtest/gtest.h>

#include "isa/parser.h"

namespace warpsim::harness {
namespace {

constexpr const char* kPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry _Z5saxpyifPKfPf(.param .u32 a, .param .f32 b, .param .u64 c, .param .u64 d)
{ ret; }
.visible .entry _Z5scaleIfEvPT_i(.param .u64 a, .param .u32 b) { ret; }
.visible .entry _Z4stepPi(.param .u64 a) { ret; }
.visible .entry _Z4stepPf(.param .u64 a) { ret; }
.visible .entry plain(.param .align 8 .b8 s[16], .param .v2 .f32 v) { ret; }
.func helper() { ret; }
)";

class KernelLookup : public ::testing::Test {
 protected:
  ir::Module m = isa::parseModule(kPtx, "k.ptx");
  std::string find(const std::string& name) { return findKernel(m, name, "k.ptx").name; }
  std::string error(const std::string& name) {
    try {
      findKernel(m, name, "k.ptx");
    } catch (const KernelLookupError& e) {
      return e.what();
    }
    return "(found)";
  }
};

TEST_F(KernelLookup, SignaturesAreDemangledWithTheirPtxTypes) {
  const std::vector<KernelSignature> ks = kernelSignatures(m);
  ASSERT_EQ(ks.size(), 5u);  // .func helper is no kernel
  EXPECT_EQ(ks[0].describe(),
            "saxpy(int, float, float const*, float*)  [_Z5saxpyifPKfPf: .u32 .f32 .u64 .u64]");
  EXPECT_EQ(ks[1].demangled, "void scale<float>(float*, int)");
  EXPECT_EQ(ks[1].baseName, "scale<float>");
  EXPECT_EQ(ks[4].describe(), "plain  [.b8[16] .v2.f32]");
  EXPECT_EQ(ks[4].params[0].bytes, 16u);
  EXPECT_TRUE(ks[4].params[0].isArray);
}

TEST_F(KernelLookup, ExactDemangledBaseAndPrefix) {
  EXPECT_EQ(find("_Z5saxpyifPKfPf"), "_Z5saxpyifPKfPf");
  EXPECT_EQ(find("saxpy(int, float, float const*, float*)"), "_Z5saxpyifPKfPf");
  EXPECT_EQ(find("saxpy"), "_Z5saxpyifPKfPf");
  EXPECT_EQ(find("sax"), "_Z5saxpyifPKfPf");
  EXPECT_EQ(find("scale<float>"), "_Z5scaleIfEvPT_i");
  EXPECT_EQ(find("scale"), "_Z5scaleIfEvPT_i");
  EXPECT_EQ(find("step(float*)"), "_Z4stepPf");
  EXPECT_EQ(find("plain"), "plain");
}

TEST_F(KernelLookup, OverloadsAreAmbiguousByBaseName) {
  EXPECT_EQ(error("step"),
            "kernel name 'step' is ambiguous in k.ptx; it matches:\n"
            "  step(int*)  [_Z4stepPi: .u64]\n"
            "  step(float*)  [_Z4stepPf: .u64]");
}

TEST_F(KernelLookup, WrongNameListsEveryKernel) {
  EXPECT_EQ(error("saxpi"),
            "no kernel named 'saxpi' in k.ptx; its kernels:\n"
            "  saxpy(int, float, float const*, float*)  [_Z5saxpyifPKfPf: .u32 .f32 .u64 .u64]\n"
            "  void scale<float>(float*, int)  [_Z5scaleIfEvPT_i: .u64 .u32]\n"
            "  step(int*)  [_Z4stepPi: .u64]\n"
            "  step(float*)  [_Z4stepPf: .u64]\n"
            "  plain  [.b8[16] .v2.f32]");
  // A .func is not a kernel; an empty name is no prefix of everything.
  EXPECT_EQ(error("helper").substr(0, 40), "no kernel named 'helper' in k.ptx; its k");
  EXPECT_EQ(error("").substr(0, 30), "no kernel named '' in k.ptx; i");
}

TEST(KernelLookupDemangle, PlainNamesStayAsTheyAre) {
  EXPECT_EQ(demangle("vec_add"), "vec_add");
  EXPECT_EQ(demangle("_Znotvalid"), "_Znotvalid");
  EXPECT_EQ(demangle("_Z4stepPi"), "step(int*)");
}

}  // namespace
}  // namespace warpsim::harness
