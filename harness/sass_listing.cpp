#include "harness/sass_listing.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "harness/nvcc.h"

namespace warpsim::harness {
namespace {

using sim::timing::SassKind;

// The mnemonic without its predicate and modifiers: "@!P0 LDS.128 R4, [R2]" -> "LDS".
std::string baseOpcode(const std::string& text) {
  std::istringstream in(text);
  std::string tok;
  in >> tok;
  if (!tok.empty() && tok[0] == '@') in >> tok;
  return tok.substr(0, tok.find('.'));
}

SassKind kindOf(const std::string& op) {
  static const std::set<std::string> memory = {"LDS",  "STS",  "LDG",  "STG",   "LD",    "ST",
                                               "LDL",  "STL",  "ATOM", "ATOMS", "ATOMG", "RED",
                                               "REDG", "LDSM", "STSM", "LDGSTS"};
  static const std::set<std::string> control = {"BRA", "BRX",  "JMP",  "JMX",  "CALL",
                                                "RET", "EXIT", "BSSY", "BSYNC"};
  if (memory.count(op)) return SassKind::Memory;
  if (op == "BAR") return SassKind::Barrier;
  if (control.count(op)) return SassKind::Control;
  return SassKind::Other;
}

bool anchorOp(const std::string& op) {
  static const std::set<std::string> anchors = {"BAR", "LDG",  "STG",  "ATOMG",
                                                "RED", "REDG", "FFMA", "DFMA"};
  return anchors.count(op) > 0;
}

}  // namespace

std::string findNvdisasm(const std::string& ptxas) {
  if (const char* e = std::getenv("WARPSIM_NVDISASM"); e && *e)
    return isExecutableFile(e) ? std::string(e) : std::string();
  if (!ptxas.empty()) {
    const auto beside = (std::filesystem::path(ptxas).parent_path() / "nvdisasm").string();
    if (isExecutableFile(beside)) return beside;
  }
  return findOnPath("nvdisasm");
}

sim::timing::SassListing parseNvdisasm(const std::string& text) {
  // //--------------------- .text.sgemm_tiled_f32     --------------------------
  static const std::regex section(R"(^//-+ \.text\.(\S+))");
  // 	//## File "/path/k.cu", line 20   (an inlined line goes on: "inlined at ...")
  static const std::regex file(R"re(//## File "([^"]*)", line (\d{1,9}))re");
  //         /*02b0*/                   LDS.128 R12, [R2] ;     /* 0x0000000002 0c7984 */
  static const std::regex inst(R"(^\s*/\*[0-9a-f]+\*/\s+([^;]*);\s*/\* 0x[0-9a-f]+ \*/)");
  static const std::regex second(R"(^\s*/\* 0x([0-9a-f]{16}) \*/)");
  sim::timing::SassListing out;
  std::vector<sim::timing::SassInst>* fn = nullptr;
  std::string curFile;
  uint32_t curLine = 0;
  std::istringstream in(text);
  std::string line, op;
  std::smatch m;
  bool pending = false;  // an instruction whose control word is on the next line
  sim::timing::SassInst cur;
  while (std::getline(in, line)) {
    if (pending) {
      pending = false;
      if (std::regex_search(line, m, second) && fn) {
        const uint64_t hi = std::stoull(m[1].str(), nullptr, 16);
        // 0 (the never-issued `BRA` to itself after EXIT) counts as the one cycle of an issue.
        cur.stall = uint8_t(std::max<uint64_t>(1, (hi >> 41) & 0xf));
        if (op != "NOP") fn->push_back(cur);
      }
      continue;
    }
    if (std::regex_search(line, m, section)) {
      fn = &out[m[1].str()];
      curFile.clear();
      curLine = 0;
    } else if (std::regex_search(line, m, file)) {
      curFile = m[1].str();
      curLine = uint32_t(std::stoul(m[2].str()));
    } else if (std::regex_search(line, m, inst)) {
      op = baseOpcode(m[1].str());
      cur = {};
      cur.file = curFile;
      cur.line = curLine;
      cur.kind = kindOf(op);
      cur.anchor = anchorOp(op);
      pending = true;
    }
  }
  return out;
}

}  // namespace warpsim::harness
