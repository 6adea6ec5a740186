#include "sim/func/printf_format.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace warpsim::sim {
namespace {

// A conversion with neither flags, width nor precision (`%d`, `%llx`, `%f`, ...) written by
// std::to_chars, at a fifth of snprintf's cost (a printf-heavy kernel's launch was mostly
// snprintf). The text is printf's: C++ defines to_chars's integers as printf's digits (no sign
// for unsigned, lowercase hex digits, which %X raises) and to_chars(v, fixed, 6) as
// printf("%f", v) in the "C" locale, correctly rounded (ties to even, as glibc in the default
// rounding mode). Infinities and NaNs, whose spelling differs (%F's "INF"), are left to snprintf:
// appendPlainFixed says false. PrintfFormat.PlainConversionsMatchSnprintf checks both against
// snprintf.
template <class T>
void appendPlainInteger(std::string& out, char conv, T v) {
  char buf[32];
  const int base = conv == 'x' || conv == 'X' ? 16 : conv == 'o' ? 8 : 10;
  char* const end = std::to_chars(buf, buf + sizeof buf, v, base).ptr;
  if (conv == 'X')
    for (char* c = buf; c != end; ++c) *c = char(std::toupper(static_cast<unsigned char>(*c)));
  out.append(buf, end);
}

bool appendPlainFixed(std::string& out, double v) {
  if (!std::isfinite(v)) return false;
  char buf[512];  // the largest double is 309 digits before the point
  out.append(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 6).ptr);
  return true;
}

}  // namespace

bool readDeviceString(uint64_t address, const PrintfMemory& mem, std::string& out, size_t limit) {
  out.clear();
  // Sixteen bytes a read (a read a byte, each a lookup of the memory it lies in, was half of a
  // printf-heavy kernel's instructions); a block that is not readable whole (the string ends
  // near the end of its memory) is read byte by byte, so a string reads as it did.
  constexpr size_t kBlock = 16;
  for (size_t i = 0; i < limit; i += kBlock) {
    const unsigned n = unsigned(std::min(kBlock, limit - i));
    char block[kBlock];
    if (!mem.read(address + i, block, n)) {
      for (unsigned j = 0; j < n; ++j)
        if (!mem.read(address + i + j, block + j, 1))
          return false;
        else if (block[j] == '\0')
          break;
    }
    const size_t len = strnlen(block, n);
    out.append(block, len);
    if (len < n) return true;
  }
  return true;
}

std::string formatDevicePrintf(const std::string& format, uint64_t args, const PrintfMemory& mem,
                               uint32_t* arguments) {
  std::string out;
  uint64_t offset = 0;
  uint32_t consumed = 0;
  auto fetch = [&](unsigned bytes, void* dst) {
    ++consumed;
    offset = (offset + bytes - 1) / bytes * bytes;
    const bool ok = args != 0 && mem.read(args + offset, dst, bytes);
    offset += bytes;
    if (!ok) std::memset(dst, 0, bytes);
  };
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {  // the text up to the next conversion, at once
      const size_t end = std::min(format.find('%', i), format.size());
      out.append(format, i, end - i);
      i = end - 1;
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    // %[flags][width][.precision][length]conversion
    size_t j = i + 1;
    while (j < format.size() && std::strchr("-+ #0", format[j])) ++j;
    while (j < format.size() &&
           (std::isdigit(static_cast<unsigned char>(format[j])) || format[j] == '.'))
      ++j;
    std::string length;
    while (j < format.size() && std::strchr("hlLqjzt", format[j])) length += format[j++];
    if (j >= format.size()) {
      out += format.substr(i);
      break;
    }
    const char conv = format[j];
    std::string spec = format.substr(i, j - i - length.size());
    const bool plain = spec.size() == 1;  // "%": no flags, width or precision
    char buf[512];
    const bool wide = length.find('l') != std::string::npos || length == "q" || length == "j" ||
                      length == "z" || length == "t";
    switch (conv) {
      case 'd':
      case 'i': {
        if (wide) {
          int64_t v;
          fetch(8, &v);
          if (plain) {
            appendPlainInteger(out, conv, v);
            break;
          }
          std::snprintf(buf, sizeof buf, (spec + "lld").c_str(), static_cast<long long>(v));
        } else {
          int32_t v;
          fetch(4, &v);
          if (plain) {
            appendPlainInteger(out, conv, v);
            break;
          }
          std::snprintf(buf, sizeof buf, (spec + "d").c_str(), v);
        }
        out += buf;
        break;
      }
      case 'u':
      case 'x':
      case 'X':
      case 'o': {
        if (wide) {
          uint64_t v;
          fetch(8, &v);
          if (plain) {
            appendPlainInteger(out, conv, v);
            break;
          }
          std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(),
                        static_cast<unsigned long long>(v));
        } else {
          uint32_t v;
          fetch(4, &v);
          if (plain) {
            appendPlainInteger(out, conv, v);
            break;
          }
          std::snprintf(buf, sizeof buf, (spec + conv).c_str(), v);
        }
        out += buf;
        break;
      }
      case 'c': {
        int32_t v;
        fetch(4, &v);
        std::snprintf(buf, sizeof buf, (spec + "c").c_str(), v);
        out += buf;
        break;
      }
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A': {
        double v;
        fetch(8, &v);
        if (plain && (conv == 'f' || conv == 'F') && appendPlainFixed(out, v)) break;
        std::snprintf(buf, sizeof buf, (spec + conv).c_str(), v);
        out += buf;
        break;
      }
      case 'p': {
        uint64_t v;
        fetch(8, &v);
        std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
        out += buf;
        break;
      }
      case 's': {
        uint64_t p;
        fetch(8, &p);
        std::string s;
        if (p == 0)
          s = "(null)";
        else if (!readDeviceString(p, mem, s))
          s = "<bad string>";
        std::snprintf(buf, sizeof buf, (spec + "s").c_str(), s.c_str());
        out += buf;
        break;
      }
      default:
        out += format.substr(i, j - i + 1);
        break;
    }
    i = j;
  }
  if (arguments) *arguments = consumed;
  return out;
}

}  // namespace warpsim::sim
