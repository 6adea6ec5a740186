// What the bulk copies (bulk_copy.cpp) and the bulk reductions (bulk_reduce.cpp) share: where a
// shared::cluster address lands, the mbarrier's complete_tx, the size and alignment rules, and
// the walk over a tensor map's box (TMA), which loads, stores or reduces it.
#pragma once

#include <string>
#include <vector>

#include "isa/exec.h"
#include "isa/insns/mbarrier_state.h"
#include "isa/insns/tensor_map.h"

namespace warpsim::isa::insns {

// Where lane l's shared::cluster address lands: the executing CTA's own shared memory at a
// plain offset (Space::Shared), or a CTA of the cluster named by rank (Space::SharedCluster:
// what mapa returns; the machine knows the encoding).
struct SharedTarget {
  Space space;
  uint64_t addr;
};
inline uint32_t ownRank(Exec& x, const Inst& in, unsigned l) {
  return x.machine->ctaRankOf(in, Space::SharedCluster, 0, l);
}
inline SharedTarget clusterTarget(Exec& x, const Inst& in, uint64_t addr, unsigned l) {
  const uint32_t own = ownRank(x, in, l);
  const bool plain = x.machine->ctaRankOf(in, Space::SharedCluster, addr, l) == own &&
                     x.machine->mapSharedRank(in, Space::SharedCluster, addr, own, l) != addr;
  return {plain ? Space::Shared : Space::SharedCluster, addr};
}

// complete_tx of `bytes` on an mbarrier (in shared memory whatever the copy's spaces: the
// instruction's own state space words name the copy's, not the barrier's).
inline void completeTxAt(Exec& x, const Inst& in, SharedTarget mbar, unsigned l, uint64_t bytes) {
  uint64_t addrs[kWarpSize] = {}, a[kWarpSize] = {}, old[kWarpSize];
  const LaneMask one = LaneMask{1} << l;
  addrs[l] = mbar.addr;
  a[l] = uint64_t(-int64_t(bytes));
  x.machine->atomic(in, mbar.space, one, addrs, 8, mbarrier::txFn, a, nullptr, old);
}

// A bulk operation's size operand, lane l's: a nonzero multiple of 16 (else the kernel faults).
inline uint64_t bulkSize(Exec& x, const Inst& in, const Opnd& o, unsigned l) {
  const uint64_t n = uint32_t(x.reg(o)[l]);
  if (n == 0 || n % 16)
    x.machine->trap(in, LaneMask{1} << l, "a bulk copy's size must be a nonzero multiple of 16");
  return n;
}

inline void checkAligned(Exec& x, const Inst& in, unsigned l, uint64_t addr, unsigned align,
                         const char* what) {
  if (addr % align) {
    const std::string why = std::string("the ") + what + " of '" + in.text + "' is not " +
                            std::to_string(align) + "-byte aligned";
    x.machine->trap(in, LaneMask{1} << l, why.c_str());
  }
}

// Inst::flags bits that tensorBox reads: the tensor rank (bits 0..2) and im2col mode (bit 3).
// bulk_copy.cpp and bulk_reduce.cpp keep their own bits from kOwnFlags up.
inline constexpr uint32_t kRankMask = 7, kIm2col = 8, kOwnFlags = 16;

// What tensorBox does with lane l's box: lands it in each shared box (a load: multicast's
// destinations), stores it from the first, or reduces the first into global memory element by
// element (an atomic each, with the function `reduceFn` picks for the map's element type).
enum class BoxMove { Load, Store, Reduce };
using ReduceFnFor = AtomFn (*)(Exec& x, const Inst& in, unsigned l, const tmap::TensorMap& m);

// The box at the tensor map operand's coordinates (bulk_copy.cpp): tile mode, or im2col mode
// (a load with `offsets`, the im2col offsets, one per spatial dimension). Elements outside the
// tensor read as the fill (a load) and are not written (a store or a reduction). Returns the
// box's size in bytes (what complete_tx counts).
unsigned tensorBox(Exec& x, const Inst& in, const Opnd& mapOp, unsigned l,
                   const std::vector<SharedTarget>& shared, BoxMove move,
                   ReduceFnFor reduceFn = nullptr, const int64_t* offsets = nullptr);

// Whether an operand is [tensorMap, {rank coordinates}], or an address.
bool isTensorAddr(const Opnd& o, unsigned rank);
inline bool isAddr(const Opnd& o) { return o.kind == OpndKind::Addr; }

}  // namespace warpsim::isa::insns
