// `warpsim run` with texture and surface objects as arguments: the object made from the --arg,
// sampled and written by the kernel, the results dumped.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/support/shell.h"

namespace {

using warpsim::test::Outcome;

Outcome warpsim(const std::string& args) {
  return warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                              " " + args);
}

TEST(TextureCli, SamplesAndWritesObjectsFromArguments) {
  // Texels 0..7 in row 0, 8..15 in row 1 (iota); linear, wrapped, normalized: thread x reads
  // u = x + 0.25, so texels x - 1 and x weigh 0.25 and 0.75 (texel -1 wraps to 7), and
  // y = 0.5 of a height of 2 is halfway between the rows (+4).
  const Outcome o = warpsim(
      "run tests/data/texture_sample.ptx --kernel sample --grid 1 --block 8 "
      "--arg 'img=tex2d[8,2]:f32:linear:wrap:norm=1:iota' --arg 'surf=surf2d[8,1]:f32' "
      "--arg out=f32[8] --arg u32:8 --dump out --dump surf");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("out (f32[8]): 0x40b80000 (5.75) 0x40980000 (4.75) 0x40b80000 (5.75) "
                          "0x40d80000 (6.75) 0x40f80000 (7.75) 0x410c0000 (8.75) 0x411c0000 "
                          "(9.75) 0x412c0000 (10.75)"),
            std::string::npos)
      << o.output;
  // The surface's row: each value plus one, its texels shown after the descriptor.
  EXPECT_NE(o.output.find("surf texels (f32[8]): 0x40d80000 (6.75) 0x40b80000 (5.75)"),
            std::string::npos)
      << o.output;
}

// Forms the chip's driver refuses on sm_90 (docs/FIDELITY.md, "Texture and surface forms"):
// `warpsim run` prints the diagnostic at the PTX file, line and column with the driver's error
// and exits non-zero instead of running them.
TEST(TextureCli, RefusesWhatTheChipsDriverRefuses) {
  const std::string body =
      ".visible .entry k(.param .u64 t)\n{\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<2>;\n"
      "  ld.param.u64 %rd1, [t];\n  mov.u32 %r1, 0;\n  FORM\n  ret;\n}\n";
  const struct {
    const char* name;
    const char* target;
    const char* form;
    const char* where;
    const char* error;
  } cases[] = {
      {"multisample", "sm_90",
       "tex.2dms.v4.u32.s32 {%r4, %r5, %r6, %r7}, [%rd1, {%r1, %r1, %r1, %r1}];",
       ":10:3: error: kernel 'k' cannot run: 'tex.2dms.v4.u32.s32' reads a multisample texture",
       "CUDA_ERROR_NOT_FOUND"},
      {"channel", "sm_90", "suq.channel_data_type.b32 %r4, [%rd1];",
       ":10:3: error: 'suq.channel_data_type.b32' queries the channel data type or order",
       "CUDA_ERROR_NOT_SUPPORTED"},
      {"independent", "sm_90, texmode_independent", "mov.u32 %r2, %r1;",
       ":2:16: error: the CUDA driver for sm_90 does not load a module in independent texture mode",
       "CUDA_ERROR_NOT_FOUND"}};
  for (const auto& c : cases) {
    const std::string path = testing::TempDir() + "refused_" + c.name + ".ptx";
    std::string ptx =
        ".version 8.7\n.target " + std::string(c.target) + "\n.address_size 64\n" + body;
    ptx.replace(ptx.find("FORM"), 4, c.form);
    std::ofstream(path) << ptx;
    const Outcome o =
        warpsim("run " + path + " --kernel k --grid 1 --block 1 --arg t=u32[4]:zeros");
    EXPECT_EQ(o.status, 2) << c.name << "\n" << o.output;
    EXPECT_NE(o.output.find(path + c.where), std::string::npos) << o.output;
    EXPECT_NE(o.output.find(c.error), std::string::npos) << o.output;
  }
}

}  // namespace
