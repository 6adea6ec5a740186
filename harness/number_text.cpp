#include "harness/number_text.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace warpsim::harness {

std::optional<uint64_t> parseUnsignedText(const std::string& s) {
  // strtoull skips spaces and accepts a sign (and wraps "-1" to 2^64-1): only digits may lead.
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 0);
  if (errno == ERANGE || end != s.c_str() + s.size()) return std::nullopt;
  return uint64_t(v);
}

std::optional<SignedText> parseSignedText(const std::string& s) {
  SignedText t;
  t.negative = !s.empty() && s[0] == '-';
  const std::string digits = t.negative ? s.substr(1) : s;
  const auto m = parseUnsignedText(digits);
  if (!m) return std::nullopt;
  t.magnitude = *m;
  t.hex = digits.size() > 1 && (digits[1] == 'x' || digits[1] == 'X');
  return t;
}

std::optional<double> parseRealText(const std::string& s, bool* overflow) {
  if (overflow) *overflow = false;
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  // ERANGE also marks underflow to a subnormal or zero, which is a value; overflow is not.
  if (errno == ERANGE && std::isinf(v)) {
    if (overflow) *overflow = true;
    return std::nullopt;
  }
  return v;
}

}  // namespace warpsim::harness
