// `warpsim run` with texture and surface objects as arguments: the object made from the --arg,
// sampled and written by the kernel, the results dumped.
#include <gtest/gtest.h>

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

}  // namespace
