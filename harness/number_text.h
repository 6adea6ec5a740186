// Numbers as a user writes them on the command line (options, --arg values), parsed strictly:
// the whole text must be the number, nothing wraps, nothing is clamped. Integers are decimal,
// 0x hexadecimal or (leading 0) octal, as in C; a sign is allowed only where noted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace warpsim::harness {

// "123", "0x7b": no sign, no spaces, no trailing text; nullopt when not a number or above
// 2^64-1.
std::optional<uint64_t> parseUnsignedText(const std::string& s);

// An integer with an optional leading '-'; `magnitude` receives its absolute value. nullopt
// when not an integer or when the magnitude is above 2^64-1.
struct SignedText {
  bool negative = false;
  uint64_t magnitude = 0;
  bool hex = false;  // written 0x...: a bit pattern rather than a signed value
};
std::optional<SignedText> parseSignedText(const std::string& s);

// A floating-point number ("1.5", "-1e-3", "0x1p-3", "inf", "nan"); nullopt when not a
// number or when a finite text overflows a double (1e400: then `*overflow` is set).
std::optional<double> parseRealText(const std::string& s, bool* overflow = nullptr);

}  // namespace warpsim::harness
