// PTX fundamental types as the lowering and the semantics see them.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace warpsim::isa {

enum class Type : uint8_t {
  None,
  Pred,
  B8,
  B16,
  B32,
  B64,
  B128,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  F16,
  F16x2,
  BF16,
  BF16x2,
  TF32,
  F32,
  F64,
  E4M3,
  E5M2,
  E4M3x2,
  E5M2x2,
  U16x2,
  S16x2,  // two 16-bit integers in a .b32 register (add, min, max)
};

std::optional<Type> typeFromName(std::string_view name);  // "u32" -> U32
const char* typeName(Type t);
uint32_t typeBits(Type t);  // Pred: 1
inline uint32_t typeBytes(Type t) { return typeBits(t) <= 8 ? 1 : typeBits(t) / 8; }
bool isSigned(Type t);       // s8..s64
bool isUnsignedInt(Type t);  // u8..u64
bool isBits(Type t);         // b8..b128
bool isInteger(Type t);      // b, u or s
bool isFloat(Type t);        // f16, bf16, tf32, f32, f64 and packed halves

// The mask of the low `bits` bits.
constexpr uint64_t lowMask(uint32_t bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

// Sign-extends the low `bits` bits of v to 64 bits.
constexpr int64_t signExtend(uint64_t v, uint32_t bits) {
  if (bits >= 64) return int64_t(v);
  const uint64_t m = 1ull << (bits - 1);
  v &= lowMask(bits);
  return int64_t((v ^ m) - m);
}

}  // namespace warpsim::isa
