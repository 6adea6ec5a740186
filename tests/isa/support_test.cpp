// isa/support.h: how a load error's message is split into the construct (for grouping kernels)
// and the user's CUDA line (named once per kernel).
#include "isa/support.h"

#include <gtest/gtest.h>

namespace warpsim::isa {
namespace {

TEST(KernelSupportText, SplitsTheUsersLineOffALoadError) {
  const auto [what, place] = splitCudaPlace(
      "'mov.b128' needs 128-bit registers, which are not supported yet at /home/user/k.cu:3");
  EXPECT_EQ(what, "'mov.b128' needs 128-bit registers, which are not supported yet");
  EXPECT_EQ(place, "/home/user/k.cu:3");
  // A message without a place, or whose " at " is part of the text, keeps it whole.
  EXPECT_EQ(splitCudaPlace("recursion through 'f', which has .local memory").second, "");
  EXPECT_EQ(splitCudaPlace("an operand at offset 4: bad").first, "an operand at offset 4: bad");
}

TEST(KernelSupportText, TheConstructKeyDropsNamesPlaceAndPrefix) {
  EXPECT_EQ(constructKey("not supported yet: recursion through 'depth', which has .local memory "
                         "at k.cu:12"),
            "recursion through '…', which has .local memory");
}

}  // namespace
}  // namespace warpsim::isa
