// Where the cycles went, per source line (like Nsight Compute's source view): every resident
// warp-cycle is charged to the instruction its warp issues or waits to issue, and instructions
// are grouped by their CUDA line (.loc) or, without one, their PTX line. The issue cycles and
// the stall cycles by reason of a line add up, over all lines, to the report's totals.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "sim/timing/listener.h"

namespace warpsim::sim::timing {

// Sorts by warp-cycles, most first (then by place).
void sortSourceLines(std::vector<SourceLine>& lines);
// Adds `b`'s lines into `a` (the same place adds up).
void mergeSourceLines(std::vector<SourceLine>& a, const std::vector<SourceLine>& b);

class SourceLineRecorder final : public EngineListener {
 public:
  void launchStarted(const isa::Program& p) override;
  void warpStarted(uint32_t wi, uint32_t, uint64_t, unsigned, uint64_t) override;
  void warpState(uint32_t wi, uint64_t from, uint64_t to, Stall s, const isa::Inst* at) override;
  void launchEnded(uint64_t cycles) override;
  // The last launch's lines, sorted; empty before a launch ends.
  const std::vector<SourceLine>& lines() const { return lines_; }

 private:
  const isa::Program* program_ = nullptr;
  std::unordered_map<const isa::Inst*, std::array<uint64_t, size_t(Stall::Count_)>> byInst_;
  std::vector<const isa::Inst*> lastAt_;  // by wi: where a warp was last seen
  std::vector<SourceLine> lines_;
};

}  // namespace warpsim::sim::timing
