#include "harness/ptxgen/trace.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "harness/ptxgen/isolate.h"
#include "harness/ptxgen/ptx_lines.h"
#include "isa/fp.h"

namespace warpsim::ptxgen {

namespace {

// The store of one register into trace word `word` (predicates as 0/1 through %trc).
std::string storeOf(const std::string& reg, unsigned word) {
  const std::string at = "[%a1+" + std::to_string(8 * word) + "]";
  if (reg.rfind("%p", 0) == 0)
    return "selp.u32 %trc,1,0," + reg + ";\nst.global.b32 " + at + ",%trc;";
  return "st.global." + lines::memoryType(reg) + " " + at + "," + reg + ";";
}

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
      if (lines::isPoolRegister(d)) dests.push_back(d);
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

IsaRun runTraced(harness::Backend& backend, const TracedProgram& t, const IsaCase& c,
                 const std::vector<uint8_t>& inputs) {
  IsaCase traced = c;
  traced.inputs.resize(t.stride, InputKind::Int64);
  std::vector<uint8_t> padded(size_t(c.threads()) * t.stride * 8, 0);
  for (unsigned th = 0; th < c.threads(); ++th)
    std::memcpy(padded.data() + size_t(th) * t.stride * 8,
                inputs.data() + size_t(th) * c.words() * 8, size_t(c.words()) * 8);
  return runIsa(backend, t.ptx, "traced.ptx", traced, padded);
}

uint64_t traceWord(const TracedProgram& t, const std::vector<uint8_t>& out, unsigned thread,
                   size_t entry) {
  return wordAt(out, size_t(thread) * t.stride + t.words + entry);
}

namespace {

bool nanIn(const std::string& reg, const std::string& insn, uint64_t v) {
  if (reg.rfind("%fd", 0) == 0) return fp::isNaN(fp::f64(v));
  if (reg.rfind("%f", 0) == 0) return fp::isNaN(fp::f32(uint32_t(v)));
  if (reg.rfind("%h", 0) != 0) return false;
  if (insn.find(".bf16") != std::string::npos) return fp::isNaNBF16(uint16_t(v));
  return insn.find(".f16") != std::string::npos && fp::isNaN16(uint16_t(v));
}

// The operand fields of an instruction as decimal integer immediates (nullopt where a field
// is not one).
std::vector<std::optional<int64_t>> integerImmediates(const std::vector<std::string>& fields) {
  std::vector<std::optional<int64_t>> v;
  for (const std::string& t : fields)
    if (!t.empty() && (std::isdigit(uint8_t(t[0])) || t[0] == '-') &&
        t.find_first_not_of("-0123456789") == std::string::npos)
      v.push_back(std::stoll(t));
    else
      v.push_back(std::nullopt);
  return v;
}

}  // namespace

std::string classifyDivergence(const std::string& insn, const std::string& reg,
                               const std::vector<std::pair<std::string, uint64_t>>& operands,
                               uint64_t gpu, uint64_t sim) {
  if (nanIn(reg, insn, gpu) && nanIn(reg, insn, sim)) return "nan-bits";
  auto value = [&](const std::string& r) {
    for (const auto& [n, v] : operands)
      if (n == r) return v;
    return uint64_t{0};
  };
  if (const auto g = lines::guardOf(insn))
    for (const auto& [r, v] : operands)
      if (r == g->reg && (v != 0) == g->negated) return "guard-ignored";
  const std::string body = lines::withoutGuard(insn);
  const std::vector<std::string> fields = lines::operands(insn);
  const std::vector<std::optional<int64_t>> imm = integerImmediates(fields);
  if (body.rfind("bfi.b32 ", 0) == 0 && imm.size() == 5 && imm[3] && imm[4] && *imm[4] >= 32 &&
      !operands.empty()) {
    // d = b with (len mod 32) low bits of a inserted at pos.
    const uint64_t a = value(fields[1]), b = value(fields[2]);
    const int64_t pos = *imm[3], len = *imm[4] & 31;
    if (pos >= 0 && pos < 32) {
      const uint64_t field = len ? ((uint64_t{1} << len) - 1) << pos : 0;
      const uint64_t expect = ((b & ~field) | ((a << pos) & field)) & 0xFFFFFFFFu;
      if (uint32_t(gpu) == expect) return "immediate-field";
    }
  }
  if (body.rfind("bfe.s32 ", 0) == 0 && imm.size() == 4 && imm[2] && *imm[2] >= 32 &&
      uint32_t(gpu) == 0xFFFFFFFFu)
    return "immediate-field";
  return "";
}

namespace {

// float -> 8-bit integer the way a saturating conversion does it: toward zero, NaN -> 0.
uint8_t saturatedByte(float f, bool isSigned) {
  if (f != f) return 0;
  const float lo = isSigned ? -128.0f : 0.0f, hi = isSigned ? 127.0f : 255.0f;
  const float t = std::trunc(std::fmin(std::fmax(f, lo), hi));
  return uint8_t(int(t));
}
float halfValue(uint16_t h, bool bf16) { return bf16 ? fp::bf16ToF32(h) : fp::f16ToF32(h); }

// A byte the generator's shared-memory exchange moved: `ld.shared.{u8,s8} D,[%t1+OFF]` in one
// thread reads what thread (tid ^ K) stored with `st.shared.b8 [%sa+OFF],%hX` (K from the
// `xor.b32 %t1,%tx,K;` before the load). True when the GPU's byte is that half-precision
// value converted to an 8-bit integer (toward zero, saturated) rather than its low byte: the
// JIT miscompiles st.shared.b8 of a register a half-precision operation wrote (the probe
// scripts/probes/campaign/halfregs.ptx shows it: 3.71875 stores 3, inf 255, NaN 0).
bool byteStoreOfHalf(const TracedProgram& t, const std::vector<std::string>& ptxLines,
                     const TraceEntry& e, const IsaCase& c, unsigned th,
                     const std::vector<uint8_t>& gpuOut, uint64_t gv) {
  const std::string body = lines::withoutGuard(e.insn);
  if (body.rfind("ld.shared.u8 ", 0) != 0 && body.rfind("ld.shared.s8 ", 0) != 0) return false;
  const size_t plus = body.find("[%t1+");
  if (plus == std::string::npos) return false;
  const std::string off = body.substr(plus + 5, body.find(']', plus) - plus - 5);
  long k = -1;
  size_t store = 0;
  std::string stored;
  for (size_t i = e.line; i-- > 0;) {
    const std::string l = lines::trim(ptxLines[i]);
    if (k < 0 && l.rfind("xor.b32 %t1,%tx,", 0) == 0) k = std::stol(l.substr(16));
    const std::string st = "st.shared.b8 [%sa+" + off + "],";
    if (l.rfind(st, 0) == 0) {
      stored = l.substr(st.size(), l.find(';') - st.size());
      store = i;
      break;
    }
  }
  if (k < 0 || stored.empty()) return false;
  const unsigned partner = (th / c.block) * c.block + ((th % c.block) ^ unsigned(k));
  if (partner >= c.threads()) return false;
  for (size_t j = 0; j < t.entries.size(); ++j) {
    if (t.entries[j].line != store || t.entries[j].reg != stored || t.entries[j].result) continue;
    const uint64_t h = traceWord(t, gpuOut, partner, j);
    for (bool bf : {false, true})
      for (bool sgn : {false, true})
        if (uint8_t(gv) == saturatedByte(halfValue(uint16_t(h), bf), sgn) &&
            uint8_t(gv) != uint8_t(h))
          return true;
  }
  return false;
}

}  // namespace

namespace {

// True when line `e.line` lies between a forward branch `@%pN bra L;` (or `@!%pN`) and its
// label `L:`, and the branch's predicate, as traced for thread `th` (both backends agree on
// it), says the branch is taken: the instruction should not run in that thread.
bool skippedByBranch(const TracedProgram& t, const std::vector<std::string>& ptxLines,
                     const TraceEntry& e, unsigned th, const std::vector<uint8_t>& gpuOut) {
  for (size_t b = e.line; b-- > 0;) {
    const auto guard = lines::guardOf(ptxLines[b]);
    const std::string l = lines::withoutGuard(ptxLines[b]);
    if (!guard || l.rfind("bra ", 0) != 0) continue;
    const std::string label = lines::operands(l).at(0);
    size_t at = ptxLines.size();
    for (size_t i = b + 1; i < ptxLines.size(); ++i)
      if (lines::trim(ptxLines[i]) == label + ":") {
        at = i;
        break;
      }
    if (at <= e.line) continue;  // its region ends before the instruction
    for (size_t j = 0; j < t.entries.size(); ++j) {
      if (t.entries[j].line != b || t.entries[j].reg != guard->reg) continue;
      const uint64_t v = traceWord(t, gpuOut, th, j);
      if ((v != 0) != guard->negated) return true;  // taken: the region is skipped
    }
  }
  return false;
}

}  // namespace

Divergence firstDivergence(harness::Backend& gpu, harness::Backend& simulator,
                           const std::string& ptx, const IsaCase& c,
                           const std::vector<uint8_t>& inputs) {
  const TracedProgram t = traceProgram(ptx, c.words());
  const std::vector<std::string> ptxLines = lines::split(ptx);
  const IsaRun g = runTraced(gpu, t, c, inputs);
  const IsaRun s = runTraced(simulator, t, c, inputs);
  if (g.fault) return {"the traced program faulted on the GPU: " + g.fault->message, ""};
  if (s.fault) return {"the traced program faulted in the simulator: " + s.fault->message, ""};
  for (size_t k = 0; k < t.entries.size(); ++k)
    for (unsigned th = 0; th < c.threads(); ++th) {
      const size_t at = size_t(th) * t.stride + t.words + k;
      if (wordAt(g.out, at) == wordAt(s.out, at)) continue;
      const TraceEntry& e = t.entries[k];
      std::ostringstream d;
      d << "first divergence, thread " << th % c.block << " of block " << th / c.block << ": `"
        << e.insn << "`";
      if (e.result && byteStoreOfHalf(t, ptxLines, e, c, th, g.out, wordAt(g.out, at))) {
        d << ": " << e.reg << " GPU " << formatRegisterWord(e.reg, wordAt(g.out, at))
          << ", simulator " << formatRegisterWord(e.reg, wordAt(s.out, at))
          << " (the byte its partner thread stored from a half-precision value, converted)";
        return {d.str(), "byte-store-of-half"};
      }
      if (!e.result) {
        d << " reads " << e.reg << ": GPU " << formatRegisterWord(e.reg, wordAt(g.out, at))
          << ", simulator " << formatRegisterWord(e.reg, wordAt(s.out, at));
        if (skippedByBranch(t, ptxLines, e, th, g.out)) {
          d << " (the GPU ran it although the branch before it, by its traced predicate, skips "
               "it)";
          return {d.str(), "branch-ignored"};
        }
        d << " (an untraced write differs)";
        return {d.str(), ""};
      }
      // The operands: the entries of the same instruction just before its results.
      size_t first = k;
      while (first > 0 && t.entries[first - 1].line == e.line && t.entries[first - 1].result)
        --first;
      size_t op = first;
      while (op > 0 && t.entries[op - 1].line == e.line && !t.entries[op - 1].result) --op;
      std::vector<std::pair<std::string, uint64_t>> operands;
      if (op < first) {
        d << " with";
        for (size_t j = op; j < first; ++j) {
          const uint64_t v = traceWord(t, g.out, th, j);
          operands.emplace_back(t.entries[j].reg, v);
          d << " " << t.entries[j].reg << " = " << formatRegisterWord(t.entries[j].reg, v);
        }
      }
      const uint64_t gv = wordAt(g.out, at), sv = wordAt(s.out, at);
      d << ": " << e.reg << " GPU " << formatRegisterWord(e.reg, gv) << ", simulator "
        << formatRegisterWord(e.reg, sv);
      std::string category = classifyDivergence(e.insn, e.reg, operands, gv, sv);
      if (category.empty()) {
        // Alone, on both backends: the same result means the chip computes what the simulator
        // models, and the program's difference comes from how ptxas compiled its context.
        const auto alone = runIsolated(gpu, e.insn, operands, e.reg);
        const auto aloneSim = runIsolated(simulator, e.insn, operands, e.reg);
        if (alone && aloneSim) {
          d << "; alone, GPU " << formatRegisterWord(e.reg, *alone) << ", simulator "
            << formatRegisterWord(e.reg, *aloneSim);
          if (*alone == *aloneSim) category = "context-dependent";
        }
      }
      return {d.str(), category};
    }
  return {};
}

Divergence explainDifference(harness::Backend& gpu, const std::string& ptx, const IsaCase& c,
                             const std::vector<uint8_t>& inputs) {
  try {
    sim::LaunchOptions o;
    o.threads = 1;
    auto simulator = harness::makeSimBackend(o);
    Divergence d = firstDivergence(gpu, *simulator, ptx, c, inputs);
    if (d.text.empty())
      d = {
          "the traced program agrees: the difference depends on how the untraced one was "
          "compiled",
          "not-reproduced"};
    return d;
  } catch (const std::exception& e) {
    return {std::string("the traced program did not run: ") + e.what(), ""};
  }
}

}  // namespace warpsim::ptxgen
