#include "isa/param_zeroing.h"

#include <algorithm>
#include <optional>

#include "isa/cfg.h"
#include "isa/insn_table.h"
#include "isa/types.h"

namespace warpsim::isa {
namespace {

// Above this many .param bytes a lane, the function zeroes its whole area (the analysis keeps a
// set of bytes per block; real areas are tens of bytes).
constexpr uint32_t kMaxAnalysedBytes = 1u << 14;

// A set of the area's bytes as a bit vector.
struct ByteSet {
  std::vector<uint64_t> words;
  ByteSet(uint32_t bytes, bool full) : words((bytes + 63) / 64, full ? ~uint64_t{0} : 0) {}
  bool has(uint32_t b) const { return (words[b / 64] >> (b % 64)) & 1; }
  void add(uint32_t from, uint32_t to) {
    for (uint32_t b = from; b < to; ++b) words[b / 64] |= uint64_t{1} << (b % 64);
  }
  // this &= o; whether anything changed.
  bool intersect(const ByteSet& o) {
    bool changed = false;
    for (size_t i = 0; i < words.size(); ++i) {
      const uint64_t w = words[i] & o.words[i];
      changed = changed || w != words[i];
      words[i] = w;
    }
    return changed;
  }
};

// A byte range [from, to) of the area.
struct Range {
  uint32_t from = 0, to = 0;
};

// What one instruction does to the frame's .param area: the bytes it reads, then those it
// writes for every lane that runs it.
struct Effects {
  std::vector<Range> reads, writes;
};

// The area's range of `bytes` at a .param address of the per-lane area, clipped to the area
// (an access beyond it faults).
Range laneRange(int64_t address, uint32_t bytes, uint32_t areaBytes) {
  const uint64_t at = uint64_t(address) - kLaneParamBase;
  const uint64_t from = std::min<uint64_t>(at, areaBytes);
  return {uint32_t(from), uint32_t(std::min<uint64_t>(from + bytes, areaBytes))};
}

bool isLaneAddress(const Opnd& a) {
  return a.kind == OpndKind::Addr && uint64_t(a.offset) >= kLaneParamBase;
}

// Whether an operand (or an element of it) could reach a .param area other than through the
// fixed addresses the analysis follows: a .param symbol's address as a value, or an address
// operand in a space that may be .param (named so, or generic) other than a kernel parameter at a
// fixed address.
bool reachesParams(const Opnd& o, Space space) {
  if (o.kind == OpndKind::Reg && o.symbolSpace == Space::Param) return true;
  if (o.kind == OpndKind::Addr) {
    if (space == Space::None || space == Space::Generic) return true;
    if (space == Space::Param && (o.baseSlot != kNoSlot || isLaneAddress(o))) return true;
  }
  for (const Opnd& e : o.elems)
    if (reachesParams(e, space)) return true;
  return false;
}

std::string_view opcodeOf(const Inst& in) { return in.spec ? in.spec->opcode : ""; }

// The instruction's effects on the area, or nothing when it may reach the area in a way the
// analysis does not follow.
std::optional<Effects> effectsOf(const Program& p, const FunctionCode& fn, const Inst& in) {
  const uint32_t area = fn.laneParamBytes;
  const bool guarded = in.guard != kNoSlot;
  Effects e;
  if (in.flow == Flow::Call) {
    // A direct call of a function with a body: the caller's argument variables are read (each
    // the callee's parameter's size), its return variables written when it returns.
    if (in.table >= 0 || in.callee < 0 || in.ops.size() != 3) return std::nullopt;
    const FunctionCode& callee = p.functions[size_t(in.callee)];
    if (callee.isExtern) return std::nullopt;
    const std::vector<Opnd>& args = in.ops[2].elems;
    const std::vector<Opnd>& rets = in.ops[0].elems;
    for (size_t i = 0; i < args.size() && i < callee.params.size(); ++i) {
      if (!isLaneAddress(args[i])) return std::nullopt;
      e.reads.push_back(laneRange(args[i].offset, callee.params[i].bytes, area));
    }
    for (size_t i = 0; i < rets.size() && i < callee.returns.size(); ++i) {
      if (!isLaneAddress(rets[i])) return std::nullopt;
      if (!guarded) e.writes.push_back(laneRange(rets[i].offset, callee.returns[i].bytes, area));
    }
    return e;
  }
  if (in.flow == Flow::Return && !fn.isEntry) {
    // The call copies the return values back (a kernel's ret is an exit).
    for (const ParamSlot& r : fn.returns)
      e.reads.push_back(laneRange(int64_t(kLaneParamBase + r.offset), r.bytes, area));
    return e;
  }
  const std::string_view op = opcodeOf(in);
  const uint32_t bytes = typeBytes(in.mods.type()) * in.mods.vec;
  if (op == "ld" && in.mods.space == Space::Param && in.ops.size() >= 2 &&
      in.ops[1].baseSlot == kNoSlot && isLaneAddress(in.ops[1])) {
    e.reads.push_back(laneRange(in.ops[1].offset, bytes, area));
    for (size_t i = 0; i < in.ops.size(); ++i)
      if (i != 1 && reachesParams(in.ops[i], in.mods.space)) return std::nullopt;
    return e;
  }
  if (op == "st" && in.mods.space == Space::Param && in.ops.size() >= 2 &&
      in.ops[0].baseSlot == kNoSlot && isLaneAddress(in.ops[0])) {
    if (!guarded) e.writes.push_back(laneRange(in.ops[0].offset, bytes, area));
    for (size_t i = 1; i < in.ops.size(); ++i)
      if (reachesParams(in.ops[i], in.mods.space)) return std::nullopt;
    return e;
  }
  for (const Opnd& o : in.ops)
    if (reachesParams(o, in.mods.space)) return std::nullopt;
  return e;
}

// The ranges of `fn`'s area to zero at entry, or nothing when not known.
std::optional<std::vector<std::pair<uint32_t, uint32_t>>> zeroRanges(const Program& p,
                                                                     const FunctionCode& fn) {
  const uint32_t area = fn.laneParamBytes;
  if (area == 0) return std::vector<std::pair<uint32_t, uint32_t>>{};
  if (area > kMaxAnalysedBytes || fn.code.empty() || fn.error) return std::nullopt;
  std::vector<Effects> effects;
  effects.reserve(fn.code.size());
  for (const Inst& in : fn.code) {
    std::optional<Effects> e = effectsOf(p, fn, in);
    if (!e) return std::nullopt;
    effects.push_back(std::move(*e));
  }
  const Cfg g = buildCfg(fn);
  const size_t nb = g.blocks.size();
  std::vector<std::vector<uint32_t>> preds(nb);
  for (size_t b = 0; b < nb; ++b)
    for (uint32_t s : g.blocks[b].succs)
      if (s < nb) preds[s].push_back(uint32_t(b));
  // Bytes written on every path from the entry to each block's start: the most (every byte)
  // until a path reaches the block, then the meet over its reached predecessors.
  const auto writtenAfter = [&](size_t b, ByteSet w) {
    for (uint32_t pc = g.blocks[b].first; pc <= g.blocks[b].last; ++pc)
      for (const Range& r : effects[pc].writes) w.add(r.from, r.to);
    return w;
  };
  ByteSet atEntry(area, false);
  for (const ParamSlot& s : fn.params) atEntry.add(s.offset, std::min(s.offset + s.bytes, area));
  std::vector<ByteSet> written(nb, ByteSet(area, true));
  std::vector<bool> reached(nb, false);
  written[0] = atEntry;
  reached[0] = true;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 0; b < nb; ++b) {
      if (!reached[b]) continue;
      const ByteSet out = writtenAfter(b, written[b]);
      for (uint32_t s : g.blocks[b].succs) {
        if (s >= nb) continue;
        if (!reached[s]) {
          reached[s] = true;
          written[s] = out;
          changed = true;
        } else {
          changed = written[s].intersect(out) || changed;
        }
      }
    }
  }
  // Each read's bytes not written on every path to it; a block no path reaches (none, unless
  // the CFG misses an edge) counts as having nothing written.
  ByteSet zero(area, false);
  for (size_t b = 0; b < nb; ++b) {
    ByteSet w = reached[b] ? written[b] : ByteSet(area, false);
    for (uint32_t pc = g.blocks[b].first; pc <= g.blocks[b].last; ++pc) {
      for (const Range& r : effects[pc].reads)
        for (uint32_t x = r.from; x < r.to; ++x)
          if (!w.has(x)) zero.add(x, x + 1);
      for (const Range& r : effects[pc].writes) w.add(r.from, r.to);
    }
  }
  std::vector<std::pair<uint32_t, uint32_t>> ranges;
  for (uint32_t x = 0; x < area; ++x) {
    if (!zero.has(x)) continue;
    if (!ranges.empty() && ranges.back().first + ranges.back().second == x)
      ++ranges.back().second;
    else
      ranges.push_back({x, 1});
  }
  return ranges;
}

}  // namespace

void setParamZeroing(Program& p) {
  for (FunctionCode& fn : p.functions) {
    auto ranges = zeroRanges(p, fn);
    fn.paramZeroKnown = ranges.has_value();
    fn.paramZeroRanges = ranges ? std::move(*ranges) : decltype(fn.paramZeroRanges){};
  }
}

}  // namespace warpsim::isa
