// Texture and surface arguments of `warpsim run`: the descriptor a --arg makes, its texels
// after INIT, and the errors that name the argument.
#include <gtest/gtest.h>

#include <cstring>

#include "harness/arg_spec.h"
#include "isa/insns/texture_object.h"

namespace warpsim {
namespace {

namespace tex = isa::tex;

tex::Object descriptorOf(const harness::ParsedArg& a) {
  tex::Object o;
  EXPECT_GE(a.buffer.bytes.size(), sizeof o);
  std::memcpy(&o, a.buffer.bytes.data(), sizeof o);
  return o;
}

TEST(TextureArg, Tex2dDescriptorAndTexels) {
  const auto a = harness::parseArg("img=tex2d[4,3]:u8x4:linear:border:norm=1:iota", 2, 0);
  EXPECT_TRUE(a.isBuffer);
  EXPECT_EQ(a.buffer.name, "img");
  ASSERT_EQ(a.buffer.bytes.size(), tex::kDescriptorBytes + 4 * 3 * 4);
  const tex::Object o = descriptorOf(a);
  EXPECT_EQ(o.magic, tex::kMagic);
  EXPECT_EQ(o.kind, tex::Kind::Texture);
  EXPECT_EQ(o.dims, 2);
  EXPECT_EQ(o.width, 4u);
  EXPECT_EQ(o.height, 3u);
  EXPECT_EQ(o.channel, tex::Channel::U8);
  EXPECT_EQ(o.channels, 4);
  EXPECT_EQ(o.filter, tex::Filter::Linear);
  EXPECT_EQ(o.address[0], tex::Address::Border);
  EXPECT_EQ(o.normalizedCoords, 1);
  EXPECT_EQ(o.readNormalized, 1);  // linear filtering of u8 reads normalized floats
  EXPECT_EQ(o.pitch, 16u);
  EXPECT_EQ(o.dataOffset, int64_t(tex::kDescriptorBytes));
  EXPECT_EQ(tex::validate(o), "");
  EXPECT_EQ(a.buffer.bytes[tex::kDescriptorBytes + 5], 5);  // iota, one value per channel
}

TEST(TextureArg, OneAndThreeDimensionsAndSurfaces) {
  auto o = descriptorOf(harness::parseArg("tex1d[100]:f32:point:clamp:norm=0", 1, 0));
  EXPECT_EQ(o.dims, 1);
  EXPECT_EQ(o.width, 100u);
  o = descriptorOf(
      harness::parseArg("v=tex3d[4,5,6]:f16x2:point:wrap:norm=1:read=elem:zeros", 1, 0));
  EXPECT_EQ(o.dims, 3);
  EXPECT_EQ(o.slicePitch, 4u * 5 * 4);
  EXPECT_EQ(o.channel, tex::Channel::F16);
  const auto s = harness::parseArg("out=surf2d[8,2]:s32:const(-1)", 1, 0);
  o = descriptorOf(s);
  EXPECT_EQ(o.kind, tex::Kind::Surface);
  EXPECT_EQ(s.buffer.bytes.size(), tex::kDescriptorBytes + 64);
  EXPECT_EQ(s.buffer.bytes.back(), 0xFF);
}

std::string errorOf(const std::string& text) {
  try {
    harness::parseArg(text, 3, 0);
  } catch (const harness::ArgError& e) {
    return e.what();
  }
  return "";
}

TEST(TextureArg, ErrorsNameTheArgument) {
  EXPECT_EQ(errorOf("t=tex2d[4]:f32:point:clamp:norm=0"),
            "--arg 3 't=tex2d[4]:f32:point:clamp:norm=0': tex2d takes 2 extents");
  EXPECT_EQ(errorOf("tex2d[4,4]:f64:point:clamp:norm=0"),
            "--arg 3 'tex2d[4,4]:f64:point:clamp:norm=0': unknown format 'f64' (u8 s8 u16 s16 "
            "u32 s32 f16 f32[xN])");
  EXPECT_EQ(
      errorOf("tex2d[4,4]:f32:cubic:clamp:norm=0"),
      "--arg 3 'tex2d[4,4]:f32:cubic:clamp:norm=0': the filter 'cubic' is not point or linear");
  EXPECT_EQ(errorOf("tex1d[4]:f32:point:wrap:norm=0"),
            "--arg 3 'tex1d[4]:f32:point:wrap:norm=0': wrap and mirror need normalized "
            "coordinates (norm=1)");
  EXPECT_EQ(errorOf("tex1d[4]:u32:linear:clamp:norm=0"),
            "--arg 3 'tex1d[4]:u32:linear:clamp:norm=0': linear filtering needs a float format "
            "or read=norm");
  EXPECT_EQ(errorOf("tex1d[0]:f32:point:clamp:norm=0"),
            "--arg 3 'tex1d[0]:f32:point:clamp:norm=0': the extent '0' is not in 1..65536");
  EXPECT_EQ(errorOf("tex1d[4]:f32x3:point:clamp:norm=0"),
            "--arg 3 'tex1d[4]:f32x3:point:clamp:norm=0': the format 'f32x3' has 1, 2 or 4 "
            "channels");
  EXPECT_EQ(
      errorOf("tex1d[4]:f32:point"),
      "--arg 3 'tex1d[4]:f32:point': expected tex1d[...]:FORMAT:FILTER:ADDRESS:norm=0|1[:INIT]");
  // INIT errors are the buffer's, naming the texture argument's position.
  EXPECT_NE(errorOf("tex1d[4]:f32:point:clamp:norm=0:bogus").find("--arg 3"), std::string::npos);
}

}  // namespace
}  // namespace warpsim
