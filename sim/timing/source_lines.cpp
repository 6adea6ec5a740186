#include "sim/timing/source_lines.h"

#include <algorithm>

namespace warpsim::sim::timing {

uint64_t SourceLine::total() const {
  uint64_t t = 0;
  for (uint64_t c : cycles) t += c;
  return t;
}

std::string SourceLine::where() const {
  if (file.empty()) return "PTX line " + std::to_string(line);
  // The file's name without its directories: nvcc's .file paths are absolute.
  const size_t slash = file.rfind('/');
  return (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" + std::to_string(line);
}

void sortSourceLines(std::vector<SourceLine>& lines) {
  std::sort(lines.begin(), lines.end(), [](const SourceLine& a, const SourceLine& b) {
    const uint64_t ta = a.total(), tb = b.total();
    if (ta != tb) return ta > tb;
    return std::tie(a.file, a.line) < std::tie(b.file, b.line);
  });
}

void mergeSourceLines(std::vector<SourceLine>& a, const std::vector<SourceLine>& b) {
  for (const SourceLine& l : b) {
    const auto it = std::find_if(a.begin(), a.end(), [&](const SourceLine& x) {
      return x.file == l.file && x.line == l.line;
    });
    if (it == a.end()) {
      a.push_back(l);
      continue;
    }
    for (size_t i = 0; i < l.cycles.size(); ++i) it->cycles[i] += l.cycles[i];
    it->ptxLine = std::min(it->ptxLine, l.ptxLine);
  }
  sortSourceLines(a);
}

void SourceLineRecorder::launchStarted(const isa::Program& p) {
  program_ = &p;
  byInst_.clear();
  lastAt_.clear();
  lines_.clear();
}

void SourceLineRecorder::warpStarted(uint32_t wi, uint32_t, uint64_t, unsigned, uint64_t) {
  if (lastAt_.size() <= wi) lastAt_.resize(wi + 1, nullptr);
  lastAt_[wi] = nullptr;
}

void SourceLineRecorder::warpState(uint32_t wi, uint64_t from, uint64_t to, Stall s,
                                   const isa::Inst* at) {
  if (wi >= lastAt_.size()) lastAt_.resize(wi + 1, nullptr);
  // A warp about to return from a device function has no next instruction the engine can
  // name: its cycles stay with the instruction it was last seen at.
  if (at)
    lastAt_[wi] = at;
  else
    at = lastAt_[wi];
  byInst_[at][size_t(s)] += to - from;
}

void SourceLineRecorder::launchEnded(uint64_t) {
  std::map<std::pair<std::string, uint32_t>, SourceLine> by;
  const std::map<int, std::string>* files =
      program_ && program_->module ? &program_->module->files : nullptr;
  for (const auto& [in, cycles] : byInst_) {
    std::string file;
    uint32_t line = 0, ptx = 0;
    if (in) {
      ptx = in->ptxLine;
      line = in->ptxLine;
      if (in->cuda.known()) {
        file = "file " + std::to_string(in->cuda.file);
        if (files)
          if (const auto f = files->find(in->cuda.file); f != files->end()) file = f->second;
        line = in->cuda.line;
      }
    } else {
      file = "(unknown)";
    }
    auto [it, added] = by.try_emplace({file, line});
    SourceLine& l = it->second;
    if (added) {
      l.file = file;
      l.line = line;
      l.ptxLine = ptx;
    }
    l.ptxLine = std::min(l.ptxLine, ptx);
    for (size_t i = 0; i < cycles.size(); ++i) l.cycles[i] += cycles[i];
  }
  lines_.clear();
  for (auto& [key, l] : by) lines_.push_back(std::move(l));
  sortSourceLines(lines_);
  byInst_.clear();
}

}  // namespace warpsim::sim::timing
