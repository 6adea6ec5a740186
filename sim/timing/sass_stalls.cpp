#include "sim/timing/sass_stalls.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>

#include "isa/insn_table.h"

namespace warpsim::sim::timing {
namespace {

using K = isa::InsnClass;

// A source line: the file's path and the line (("", 0) for code without line info).
using LineKey = std::pair<std::string, uint32_t>;

struct LineSums {
  std::array<double, size_t(SassKind::Count_)> sassStall{};  // SASS stall cycles
  std::array<uint32_t, size_t(SassKind::Count_)> ptx{};      // PTX instructions
  uint32_t sassAnchors = 0, ptxAnchors = 0;
};

// ptxas's copies of a line are never fewer than one, and its unrolling stays small; a ratio
// outside that says the anchors do not match (a loop ptxas kept and a copy it removed).
constexpr double kMaxCopies = 16;

double copiesOf(uint32_t sassAnchors, uint32_t ptxAnchors, double fallback) {
  if (!sassAnchors || !ptxAnchors) return fallback;
  return std::clamp(double(sassAnchors) / ptxAnchors, 1.0, kMaxCopies);
}

}  // namespace

SassKind sassKindOf(const isa::Inst& in) {
  switch (in.cls) {
    case K::LoadGlobal:
    case K::StoreGlobal:
    case K::LoadShared:
    case K::StoreShared:
    case K::LoadLocal:
    case K::StoreLocal:
    case K::AtomicGlobal:
    case K::AtomicShared:
      return SassKind::Memory;
    case K::Barrier:
      return SassKind::Barrier;
    case K::Control:
      return SassKind::Control;
    default:
      return SassKind::Other;
  }
}

bool isAnchor(const isa::Inst& in) {
  switch (in.cls) {
    case K::Barrier:
    case K::LoadGlobal:
    case K::StoreGlobal:
    case K::AtomicGlobal:
      return true;
    case K::Fp32:
    case K::Fp64:
      return in.spec && in.spec->opcode == "fma";
    default:
      return false;
  }
}

std::vector<uint32_t> fixedStalls(const isa::FunctionCode& f, const std::vector<SassInst>& sass,
                                  const std::map<int, std::string>& files) {
  std::vector<uint32_t> out(f.code.size(), 0);
  if (sass.empty()) return out;
  auto keyOf = [&](const isa::Inst& in) -> LineKey {
    if (!in.cuda.known()) return {"", 0};
    const auto it = files.find(in.cuda.file);
    return {it == files.end() ? std::string() : it->second, in.cuda.line};
  };
  std::map<LineKey, LineSums> lines;
  uint32_t sassAnchors = 0, ptxAnchors = 0;
  for (const SassInst& s : sass) {
    LineSums& l = lines[{s.line ? s.file : std::string(), s.line}];
    l.sassStall[size_t(s.kind)] += s.stall;
    l.sassAnchors += s.anchor;
    sassAnchors += s.anchor;
  }
  for (const isa::Inst& in : f.code) {
    auto it = lines.find(keyOf(in));
    if (it == lines.end()) continue;  // no SASS says anything of this line
    ++it->second.ptx[size_t(sassKindOf(in))];
    it->second.ptxAnchors += isAnchor(in);
    ptxAnchors += isAnchor(in);
  }
  // A line without anchors of its own takes the function's copies.
  const double functionCopies = copiesOf(sassAnchors, ptxAnchors, 1.0);
  // Per line and kind: cycles per PTX instruction (x kStallOne). SASS of a kind the line has no
  // PTX instruction of (an ISETP ptxas made of a branch's compare, a branch it made of a loop)
  // is spread over the line's other instructions.
  std::map<LineKey, std::array<uint32_t, size_t(SassKind::Count_)>> perInst;
  for (auto& [key, l] : lines) {
    uint32_t ptxAll = 0;
    double orphan = 0;
    for (size_t k = 0; k < l.ptx.size(); ++k) {
      ptxAll += l.ptx[k];
      if (!l.ptx[k]) orphan += l.sassStall[k];
    }
    if (!ptxAll) continue;
    const double copies = copiesOf(l.sassAnchors, l.ptxAnchors, functionCopies);
    auto& q = perInst[key];
    for (size_t k = 0; k < l.ptx.size(); ++k) {
      if (!l.ptx[k]) continue;
      const double cycles = (l.sassStall[k] + orphan * l.ptx[k] / ptxAll) / copies / l.ptx[k];
      q[k] = uint32_t(std::lround(cycles * kStallOne));
    }
  }
  for (size_t pc = 0; pc < f.code.size(); ++pc) {
    const auto it = perInst.find(keyOf(f.code[pc]));
    if (it != perInst.end()) out[pc] = it->second[size_t(sassKindOf(f.code[pc]))];
  }
  return out;
}

}  // namespace warpsim::sim::timing
