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

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

// "u2 lod2" for a fetch's line; "texture" and "launch" lines are the probe's own status lines.
std::string objectOf(const std::string& line) {
  std::istringstream in(line);
  std::string name, op;
  in >> name >> op;
  return name == "texture" || name == "launch" ? name : name + " " + op;
}

TEST(MipmapProbe, AgreesWithTheH200WhereFitted) {
  const warpsim::test::Outcome chip =
      warpsim::test::shell("xz -dc " + std::string(WARPSIM_SOURCE_DIR) +
                           "/tests/recorded/texture/mipmap_probe.h200.txt.xz");
  if (chip.status != 0) GTEST_SKIP() << "xz could not read the chip's output: " << chip.output;
  // stdout alone: warpsim's own notes on stderr are not the program's output.
  const warpsim::test::Outcome sim =
      warpsim::test::shell("(" + std::string(WARPSIM_BINARY) + " exec " + WARPSIM_PROGRAMS_DIR +
                           "/mipmap_probe 2>/dev/null)");
  ASSERT_EQ(sim.status, 0) << sim.output;
  const std::vector<std::string> want = lines(chip.output), got = lines(sim.output);
  ASSERT_EQ(got.size(), want.size());
  std::map<std::string, unsigned> differing;
  unsigned total = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] == got[i]) continue;
    ++differing[objectOf(want[i])];
    ++total;
  }
  // Every fetch of these agrees (point and linear mip filtering of 1-d and 2-d f32, f16 and
  // u8 textures, the bias and clamps, layered textures, cube maps without seamless filtering).
  const std::set<std::string> agreeing = {
      "texture",    "launch",     "CAl cubelayer", "Cl cube",  "Cp cube",  "L1 layer1",
      "L2f layer2", "L2u layer2", "b1 tex1",       "h2 lod2",  "h2 tex2",  "hi2 lod2",
      "l1 lod1",    "l1 tex1",    "l2 tex2",       "l3 tex3",  "lp2 lod2", "lp2 tex2",
      "mx0 lod2",   "mx0 tex2",   "nb2 lod2",      "nb2 tex2", "np2 lod2", "np2 tex2",
      "p1 lod1",    "p1 tex1",    "p2 lod2",       "p2 tex2",  "p3 lod3",  "p3 tex3",
      "pb2 lod2",   "pb2 tex2",   "pl2 lod2",      "pl2 tex2", "u2 tex2",  "un2 tex2"};
  for (const std::string& o : agreeing) EXPECT_EQ(differing[o], 0u) << o;
  std::string report;
  for (const auto& [o, n] : differing)
    if (n) report += o + ": " + std::to_string(n) + "\n";
  std::printf("mipmap probe: %u of %zu lines differ from the H200\n%s", total, want.size(),
              report.c_str());
  EXPECT_LE(total, 1133u) << report;
}

}  // namespace
