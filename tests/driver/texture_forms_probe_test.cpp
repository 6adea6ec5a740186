// The texture forms probe (scripts/probes/texture/texture_forms_probe.cu) under warpsim exec,
// section by section and line by line against the chip's output of the same program
// (tests/recorded/texture/texture_forms.chip.txt.xz: `bash scripts/device_texture_forms.sh 1` on
// an H100 the device tool lent, the H200's sm_90 texture units, 2026-12-05; its normread section
// `ONLY=normread bash scripts/device_texture_forms.sh` on an H100, 2026-12-06, and its gradlod
// section likewise, later that day; its cubegradlod section `ONLY=cubegradlod bash
// scripts/device_texture_forms.sh` on an H100, 2026-12-06 19:37 UTC, and its cuberot section
// `ONLY=cuberot bash scripts/device_texture_forms.sh` on an H100, 2026-12-07 02:37 UTC): every line
// is one measurement with its inputs. What agrees must keep agreeing (whole sections and objects
// are listed below); what differs is counted per section in docs/FIDELITY.md "Texture and surface
// forms", and a change may only lower it.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/shell.h"

namespace {

using warpsim::test::lines;

// The recording's sections: `== NAME`, its lines, `== exit STATUS` (as the script writes them;
// the exit line is kept as the section's last line, so a different status is a differing line).
std::map<std::string, std::vector<std::string>> sections(const std::vector<std::string>& all) {
  std::map<std::string, std::vector<std::string>> s;
  std::string name;
  for (const std::string& l : all) {
    if (l.rfind("== ", 0) == 0 && l.rfind("== exit", 0) != 0) {
      name = l.substr(3);
      continue;
    }
    if (!name.empty()) s[name].push_back(l);
  }
  return s;
}

// "GCl cubegrad", "sust u8x4": the first two words of a line name its object and measurement.
std::string keyOf(const std::string& line) {
  std::istringstream in(line);
  std::string a, b;
  in >> a >> b;
  return a + " " + b;
}

struct SectionDiff {
  unsigned differing = 0;
  size_t lines = 0;
  std::map<std::string, unsigned> byKey;
};

std::map<std::string, SectionDiff> diffAgainstChip() {
  std::map<std::string, SectionDiff> out;
  const warpsim::test::Outcome chip =
      warpsim::test::shell("xz -dc " + std::string(WARPSIM_SOURCE_DIR) +
                           "/tests/recorded/texture/texture_forms.chip.txt.xz");
  if (chip.status != 0) {
    ADD_FAILURE() << "xz could not read the chip's output: " << chip.output;
    return out;
  }
  for (const auto& [name, want] : sections(lines(chip.output))) {
    // stdout alone (warpsim's notes on stderr are not the program's), then the exit status.
    // A section with a build of its own (CMakeLists.txt: txq, whose module the driver refuses)
    // runs it, as on the chip, where every section had one.
    const std::string whole = std::string(WARPSIM_PROGRAMS_DIR) + "/texture_forms_probe";
    const std::string own = whole + "." + name;
    const warpsim::test::Outcome sim = warpsim::test::shell(
        "(p=" + whole + "; [ -x " + own + " ] && p=" + own + "; " + WARPSIM_BINARY + " exec $p " +
        name + " 1 2>/dev/null; echo \"== exit $?\")");
    const std::vector<std::string> got = lines(sim.output);
    SectionDiff& d = out[name];
    d.lines = want.size();
    for (size_t i = 0; i < want.size(); ++i) {
      if (i < got.size() && want[i] == got[i]) continue;
      ++d.differing;
      ++d.byKey[keyOf(want[i])];
    }
    std::printf("%s: %u of %zu lines differ from the chip\n", name.c_str(), d.differing, d.lines);
    for (const auto& [k, n] : d.byKey) std::printf("  %s: %u\n", k.c_str(), n);
  }
  return out;
}

TEST(TextureFormsProbe, AgreesWithTheH200WhereFitted) {
  std::map<std::string, SectionDiff> d = diffAgainstChip();
  ASSERT_FALSE(d.empty());
  // The most lines each section may differ by (docs/FIDELITY.md "Texture and surface forms",
  // H100 2026-12-05). sust.p (every format, geometry, vector width, .clamp and .zero), sured.p
  // and tex.base / txq.level agree line for line; so do the forms the chip's driver refuses to
  // load (txq/suq channel queries: "operation not supported"; tex.2dms: "named symbol not
  // found"; independent mode: CUDA_ERROR_NOT_FOUND) and the out-of-range .trap surface accesses
  // (an illegal address), sust.p into the normalized (UNORM/SNORM) array formats, and tld4 on
  // cube maps (a seamless corner's blend too), tex of the normalized formats (normread: f32
  // and s32 alike read normalized floats), and gradlod (tex.grad's level of detail read as a
  // texel: the chip's log2 table, gradients cut to 9 bits, lengths on the largest component's
  // grid, diagonals rounded; 369 of 2,118 lines differed, docs/FIDELITY.md "tex.grad's level of
  // detail"), and cuberot (two-component diagonals d/dx = d/dy = (a, b) and single gradients
  // (a, b) with b swept: 198 differed before the middle's shares were fitted to it,
  // docs/FIDELITY.md "tex.grad on cube maps: the middle term"). What differs: tex.grad on cube
  // maps' level of detail on 6 of 11,104 lines, which no tex.level lod reproduces (722 before
  // the gradlod fit, 164 before the cubegradlod fit, 139 before the samples were placed by the
  // f32 reciprocal of their major axis, 136 before the middle's shares, 113 before a gradient
  // onto a neighbouring face added the two distances to the edge; docs/FIDELITY.md "tex.grad on
  // cube maps"), and on 2 of cubegradlod's 10,765 (the same read directly: 762 before its fit,
  // 70 before the reciprocal, 64 before the middle's shares; 2 samples crossing onto +x).
  const std::map<std::string, unsigned> floors = {
      {"base", 0},        {"sust", 0},       {"sured", 0},     {"suredodd", 0}, {"cubegrad", 6},
      {"tld4cube", 0},    {"sustnorm", 0},   {"txq", 0},       {"ms", 0},       {"indep", 0},
      {"trap-sust", 0},   {"trap-sured", 0}, {"trap-suld", 0}, {"normread", 0}, {"gradlod", 0},
      {"cubegradlod", 2}, {"cuberot", 0}};
  for (const auto& [name, most] : floors) EXPECT_LE(d[name].differing, most) << name;
  EXPECT_EQ(d.size(), floors.size());
}

// The cuberot section (docs/FIDELITY.md "tex.grad on cube maps: a recording that would pin it")
// runs under warpsim exec: 4,626 lines in cubegradlod's format, and its midm lines at a = 2
// texels are cubegradlod's GL256 mid sweep (d/dx (2, k / 128), the same operands), so they must
// read the same lods.
TEST(TextureFormsProbe, CubeRotSectionRunsAndRepeatsTheMidSweep) {
  auto run = [](const std::string& section) {
    const warpsim::test::Outcome o =
        warpsim::test::shell(std::string(WARPSIM_BINARY) + " exec " + WARPSIM_PROGRAMS_DIR +
                             "/texture_forms_probe " + section + " 1 2>/dev/null");
    EXPECT_EQ(o.status, 0) << section;
    return lines(o.output);
  };
  // "GL256 SWEEP rest": the sweep's lines, its name taken off.
  auto sweep = [](const std::vector<std::string>& all, const std::string& name) {
    std::vector<std::string> out;
    const std::string head = "GL256 " + name + " ";
    for (const std::string& l : all)
      if (l.rfind(head, 0) == 0) out.push_back(l.substr(head.size()));
    return out;
  };
  const std::vector<std::string> rot = run("cuberot");
  const std::vector<std::string> rotm = sweep(rot, "rotm"), midm = sweep(rot, "midm");
  ASSERT_EQ(rotm.size(), 9u * 257);
  ASSERT_EQ(midm.size(), 9u * 257);
  // a = 2^(i / 3) 4^j, i inner: a = 2 is the third length.
  const std::vector<std::string> atTwo(midm.begin() + 2 * 257, midm.begin() + 3 * 257);
  EXPECT_EQ(atTwo, sweep(run("cubegradlod"), "mid"));
  EXPECT_EQ(atTwo.front(),
            "0x0p+0 0x0p+0 0x1p+0 ddx 0x1p-6 0x0p+0 0x0p+0 ddy 0x0p+0 0x0p+0 "
            "0x0p+0 = 3f800000");
}

}  // namespace
