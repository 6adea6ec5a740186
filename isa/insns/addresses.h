// The per-lane address of an [address] operand, for the families under isa/insns/ that access
// memory through the machine (async copies, mbarrier, matrix loads and stores).
#pragma once

#include "isa/exec.h"

namespace warpsim::isa::insns {

// The state space an instruction's address operand is in: the one it names, else generic.
inline Space addressedSpace(const Inst& in) {
  return in.mods.space == Space::None ? Space::Generic : in.mods.space;
}

// base register (a 32-bit base is zero-extended, the sum kept to 32 bits) + offset, for every
// lane in `mask`.
inline void laneAddresses(const Exec& x, const Opnd& a, LaneMask mask, uint64_t* out) {
  if (a.baseSlot == kNoSlot) {
    forLanes(mask, [&](unsigned l) { out[l] = uint64_t(a.offset); });
    return;
  }
  const uint64_t* base = x.reg(a.baseSlot);
  if (typeBits(a.baseType) == 32)
    forLanes(mask, [&](unsigned l) { out[l] = uint32_t(base[l] + uint64_t(a.offset)); });
  else
    forLanes(mask, [&](unsigned l) { out[l] = base[l] + uint64_t(a.offset); });
}

// The value of a warp-uniform operand (an immediate, or a register all lanes agree on), read
// from the first lane of `mask`.
inline uint64_t uniformValue(const Exec& x, const Opnd& o, LaneMask mask) {
  return x.reg(o)[std::countr_zero(mask)];
}

}  // namespace warpsim::isa::insns
