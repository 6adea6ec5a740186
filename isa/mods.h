// An instruction's modifiers, decoded once at lowering: types in order, rounding, comparison,
// state space, vector width, and flags. Semantics read these fields instead of strings.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "isa/fp.h"
#include "isa/types.h"

namespace warpsim::isa {

enum class Space : uint8_t { None, Generic, Global, Shared, SharedCluster, Local, Param, Const };
const char* spaceName(Space s);

enum class Cmp : uint8_t {
  None,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Lo,
  Ls,
  Hi,
  Hs,  // ordered / integer
  Equ,
  Neu,
  Ltu,
  Leu,
  Gtu,
  Geu,
  Num,
  Nan,  // unordered floating-point
};

enum class BoolOp : uint8_t { None, And, Or, Xor, Popc };

// Rounding as PTX writes it: the float modes (.rn .rz .rm .rp .rna) and the integer ones
// (.rni .rzi .rmi .rpi), which round a float to an integral value.
struct Rounding {
  bool present = false;
  bool integral = false;  // .rni/.rzi/.rmi/.rpi
  fp::Round mode = fp::Round::RN;
};

enum class MemOrder : uint8_t { None, Weak, Relaxed, Acquire, Release, AcqRel, Sc, Volatile };
enum class MemScope : uint8_t { None, Cta, Cluster, Gpu, Sys };

struct Mods {
  std::vector<Type> types;  // every type modifier, in source order (cvt.f32.s32 -> {F32, S32})
  Rounding rounding;
  Cmp cmp = Cmp::None;
  BoolOp boolOp = BoolOp::None;  // setp.lt.and / bar.red.popc / vote
  Space space = Space::None;
  uint8_t vec = 1;  // .v2 / .v4 / .v8
  MemOrder order = MemOrder::None;
  MemScope scope = MemScope::None;
  std::vector<std::string> words;  // every modifier word, as written

  // Whether the word (without its dot) is among the modifiers: a bind-time question; the
  // bound handler keeps the answer, so nothing compares strings while a kernel runs.
  bool has(std::string_view word) const;
  Type type(size_t i = 0) const { return i < types.size() ? types[i] : Type::None; }
};

// Decodes modifier words as the parser split them ({"rn", "ftz", "f32"}). Words that are not
// types, rounding, comparisons, spaces, vectors, orders or scopes are only kept in `words`.
Mods decodeMods(const std::vector<std::string>& words);

}  // namespace warpsim::isa
