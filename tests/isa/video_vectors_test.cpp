// The video instructions against what the H200 computes: the chip's own results
// (tests/data/video_h200_vectors.txt, each instruction executed alone on the chip) and a table
// of forms the random programs miss (tests/data/video_sass_table.txt: every type combination,
// .sat, secondary operation, merge, shift mode, vmad modifier and SIMD mask, evaluated by
// scripts/video_sass_table.py on the integer SASS that ptxas emits for each form, sm_90 having
// no video datapath). Each instruction runs in its own kernel, one thread per input vector.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/ptx_runner.h"

namespace warpsim::test {
namespace {

// One execution: the registers' values before (%rN, %hN and %pN by name) and the destination's
// value after.
struct Vector {
  std::map<std::string, uint32_t> in;
  uint32_t out = 0;
  std::string source;  // file:line, for failure messages
};

std::string dataPath(const char* name) {
  return (std::filesystem::path(WARPSIM_SOURCE_DIR) / "tests/data" / name).string();
}

std::map<std::string, uint32_t> assignments(const std::string& s) {
  std::map<std::string, uint32_t> m;
  static const std::regex kAssign(R"((%[rph]\d+) ?= ?(0x[0-9a-fA-F]+))");
  for (std::sregex_iterator i(s.begin(), s.end(), kAssign), e; i != e; ++i)
    m[(*i)[1]] = uint32_t(std::stoul((*i)[2], nullptr, 16));
  return m;
}

// tests/data/video_h200_vectors.txt: `first divergence ... \`INSTR\` with %rA = X ..: %rD GPU
// X, simulator Y; alone, GPU X, simulator Y`; the "alone" GPU value is the one asserted.
std::vector<std::pair<std::string, Vector>> chipVectors() {
  std::vector<std::pair<std::string, Vector>> out;
  std::ifstream f(dataPath("video_h200_vectors.txt"));
  static const std::regex kLine(R"(`([^`]*)` with ([^:]*):.*alone, GPU (0x[0-9a-f]+))");
  unsigned n = 0;
  for (std::string line; std::getline(f, line);) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    std::smatch m;
    if (!std::regex_search(line, m, kLine)) {
      ADD_FAILURE() << "video_h200_vectors.txt:" << n << ": unreadable";
      continue;
    }
    Vector v{assignments(m[2]), uint32_t(std::stoul(m[3], nullptr, 16)),
             "video_h200_vectors.txt:" + std::to_string(n)};
    out.emplace_back(m[1], v);
  }
  return out;
}

// tests/data/video_sass_table.txt: `INSTR %rA=0x.. .. -> 0xD`.
std::vector<std::pair<std::string, Vector>> tableVectors() {
  std::vector<std::pair<std::string, Vector>> out;
  std::ifstream f(dataPath("video_sass_table.txt"));
  unsigned n = 0;
  for (std::string line; std::getline(f, line);) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    const size_t semi = line.find(';'), arrow = line.find("->");
    if (semi == std::string::npos || arrow == std::string::npos) {
      ADD_FAILURE() << "video_sass_table.txt:" << n << ": unreadable";
      continue;
    }
    Vector v{assignments(line.substr(semi + 1, arrow - semi - 1)),
             uint32_t(std::stoul(line.substr(arrow + 2), nullptr, 16)),
             "video_sass_table.txt:" + std::to_string(n)};
    out.emplace_back(line.substr(0, semi + 1), v);
  }
  return out;
}

// A kernel that loads every register the instruction names (predicates as `value != 0`, %h
// registers as half-words) from
// thread tid.x's slots, runs it and stores its destination register.
std::string kernelFor(const std::string& insn, const std::vector<std::string>& names,
                      const std::string& dest) {
  std::ostringstream k;
  k << ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
    << "  .reg .b32 %r<16>;\n  .reg .b16 %h<16>;\n  .reg .b32 %q<16>;\n  .reg .pred %p<16>;\n  "
       ".reg .b64 %a<4>;\n"
    << "  ld.param.u64 %a1, [p];\n  mov.u32 %q15, %tid.x;\n"
    << "  mul.wide.u32 %a2, %q15, " << 4 * (names.size() + 1) << ";\n"
    << "  add.u64 %a1, %a1, %a2;\n";
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& r = names[i];
    if (r[1] == 'h') {
      k << "  ld.global.u16 " << r << ", [%a1+" << 4 * i << "];\n";
    } else if (r[1] == 'p') {
      k << "  ld.global.u32 %q" << i << ", [%a1+" << 4 * i << "];\n"
        << "  setp.ne.u32 " << r << ", %q" << i << ", 0;\n";
    } else {
      k << "  ld.global.u32 " << r << ", [%a1+" << 4 * i << "];\n";
    }
  }
  const bool half = dest[1] == 'h';
  k << "  " << insn << "\n  st.global." << (half ? "u16" : "u32") << " [%a1+" << 4 * names.size()
    << "], " << dest << ";\n  ret;\n}\n";
  return k.str();
}

// Runs each distinct instruction once over all its vectors; returns the number that differ.
unsigned replay(const std::vector<std::pair<std::string, Vector>>& vectors) {
  std::map<std::string, std::vector<const Vector*>> byInsn;
  for (const auto& [insn, v] : vectors) byInsn[insn].push_back(&v);
  static const std::regex kReg(R"(%[rph]\d+)"), kDest(R"(^(?:@!?%p\d+\s+)?\S+\s+(%[rh]\d+))");
  unsigned bad = 0;
  for (const auto& [insn, vs] : byInsn) {
    std::set<std::string> seen;
    std::vector<std::string> names;
    for (std::sregex_iterator i(insn.begin(), insn.end(), kReg), e; i != e; ++i)
      if (seen.insert(i->str()).second) names.push_back(i->str());
    std::smatch d;
    if (!std::regex_search(insn, d, kDest)) {
      ADD_FAILURE() << insn << ": no destination register";
      continue;
    }
    const size_t slots = names.size() + 1;
    std::vector<uint32_t> init(slots * vs.size(), 0);
    for (size_t t = 0; t < vs.size(); ++t)
      for (size_t i = 0; i < names.size(); ++i) {
        const auto it = vs[t]->in.find(names[i]);
        if (it != vs[t]->in.end()) init[t * slots + i] = it->second;
      }
    PtxRunner r(kernelFor(insn, names, d[1]));
    const uint64_t buf = r.buffer<uint32_t>(init.size(), init);
    const auto res = r.launch("k", {1, 1, 1}, {uint32_t(vs.size()), 1, 1}, {PtxRunner::ptr(buf)});
    if (res.fault) {
      ADD_FAILURE() << insn << ": " << res.fault->describe("");
      continue;
    }
    const auto got = r.read<uint32_t>(buf, init.size());
    for (size_t t = 0; t < vs.size(); ++t) {
      const uint32_t g = got[t * slots + names.size()];
      if (g == vs[t]->out) continue;
      ++bad;
      std::ostringstream in;
      for (const auto& [n, v] : vs[t]->in) in << ' ' << n << "=0x" << std::hex << v;
      ADD_FAILURE() << vs[t]->source << ": " << insn << in.str() << ": chip 0x" << std::hex
                    << vs[t]->out << ", simulator 0x" << g;
    }
  }
  return bad;
}

TEST(VideoChip, TheH200VectorsReplayExactly) {
  const auto v = chipVectors();
  ASSERT_EQ(v.size(), 91u);
  EXPECT_EQ(replay(v), 0u);
}

TEST(VideoChip, EveryFormAgreesWithPtxasSass) {
  const auto v = tableVectors();
  ASSERT_GT(v.size(), 5000u);
  EXPECT_EQ(replay(v), 0u);
}

}  // namespace
}  // namespace warpsim::test
