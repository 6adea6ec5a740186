#include "harness/arg_spec.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

#include "harness/arg_spec_texture.h"
#include "harness/arg_spec_tmap.h"
#include "harness/number_text.h"
#include "isa/fp.h"
#include "isa/insns/texture_object.h"
#include "kernels/random.h"

namespace warpsim::harness {

void badArg(size_t position, const std::string& text, const std::string& why) {
  throw ArgError("--arg " + std::to_string(position) + " '" + text + "': " + why);
}

std::vector<std::string> splitColons(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0, depth = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && s[i] == '(') ++depth;
    if (i < s.size() && s[i] == ')' && depth) --depth;
    if (i == s.size() || (s[i] == ':' && depth == 0)) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

using kernels::ElemType;
namespace tex = isa::tex;

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

std::string formatReal(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

bool isSigned(ElemType t) {
  return t == ElemType::S8 || t == ElemType::S16 || t == ElemType::S32 || t == ElemType::S64;
}

// The values an integer type holds, as text: "0..255", "-128..127".
std::string integerRange(ElemType t) {
  const unsigned bits = kernels::elemBytes(t) * 8;
  const uint64_t top = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
  if (!isSigned(t)) return "0.." + std::to_string(top);
  char hex[24];
  std::snprintf(hex, sizeof hex, "0x%llX", static_cast<unsigned long long>(top));
  return "-" + std::to_string(top / 2 + 1) + ".." + std::to_string(top / 2) +
         ", or a bit pattern up to " + hex;
}

// Does the real value `v` fit integer type t (after rounding to the nearest integer)?
bool realFitsInteger(double v, ElemType t) {
  const unsigned bits = kernels::elemBytes(t) * 8;
  const double lo = isSigned(t) ? -std::ldexp(1.0, int(bits) - 1) : 0.0;
  const double hi = std::ldexp(1.0, isSigned(t) ? int(bits) - 1 : int(bits));  // exclusive
  const double r = std::nearbyint(v);
  return r >= lo && r < hi;
}

// The largest finite value of a floating-point type, as text.
const char* largestFinite(ElemType t) {
  switch (t) {
    case ElemType::F16:
      return "65504";
    case ElemType::BF16:
      return "3.3895314e38";
    case ElemType::F32:
      return "3.4028235e38";
    default:
      return "1.7976931348623157e308";
  }
}

bool isInfBits(uint64_t bits, ElemType t) {
  switch (t) {
    case ElemType::F16:
      return (bits & 0x7FFF) == 0x7C00;
    case ElemType::BF16:
      return (bits & 0x7FFF) == 0x7F80;
    case ElemType::F32:
      return (bits & 0x7FFFFFFF) == 0x7F800000;
    default:
      return (bits & 0x7FFFFFFFFFFFFFFFull) == 0x7FF0000000000000ull;
  }
}

double parseNumber(const std::string& s, size_t position, const std::string& text) {
  bool overflow = false;
  const auto v = parseRealText(s, &overflow);
  if (overflow)
    badArg(
        position, text,
        "'" + s + "' does not fit f64 (largest finite value " + largestFinite(ElemType::F64) + ")");
  if (!v) badArg(position, text, "'" + s + "' is not a number");
  return *v;
}

// The bits of value `v` as an element of type t (integers wrap, floats round to nearest);
// callers check the range first.
// The bits of an integral value `v` within some integer type's range (-2^63 <= v < 2^64): through
// int64 when negative, uint64 otherwise, so that no conversion is out of range (a u64 value past
// 2^63 through int64 is undefined behaviour).
uint64_t integerBits(double v) { return v < 0 ? uint64_t(int64_t(v)) : uint64_t(v); }

uint64_t elementFrom(double v, ElemType t) {
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
      return integerBits(v);
  }
}

// Why the real value `v` does not fit type t ("" when it does): a finite value that would
// round to infinity, or a value outside an integer type's range.
std::string realFitError(double v, ElemType t) {
  if (isFloat(t)) {
    if (std::isfinite(v) && isInfBits(elementFrom(v, t), t))
      return std::string("does not fit ") + kernels::elemName(t) + " (largest finite value " +
             largestFinite(t) + ")";
  } else if (!std::isfinite(v) || !realFitsInteger(v, t)) {
    return std::string("does not fit ") + kernels::elemName(t) + " (" + integerRange(t) + ")";
  }
  return {};
}

void checkRealFits(double v, ElemType t, const std::string& s, size_t position,
                   const std::string& text) {
  if (const std::string why = realFitError(v, t); !why.empty())
    badArg(position, text, "'" + s + "' " + why);
}

uint64_t parseScalarBits(const std::string& s, ElemType t, size_t position,
                         const std::string& text) {
  if (isFloat(t)) {
    // f32:0x3727C5AC is a bit pattern, as for the integer types (the value 1e-5); a C
    // hexadecimal float with an exponent (f32:0x1.8p3) is a value.
    const bool hexBits = (s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0) &&
                         s.find_first_of("pP.") == std::string::npos;
    if (hexBits) {
      const auto n = parseSignedText(s);
      const unsigned bits = kernels::elemBytes(t) * 8;
      const uint64_t top = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
      if (!n || n->magnitude > top)
        badArg(position, text,
               "'" + s + "' is not a bit pattern of " + kernels::elemName(t) + " (at most " +
                   std::to_string(bits / 4) + " hexadecimal digits)");
      return n->magnitude;
    }
    const double v = parseNumber(s, position, text);
    checkRealFits(v, t, s, position, text);
    return elementFrom(v, t);
  }
  const auto n = parseSignedText(s);
  if (!n) badArg(position, text, "'" + s + "' is not an integer");
  const unsigned bits = kernels::elemBytes(t) * 8;
  const uint64_t top = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
  // Hexadecimal is a bit pattern (s32:0xFFFFFFFF is -1); decimal is a value in the type's
  // range. Nothing wraps.
  const bool fits = n->negative ? isSigned(t) && n->magnitude <= top / 2 + 1
                                : n->magnitude <= (isSigned(t) && !n->hex ? top / 2 : top);
  if (!fits)
    badArg(position, text,
           "'" + s + "' does not fit " + kernels::elemName(t) + " (" + integerRange(t) + ")");
  return (n->negative ? 0 - n->magnitude : n->magnitude) & top;
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
  const IntegerList<uint64_t> l = parseIntegerList<uint64_t>(text);
  if (!l.bad && l.values.size() > 3)
    throw ArgError(option + " '" + text + "': at most three dimensions");
  kernels::Dim3 d;
  uint32_t* parts[3] = {&d.x, &d.y, &d.z};
  for (size_t i = 0; i < l.values.size(); ++i) {
    if (l.values[i] == 0 || l.values[i] > 0xFFFFFFFFu) break;
    *parts[i] = uint32_t(l.values[i]);
    if (i + 1 == l.values.size() && !l.bad) return d;
  }
  throw ArgError(option + " '" + text + "': expected X[,Y[,Z]] with positive integers");
}

ParsedArg parseArg(const std::string& text, size_t position, size_t bufferIndex,
                   uint64_t maxBufferBytes) {
  if (auto t = parseTextureArg(text, position, [&](const std::string& buffer) {
        return parseArg(
            buffer, position, bufferIndex,
            maxBufferBytes > tex::kDescriptorBytes ? maxBufferBytes - tex::kDescriptorBytes : 0);
      }))
    return *t;
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
      badArg(position, text, "expected TYPE:VALUE or TYPE[COUNT][:INIT]");
    const auto t = typeNamed(rest.substr(0, colon));
    if (!t) badArg(position, text, "unknown type '" + rest.substr(0, colon) + "'");
    const uint64_t bits = parseScalarBits(rest.substr(colon + 1), *t, position, text);
    out.type = *t;
    out.arg.kind = kernels::KernelArg::Kind::Scalar;
    out.arg.scalar.resize(kernels::elemBytes(*t));
    std::memcpy(out.arg.scalar.data(), &bits, out.arg.scalar.size());
    return out;
  }
  const size_t b0 = rest.find('['), b1 = rest.find(']');
  if (b1 == std::string::npos || b1 < b0) badArg(position, text, "missing ']'");
  const auto t = typeNamed(rest.substr(0, b0));
  if (!t) badArg(position, text, "unknown type '" + rest.substr(0, b0) + "'");
  const std::string countText = rest.substr(b0 + 1, b1 - b0 - 1);
  std::string init = b1 + 1 < rest.size() ? rest.substr(b1 + 1) : "";
  if (!init.empty()) {
    if (init[0] != ':') badArg(position, text, "expected ':INIT' after ']'");
    init = init.substr(1);
  }
  std::string fn = init, params;
  if (const size_t p = init.find('('); p != std::string::npos) {
    if (init.back() != ')') badArg(position, text, "missing ')' in '" + init + "'");
    fn = init.substr(0, p);
    params = init.substr(p + 1, init.size() - p - 2);
  }
  kernels::HostBuffer& b = out.buffer;
  b.type = *t;
  b.name = name.empty() ? "arg" + std::to_string(position) : name;
  b.isOutput = true;
  const unsigned eb = kernels::elemBytes(*t);
  out.type = *t;
  uint64_t count = 0;
  // Checked before any host memory is taken: the buffer must fit the device memory.
  auto checkSize = [&](uint64_t elements) {
    if (elements > maxBufferBytes / eb)
      badArg(position, text,
             std::to_string(elements) + " elements of " + kernels::elemName(*t) +
                 " do not fit the " + std::to_string(maxBufferBytes) +
                 " bytes of device memory left (the limit is set by --device-memory)");
  };
  if (!countText.empty()) {
    const auto c = parseUnsignedText(countText);
    if (!c) badArg(position, text, "'" + countText + "' is not an element count");
    count = *c;
    checkSize(count);
  } else if (fn != "file") {
    badArg(position, text, "an element count is needed unless the buffer comes from a file");
  }
  b.bytes.assign(count * eb, 0);
  const std::vector<std::string> p = splitArgs(params);
  if (fn.empty() || fn == "zeros") {
    if (!p.empty()) badArg(position, text, "zeros takes no parameters");
  } else if (fn == "iota") {
    if (p.size() > 2) badArg(position, text, "iota takes [START[,STEP]]");
    const double start = p.size() > 0 ? parseNumber(p[0], position, text) : 0;
    const double step = p.size() > 1 ? parseNumber(p[1], position, text) : 1;
    if (count > 0) {  // the first and the last values must fit: nothing wraps on the way
      checkRealFits(start, *t, p.size() > 0 ? p[0] : "0", position, text);
      const double last = start + step * double(count - 1);
      if (std::isfinite(start) && std::isfinite(step) && !std::isfinite(last))
        badArg(position, text, "iota's last value overflows");
      if (const std::string why = realFitError(last, *t); !why.empty())
        badArg(position, text, "iota's last value " + formatReal(last) + " " + why);
    }
    for (uint64_t i = 0; i < count; ++i) {
      const double v = start + step * double(i);
      putElement(b, i, elementFrom(isFloat(*t) ? v : std::round(v), *t));
    }
  } else if (fn == "const" || fn == "fill") {
    if (p.size() != 1) badArg(position, text, fn + " takes one value");
    const uint64_t bits = parseScalarBits(p[0], *t, position, text);
    for (uint64_t i = 0; i < count; ++i) putElement(b, i, bits);
  } else if (fn == "random") {
    if (p.empty() || p.size() > 3) badArg(position, text, "random takes SEED[,LO,HI]");
    parseNumber(p[0], position, text);  // "'x' is not a number" first
    const auto seedValue = parseUnsignedText(p[0]);
    if (!seedValue) badArg(position, text, "the seed '" + p[0] + "' is not an unsigned integer");
    const uint64_t seed = *seedValue;
    double lo = isFloat(*t) ? -1.0 : 0.0, hi = isFloat(*t) ? 1.0 : 100.0;
    if (p.size() == 3) {
      lo = parseNumber(p[1], position, text);
      hi = parseNumber(p[2], position, text);
    } else if (p.size() == 2) {
      badArg(position, text, "random takes SEED or SEED,LO,HI");
    }
    if (!(lo <= hi)) badArg(position, text, "random needs LO <= HI");
    if (p.size() == 3) {
      checkRealFits(lo, *t, p[1], position, text);
      checkRealFits(hi, *t, p[2], position, text);
    }
    kernels::Rng rng(seed);
    for (uint64_t i = 0; i < count; ++i) {
      if (isFloat(*t)) {
        putElement(b, i, elementFrom(rng.f64(lo, hi), *t));
      } else {
        // In doubles until the end: a u64 range reaches past 2^63 (random(1,0,1e19)).
        const double v = std::floor(rng.f64(lo, hi + 1));
        putElement(b, i, integerBits(std::min(v, std::trunc(hi))));
      }
    }
  } else if (fn == "file") {
    if (p.size() != 1 || p[0].empty()) badArg(position, text, "file takes a path");
    std::ifstream f(p[0], std::ios::binary);
    if (!f) badArg(position, text, "cannot open '" + p[0] + "'");
    // Never read more than the buffer holds: a device or a pipe (/dev/zero) has no end.
    std::error_code ec;
    const bool regular = std::filesystem::is_regular_file(p[0], ec);
    uint64_t want = b.bytes.size();
    if (countText.empty()) {
      if (!regular)
        badArg(position, text,
               "'" + p[0] + "' is not a regular file: give the element count (TYPE[COUNT])");
      const uint64_t size = std::filesystem::file_size(p[0], ec);
      if (ec) badArg(position, text, "cannot read the size of '" + p[0] + "'");
      if (size % eb)
        badArg(position, text,
               "'" + p[0] + "' holds " + std::to_string(size) +
                   " bytes, not a whole number of elements");
      checkSize(size / eb);
      want = size;
      b.bytes.assign(want, 0);
    }
    f.read(reinterpret_cast<char*>(b.bytes.data()), std::streamsize(want));
    if (uint64_t(f.gcount()) < want)
      badArg(position, text,
             "'" + p[0] + "' is shorter than " + std::to_string(want / eb) + " elements");
  } else {
    badArg(position, text, "unknown initializer '" + fn + "' (zeros, iota, const, random, file)");
  }
  out.isBuffer = true;
  out.arg = kernels::KernelArg::buf(bufferIndex);
  return out;
}

ArgList buildProblem(const std::vector<std::string>& args, const std::string& entry,
                     kernels::Dim3 grid, kernels::Dim3 block, uint32_t dynamicShared,
                     uint64_t maxBufferBytes) {
  ArgList out;
  kernels::Problem& p = out.problem;
  kernels::Launch l;
  l.entry = entry;
  l.grid = grid;
  l.block = block;
  l.dynamicShared = dynamicShared;
  uint64_t total = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (auto m = parseTensorMapArg(args[i], i + 1, p.buffers, [&](const std::string& buffer) {
          return parseArg(buffer, i + 1, p.buffers.size(), maxBufferBytes - total);
        })) {
      if (m->tensor) {
        for (const auto& b : p.buffers)
          if (b.name == m->tensor->name)
            badArg(i + 1, args[i], "a buffer named '" + b.name + "' already exists");
        total += m->tensor->bytes.size();
        p.buffers.push_back(std::move(*m->tensor));
      }
      out.given.push_back({args[i], false, true, bool(m->tensor), m->initialized, m->map.type});
      l.args.push_back(std::move(m->map.arg));
      continue;
    }
    // What the earlier buffers took is no longer available to this one.
    ParsedArg a = parseArg(args[i], i + 1, p.buffers.size(), maxBufferBytes - total);
    if (a.isBuffer) {
      for (const auto& b : p.buffers)
        if (b.name == a.buffer.name)
          badArg(i + 1, args[i], "a buffer named '" + b.name + "' already exists");
      total += a.buffer.bytes.size();
      p.buffers.push_back(std::move(a.buffer));
    }
    const size_t close = args[i].find(']');
    const bool init =
        close != std::string::npos && close + 1 < args[i].size() && args[i][close + 1] == ':';
    out.given.push_back({args[i], a.isBuffer, false, a.isBuffer, a.isBuffer && init, a.type});
    l.args.push_back(std::move(a.arg));
  }
  p.launches.push_back(std::move(l));
  return out;
}

namespace {

// 'u', 's', 'b' or 'f' and the bits of a PTX scalar type name ("u32", "pred" -> 0 bits).
std::pair<char, unsigned> ptxKind(const std::string& type) {
  if (type == "bf16") return {'f', 16};  // a distinct 16-bit float, matched by name below
  if (type.size() < 2 || !std::strchr("usbf", type[0])) return {'?', 0};
  return {type[0], unsigned(std::atoi(type.c_str() + 1))};
}

}  // namespace

void checkArgTypes(const ir::Function& kernel, const std::vector<GivenArg>& given) {
  if (given.size() != kernel.params.size())
    throw ArgError("kernel '" + kernel.name + "' takes " + std::to_string(kernel.params.size()) +
                   " parameters, " + std::to_string(given.size()) + " given (one --arg each)");
  for (size_t i = 0; i < given.size(); ++i) {
    const ir::VarDecl& p = kernel.params[i];
    const GivenArg& g = given[i];
    if (g.isTensorMap &&
        !(p.dims.size() == 1 && p.vecWidth == 1 && ir::typeBytes(p.type) == 1 && p.dims[0] == 128))
      badArg(i + 1, g.text,
             "parameter " + std::to_string(i + 1) + " ('" + p.name + "') of '" + kernel.name +
                 "' is ." + p.type + ", not the 128 bytes of a CUtensorMap; a tensor map given");
    if (!p.dims.empty() || p.vecWidth != 1) continue;  // bytes of a struct: sized at launch
    const auto [kind, bits] = ptxKind(p.type);
    const std::string gname = kernels::elemName(g.type);
    bool ok;
    if (g.isBuffer) {
      ok = bits == 64 && kind != 'f';
    } else {
      const unsigned gbits = kernels::elemBytes(g.type) * 8;
      const bool gfloat = isFloat(g.type);
      ok = bits == gbits &&
           (kind == 'b' || (kind == 'f' ? gfloat && (p.type == "bf16") == (gname == "bf16")
                                        : !gfloat && (kind == 'u' || kind == 's')));
    }
    if (!ok)
      badArg(i + 1, g.text,
             "parameter " + std::to_string(i + 1) + " ('" + p.name + "') of '" + kernel.name +
                 "' is ." + p.type + "; " +
                 (g.isBuffer ? std::string("a buffer (a 64-bit device pointer)") : gname) +
                 " given");
  }
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
