// Replays the texture cases recorded on the H200 by scripts/device_texture.sh
// (scripts/probes/texture/texture_probe.cu) through the simulator: the same texture, the same
// coordinates, the same tex instruction; every result word must agree. The recordings live in
// tests/recorded/texture/*.txt; the replayer itself is checked on a case worked out by hand.
#include <gtest/gtest.h>
#include <bit>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "isa/insns/texture_object.h"
#include "tests/support/ptx_runner.h"
#include "tests/support/shell.h"

namespace warpsim {
namespace {

namespace tex = isa::tex;
using test::PtxRunner;

struct Case {
  std::string id;
  tex::Object object;
  std::vector<uint8_t> texels;
  std::vector<uint32_t> coords;   // 32 lanes x 3
  std::vector<uint32_t> results;  // 32 lanes x 4
};

std::map<std::string, std::string> fields(std::istringstream& in) {
  std::map<std::string, std::string> f;
  std::string word;
  while (in >> word)
    if (const size_t eq = word.find('='); eq != std::string::npos)
      f[word.substr(0, eq)] = word.substr(eq + 1);
  return f;
}

template <class T>
T indexOf(const std::string& s, std::initializer_list<const char*> names) {
  int i = 0;
  for (const char* n : names) {
    if (s == n) return T(i);
    ++i;
  }
  throw std::runtime_error("unknown name '" + s + "'");
}

std::vector<Case> parseCases(std::istream& in) {
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string key;
    ls >> key;
    if (key == "case") {
      cases.emplace_back();
      ls >> cases.back().id;
      continue;
    }
    if (cases.empty()) continue;
    Case& c = cases.back();
    if (key == "texture") {
      auto f = fields(ls);
      tex::Object& o = c.object;
      o.dims = uint8_t(std::stoi(f.at("dims")));
      o.width = uint32_t(std::stoul(f.at("width")));
      o.height = uint32_t(std::stoul(f.at("height")));
      o.depth = uint32_t(std::stoul(f.at("depth")));
      o.channel = indexOf<tex::Channel>(f.at("format"),
                                        {"u8", "s8", "u16", "s16", "u32", "s32", "f16", "f32"});
      o.channels = uint8_t(std::stoi(f.at("channels")));
      o.readNormalized = f.at("read") == "norm";
      o.filter = indexOf<tex::Filter>(f.at("filter"), {"point", "linear"});
      o.address[0] = o.address[1] = o.address[2] =
          indexOf<tex::Address>(f.at("address"), {"wrap", "clamp", "mirror", "border"});
      o.normalizedCoords = f.at("norm") == "1";
      tex::packDense(o);
    } else if (key == "border") {
      for (float& b : c.object.border) {
        std::string h;
        ls >> h;
        const uint32_t u = uint32_t(std::stoul(h, nullptr, 16));
        std::memcpy(&b, &u, 4);
      }
    } else if (key == "texels") {
      std::string hex;
      ls >> hex;
      for (size_t i = 0; i + 1 < hex.size(); i += 2)
        c.texels.push_back(uint8_t(std::stoul(hex.substr(i, 2), nullptr, 16)));
    } else if (key == "coords" || key == "results") {
      std::string h;
      auto& v = key == "coords" ? c.coords : c.results;
      while (ls >> h) v.push_back(uint32_t(std::stoul(h, nullptr, 16)));
    }
  }
  return cases;
}

// The probe's kernel: lane l samples at coords[3l..3l+2] and writes 4 words.
std::string kernelFor(unsigned dims, const char* dst) {
  const std::string d = std::to_string(dims);
  std::string coords = dims == 1 ? "{%f1}" : dims == 2 ? "{%f1, %f2}" : "{%f1, %f2, %f3, %f4}";
  return std::string(".version 8.0\n.target sm_90\n.address_size 64\n") +
         ".visible .entry k(.param .u64 t, .param .u64 c, .param .u64 o)\n{\n"
         "  .reg .b32 %r<6>;\n  .reg .f32 %f<5>;\n  .reg .b64 %rd<8>;\n"
         "  ld.param.u64 %rd1, [t];\n  ld.param.u64 %rd2, [c];\n  ld.param.u64 %rd3, [o];\n"
         "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd4, %r1, 12;\n  add.s64 %rd5, %rd2, %rd4;\n"
         "  ld.global.f32 %f1, [%rd5];\n  ld.global.f32 %f2, [%rd5+4];\n"
         "  ld.global.f32 %f3, [%rd5+8];\n  mov.f32 %f4, 0f00000000;\n"
         "  tex." +
         d + "d.v4." + dst + ".f32 {%r2, %r3, %r4, %r5}, [%rd1, " + coords +
         "];\n"
         "  mul.wide.u32 %rd6, %r1, 16;\n  add.s64 %rd7, %rd3, %rd6;\n"
         "  st.global.v4.b32 [%rd7], {%r2, %r3, %r4, %r5};\n  ret;\n}\n";
}

// The lanes (of 32) whose 4 words differ from the recording.
unsigned replay(const Case& c, std::string* first) {
  const tex::Object& o = c.object;
  const bool floatRead = tex::isFloatChannel(o.channel) || o.readNormalized;
  const char* dst = floatRead ? "f32" : tex::isSignedChannel(o.channel) ? "s32" : "u32";
  PtxRunner r(kernelFor(o.dims, dst));
  std::vector<uint8_t> object(tex::kDescriptorBytes);
  std::memcpy(object.data(), &o, sizeof o);
  object.insert(object.end(), c.texels.begin(), c.texels.end());
  const uint64_t t = r.buffer<uint8_t>(object.size(), object);
  const uint64_t coords = r.buffer<uint32_t>(c.coords.size(), c.coords);
  const uint64_t out = r.buffer<uint32_t>(128);
  // Observed (the statistics: the general path) and not (the fast paths, texture.cpp's
  // plainBilinear): a lane is wrong when either run differs from the chip.
  uint32_t wrongLanes = 0;
  for (const bool observed : {true, false}) {
    sim::LaunchOptions lo;
    lo.statistics = observed;
    auto res = r.launch("k", {1, 1, 1}, {32, 1, 1},
                        {PtxRunner::ptr(t), PtxRunner::ptr(coords), PtxRunner::ptr(out)}, lo);
    if (res.fault) {
      if (first) *first = res.fault->message;
      return 32;
    }
    const auto got = r.read<uint32_t>(out, 128);
    for (unsigned l = 0; l < 32; ++l) {
      bool same = true;
      for (unsigned i = 0; i < 4; ++i) same = same && got[l * 4 + i] == c.results[l * 4 + i];
      if (!same && first && first->empty()) {
        char buf[220];
        std::snprintf(
            buf, sizeof buf,
            "lane %u at (%08x %08x %08x)%s: %08x %08x %08x %08x, chip %08x %08x %08x %08x", l,
            c.coords[l * 3], c.coords[l * 3 + 1], c.coords[l * 3 + 2],
            observed ? "" : " unobserved", got[l * 4], got[l * 4 + 1], got[l * 4 + 2],
            got[l * 4 + 3], c.results[l * 4], c.results[l * 4 + 1], c.results[l * 4 + 2],
            c.results[l * 4 + 3]);
        *first = buf;
      }
      if (!same) wrongLanes |= 1u << l;
    }
  }
  return unsigned(std::popcount(wrongLanes));
}

TEST(TextureReplay, ReplaysAHandWorkedCase) {
  // A 1d f32 texture of two texels (1, 2), linear, clamped, unnormalized: x = 1 is halfway.
  std::string text =
      "case hand\ntexture dims=1 width=2 height=1 depth=1 format=f32 channels=1 read=elem "
      "filter=linear address=clamp norm=0\nborder 00000000 00000000 00000000 00000000\n"
      "texels 0000803f00000040\ncoords";
  for (int l = 0; l < 32; ++l) text += " 3f800000 00000000 00000000";
  text += "\nresults";
  for (int l = 0; l < 32; ++l) text += " 3fc00000 00000000 00000000 00000000";
  std::istringstream in(text + "\n");
  const auto cases = parseCases(in);
  ASSERT_EQ(cases.size(), 1u);
  std::string first;
  EXPECT_EQ(replay(cases[0], &first), 0u) << first;
  Case wrong = cases[0];
  wrong.results[0] = 0x3fc00001;
  EXPECT_EQ(replay(wrong, nullptr), 1u);
}

TEST(TextureReplay, RecordedOnTheH200) {
  // WARPSIM_TEXTURE_RECORDINGS: another folder (scripts/device_texture.sh on the device,
  // where the source tree is not where this binary was built).
  const char* env = std::getenv("WARPSIM_TEXTURE_RECORDINGS");
  const std::filesystem::path dir =
      env ? std::string(env) : std::string(WARPSIM_SOURCE_DIR) + "/tests/recorded/texture";
  unsigned files = 0, total = 0, agreeing = 0, lanes = 0, wrongLanes = 0;
  std::string report;
  if (std::filesystem::exists(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.path().extension() != ".txt") continue;
      ++files;
      std::ifstream in(e.path());
      for (const Case& c : parseCases(in)) {
        std::string first;
        const unsigned wrong = replay(c, &first);
        ++total;
        agreeing += wrong == 0;
        lanes += 32;
        wrongLanes += wrong;
        if (wrong && report.size() < 4000)
          report +=
              "case " + c.id + ": " + std::to_string(wrong) + " lanes differ; " + first + "\n";
      }
    }
  if (files == 0) GTEST_SKIP() << "no recordings yet: run scripts/device_texture.sh on the H200";
  EXPECT_GT(total, 0u) << "the recordings in " << dir << " hold no cases";
  // The first recording (tests/recorded/texture/h200.txt, 400 cases, 12,800 lanes): every
  // point-sampled case agrees bit for bit; linear filtering is fitted (weights, 1-d as 2-d at
  // y = 0, normalized coordinates in 20-bit fixed point, 16-bit fixed point for normalized
  // integers with s8 in eighths, float sums rounded once with ties away from zero) but not all
  // of it: 3-d weight splits and some s8 sums differ (docs/FIDELITY.md
  // "Textures"). 336 cases and 216 lanes before the float texels' block (2026-12-05), 363 and
  // 128 before clamp's coordinate, the 3-d split and the 3-d slices' blocks were fitted to the
  // second recording (371 and 82 before the blocks, 382 and 52 before s8's widening);
  // scripts/fit/texture_filter.py gives the counts before them. A change may only raise these.
  RecordProperty("cases_agreeing", int(agreeing));
  RecordProperty("lanes_differing", int(wrongLanes));
  std::printf("texture replay: %u of %u cases, %u of %u lanes agree\n", agreeing, total,
              lanes - wrongLanes, lanes);
  if (!env) {
    EXPECT_GE(agreeing, 382u) << report;
    EXPECT_LE(wrongLanes, 33u) << report;
  } else {
    EXPECT_EQ(agreeing, total) << report;
  }
}

// The second recording (2026-12-05, an H100 the device tool lent: the same texture units;
// `bash scripts/device_texture.sh 3000 401`, seeds 401..3400, xz): made after the filter's block
// of texels was fitted, so it checks the model out of sample: 91.4% of its cases agree, as
// 90.8% of the first's do (2,741 cases and 961 differing lanes; 2,800 and 609 since clamp's
// coordinate and the 3-d split were fitted to it, 2,868 and 365 since the 3-d slices' blocks,
// 2,872 and 277 since s8's widening).
// A change may only raise these.
TEST(TextureReplay, SecondRecordingOutOfSample) {
  const test::Outcome text = test::shell("xz -dc " + std::string(WARPSIM_SOURCE_DIR) +
                                         "/tests/recorded/texture/h100_3000.txt.xz");
  ASSERT_EQ(text.status, 0) << text.output;
  std::istringstream in(text.output);
  unsigned total = 0, agreeing = 0, wrongLanes = 0;
  std::string report;
  for (const Case& c : parseCases(in)) {
    std::string first;
    const unsigned wrong = replay(c, &first);
    ++total;
    agreeing += wrong == 0;
    wrongLanes += wrong;
    if (wrong && report.size() < 4000)
      report += "case " + c.id + ": " + std::to_string(wrong) + " lanes differ; " + first + "\n";
  }
  std::printf("texture replay (second recording): %u of %u cases, %u of %u lanes agree\n", agreeing,
              total, 32 * total - wrongLanes, 32 * total);
  EXPECT_EQ(total, 3000u);
  EXPECT_GE(agreeing, 2872u) << report;
  EXPECT_LE(wrongLanes, 277u) << report;
}

}  // namespace
}  // namespace warpsim
