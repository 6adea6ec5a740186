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
  std::array<uint32_t, size_t(SassKind::Count_)> sass{};     // SASS instructions
  std::array<uint32_t, size_t(SassKind::Count_)> ptx{};      // PTX instructions
  uint32_t sassAnchors = 0, ptxAnchors = 0;
};

// ptxas's copies of a line are never fewer than one, and its unrolling stays small; a ratio
// outside that says the anchors do not match (a loop ptxas kept and a copy it removed).
constexpr double kMaxCopies = 16;

// The copies of a line: its anchors' ratio, or its memory instructions' where that is more
// (a loop of shared loads alone, unrolled: micro_chase_shared's 5 PTX loads are 29 LDS; merging
// only makes the memory ratio smaller), else `fallback`.
double copiesOf(uint32_t sassAnchors, uint32_t ptxAnchors, uint32_t sassMemory, uint32_t ptxMemory,
                double fallback) {
  double c = 0;
  if (sassAnchors && ptxAnchors) c = double(sassAnchors) / ptxAnchors;
  if (sassMemory && ptxMemory) c = std::max(c, double(sassMemory) / ptxMemory);
  return c > 0 ? std::clamp(c, 1.0, kMaxCopies) : fallback;
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
      return in.spec && in.spec->operation == isa::Operation::MultiplyAdd;
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
  uint32_t sassAnchors = 0, ptxAnchors = 0, sassMemory = 0, ptxMemory = 0;
  constexpr size_t kMem = size_t(SassKind::Memory);
  for (const SassInst& s : sass) {
    LineSums& l = lines[{s.line ? s.file : std::string(), s.line}];
    l.sassStall[size_t(s.kind)] += s.stall;
    ++l.sass[size_t(s.kind)];
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
  for (const auto& [key, l] : lines) {
    if (!l.ptx[kMem]) continue;  // memory the PTX does not show (a spill) says nothing of copies
    sassMemory += l.sass[kMem];
    ptxMemory += l.ptx[kMem];
  }
  // A line without anchors or memory of its own takes the function's copies.
  const double functionCopies = copiesOf(sassAnchors, ptxAnchors, sassMemory, ptxMemory, 1.0);
  // Per line and kind: cycles per PTX instruction (x kStallOne). SASS of a kind the line has no
  // PTX instruction of (an ISETP ptxas made of a branch's compare, a branch it made of a loop)
  // is spread over the line's other instructions.
  std::map<LineKey, std::array<uint32_t, size_t(SassKind::Count_)>> perInst;
  for (auto& [key, l] : lines) {
    uint32_t ptxAll = 0;
    double orphan = 0, orphanCount = 0;
    for (size_t k = 0; k < l.ptx.size(); ++k) {
      ptxAll += l.ptx[k];
      if (l.ptx[k]) continue;
      orphan += l.sassStall[k];
      orphanCount += l.sass[k];
    }
    if (!ptxAll) continue;
    const double copies =
        copiesOf(l.sassAnchors, l.ptxAnchors, l.sass[kMem], l.ptx[kMem], functionCopies);
    auto& q = perInst[key];
    for (size_t k = 0; k < l.ptx.size(); ++k) {
      if (!l.ptx[k]) continue;
      const double share = double(l.ptx[k]) / ptxAll;
      const double stall = l.sassStall[k] + orphan * share;
      // No PTX instruction waits longer than the line's SASS of its kind does on average: where
      // the copies are missed (a loop ptxas unrolled on a line without anchors or memory, such
      // as micro_shfl_chain's adds), the spread would charge each PTX instruction every copy.
      const double mean = stall / (l.sass[k] + orphanCount * share);
      const double cycles = std::min(stall / copies / l.ptx[k], mean);
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
