// The mipmap probe (scripts/probes/texture/mipmap_probe.cu) under warpsim exec, line by line
// against the H200's output of the same program (tests/recorded/texture/mipmap_probe.h200.txt.xz):
// every line is one fetch with its inputs and the four result words. The fetches that agree bit
// for bit must keep agreeing; what still differs is counted per object and fetch in
// docs/FIDELITY.md "Mipmaps", and a change may only lower it.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/shell.h"

namespace {

using warpsim::test::lines;

// "u2 lod2" for a fetch's line; "texture" and "launch" lines are the probe's own status lines.
std::string objectOf(const std::string& line) {
  std::istringstream in(line);
  std::string name, op;
  in >> name >> op;
  return name == "texture" || name == "launch" ? name : name + " " + op;
}

// The probe's differing lines against the chip's output (xz): counted per object and fetch.
struct ProbeDiff {
  std::map<std::string, unsigned> differing;
  unsigned total = 0;
  size_t lines = 0;
  std::string report;
};

ProbeDiff diffAgainstChip(const std::string& chipFile, const std::string& probe) {
  ProbeDiff d;
  const warpsim::test::Outcome chip =
      warpsim::test::shell("xz -dc " + std::string(WARPSIM_SOURCE_DIR) + "/" + chipFile);
  if (chip.status != 0) {
    ADD_FAILURE() << "xz could not read the chip's output: " << chip.output;
    return d;
  }
  // stdout alone: warpsim's own notes on stderr are not the program's output.
  const warpsim::test::Outcome sim =
      warpsim::test::shell("(" + std::string(WARPSIM_BINARY) + " exec " + WARPSIM_PROGRAMS_DIR +
                           "/" + probe + " 2>/dev/null)");
  EXPECT_EQ(sim.status, 0) << sim.output;
  const std::vector<std::string> want = lines(chip.output), got = lines(sim.output);
  EXPECT_EQ(got.size(), want.size());
  d.lines = want.size();
  for (size_t i = 0; i < want.size() && i < got.size(); ++i) {
    if (want[i] == got[i]) continue;
    ++d.differing[objectOf(want[i])];
    ++d.total;
  }
  for (const auto& [o, n] : d.differing)
    if (n) d.report += o + ": " + std::to_string(n) + "\n";
  std::printf("%s: %u of %zu lines differ from the chip\n%s", probe.c_str(), d.total, d.lines,
              d.report.c_str());
  return d;
}

TEST(MipmapProbe, AgreesWithTheH200WhereFitted) {
  ProbeDiff d = diffAgainstChip("tests/recorded/texture/mipmap_probe.h200.txt.xz", "mipmap_probe");
  // Every fetch of these agrees (point and linear mip filtering of 1-d and 2-d f32, f16 and
  // u8 textures, the bias and clamps, layered textures, cube maps, seamless ones too).
  const std::set<std::string> agreeing = {
      "texture",    "launch",     "CAl cubelayer", "Cl cube",  "Cp cube",  "Cs cube",  "L1 layer1",
      "L2f layer2", "L2u layer2", "b1 tex1",       "h2 lod2",  "h2 tex2",  "hi2 lod2", "l1 lod1",
      "l1 tex1",    "l2 tex2",    "l3 tex3",       "lp2 lod2", "lp2 tex2", "mx0 lod2", "mx0 tex2",
      "nb2 lod2",   "nb2 tex2",   "np2 lod2",      "np2 tex2", "p1 lod1",  "p1 tex1",  "p2 grad2",
      "p2 lod2",    "p2 tex2",    "p3 lod3",       "p3 tex3",  "pb2 lod2", "pb2 tex2", "pl2 lod2",
      "pl2 tex2",   "u2 tex2",    "un2 tex2",      "lb2 tex2", "ub2 tex2", "l1 grad1", "l2 grad2",
      "lb2 grad2"};
  for (const std::string& o : agreeing) EXPECT_EQ(d.differing[o], 0u) << o;
  EXPECT_LE(d.total, 127u) << d.report;
}

// Layered and cube-map mipmaps (scripts/probes/texture/mip_layered_probe.cu) against the chip's
// output (an H100 the device tool lent, 2026-12-05; the same texture units as the H200):
// 17,784 of 17,904 lines agree (17,728 before the gradlod fit of tex.grad's arithmetic, 17,717
// before the log2 table's entry 2, 17,208 before tex.grad, clamp and the 3-d split were fitted).
// Point mip filtering of every layered and cube object, the u8 and wrap objects and tex.grad on
// the layered objects agree throughout; what differs is blends of the cube maps' levels and a few
// linear blends at lod 2^-8. 696 differing lines before tex.grad's fit, 499 before clamp's
// coordinate and the 3-d split (docs/FIDELITY.md "Textures").
TEST(MipmapProbe, LayeredAndCubeMipmapsAgreeWithTheChipWhereFitted) {
  ProbeDiff d =
      diffAgainstChip("tests/recorded/texture/mip_layered_probe.chip.txt.xz", "mip_layered_probe");
  const std::set<std::string> agreeing = {"texture",       "launch",         "Mp1 layerlod1",
                                          "Mp2 layerlod2", "Mlp2 layerlod2", "Mu2 layerlod2",
                                          "MCp cubelod",   "Ml1 layergrad1", "Ml2 layergrad2"};
  for (const std::string& o : agreeing) EXPECT_EQ(d.differing[o], 0u) << o;
  EXPECT_LE(d.total, 120u) << d.report;
}

}  // namespace
