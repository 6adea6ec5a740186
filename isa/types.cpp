#include "isa/types.h"

#include <array>

namespace warpsim::isa {
namespace {

struct TypeInfo {
  Type type;
  const char* name;
  uint8_t bits;
};

constexpr std::array<TypeInfo, 28> kTypes = {{
    {Type::None, "", 0},          {Type::Pred, "pred", 1},      {Type::B8, "b8", 8},
    {Type::B16, "b16", 16},       {Type::B32, "b32", 32},       {Type::B64, "b64", 64},
    {Type::B128, "b128", 128},    {Type::U8, "u8", 8},          {Type::U16, "u16", 16},
    {Type::U32, "u32", 32},       {Type::U64, "u64", 64},       {Type::S8, "s8", 8},
    {Type::S16, "s16", 16},       {Type::S32, "s32", 32},       {Type::S64, "s64", 64},
    {Type::F16, "f16", 16},       {Type::F16x2, "f16x2", 32},   {Type::BF16, "bf16", 16},
    {Type::BF16x2, "bf16x2", 32}, {Type::TF32, "tf32", 32},     {Type::F32, "f32", 32},
    {Type::F64, "f64", 64},       {Type::E4M3, "e4m3", 8},      {Type::E5M2, "e5m2", 8},
    {Type::E4M3x2, "e4m3x2", 16}, {Type::E5M2x2, "e5m2x2", 16}, {Type::U16x2, "u16x2", 32},
    {Type::S16x2, "s16x2", 32},
}};

const TypeInfo& info(Type t) { return kTypes[static_cast<size_t>(t)]; }

}  // namespace

std::optional<Type> typeFromName(std::string_view name) {
  for (const auto& t : kTypes)
    if (t.type != Type::None && name == t.name) return t.type;
  return std::nullopt;
}

const char* typeName(Type t) { return info(t).name; }
uint32_t typeBits(Type t) { return info(t).bits; }

bool isSigned(Type t) { return t >= Type::S8 && t <= Type::S64; }
bool isUnsignedInt(Type t) { return t >= Type::U8 && t <= Type::U64; }
bool isBits(Type t) { return t >= Type::B8 && t <= Type::B128; }
bool isInteger(Type t) { return isSigned(t) || isUnsignedInt(t) || isBits(t); }
bool isFloat(Type t) { return t >= Type::F16 && t <= Type::F64; }

}  // namespace warpsim::isa
