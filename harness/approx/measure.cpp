// Running a form over an input set on a backend (a one-instruction kernel), and comparing.
#include <cmath>
#include <cstring>

#include "harness/approx/approx.h"
#include "harness/compare.h"
#include "isa/fp.h"

namespace warpsim::harness::approx {

namespace {

using kernels::ElemType;

unsigned widthOf(ElemType t) { return kernels::elemBytes(t); }

// out[i] = f(a[i] (, b[i])) over n threads.
std::string kernelFor(const Function& f) {
  const unsigned w = widthOf(f.type);
  const std::string reg = w == 2 ? ".b16" : w == 4 ? ".f32" : ".f64";
  const std::string ld = w == 2 ? "ld.global.b16" : w == 4 ? "ld.global.f32" : "ld.global.f64";
  const std::string st = w == 2 ? "st.global.b16" : w == 4 ? "st.global.f32" : "st.global.f64";
  std::string p =
      ".version 9.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry approx_eval(.param .u64 pa, .param .u64 pb, .param .u64 pout, "
      ".param .u32 n)\n{\n"
      ".reg .b32 %i,%c,%t,%n;\n.reg .b64 %o,%a,%b,%d;\n.reg .pred %q;\n.reg " +
      reg + " %x,%y,%z;\n";
  p += "mov.u32 %c,%ctaid.x;\nmov.u32 %n,%ntid.x;\nmov.u32 %t,%tid.x;\n";
  p += "mad.lo.s32 %i,%c,%n,%t;\nld.param.u32 %n,[n];\nsetp.ge.u32 %q,%i,%n;\n@%q ret;\n";
  p += "ld.param.u64 %a,[pa];\nld.param.u64 %b,[pb];\nld.param.u64 %d,[pout];\n";
  p += "cvta.to.global.u64 %a,%a;\ncvta.to.global.u64 %b,%b;\ncvta.to.global.u64 %d,%d;\n";
  p += "mul.wide.u32 %o,%i," + std::to_string(w) + ";\n";
  p += "add.s64 %a,%a,%o;\nadd.s64 %b,%b,%o;\nadd.s64 %d,%d,%o;\n";
  p += ld + " %x,[%a];\n";
  if (f.arity == 2)
    p += ld + " %y,[%b];\n" + f.name + " %z,%x,%y;\n";
  else
    p += f.name + " %z,%x;\n";
  p += st + " [%d],%z;\nret;\n}\n";
  return p;
}

std::vector<uint8_t> pack(const std::vector<uint64_t>& v, unsigned w) {
  std::vector<uint8_t> bytes(v.size() * w);
  for (size_t i = 0; i < v.size(); ++i) std::memcpy(bytes.data() + i * w, &v[i], w);
  return bytes;
}

long double valueOf(ElemType t, uint64_t bits) {
  switch (t) {
    case ElemType::F16:
      return fp::f16ToF32(uint16_t(bits));
    case ElemType::BF16:
      return fp::bf16ToF32(uint16_t(bits));
    case ElemType::F32:
      return fp::f32(uint32_t(bits));
    default:
      return fp::f64(bits);
  }
}

bool isNaNBits(ElemType t, uint64_t bits) { return std::isnan(valueOf(t, bits)); }

int minExponent(ElemType t) { return t == ElemType::F16 ? -14 : t == ElemType::F64 ? -1022 : -126; }
long double minNormal(ElemType t) { return std::ldexp(1.0L, minExponent(t)); }

// The unit in the last place of the format at |v| (subnormal spacing below the normal range).
long double ulpAt(ElemType t, long double v) {
  const int mant = t == ElemType::F16 ? 10 : t == ElemType::BF16 ? 7 : t == ElemType::F32 ? 23 : 52;
  const int minExp = minExponent(t);
  int e = v == 0 ? minExp : std::ilogb(v);
  if (e < minExp) e = minExp;
  return std::ldexp(1.0L, e - mant);
}

}  // namespace

std::vector<uint64_t> evaluate(Backend& backend, const Function& f, const InputSet& set) {
  const unsigned w = widthOf(f.type);
  const size_t n = set.a.size();
  backend.loadModule(kernelFor(f), f.name + ".ptx");
  const uint64_t a = backend.allocate(n * w, "a"), out = backend.allocate(n * w, "out");
  const uint64_t b = f.arity == 2 ? backend.allocate(n * w, "b") : a;
  backend.copyIn(a, pack(set.a, w).data(), n * w);
  if (f.arity == 2) backend.copyIn(b, pack(set.b, w).data(), n * w);
  LaunchSpec spec;
  spec.entry = "approx_eval";
  constexpr unsigned kBlock = 256;
  spec.grid = {unsigned((n + kBlock - 1) / kBlock), 1, 1};
  spec.block = {kBlock, 1, 1};
  auto u64 = [](uint64_t v) {
    std::vector<uint8_t> x(8);
    std::memcpy(x.data(), &v, 8);
    return x;
  };
  std::vector<uint8_t> count(4);
  const uint32_t n32 = uint32_t(n);
  std::memcpy(count.data(), &n32, 4);
  spec.args = {u64(a), u64(b), u64(out), count};
  const LaunchOutcome o = backend.launch(spec);
  if (o.fault)
    throw std::runtime_error(f.name + ": the evaluation kernel faulted: " + o.fault->message);
  std::vector<uint8_t> bytes(n * w);
  backend.copyOut(bytes.data(), out, n * w);
  backend.free(a);
  backend.free(out);
  if (f.arity == 2) backend.free(b);
  std::vector<uint64_t> v(n, 0);
  for (size_t i = 0; i < n; ++i) std::memcpy(&v[i], bytes.data() + i * w, w);
  return v;
}

Agreement compare(const Function& f, const InputSet& set, const std::vector<uint64_t>& gpu,
                  const std::vector<uint64_t>& sim) {
  Agreement g;
  g.inputs = gpu.size();
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (gpu[i] == sim[i]) {
      ++g.exact;
      continue;
    }
    const bool gn = isNaNBits(f.type, gpu[i]), sn = isNaNBits(f.type, sim[i]);
    if (gn && sn) {
      ++g.bothNaN;
      continue;
    }
    if (gn || sn) {
      ++g.nanVsNumber;
      continue;
    }
    const uint64_t d = ulpDistance(f.type, gpu[i], sim[i]);
    ++g.ulpHistogram[d == 1 ? 0 : d == 2 ? 1 : d < 16 ? 2 : 3];
    if (d > g.maxUlp) {
      g.maxUlp = d;
      g.worstInput = set.a[i];
      g.worstGpu = gpu[i];
      g.worstSim = sim[i];
    }
  }
  return g;
}

Error errorOf(const Function& f, const InputSet& set, const std::vector<uint64_t>& out) {
  Error e;
  for (size_t i = 0; i < out.size(); ++i) {
    const long double a = valueOf(f.type, set.a[i]);
    const long double b = f.arity == 2 ? valueOf(f.type, set.b[i]) : 0.0L;
    if (f.errorRange > 0 && std::fabs(a) > f.errorRange) continue;
    const long double ref = f.exact(a, b), got = valueOf(f.type, out[i]);
    if (!std::isfinite(ref) || !std::isfinite(got)) continue;
    // Results the format cannot hold as normal numbers (flushed or subnormal) say nothing
    // about the approximation.
    if (std::fabs(ref) < minNormal(f.type)) continue;
    const long double err = std::fabs(got - ref);
    const double u = double(err / ulpAt(f.type, std::fabs(ref)));
    if (u > e.maxUlp) {
      e.maxUlp = u;
      e.worstInput = set.a[i];
    }
    e.maxAbs = std::max(e.maxAbs, double(err));
  }
  return e;
}

std::unique_ptr<Backend> makeSimulator() { return makeSimBackend(); }

}  // namespace warpsim::harness::approx
