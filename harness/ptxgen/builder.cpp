// The register pool, operand choice and emission (see builder.h), and the kernel's frame: the
// declarations, the prologue that loads every pool register from the input words and the
// epilogue that stores every one of them.
#include "harness/ptxgen/builder.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <stdexcept>

namespace warpsim::ptxgen {

namespace {

constexpr TypeInfo kTypes[] = {
    {"b8", RK::B16, Fl::Int, 8, false},        {"u8", RK::B16, Fl::Int, 8, false},
    {"s8", RK::B16, Fl::Int, 8, true},         {"b16", RK::B16, Fl::Int, 16, false},
    {"u16", RK::B16, Fl::Int, 16, false},      {"s16", RK::B16, Fl::Int, 16, true},
    {"f16", RK::B16, Fl::F16, 16, true},       {"bf16", RK::B16, Fl::BF16, 16, true},
    {"e4m3x2", RK::B16, Fl::Int, 16, false},   {"e5m2x2", RK::B16, Fl::Int, 16, false},
    {"b32", RK::B32, Fl::Int, 32, false},      {"u32", RK::B32, Fl::Int, 32, false},
    {"s32", RK::B32, Fl::Int, 32, true},       {"f16x2", RK::B32, Fl::F16x2, 32, true},
    {"bf16x2", RK::B32, Fl::BF16x2, 32, true}, {"tf32", RK::B32, Fl::Int, 32, false},
    {"u16x2", RK::B32, Fl::Int, 32, false},    {"s16x2", RK::B32, Fl::Int, 32, true},
    {"b64", RK::B64, Fl::Int, 64, false},      {"u64", RK::B64, Fl::Int, 64, false},
    {"s64", RK::B64, Fl::Int, 64, true},       {"f32", RK::F32, Fl::Float, 32, true},
    {"f64", RK::F64, Fl::Float, 64, true},     {"pred", RK::Pred, Fl::Pred, 1, false},
};

constexpr const char* kPrefix[kRegKinds] = {"%h", "%r", "%rd", "%f", "%fd", "%p"};
constexpr const char* kDecl[kRegKinds] = {".b16", ".b32", ".b64", ".f32", ".f64", ".pred"};
// Pool sizes drawn per program: [min, max] per kind. At least two of each so that d|p pairs
// and unpacks have distinct destinations (the four-way b64 unpack needs four b16: only drawn
// where the pool has them).
constexpr unsigned kPoolMin[kRegKinds] = {2, 3, 2, 2, 2, 2};
constexpr unsigned kPoolMax[kRegKinds] = {4, 6, 4, 4, 3, 4};

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llX", static_cast<unsigned long long>(v));
  return b;
}

InputKind inputKindOf(RK k, Fl f) {
  switch (k) {
    case RK::B16:
      return f == Fl::F16 ? InputKind::F16 : f == Fl::BF16 ? InputKind::BF16 : InputKind::Int16;
    case RK::B32:
      return f == Fl::F16x2    ? InputKind::F16x2
             : f == Fl::BF16x2 ? InputKind::BF16x2
                               : InputKind::Int32;
    case RK::B64:
      return InputKind::Int64;
    case RK::F32:
      return InputKind::F32;
    case RK::F64:
      return InputKind::F64;
    case RK::Pred:
      return InputKind::Pred;
  }
  return InputKind::Int32;
}

}  // namespace

std::string args(std::initializer_list<std::string> operands) {
  std::string s;
  for (const std::string& o : operands) {
    if (!s.empty()) s += ',';
    s += o;
  }
  return s;
}

const TypeInfo& typeInfo(const std::string& name) {
  for (const auto& t : kTypes)
    if (name == t.name) return t;
  throw std::logic_error("ptxgen: unknown type " + name);
}

// The engine's seed is a mix of the program seed, so that neighbouring seeds start far apart.
Builder::Builder(uint64_t seed, const GenOptions& o)
    : options(o), rng(seed * 0x9E3779B97F4A7C15ull + 0x5851F42D4C957F2Dull), seed_(seed) {
  for (unsigned k = 0; k < kRegKinds; ++k) {
    const unsigned n = kPoolMin[k] + below(kPoolMax[k] - kPoolMin[k] + 1);
    for (unsigned i = 0; i < n; ++i) {
      RegState r;
      r.name = kPrefix[k] + std::to_string(i);
      r.kind = RK(k);
      switch (RK(k)) {
        case RK::B16:
          r.flavour = pick({Fl::Int, Fl::F16, Fl::BF16});
          break;
        case RK::B32:
          r.flavour = pick({Fl::Int, Fl::Int, Fl::Int, Fl::F16x2, Fl::BF16x2});
          break;
        case RK::Pred:
          r.flavour = Fl::Pred;
          break;
        case RK::B64:
          r.flavour = Fl::Int;
          break;
        default:
          r.flavour = Fl::Float;
          break;
      }
      r.initial = r.flavour;
      pool_[k].push_back(r);
    }
  }
}

// ---- operands ------------------------------------------------------------------------------

// Sources of one instruction are distinct where the pool allows (max(x, x) tests little); the
// same register twice stays possible now and then.
std::string Builder::src(RK k, Fl prefer) { return pickSource(k, &prefer); }
std::string Builder::src(RK k) { return pickSource(k, nullptr); }

std::string Builder::pickSource(RK k, const Fl* prefer) {
  auto& p = pool_[unsigned(k)];
  const bool allowRepeat = percent(8);
  std::vector<RegState*> same, fresh;
  for (auto& r : p) {
    if (!allowRepeat && std::find(usedSrc_.begin(), usedSrc_.end(), r.name) != usedSrc_.end())
      continue;
    fresh.push_back(&r);
    if (prefer && r.flavour == *prefer) same.push_back(&r);
  }
  RegState* r;
  if (!same.empty() && percent(80))
    r = same[below(uint32_t(same.size()))];
  else if (!fresh.empty())
    r = fresh[below(uint32_t(fresh.size()))];
  else
    r = &p[below(uint32_t(p.size()))];
  r->read = true;
  usedSrc_.push_back(r->name);
  return r->name;
}

std::string Builder::srcT(const std::string& type, unsigned immPercent) {
  const TypeInfo& t = typeInfo(type);
  const bool packed = type.size() > 2 && type.compare(type.size() - 2, 2, "x2") == 0;
  // At most one immediate per instruction: with two, ptxas would compute the result itself.
  if (immPercent && !packed && !immUsed_ && percent(immPercent)) {
    immUsed_ = true;
    if (t.flavour == Fl::Int && t.kind != RK::Pred) return intImm(t.bits, t.isSigned);
    if (t.kind == RK::F32) return f32Imm();
    if (t.kind == RK::F64) return f64Imm();
    immUsed_ = false;
  }
  return src(t.kind, t.flavour);
}

std::string Builder::predSrc(unsigned negPercent) {
  const std::string p = src(RK::Pred);
  return percent(negPercent) ? "!" + p : p;
}

std::string Builder::dst(RK k, Fl f, const std::vector<std::string>& avoid) {
  auto& p = pool_[unsigned(k)];
  std::vector<RegState*> all, spent;
  for (auto& r : p) {
    if (std::find(avoid.begin(), avoid.end(), r.name) != avoid.end()) continue;
    all.push_back(&r);
    // Overwriting a result nobody has read would hide it from the output: prefer registers
    // whose value is an input, or a result that already flowed into another instruction.
    if (!r.fromInstr || r.read) spent.push_back(&r);
  }
  if (all.empty()) throw std::logic_error("ptxgen: no destination register left");
  RegState* r = !spent.empty() && percent(85) ? spent[below(uint32_t(spent.size()))]
                                              : all[below(uint32_t(all.size()))];
  r->flavour = f;
  pendingDst_.push_back(r->name);
  return r->name;
}

std::string Builder::dstT(const std::string& type) {
  const TypeInfo& t = typeInfo(type);
  return dst(t.kind, t.flavour);
}

// ---- immediates ----------------------------------------------------------------------------

std::string Builder::u32Imm(uint32_t v) const { return v < 1000 ? std::to_string(v) : hex(v); }

std::string Builder::intImm(unsigned bits, bool isSigned) {
  const uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  const uint64_t top = uint64_t(1) << (bits - 1);
  uint64_t v;
  switch (below(8)) {
    case 0:
      v = below(9);
      break;
    case 1:
      v = uint64_t(-int64_t(1 + below(3))) & mask;
      break;
    case 2:
      v = bits - 1 + below(3);
      break;
    case 3:
      v = top;
      break;
    case 4:
      v = top - 1;
      break;
    case 5:
      v = mask;
      break;
    case 6:
      v = uint64_t(1) << below(bits);
      break;
    default:
      v = rng.bits64() & mask;
      break;
  }
  if (isSigned) {
    // Negative values in decimal; the most negative one in hex (its decimal magnitude does not
    // fit the signed range ptxas parses it in).
    const int64_t s = (v & top) ? int64_t(v | ~mask) : int64_t(v);
    if (s < 0 && v == top && bits == 64) return hex(v);
    return std::to_string(s);
  }
  return v < 1000 ? std::to_string(v) : hex(v);
}

std::string Builder::shiftImm(unsigned width) {
  switch (below(4)) {
    case 0:
      return std::to_string(width - 1 + below(3));
    case 1:
      return std::to_string(below(2 * width + 2));
    default:
      return std::to_string(below(width));
  }
}

std::string Builder::f32Imm() {
  // sign * 1.f * 2^e with f != 0 or |e| >= 2: never 0, +-1, +-2, +-0.5 (identities ptxas might
  // simplify around, which would hide the instruction), never NaN or infinity.
  uint32_t frac = rng.bits32() & 0x7FFFFF;
  int e = int(below(41)) - 20;
  if (!frac && e >= -1 && e <= 1) frac = 0x400000;
  const uint32_t b = (rng.bits32() & 0x80000000u) | uint32_t(e + 127) << 23 | frac;
  char s[16];
  std::snprintf(s, sizeof s, "0f%08X", b);
  return s;
}

std::string Builder::f64Imm() {
  uint64_t frac = rng.bits64() & 0xFFFFFFFFFFFFFull;
  int e = int(below(81)) - 40;
  if (!frac && e >= -1 && e <= 1) frac = 0x8000000000000ull;
  const uint64_t b = (rng.bits64() & 0x8000000000000000ull) | uint64_t(e + 1023) << 52 | frac;
  char s[24];
  std::snprintf(s, sizeof s, "0d%016llX", static_cast<unsigned long long>(b));
  return s;
}

// ---- emission ------------------------------------------------------------------------------

Builder::RegState* Builder::find(const std::string& name) {
  for (auto& p : pool_)
    for (auto& r : p)
      if (r.name == name) return &r;
  return nullptr;
}

void Builder::emit(const std::string& form, const std::string& operands) {
  const bool conditional = !pendingGuard_.empty() || depth_ > 0 || memberRegion_ > 0;
  const int line = int(body_.size());
  body_.push_back(pendingGuard_ + form + " " + operands + ";");
  forms_.push_back(form);
  for (const std::string& d : pendingDst_) {
    RegState* r = find(d);
    if (!conditional) r->writers.clear();
    r->writers.push_back(line);
    r->fromInstr = true;
    r->read = false;
  }
  pendingDst_.clear();
  pendingGuard_.clear();
  usedSrc_.clear();
  immUsed_ = false;
}

void Builder::emitRaw(const std::string& line) {
  body_.push_back(line);
  usedSrc_.clear();
  immUsed_ = false;
}

std::string Builder::newLabel() { return "$L" + std::to_string(labels_++); }

void Builder::label(const std::string& name) { body_.push_back(name + ":"); }

void Builder::guardNext() { pendingGuard_ = "@" + predSrc(40) + " "; }

// ---- the frame -----------------------------------------------------------------------------

GeneratedProgram Builder::finish() {
  GeneratedProgram g;
  g.seed = seed_;
  g.blockSize = blockSize;
  g.gridSize = gridSize;
  std::vector<const RegState*> order;
  for (const auto& p : pool_)
    for (const auto& r : p) order.push_back(&r);
  g.words = unsigned(order.size());

  std::string s;
  s.reserve(4096);
  s += "// ptxgen " + std::to_string(kGeneratorVersion) + " seed " + std::to_string(seed_) + "\n";
  s += ".version 9.0\n.target sm_90\n.address_size 64\n";
  if (sharedSlots)
    s += ".shared .align 8 .b8 sm[" + std::to_string(sharedSlots * 8 * blockSize) + "];\n";
  s += ".visible .entry isa_prog(.param .u64 in, .param .u64 out)\n{\n";
  for (unsigned k = 0; k < kRegKinds; ++k)
    s += ".reg " + std::string(kDecl[k]) + " " + kPrefix[k] + "<" +
         std::to_string(pool_[k].size()) + ">;\n";
  s += ".reg .b64 %a<3>;\n.reg .b32 %t<3>,%tx,%ln,%lm,%sa,%sb;\n.reg .pred %q;\n";
  if (options.contract) s += ".reg .f32 %cf<2>;\n.reg .f64 %cd<2>;\n";  // products (ops_float.cpp)
  // The addresses of this thread's words: in + gtid*8*words, out + gtid*8*words.
  s += "ld.param.u64 %a0,[in];\nld.param.u64 %a1,[out];\n";
  s += "cvta.to.global.u64 %a0,%a0;\ncvta.to.global.u64 %a1,%a1;\n";
  s += "mov.u32 %tx,%tid.x;\nmov.u32 %ln,%laneid;\nmov.u32 %lm,%lanemask_eq;\n";
  s += "mov.u32 %t0,%ctaid.x;\nmov.u32 %t1,%ntid.x;\nmad.lo.s32 %t0,%t0,%t1,%tx;\n";
  s += "mul.wide.u32 %a2,%t0," + std::to_string(8 * g.words) + ";\n";
  s += "add.s64 %a0,%a0,%a2;\nadd.s64 %a1,%a1,%a2;\n";
  if (sharedSlots) s += "mov.u32 %sb,sm;\nshl.b32 %t0,%tx,3;\nadd.s32 %sa,%sb,%t0;\n";
  for (unsigned i = 0; i < order.size(); ++i) {
    const RegState& r = *order[i];
    const std::string at = i ? "[%a0+" + std::to_string(8 * i) + "]" : "[%a0]";
    g.inputs.push_back(inputKindOf(r.kind, r.initial));
    switch (r.kind) {
      case RK::Pred:
        s += "ld.global.u32 %t0," + at + ";\nsetp.ne.b32 " + r.name + ",%t0,0;\n";
        break;
      default:
        s += "ld.global" + std::string(kDecl[unsigned(r.kind)]) + " " + r.name + "," + at + ";\n";
    }
  }
  for (const std::string& line : body_) s += line + "\n";
  for (unsigned i = 0; i < order.size(); ++i) {
    const RegState& r = *order[i];
    const std::string at = i ? "[%a1+" + std::to_string(8 * i) + "]" : "[%a1]";
    if (r.kind == RK::Pred)
      s += "selp.u32 %t0,1,0," + r.name + ";\nst.global.u32 " + at + ",%t0;\n";
    else
      s += "st.global" + std::string(kDecl[unsigned(r.kind)]) + " " + at + "," + r.name + ";\n";
    OutputWord w;
    w.reg = r.name;
    for (auto it = r.writers.rbegin(); it != r.writers.rend(); ++it)
      w.writers.push_back(body_[*it]);
    g.outputs.push_back(w);
  }
  s += "ret;\n}\n";
  g.ptx = std::move(s);
  std::set<std::string> forms(forms_.begin(), forms_.end()),
      fams(families_.begin(), families_.end());
  g.forms.assign(forms.begin(), forms.end());
  g.families.assign(fams.begin(), fams.end());
  return g;
}

}  // namespace warpsim::ptxgen
