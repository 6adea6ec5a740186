#include "harness/arg_spec.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>

#include "isa/fp.h"
#include "kernels/random.h"

namespace warpsim::harness {

using kernels::ElemType;

namespace {

std::optional<ElemType> typeNamed(const std::string& s) {
  static constexpr std::pair<const char*, ElemType> kTypes[] = {
      {"u8", ElemType::U8},     {"s8", ElemType::S8},   {"u16", ElemType::U16},
      {"s16", ElemType::S16},   {"u32", ElemType::U32}, {"s32", ElemType::S32},
      {"u64", ElemType::U64},   {"s64", ElemType::S64}, {"f16", ElemType::F16},
      {"bf16", ElemType::BF16}, {"f32", ElemType::F32}, {"f64", ElemType::F64}};
  for (const auto& [n, t] : kTypes)
    if (s == n) return t;
  return std::nullopt;
}

bool isFloat(ElemType t) {
  return t == ElemType::F16 || t == ElemType::BF16 || t == ElemType::F32 || t == ElemType::F64;
}

[[noreturn]] void bad(size_t position, const std::string& text, const std::string& why) {
  throw ArgError("--arg " + std::to_string(position) + " '" + text + "': " + why);
}

double parseNumber(const std::string& s, size_t position, const std::string& text) {
  try {
    size_t used = 0;
    double v;
    if (s.size() > 2 && (s[0] == '0' || s[0] == '-') && s.find_first_of("xX") != std::string::npos)
      v = double(std::stoll(s, &used, 16));
    else
      v = std::stod(s, &used);
    if (used != s.size()) throw std::invalid_argument("trailing");
    return v;
  } catch (const std::exception&) {
    bad(position, text, "'" + s + "' is not a number");
  }
}

// The bits of value `v` as an element of type t (integers wrap, floats round to nearest).
uint64_t elementFrom(double v, ElemType t, long long iv, bool useInt) {
  switch (t) {
    case ElemType::F16:
      return fp::f64ToF16(v, fp::Round::RN);
    case ElemType::BF16:
      return fp::f64ToBF16(v, fp::Round::RN);
    case ElemType::F32:
      return fp::bits(float(v));
    case ElemType::F64:
      return fp::bits(v);
    default:
      return useInt ? uint64_t(iv) : uint64_t(int64_t(v));
  }
}

uint64_t parseScalarBits(const std::string& s, ElemType t, size_t position,
                         const std::string& text) {
  if (!isFloat(t)) {
    try {
      size_t used = 0;
      const bool neg = !s.empty() && s[0] == '-';
      const unsigned long long u =
          neg ? (unsigned long long)std::stoll(s, &used, 0) : std::stoull(s, &used, 0);
      if (used != s.size()) throw std::invalid_argument("trailing");
      return u;
    } catch (const std::exception&) {
      bad(position, text, "'" + s + "' is not an integer");
    }
  }
  return elementFrom(parseNumber(s, position, text), t, 0, false);
}

std::vector<std::string> splitArgs(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  if (!cur.empty() || !out.empty()) out.push_back(cur);
  return out;
}

void putElement(kernels::HostBuffer& b, uint64_t i, uint64_t bits) {
  const unsigned n = kernels::elemBytes(b.type);
  std::memcpy(b.bytes.data() + i * n, &bits, n);
}

}  // namespace

kernels::Dim3 parseDim3(const std::string& text, const std::string& option) {
  kernels::Dim3 d;
  uint32_t* parts[3] = {&d.x, &d.y, &d.z};
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const size_t comma = text.find(',', start);
    const std::string p =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    try {
      size_t used = 0;
      const unsigned long v = std::stoul(p, &used);
      if (used != p.size() || v == 0 || v > 0xFFFFFFFFul) throw std::invalid_argument("range");
      *parts[i] = uint32_t(v);
    } catch (const std::exception&) {
      throw ArgError(option + " '" + text + "': expected X[,Y[,Z]] with positive integers");
    }
    if (comma == std::string::npos) return d;
    start = comma + 1;
    if (i == 2) break;
  }
  throw ArgError(option + " '" + text + "': at most three dimensions");
}

ParsedArg parseArg(const std::string& text, size_t position, size_t bufferIndex) {
  ParsedArg out;
  std::string rest = text;
  std::string name;
  const size_t eq = rest.find('=');
  const size_t bracket = rest.find('[');
  if (eq != std::string::npos && (bracket == std::string::npos || eq < bracket)) {
    name = rest.substr(0, eq);
    rest = rest.substr(eq + 1);
  }
  if (bracket == std::string::npos) {  // a scalar TYPE:VALUE
    const size_t colon = rest.find(':');
    if (colon == std::string::npos)
      bad(position, text, "expected TYPE:VALUE or TYPE[COUNT][:INIT]");
    const auto t = typeNamed(rest.substr(0, colon));
    if (!t) bad(position, text, "unknown type '" + rest.substr(0, colon) + "'");
    const uint64_t bits = parseScalarBits(rest.substr(colon + 1), *t, position, text);
    out.arg.kind = kernels::KernelArg::Kind::Scalar;
    out.arg.scalar.resize(kernels::elemBytes(*t));
    std::memcpy(out.arg.scalar.data(), &bits, out.arg.scalar.size());
    return out;
  }
  const size_t b0 = rest.find('['), b1 = rest.find(']');
  if (b1 == std::string::npos || b1 < b0) bad(position, text, "missing ']'");
  const auto t = typeNamed(rest.substr(0, b0));
  if (!t) bad(position, text, "unknown type '" + rest.substr(0, b0) + "'");
  const std::string countText = rest.substr(b0 + 1, b1 - b0 - 1);
  std::string init = b1 + 1 < rest.size() ? rest.substr(b1 + 1) : "";
  if (!init.empty()) {
    if (init[0] != ':') bad(position, text, "expected ':INIT' after ']'");
    init = init.substr(1);
  }
  std::string fn = init, params;
  if (const size_t p = init.find('('); p != std::string::npos) {
    if (init.back() != ')') bad(position, text, "missing ')' in '" + init + "'");
    fn = init.substr(0, p);
    params = init.substr(p + 1, init.size() - p - 2);
  }
  kernels::HostBuffer& b = out.buffer;
  b.type = *t;
  b.name = name.empty() ? "arg" + std::to_string(position) : name;
  b.isOutput = true;
  const unsigned eb = kernels::elemBytes(*t);
  uint64_t count = 0;
  if (!countText.empty()) {
    try {
      size_t used = 0;
      count = std::stoull(countText, &used, 0);
      if (used != countText.size()) throw std::invalid_argument("x");
    } catch (const std::exception&) {
      bad(position, text, "'" + countText + "' is not an element count");
    }
    if (count > (1ull << 32)) bad(position, text, "more than 2^32 elements");
  } else if (fn != "file") {
    bad(position, text, "an element count is needed unless the buffer comes from a file");
  }
  b.bytes.assign(count * eb, 0);
  const std::vector<std::string> p = splitArgs(params);
  if (fn.empty() || fn == "zeros") {
    if (!p.empty()) bad(position, text, "zeros takes no parameters");
  } else if (fn == "iota") {
    const double start = p.size() > 0 ? parseNumber(p[0], position, text) : 0;
    const double step = p.size() > 1 ? parseNumber(p[1], position, text) : 1;
    for (uint64_t i = 0; i < count; ++i) {
      const double v = start + step * double(i);
      putElement(b, i, elementFrom(v, *t, (long long)std::llround(v), !isFloat(*t)));
    }
  } else if (fn == "const" || fn == "fill") {
    if (p.size() != 1) bad(position, text, fn + " takes one value");
    const uint64_t bits = parseScalarBits(p[0], *t, position, text);
    for (uint64_t i = 0; i < count; ++i) putElement(b, i, bits);
  } else if (fn == "random") {
    if (p.empty() || p.size() > 3) bad(position, text, "random takes SEED[,LO,HI]");
    const uint64_t seed = uint64_t(parseNumber(p[0], position, text));
    double lo = isFloat(*t) ? -1.0 : 0.0, hi = isFloat(*t) ? 1.0 : 100.0;
    if (p.size() == 3) {
      lo = parseNumber(p[1], position, text);
      hi = parseNumber(p[2], position, text);
    } else if (p.size() == 2) {
      bad(position, text, "random takes SEED or SEED,LO,HI");
    }
    if (!(lo <= hi)) bad(position, text, "random needs LO <= HI");
    kernels::Rng rng(seed);
    for (uint64_t i = 0; i < count; ++i) {
      if (isFloat(*t)) {
        putElement(b, i, elementFrom(rng.f64(lo, hi), *t, 0, false));
      } else {
        const long long v = (long long)std::floor(rng.f64(lo, hi + 1));
        putElement(b, i, uint64_t(std::min<long long>(v, (long long)hi)));
      }
    }
  } else if (fn == "file") {
    if (p.size() != 1 || p[0].empty()) bad(position, text, "file takes a path");
    std::ifstream f(p[0], std::ios::binary);
    if (!f) bad(position, text, "cannot open '" + p[0] + "'");
    std::vector<uint8_t> data((std::istreambuf_iterator<char>(f)),
                              std::istreambuf_iterator<char>());
    if (data.size() % eb)
      bad(position, text,
          "'" + p[0] + "' holds " + std::to_string(data.size()) +
              " bytes, not a whole number of elements");
    if (countText.empty())
      b.bytes = std::move(data);
    else if (data.size() < b.bytes.size())
      bad(position, text, "'" + p[0] + "' is shorter than " + std::to_string(count) + " elements");
    else
      std::memcpy(b.bytes.data(), data.data(), b.bytes.size());
  } else {
    bad(position, text, "unknown initializer '" + fn + "' (zeros, iota, const, random, file)");
  }
  out.isBuffer = true;
  out.arg = kernels::KernelArg::buf(bufferIndex);
  return out;
}

kernels::Problem buildProblem(const std::vector<std::string>& args, const std::string& entry,
                              kernels::Dim3 grid, kernels::Dim3 block, uint32_t dynamicShared) {
  kernels::Problem p;
  kernels::Launch l;
  l.entry = entry;
  l.grid = grid;
  l.block = block;
  l.dynamicShared = dynamicShared;
  for (size_t i = 0; i < args.size(); ++i) {
    ParsedArg a = parseArg(args[i], i + 1, p.buffers.size());
    if (a.isBuffer) {
      for (const auto& b : p.buffers)
        if (b.name == a.buffer.name)
          bad(i + 1, args[i], "a buffer named '" + b.name + "' already exists");
      p.buffers.push_back(std::move(a.buffer));
    }
    l.args.push_back(std::move(a.arg));
  }
  p.launches.push_back(std::move(l));
  return p;
}

DumpSpec parseDump(const std::string& text) {
  DumpSpec d;
  const size_t colon = text.find(':');
  d.buffer = text.substr(0, colon);
  if (colon != std::string::npos) d.path = text.substr(colon + 1);
  if (d.buffer.empty()) throw ArgError("--dump '" + text + "': expected NAME or NAME:PATH");
  return d;
}

}  // namespace warpsim::harness
