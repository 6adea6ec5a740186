// explainOutputWord: which register a generated program stores into an output word, and which
// body instructions may have written its final value, read from the PTX text alone.
//
// It relies only on the frame every generated program has: stores `st.global.T [%a1+8*i],REG;`
// (predicates through `selp.u32 %t0,1,0,%pN;` just before), and forward branches only, so that
// a line between `bra L` and `L:` runs for some lanes only.
#include <map>
#include <sstream>

#include "harness/ptxgen/ptx_lines.h"
#include "harness/ptxgen/ptxgen.h"

namespace warpsim::ptxgen {

using lines::destinations;
using lines::trim;

OutputWord explainOutputWord(const std::string& ptx, unsigned word) {
  std::vector<std::string> lines;
  {
    std::istringstream in(ptx);
    for (std::string l; std::getline(in, l);) lines.push_back(trim(l));
  }
  OutputWord w;
  const std::string at = word ? "[%a1+" + std::to_string(8 * word) + "]" : "[%a1]";
  size_t store = lines.size();
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].rfind("st.global.", 0) == 0 && lines[i].find(at) != std::string::npos) {
      store = i;
      break;
    }
  if (store == lines.size()) return w;
  const std::string& s = lines[store];
  w.reg = trim(s.substr(s.find("],") + 2));
  if (!w.reg.empty() && w.reg.back() == ';') w.reg.pop_back();
  if (w.reg == "%t0" && store > 0) {  // a predicate, through selp.u32 %t0,1,0,%pN
    const std::string& sel = lines[store - 1];
    w.reg = trim(sel.substr(sel.rfind(',') + 1));
    if (!w.reg.empty() && w.reg.back() == ';') w.reg.pop_back();
  }
  // The body ends where the stores start: the first store into the output.
  size_t bodyEnd = store;
  for (size_t i = 0; i < store; ++i)
    if (lines[i].rfind("st.global.", 0) == 0 && lines[i].find("[%a1") != std::string::npos) {
      bodyEnd = i;
      break;
    }
  // Lines that only some lanes run: between a branch and its (forward) target label.
  std::map<std::string, size_t> labelAt;
  for (size_t i = 0; i < bodyEnd; ++i)
    if (!lines[i].empty() && lines[i].back() == ':')
      labelAt[lines[i].substr(0, lines[i].size() - 1)] = i;
  std::vector<bool> partial(bodyEnd, false);
  for (size_t i = 0; i < bodyEnd; ++i) {
    const size_t b = lines[i].find("bra ");
    if (b == std::string::npos) continue;
    std::string target = trim(lines[i].substr(b + 4));
    if (!target.empty() && target.back() == ';') target.pop_back();
    const auto it = labelAt.find(target);
    if (it == labelAt.end()) continue;
    for (size_t j = i + 1; j < it->second && j < bodyEnd; ++j) partial[j] = true;
  }
  for (size_t i = bodyEnd; i-- > 0;) {
    bool writes = false;
    for (const std::string& d : destinations(lines[i])) writes = writes || d == w.reg;
    if (!writes) continue;
    w.writers.push_back(lines[i]);
    const bool conditional = partial[i] || lines[i][0] == '@';
    if (!conditional || w.writers.size() >= 4) break;
  }
  return w;
}

}  // namespace warpsim::ptxgen
