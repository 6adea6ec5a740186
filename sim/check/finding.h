// What a checker reports: a finding names the tool, the kind of error, the access (or the
// instruction) with its thread, CTA, PTX line and CUDA line, and, for a race, the other access.
// Findings are de-duplicated by site: the first one seen (in CTA order) is kept with a count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "isa/program.h"
#include "sim/func/fault.h"
#include "sim/func/geometry.h"

namespace warpsim::check {

enum class Tool : uint8_t { Memcheck, Racecheck, Initcheck, Synccheck };
inline constexpr unsigned kToolCount = 4;
const char* toolName(Tool t);  // "memcheck", ...

enum class Severity : uint8_t { Error, Warning };

// Where an instruction is: its PTX line and opcode, and the CUDA line from .loc when known.
struct Site {
  uint32_t ptxLine = 0;
  std::string instruction;  // "ld.shared.f32"
  std::string cudaFile;     // as .file names it; empty when unknown
  uint32_t cudaLine = 0;
};
Site siteOf(const isa::Program& program, const isa::Inst& in);
Site siteOf(const sim::FaultInfo& f);

// One access (or warp instruction) taking part in a finding.
struct Actor {
  std::string access;  // "Write", "Read", "Atomic", "" for an instruction
  Site site;
  sim::ThreadPos thread, cta;
};

struct Finding {
  Tool tool = Tool::Memcheck;
  Severity severity = Severity::Error;
  std::string kernel;
  std::string title;  // "Invalid __global__ read of size 4 bytes", "Race reported between ..."
  Actor first;        // the access or instruction at fault
  std::optional<Actor> second;  // racecheck: the other access
  std::optional<uint64_t> address;
  std::string space;   // "__global__", "__shared__", "__local__" (when an address is given)
  std::string detail;  // "Address 0x... is out of bounds", ...
  std::string extra;   // further lines (where each warp waits, ...)
  uint64_t count = 1;  // findings folded into this one (same tool, title and sites)
};

// Findings de-duplicated by (tool, title, first site, second site), a site being its CUDA line
// when known, else its PTX line: the first kept, the others counted.
class Findings {
 public:
  void add(Finding f);
  void merge(const Findings& other);  // keeps this one's first, adds the counts
  const std::vector<Finding>& list() const { return list_; }
  bool empty() const { return list_.empty(); }

 private:
  std::vector<Finding> list_;
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace warpsim::check
