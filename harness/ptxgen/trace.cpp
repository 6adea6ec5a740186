#include "harness/ptxgen/trace.h"

#include <cstring>
#include <sstream>
#include <stdexcept>

#include "harness/ptxgen/ptx_lines.h"

namespace warpsim::ptxgen {

namespace {

// The store of one register into trace word `word` (predicates as 0/1 through %trc).
std::string storeOf(const std::string& reg, unsigned word) {
  const std::string at = "[%a1+" + std::to_string(8 * word) + "]";
  if (reg.rfind("%p", 0) == 0)
    return "selp.u32 %trc,1,0," + reg + ";\nst.global.b32 " + at + ",%trc;";
  std::string type = "b32";
  if (reg.rfind("%rd", 0) == 0)
    type = "b64";
  else if (reg.rfind("%fd", 0) == 0)
    type = "f64";
  else if (reg.rfind("%h", 0) == 0)
    type = "b16";
  else if (reg.rfind("%f", 0) == 0)
    type = "f32";
  return "st.global." + type + " " + at + "," + reg + ";";
}

bool isPool(const std::string& r) { return !lines::sources("mov.b32 %x," + r + ";").empty(); }

uint64_t wordAt(const std::vector<uint8_t>& out, size_t index) {
  uint64_t w = 0;
  std::memcpy(&w, out.data() + 8 * index, 8);
  return w;
}

}  // namespace

TracedProgram traceProgram(const std::string& ptx, unsigned words) {
  const std::vector<std::string> in = lines::split(ptx);
  // The frame: the per-thread offset `mul.wide.u32 %a2,%t0,<8*words>;`, then the body, which
  // ends at the first store into the output.
  const std::string offset = "mul.wide.u32 %a2,%t0," + std::to_string(8 * words) + ";";
  size_t offsetLine = in.size(), bodyEnd = in.size(), firstReg = in.size();
  for (size_t i = 0; i < in.size(); ++i) {
    const std::string l = lines::trim(in[i]);
    if (firstReg == in.size() && l.rfind(".reg", 0) == 0) firstReg = i;
    if (l == offset) offsetLine = i;
    if (offsetLine < i && l.rfind("st.global.", 0) == 0 && l.find("[%a1") != std::string::npos) {
      bodyEnd = i;
      break;
    }
  }
  if (offsetLine == in.size() || bodyEnd == in.size() || firstReg == in.size())
    throw std::invalid_argument("traceProgram: not a generated program (no `" + offset + "`)");
  TracedProgram t;
  t.words = words;
  std::vector<std::string> body;
  auto add = [&](size_t line, const std::string& insn, const std::string& reg, bool result) {
    body.push_back(storeOf(reg, words + unsigned(t.entries.size())));
    t.entries.push_back({unsigned(line), insn, reg, result});
  };
  for (size_t i = offsetLine + 1; i < bodyEnd; ++i) {
    const std::string l = lines::trim(in[i]);
    std::vector<std::string> dests;
    for (const std::string& d : lines::destinations(l))
      if (isPool(d)) dests.push_back(d);
    const std::vector<std::string> srcs = lines::sources(l);
    for (const std::string& s : srcs) add(i, l, s, false);
    body.push_back(in[i]);
    for (const std::string& d : dests) add(i, l, d, true);
  }
  t.stride = words + unsigned(t.entries.size());
  std::ostringstream out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (i == firstReg) out << ".reg .b32 %trc;\n";
    if (i == offsetLine) {
      out << "mul.wide.u32 %a2,%t0," << 8 * t.stride << ";\n";
      for (const std::string& b : body) out << b << "\n";
      i = bodyEnd - 1;
      continue;
    }
    out << in[i] << "\n";
  }
  t.ptx = out.str();
  return t;
}

std::string firstDivergence(harness::Backend& gpu, harness::Backend& simulator,
                            const std::string& ptx, const IsaCase& c,
                            const std::vector<uint8_t>& inputs) {
  const TracedProgram t = traceProgram(ptx, c.words());
  IsaCase traced = c;
  traced.inputs.resize(t.stride, InputKind::Int64);
  std::vector<uint8_t> padded(size_t(c.threads()) * t.stride * 8, 0);
  for (unsigned th = 0; th < c.threads(); ++th)
    std::memcpy(padded.data() + size_t(th) * t.stride * 8,
                inputs.data() + size_t(th) * c.words() * 8, size_t(c.words()) * 8);
  const IsaRun g = runIsa(gpu, t.ptx, "traced.ptx", traced, padded);
  const IsaRun s = runIsa(simulator, t.ptx, "traced.ptx", traced, padded);
  if (g.fault) return "the traced program faulted on the GPU: " + g.fault->message;
  if (s.fault) return "the traced program faulted in the simulator: " + s.fault->message;
  for (size_t k = 0; k < t.entries.size(); ++k)
    for (unsigned th = 0; th < c.threads(); ++th) {
      const size_t at = size_t(th) * t.stride + t.words + k;
      if (wordAt(g.out, at) == wordAt(s.out, at)) continue;
      const TraceEntry& e = t.entries[k];
      std::ostringstream d;
      d << "first divergence, thread " << th % c.block << " of block " << th / c.block << ": `"
        << e.insn << "`";
      if (!e.result) {
        d << " reads " << e.reg << ": GPU " << formatRegisterWord(e.reg, wordAt(g.out, at))
          << ", simulator " << formatRegisterWord(e.reg, wordAt(s.out, at))
          << " (an untraced write differs)";
        return d.str();
      }
      // The operands: the entries of the same instruction just before its results.
      size_t first = k;
      while (first > 0 && t.entries[first - 1].line == e.line && t.entries[first - 1].result)
        --first;
      size_t op = first;
      while (op > 0 && t.entries[op - 1].line == e.line && !t.entries[op - 1].result) --op;
      if (op < first) {
        d << " with";
        for (size_t j = op; j < first; ++j)
          d << " " << t.entries[j].reg << " = "
            << formatRegisterWord(t.entries[j].reg,
                                  wordAt(g.out, size_t(th) * t.stride + t.words + j));
      }
      d << ": " << e.reg << " GPU " << formatRegisterWord(e.reg, wordAt(g.out, at))
        << ", simulator " << formatRegisterWord(e.reg, wordAt(s.out, at));
      return d.str();
    }
  return "";
}

}  // namespace warpsim::ptxgen
