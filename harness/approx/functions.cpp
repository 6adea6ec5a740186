// The table of measured .approx forms and their input sets.
#include <cmath>
#include <cstring>

#include "harness/approx/approx.h"

namespace warpsim::harness::approx {

namespace {

using kernels::ElemType;

long double ex2(long double a, long double) { return exp2l(a); }
long double lg2(long double a, long double) { return log2l(a); }
long double rcp(long double a, long double) { return 1.0L / a; }
long double rsqrt(long double a, long double) { return 1.0L / sqrtl(a); }
long double sqrtF(long double a, long double) { return sqrtl(a); }
long double sinF(long double a, long double) { return sinl(a); }
long double cosF(long double a, long double) { return cosl(a); }
long double tanhF(long double a, long double) { return tanhl(a); }
long double divF(long double a, long double b) { return a / b; }

// splitmix64: the sets are a function of the function's name alone.
struct Mix {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double unit() { return double(next() >> 11) * 0x1p-53; }
};

uint64_t seedOf(const std::string& name) {
  uint64_t h = 1469598103934665603ull;
  for (char c : name) h = (h ^ uint8_t(c)) * 1099511628211ull;
  return h;
}

uint64_t bitsOf(ElemType t, double v) {
  if (t == ElemType::F64) {
    uint64_t u;
    std::memcpy(&u, &v, 8);
    return u;
  }
  const float f = float(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Keeps every k-th element so that at most `limit` remain (limit 0: all).
void thin(std::vector<uint64_t>& v, size_t limit) {
  if (!limit || v.size() <= limit) return;
  const size_t k = (v.size() + limit - 1) / limit;
  size_t j = 0;
  for (size_t i = 0; i < v.size(); i += k) v[j++] = v[i];
  v.resize(j);
}

constexpr size_t kRandom = size_t{1} << 20;
constexpr size_t kF64Binade = size_t{1} << 20;

}  // namespace

const std::vector<Function>& functions() {
  static const std::vector<Function> table = [] {
    std::vector<Function> t;
    auto f32 = [&](const std::string& name, unsigned lo, unsigned hi, auto fn, double rlo,
                   double rhi, bool abs = false, unsigned arity = 1) {
      Function f;
      f.name = name;
      f.type = ElemType::F32;
      f.arity = arity;
      f.loExp = lo, f.hiExp = hi;
      f.exact = fn;
      f.absoluteError = abs;
      f.rangeLo = rlo, f.rangeHi = rhi;
      // sin/cos: PTX bounds the error over [-100 pi, 100 pi] only ("best effort" beyond).
      if (abs && rhi == 100) f.errorRange = 100 * M_PI;
      t.push_back(f);
    };
    for (const char* ftz : {"", ".ftz"}) {
      const std::string s = ftz;
      f32("ex2.approx" + s + ".f32", 127, 128, ex2, -127, 128);
      f32("lg2.approx" + s + ".f32", 127, 128, lg2, 0, 4, true);
      f32("rcp.approx" + s + ".f32", 127, 128, rcp, -4, 4);
      f32("rsqrt.approx" + s + ".f32", 127, 129, rsqrt, 0, 4);
      f32("sqrt.approx" + s + ".f32", 127, 129, sqrtF, 0, 4);
      f32("sin.approx" + s + ".f32", 127, 128, sinF, -100, 100, true);
      f32("cos.approx" + s + ".f32", 127, 128, cosF, -100, 100, true);
      f32("div.approx" + s + ".f32", 127, 128, divF, -4, 4, false, 2);
      f32("div.full" + s + ".f32", 127, 128, divF, -4, 4, false, 2);
    }
    f32("tanh.approx.f32", 126, 127, tanhF, -10, 10);
    auto other = [&](const char* name, ElemType type, unsigned lo, unsigned hi, auto fn, double rlo,
                     double rhi) {
      Function f;
      f.name = name;
      f.type = type;
      f.loExp = lo, f.hiExp = hi;
      f.exact = fn;
      f.rangeLo = rlo, f.rangeHi = rhi;
      t.push_back(f);
    };
    other("rcp.approx.ftz.f64", ElemType::F64, 1023, 1024, rcp, -4, 4);
    other("rsqrt.approx.f64", ElemType::F64, 1023, 1025, rsqrt, 0, 4);
    other("rsqrt.approx.ftz.f64", ElemType::F64, 1023, 1025, rsqrt, 0, 4);
    other("ex2.approx.f16", ElemType::F16, 0, 0, ex2, 0, 0);
    other("tanh.approx.f16", ElemType::F16, 0, 0, tanhF, 0, 0);
    other("ex2.approx.ftz.bf16", ElemType::BF16, 0, 0, ex2, 0, 0);
    other("tanh.approx.bf16", ElemType::BF16, 0, 0, tanhF, 0, 0);
    return t;
  }();
  return table;
}

const Function* findFunction(const std::string& name) {
  for (const Function& f : functions())
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<InputSet> inputSets(const Function& f, size_t limit) {
  Mix rng{seedOf(f.name)};
  std::vector<InputSet> sets;
  if (f.type == ElemType::F16 || f.type == ElemType::BF16) {
    InputSet all{"all 65536", {}, {}};
    for (uint64_t h = 0; h < 65536; ++h) all.a.push_back(h);
    thin(all.a, limit);
    return {all};
  }
  const bool f64 = f.type == ElemType::F64;
  const unsigned mant = f64 ? 52 : 23;
  InputSet binade;
  binade.name = "binade [" + std::to_string(std::ldexp(1.0, int(f.loExp) - (f64 ? 1023 : 127))) +
                "," + std::to_string(std::ldexp(1.0, int(f.hiExp) - (f64 ? 1023 : 127))) + ")";
  // Drop the trailing zeros of the decimal bounds: "[1.000000,2.000000)" -> "[1,2)".
  for (const char* z : {".000000", "00000", "0000"})
    for (size_t p; (p = binade.name.find(z)) != std::string::npos;) binade.name.erase(p, strlen(z));
  if (!f64) {
    for (uint64_t e = f.loExp; e < f.hiExp; ++e)
      for (uint64_t m = 0; m < (uint64_t{1} << mant); ++m) binade.a.push_back((e << mant) | m);
  } else {
    for (size_t i = 0; i < kF64Binade; ++i) {
      const uint64_t e = f.loExp + rng.next() % (f.hiExp - f.loExp);
      binade.a.push_back((e << mant) | (rng.next() & ((uint64_t{1} << mant) - 1)));
    }
  }
  if (f.arity == 2) {
    // Every divisor of the binade; dividends with random significands in [1, 2).
    binade.b = binade.a;
    for (uint64_t& a : binade.a) a = (uint64_t{127} << 23) | (rng.next() & 0x7FFFFF);
  }
  InputSet random;
  random.name = "random";
  auto draw = [&]() -> uint64_t {
    // Half uniform bit patterns (every class: NaN, inf, subnormal, both signs), half uniform
    // values of the function's working range.
    if (rng.next() & 1) return f64 ? rng.next() : (rng.next() & 0xFFFFFFFFull);
    return bitsOf(f.type, f.rangeLo + (f.rangeHi - f.rangeLo) * rng.unit());
  };
  for (size_t i = 0; i < kRandom; ++i) {
    random.a.push_back(draw());
    if (f.arity == 2) random.b.push_back(draw());
  }
  for (InputSet* s : {&binade, &random}) {
    thin(s->a, limit);
    thin(s->b, limit);
    sets.push_back(std::move(*s));
  }
  return sets;
}

}  // namespace warpsim::harness::approx
