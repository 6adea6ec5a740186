#include "sim/func/call_stack.h"

#include <algorithm>
#include <cstdint>

namespace warpsim::sim {

namespace {

std::vector<std::vector<int>> callGraph(const isa::Program& p) {
  std::vector<std::vector<int>> calls(p.functions.size());
  for (size_t f = 0; f < p.functions.size(); ++f)
    for (const isa::Inst& in : p.functions[f].code)
      for (int32_t c : isa::calleesOf(p.functions[f], in)) calls[f].push_back(c);
  return calls;
}

// Depth-first search from `start` with colours (0 new, 1 on the path, 2 done): a call to a
// function on the path closes a cycle. Iterative, so a deep call graph cannot exhaust the stack.
bool cycleFrom(const std::vector<std::vector<int>>& calls, int start, std::vector<int>& colour) {
  if (colour[size_t(start)] != 0) return false;
  std::vector<std::pair<int, size_t>> path{{start, 0}};
  colour[size_t(start)] = 1;
  while (!path.empty()) {
    auto& [f, next] = path.back();
    if (next == calls[size_t(f)].size()) {
      colour[size_t(f)] = 2;
      path.pop_back();
      continue;
    }
    const int g = calls[size_t(f)][next++];
    if (colour[size_t(g)] == 1) return true;
    if (colour[size_t(g)] == 0) {
      colour[size_t(g)] = 1;
      path.push_back({g, 0});
    }
  }
  return false;
}

}  // namespace

uint32_t estimatedFrameBytes(const isa::FunctionCode& fn) {
  const uint64_t bytes = uint64_t(fn.localBytes) + fn.laneParamBytes;
  return uint32_t(std::min<uint64_t>((bytes + 7) / 8 * 8, UINT32_MAX));
}

namespace {

// A device function's frame holds at least its return address (8 bytes), whatever the
// estimate or ptxas says: so endless recursion always ends in an overflow, and the frames a
// warp can hold (and their host memory) are bounded by the limit / 8.
constexpr uint32_t kMinCallFrame = 8;

}  // namespace

bool reachesRecursion(const isa::Program& p, int entry) {
  if (entry < 0 || size_t(entry) >= p.functions.size()) return false;
  std::vector<int> colour(p.functions.size(), 0);
  return cycleFrom(callGraph(p), entry, colour);
}

bool hasRecursion(const isa::Program& p) {
  const auto calls = callGraph(p);
  std::vector<int> colour(p.functions.size(), 0);
  for (size_t f = 0; f < p.functions.size(); ++f)
    if (cycleFrom(calls, int(f), colour)) return true;
  return false;
}

CallStackModel callStackModel(const isa::Program& p, int entry, uint64_t limit,
                              const std::map<std::string, uint32_t>& ptxasFrames) {
  CallStackModel m;
  if (!reachesRecursion(p, entry)) return m;
  m.checked = true;
  m.limit = limit;
  m.frameBytes.resize(p.functions.size());
  m.fromPtxas.resize(p.functions.size());
  for (size_t f = 0; f < p.functions.size(); ++f) {
    const auto it = ptxasFrames.find(p.functions[f].name);
    m.fromPtxas[f] = it != ptxasFrames.end();
    m.frameBytes[f] = m.fromPtxas[f] ? it->second : estimatedFrameBytes(p.functions[f]);
    if (!p.functions[f].isEntry) m.frameBytes[f] = std::max(m.frameBytes[f], kMinCallFrame);
  }
  return m;
}

}  // namespace warpsim::sim
