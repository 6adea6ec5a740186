// Tensor maps as `warpsim run` arguments (harness/arg_spec_tmap.h): the TMA card's kernel run
// from the command line, the map's own tensor made from its INIT, and the errors that name the
// argument and the broken rule.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "harness/arg_spec.h"
#include "isa/insns/tensor_map.h"
#include "tests/support/shell.h"
#include "tests/support/temp_path.h"

namespace {

namespace fs = std::filesystem;
namespace tmap = warpsim::isa::insns::tmap;
using warpsim::test::Outcome;

// The suite's PTX of kernels/tensor/tma_tiles.cu, run with a W x H map.
Outcome runTiles(const std::string& mapArg, const std::string& rest = "") {
  const std::string ptx =
      (fs::path(WARPSIM_BINARY).parent_path().parent_path() / "ptx" / "tma_tiles.ptx").string();
  return warpsim::test::shell(std::string(WARPSIM_BINARY) + " run " + ptx +
                              " --kernel tma_tiles_axpb_f32 --grid 3 --block 128 --arg '" + mapArg +
                              "' --arg out=f32[5300] --arg u32:100 --arg u32:53" +
                              " --arg f32:2 --arg f32:1 " + rest);
}

TEST(TensorMapCli, TheMapsTensorIsMadeFromItsInitAndCopiedByTma) {
  const fs::path out = warpsim::test::processTempPath("warpsim_tmap_out.bin");
  const Outcome o = runTiles("in=tmap.f32[100,53]:box=32,32:iota", "--dump out:" + out.string());
  ASSERT_EQ(o.status, 0) << o.output;
  std::ifstream f(out, std::ios::binary);
  std::vector<float> v(5300);
  f.read(reinterpret_cast<char*>(v.data()), std::streamsize(v.size() * sizeof(float)));
  ASSERT_TRUE(f.good());
  f.close();
  fs::remove(out);
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], 2.0f * float(i) + 1.0f) << "element " << i;
}

TEST(TensorMapCli, ErrorsNameTheArgumentAndTheRule) {
  const struct {
    const char* arg;
    const char* says;
  } cases[] = {
      {"in=tmap.f32[100,53]:box=30,32",
       "--arg 1 'in=tmap.f32[100,53]:box=30,32': boxDim[0] * "
       "the element size must be a multiple of 16 bytes"},
      {"in=tmap.f32[100,53]:iota", "the box is missing"},
      {"in=tmap.f32[100,53]:box=32", "box needs 2 values, 1 given"},
      {"in=tmap(zz)[4]:box=4", "no buffer named 'zz' given before it"},
      {"in=tmap.s8[100,53]:box=32,32", "a tensor map cannot hold 's8' elements"},
      {"in=tmap.f32[100,53]:box=32,32:swizzle=7", "swizzle must be none, 32B, 64B or 128B"},
      {"in=tmap.f32[100,53]:box=32,32:bogus=1:iota", "unknown field 'bogus'"},
      {"tmap.f32[100,53]:box=32,32", "needs NAME="},
  };
  for (const auto& c : cases) {
    const Outcome o = runTiles(c.arg);
    EXPECT_EQ(o.status, 2) << c.arg << "\n" << o.output;
    EXPECT_NE(o.output.find(c.says), std::string::npos) << c.arg << "\n" << o.output;
  }
  // A map where the kernel takes a pointer.
  const Outcome o = runTiles("in=tmap.f32[100,53]:box=32,32", "");
  ASSERT_EQ(o.status, 0) << o.output;
  const std::string ptx =
      (fs::path(WARPSIM_BINARY).parent_path().parent_path() / "ptx" / "tma_tiles.ptx").string();
  const Outcome wrong = warpsim::test::shell(
      std::string(WARPSIM_BINARY) + " run " + ptx +
      " --kernel tma_tiles_axpb_f32 --grid 1 --block 128 --arg 'in=tmap.f32[8,8]:box=8,8'" +
      " --arg 'm=tmap(in)[8,8]:box=8,8' --arg u32:8 --arg u32:8 --arg f32:2 --arg f32:1");
  EXPECT_EQ(wrong.status, 2) << wrong.output;
  EXPECT_NE(wrong.output.find("is .u64, not the 128 bytes of a CUtensorMap"), std::string::npos)
      << wrong.output;
}

// tmap(BUFFER) maps a buffer that an earlier argument passed: the map's fields as given, the
// strides dense by default, the buffer referenced by index.
TEST(TensorMapArgs, AMapOfAnEarlierBufferEncodesItsFields) {
  const warpsim::harness::ArgList l = warpsim::harness::buildProblem(
      {"x=f16[256]:iota", "m=tmap(x)[16,8,2]:box=8,4,1:elem=1,2,1:fill=nan"}, "k", {1, 1, 1},
      {32, 1, 1}, 0);
  ASSERT_EQ(l.problem.buffers.size(), 1u);
  const auto& args = l.problem.launches[0].args;
  ASSERT_EQ(args.size(), 2u);
  EXPECT_EQ(args[1].kind, warpsim::kernels::KernelArg::Kind::TensorMap);
  EXPECT_EQ(args[1].buffer, 0u);
  EXPECT_TRUE(l.given[1].isTensorMap);
  tmap::TensorMap m;
  ASSERT_TRUE(tmap::load(args[1].scalar.data(), m));
  EXPECT_EQ(m.dataType, tmap::DataType::F16);
  EXPECT_EQ(m.rank, 3);
  EXPECT_EQ(m.globalDimMinus1[0], 15u);
  EXPECT_EQ(m.globalDimMinus1[2], 1u);
  EXPECT_EQ(m.globalStrides[1], 32u);   // 16 halves
  EXPECT_EQ(m.globalStrides[2], 256u);  // then 8 rows
  EXPECT_EQ(m.boxDim[1], 4u);
  EXPECT_EQ(m.elementStrides[1], 2u);
  EXPECT_EQ(m.oobFillNaN, 1);
  // Its address is the buffer's, filled in at launch.
  const std::vector<uint8_t> p = args[1].paramBytes({0x10000});
  ASSERT_TRUE(tmap::load(p.data(), m));
  EXPECT_EQ(m.globalAddress, 0x10000u);
  // A tensor larger than its buffer.
  EXPECT_THROW(warpsim::harness::buildProblem({"x=f16[255]", "m=tmap(x)[16,8,2]:box=8,4,1"}, "k",
                                              {1, 1, 1}, {32, 1, 1}, 0),
               warpsim::harness::ArgError);
}

// lower=/upper=/channels=/pixels= make an im2col map (cuTensorMapEncodeIm2col's): the bytes
// are the encoder's for the same fields, negative corners included.
TEST(TensorMapArgs, AnIm2colMapEncodesItsCornersChannelsAndPixels) {
  const warpsim::harness::ArgList l = warpsim::harness::buildProblem(
      {"x=tmap.f32[8,10,10,2]:lower=-1,-1:upper=-2,-2:channels=8:pixels=32:iota"}, "k", {1, 1, 1},
      {32, 1, 1}, 0);
  ASSERT_EQ(l.problem.buffers.size(), 1u);
  EXPECT_EQ(l.problem.buffers[0].bytes.size(), 8u * 10 * 10 * 2 * 4);
  const auto& args = l.problem.launches[0].args;
  ASSERT_EQ(args.size(), 1u);
  const std::vector<uint8_t> p = args[0].paramBytes({0x20000});
  tmap::TensorMap got, want;
  ASSERT_TRUE(tmap::load(p.data(), got));
  const uint64_t dims[4] = {8, 10, 10, 2}, strides[3] = {32, 320, 3200};
  const int lower[2] = {-1, -1}, upper[2] = {-2, -2};
  const uint32_t elem[4] = {1, 1, 1, 1};
  ASSERT_EQ(tmap::encodeIm2col(want, unsigned(tmap::DataType::F32), 4, 0x20000, dims, strides,
                               lower, upper, 8, 32, elem, 0, 0, 0, 0),
            "");
  EXPECT_EQ(std::memcmp(&got, &want, sizeof got), 0);
  EXPECT_EQ(got.im2col, 1);
  EXPECT_EQ(tmap::lowerCorner(got, 1), -1);
  EXPECT_EQ(tmap::upperCorner(got, 0), -2);
  EXPECT_EQ(tmap::channelsPerPixel(got), 8u);
  EXPECT_EQ(tmap::pixelsPerColumn(got), 32u);
}

TEST(TensorMapCli, Im2colErrorsNameTheArgumentAndTheRule) {
  const struct {
    const char* arg;
    const char* says;
  } cases[] = {
      {"in=tmap.f32[8,10,10,2]:lower=-1,-1:upper=0,0:channels=8",
       "an im2col map needs lower=, upper=, channels= and pixels="},
      {"in=tmap.f32[8,10,10,2]:box=8,1,1,1:lower=0,0:upper=0,0:channels=8:pixels=4",
       "box= is a tiled map's"},
      {"in=tmap.f32[8,10,10,2]:lower=0:upper=0,0:channels=8:pixels=4",
       "lower needs one value per spatial dimension (2), 1 given"},
      {"in=tmap.f32[8,10,10,2]:lower=0,x:upper=0,0:channels=8:pixels=4",
       "lower: 'x' is not an integer"},
      {"in=tmap.f32[8,10]:lower=0:upper=0:channels=8:pixels=4",
       "an im2col map has 3 to 5 dimensions"},
      {"in=tmap.f32[8,10,10,2]:lower=-200,0:upper=0,0:channels=8:pixels=4",
       "pixelBoxLowerCorner[0] must be in [-128, 127] (cuTensorMapEncodeIm2col's rule)"},
      {"in=tmap.f32[8,10,10,2]:lower=0,0:upper=0,0:channels=2:pixels=4",
       "channelsPerPixel * the element size must be a multiple of 16 bytes"},
  };
  for (const auto& c : cases) {
    const Outcome o = runTiles(c.arg);
    EXPECT_EQ(o.status, 2) << c.arg << "\n" << o.output;
    EXPECT_NE(o.output.find(c.says), std::string::npos) << c.arg << "\n" << o.output;
  }
}

}  // namespace
