#include "sim/check/finding.h"

#include <array>

namespace warpsim::check {

const char* toolName(Tool t) {
  static constexpr std::array<const char*, kToolCount> kNames = {"memcheck", "racecheck",
                                                                 "initcheck", "synccheck"};
  return kNames[size_t(t)];
}

Site siteOf(const isa::Program& program, const isa::Inst& in) {
  Site s;
  s.ptxLine = in.ptxLine;
  s.instruction = in.text;
  if (in.cuda.known() && program.module) {
    const auto& files = program.module->files;
    auto it = files.find(in.cuda.file);
    s.cudaFile = it != files.end() ? it->second : "file" + std::to_string(in.cuda.file);
    s.cudaLine = in.cuda.line;
  }
  return s;
}

Site siteOf(const sim::FaultInfo& f) { return {f.ptxLine, f.instruction, f.cudaFile, f.cudaLine}; }

namespace {

// A site is its CUDA line when known (an unrolled loop puts one CUDA line on many PTX lines,
// which a user fixes once), else its PTX line.
std::string siteKey(const Site& s) {
  return s.cudaFile.empty() ? std::to_string(s.ptxLine)
                            : s.cudaFile + ":" + std::to_string(s.cudaLine);
}

std::string keyOf(const Finding& f) {
  std::string k = std::to_string(int(f.tool)) + "|" + f.title + "|" + siteKey(f.first.site) + "|" +
                  f.first.access;
  if (f.second) k += "|" + siteKey(f.second->site) + "|" + f.second->access;
  return k;
}

}  // namespace

void Findings::add(Finding f) {
  std::string k = keyOf(f);
  auto [it, fresh] = index_.try_emplace(std::move(k), list_.size());
  if (fresh)
    list_.push_back(std::move(f));
  else
    list_[it->second].count += f.count;
}

void Findings::merge(const Findings& other) {
  for (const Finding& f : other.list_) add(f);
}

}  // namespace warpsim::check
