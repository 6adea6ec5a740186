// The checkers' findings as compute-sanitizer prints them ("========= Invalid __global__ read
// of size 4 bytes", "RACECHECK SUMMARY: ...", "ERROR SUMMARY: N errors") and as JSON, each site
// with its PTX line, CUDA line and that line's source text.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/json.h"
#include "sim/check/session.h"

namespace warpsim::harness {

// Lines of source files, read once each (a file that cannot be read has none).
class SourceLines {
 public:
  // The text of `line` (1-based) of `path`, trimmed; empty when unknown.
  std::string line(const std::string& path, uint32_t line);

 private:
  std::map<std::string, std::vector<std::string>> files_;
};

// `printLimit`: at most that many findings per tool are printed (0 = all). `moreText` (another
// section, e.g. schedule exploration's) goes before the ERROR SUMMARY line, which counts
// `moreErrors` too.
std::string formatFindings(const check::CheckSession& s, uint64_t printLimit, SourceLines& src,
                           const std::string& moreText = {}, uint64_t moreErrors = 0);
void findingsJson(Json& j, const check::CheckSession& s, uint64_t printLimit, SourceLines& src);
uint64_t totalErrors(const check::CheckSession& s);

}  // namespace warpsim::harness
