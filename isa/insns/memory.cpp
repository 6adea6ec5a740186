// Memory instructions: ld, ldu, st in every state space (generic when none is named), with
// .v2/.v4/.v8, .nc, .volatile, .relaxed/.acquire/.release and cache hints (functionally the
// same access); prefetch/prefetchu (no-ops); cvta / cvta.to; isspacep.
#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>

#include "isa/insns/addresses.h"
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

// Whether a base register of type t is 32 bits wide (its sum with the offset is taken modulo
// 2^32, zero-extended).
inline bool narrowBase(Type t) {
  switch (t) {  // the usual base types without a call to typeBits
    case Type::U64:
    case Type::S64:
    case Type::B64:
      return false;
    case Type::U32:
    case Type::S32:
    case Type::B32:
      return true;
    default:
      return typeBits(t) == 32;
  }
}

// The address of every executing lane: base register (a 32-bit base is zero-extended) + offset.
// `out` is the handler's own array, never a register: the lanes are independent, and a
// well-filled partial warp computes every lane's (forLanesOrAll).
inline void addresses(const Exec& x, const Opnd& a, uint64_t* out) {
  const uint64_t offset = uint64_t(a.offset);
  if (a.baseSlot == kNoSlot) {
    forLanesOrAll(x.mask, [&](unsigned l) { out[l] = offset; });
    return;
  }
  const uint64_t* base = x.reg(a.baseSlot);
  if (narrowBase(a.baseType))
    forLanesOrAll(x.mask, [&](unsigned l) { out[l] = uint32_t(base[l] + offset); });
  else
    forLanesOrAll(x.mask, [&](unsigned l) { out[l] = base[l] + offset; });
}

// The CTA's shared memory as ld/st's direct region, when the machine hands it out (Exec::shared)
// and every lane of `mask` reads or writes n bytes, n-aligned, inside it: the check
// Machine::direct's region check makes for .shared, without its virtual call and its switch.
// `addrs` is addresses()'s: for a well-filled warp it holds all 32 lanes, so the check runs over
// all of them as vectors and counts only the executing lanes'.
inline bool sharedDirect(const Exec& x, Space space, LaneMask mask, const uint64_t* addrs,
                         unsigned n, Machine::DirectRegion& r) {
  if (!x.shared || (space != Space::Shared && space != Space::SharedCluster) || !mask ||
      n > x.sharedBytes)
    return false;
  const uint64_t limit = x.sharedBytes - n, misaligned = n - 1;
  uint64_t bad = 0;
  if (mask == ~0u) {
    for (unsigned l = 0; l < kWarpSize; ++l)
      bad |= uint64_t(addrs[l] > limit) | (addrs[l] & misaligned);
  } else if (fillsAllLanes(mask)) {
    for (unsigned l = 0; l < kWarpSize; ++l)
      bad |=
          (0 - uint64_t((mask >> l) & 1u)) & (uint64_t(addrs[l] > limit) | (addrs[l] & misaligned));
  } else {
    forLanes(mask,
             [&](unsigned l) { bad |= uint64_t(addrs[l] > limit) | (addrs[l] & misaligned); });
  }
  if (bad) return false;
  r = {x.shared, 0, 0};
  return true;
}

// A .shared access of few lanes (fewer than fillsAllLanes's: a tree reduction's or scan's late
// levels): lane l's byte offset in the CTA's shared memory in offs[l], each lane's address
// computed and checked in one pass (as addresses() and sharedDirect would, in two passes and two
// calls, which were most of such an access's cost). False (offs then means nothing) when
// sharedDirect would say no (no shared memory handed out, not .shared, a lane outside it or
// misaligned) or the address has no base register: the handler's general path then runs, and
// reports a bad lane.
template <unsigned N>
[[gnu::always_inline]] inline bool fewSharedOffsets(const Exec& x, const Opnd& a, Space space,
                                                    uint32_t* offs) {
  if (!x.shared || (space != Space::Shared && space != Space::SharedCluster) ||
      a.baseSlot == kNoSlot || fillsAllLanes(x.mask) || !x.mask || N > x.sharedBytes)
    return false;
  const uint64_t* base = x.reg(a.baseSlot);
  const uint64_t offset = uint64_t(a.offset), limit = x.sharedBytes - N;
  const uint64_t keep = narrowBase(a.baseType) ? 0xFFFFFFFFull : ~0ull;
  uint64_t bad = 0;
  forLanes(x.mask, [&](unsigned l) {
    const uint64_t addr = (base[l] + offset) & keep;
    bad |= uint64_t(addr > limit) | (addr & (N - 1));
    offs[l] = uint32_t(addr);
  });
  return bad == 0;
}

// ld/st's direct region: for an access bound as .shared (kShared), the CTA's shared memory
// checked here, else (or when that check fails) the machine's. A template parameter, chosen when
// the instruction is bound, so that the other spaces' handlers carry none of the shared path.
template <bool kShared>
[[gnu::always_inline]] inline bool directRegion(const Exec& x, Space space, LaneMask mask,
                                                const uint64_t* addrs, unsigned n, bool write,
                                                Machine::DirectRegion& r) {
  if constexpr (kShared)
    if (sharedDirect(x, space, mask, addrs, n, r)) return true;
  return x.machine->direct(space, mask, addrs, n, write, r);
}

// The bits of a destination slot a signed load may set: the register's width (PTX ISA, "ld":
// a wider destination register gets the value sign-extended to its size), all 64 when the
// register's type is unknown. Register writes keep the slot zero above the register's width.
inline uint64_t destinationMask(const Opnd& d, unsigned bytes) {
  if (d.regType == Type::None || d.regType == Type::Pred) return ~0ull;
  return lowMask(std::max(bytes * 8, typeBits(d.regType)));
}

// One element of `Bytes` bytes at p, zero-extended (a fixed-size copy: one move).
template <unsigned Bytes>
inline uint64_t readElement(const uint8_t* p) {
  if constexpr (Bytes == 1) {
    return *p;
  } else {
    using U = std::conditional_t<Bytes == 2, uint16_t,
                                 std::conditional_t<Bytes == 4, uint32_t, uint64_t>>;
    U v;
    std::memcpy(&v, p, Bytes);
    return v;
  }
}

template <unsigned Bytes>
inline void writeElement(uint8_t* p, uint64_t bits) {
  using U = std::conditional_t<
      Bytes == 1, uint8_t,
      std::conditional_t<Bytes == 2, uint16_t, std::conditional_t<Bytes == 4, uint32_t, uint64_t>>>;
  const U v = U(bits);
  std::memcpy(p, &v, Bytes);
}

// Whether a full warp's addresses are consecutive elements (lane l at addrs[0] + l * n): the
// coalesced access of most kernels, which the handlers copy as one block.
inline bool consecutive(LaneMask mask, const uint64_t* addrs, unsigned n) {
  if (mask != ~0u) return false;
  uint64_t off = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) off |= addrs[l] - addrs[0] - uint64_t(l) * n;
  return off == 0;
}

// The base register of a full warp's access whose lanes' addresses are consecutive blocks of n
// bytes (lane l at base[0] + offset + l * n): Machine::directSpan's case, without the per-lane
// addresses. Null when it is not (a partial warp, no base register, a 32-bit base, whose sums
// wrap at 2^32, other strides).
template <unsigned N>
inline const uint64_t* spanBase(const Exec& x, const Opnd& a) {
  if (x.mask != ~0u || a.baseSlot == kNoSlot || narrowBase(a.baseType)) return nullptr;
  const uint64_t* base = x.reg(a.baseSlot);
  return consecutive(x.mask, base, N) ? base : nullptr;
}

// A full warp's scalar load whose half-warps are each affine (lane l of half h at a_h + l * s_h):
// a block 16 threads wide makes half-warps that read 16 consecutive elements or one broadcast
// element (sgemm's As[ty][k] and Bs[k][tx]), and a whole warp of consecutive addresses is the
// case s_0 = s_1 = Bytes. Copies them as blocks and broadcasts (other strides lane by lane) and
// returns true; false when a half-warp is not affine. Every lane's address is inside the region.
template <unsigned Bytes, class V>
inline bool halfWarps(const uint64_t* addrs, const uint8_t* host, uint64_t origin, uint64_t* out,
                      V value) {
  constexpr unsigned kHalf = kWarpSize / 2;
  const uint64_t s0 = addrs[1] - addrs[0], s1 = addrs[kHalf + 1] - addrs[kHalf];
  uint64_t off = 0;
  for (unsigned l = 0; l < kHalf; ++l)
    off |= (addrs[l] - addrs[0] - l * s0) | (addrs[kHalf + l] - addrs[kHalf] - l * s1);
  if (off != 0) return false;
  for (unsigned h = 0; h < 2; ++h) {
    const uint64_t s = h ? s1 : s0;
    const uint8_t* p = host + (addrs[h * kHalf] - origin);
    uint64_t* o = out + h * kHalf;
    if (s == Bytes) {
      // Registers and device memory never overlap: the lanes are independent.
#pragma GCC ivdep
      for (unsigned l = 0; l < kHalf; ++l) o[l] = value(readElement<Bytes>(p + l * Bytes));
    } else if (s == 0) {
      const uint64_t v = value(readElement<Bytes>(p));
      for (unsigned l = 0; l < kHalf; ++l) o[l] = v;
    } else {
      for (unsigned l = 0; l < kHalf; ++l)
        o[l] = value(readElement<Bytes>(host + (addrs[h * kHalf + l] - origin)));
    }
  }
  return true;
}

// A load's destinations: element i's register (null: `_`) and the bits a signed load may set
// there; value() is what a loaded element becomes in it.
template <unsigned Bytes, bool Signed, unsigned Vec>
struct LoadTargets {
  uint64_t* dst[Vec];
  uint64_t keep[Vec];
  LoadTargets(const Exec& x, const Opnd& d) {
    for (unsigned i = 0; i < Vec; ++i) {
      const Opnd& e = Vec == 1 ? d : d.elems[i];
      dst[i] = e.kind == OpndKind::Reg ? x.reg(e) : nullptr;
      keep[i] = Signed && Bytes < 8 ? destinationMask(e, Bytes) : ~0ull;
    }
  }
  uint64_t value(uint64_t raw, unsigned i) const {
    if constexpr (Signed && Bytes < 8)
      return uint64_t(signExtend(raw, Bytes * 8)) & keep[i];
    else
      return raw;
  }
};

// One handler per (element bytes, signedness, vector width): the loaded value of a signed
// sub-64-bit type is sign-extended to the destination register's width (ld.s8 into a .s32
// register reads back as a negative .s32); everything else is zero-extended.
template <unsigned Bytes, bool Signed, unsigned Vec, bool kShared = false>
void ldH(Exec& x, const Inst& in) {
  uint64_t addrs[kWarpSize];
  const LoadTargets<Bytes, Signed, Vec> t(x, in.ops[0]);
  uint64_t* const* dst = t.dst;
  auto value = [&](uint64_t raw, unsigned i) { return t.value(raw, i); };
  Machine::DirectRegion r;
  const Space space = addressedSpace(in);
  const uint64_t offset = uint64_t(in.ops[1].offset);
  if (in.ops[1].baseSlot == kNoSlot && x.mask && space != Space::Local &&
      !(space == Space::Param && offset >= kLaneParamBase)) {
    // An absolute address (a kernel parameter, a variable): every lane reads the same bytes,
    // so one lane's check vouches for all, and unless each lane has memory of its own
    // (laneStride: local memory, a frame's .param area, left out above) its value is broadcast.
    const unsigned first = unsigned(std::countr_zero(x.mask));
    addrs[first] = offset;
    if (x.machine->direct(space, LaneMask{1} << first, addrs, Bytes * Vec, false, r) &&
        r.laneStride == 0) {
      const uint8_t* p = r.host + (addrs[first] - r.origin);
      for (unsigned i = 0; i < Vec; ++i) {
        uint64_t* out = dst[i];
        if (!out) continue;
        const uint64_t v = value(readElement<Bytes>(p + i * Bytes), i);
        forLanesElementwise(x.mask, [&](unsigned l) { out[l] = v; });
      }
      return;
    }
  }
  if constexpr (kShared) {
    uint32_t offs[kWarpSize];
    if (fewSharedOffsets<Bytes * Vec>(x, in.ops[1], space, offs)) {
      // Element by element, so that a missing destination (`_`) is tested once, not per lane.
      for (unsigned i = 0; i < Vec; ++i) {
        uint64_t* const d = dst[i];
        if (!d) continue;
        const uint8_t* const at = x.shared + i * Bytes;
        forLanes(x.mask, [&](unsigned l) { d[l] = value(readElement<Bytes>(at + offs[l]), i); });
      }
      return;
    }
  }
  // A full warp's consecutive elements from host bytes `p` on: registers and device memory
  // never overlap, so the lanes are independent.
  const auto readConsecutive = [&](const uint8_t* p) {
    for (unsigned i = 0; i < Vec; ++i) {
      uint64_t* out = dst[i];
      if (!out) continue;
#pragma GCC ivdep
      for (unsigned l = 0; l < kWarpSize; ++l)
        out[l] = value(readElement<Bytes>(p + (l * Vec + i) * Bytes), i);
    }
  };
  if (const uint64_t* base = spanBase<Bytes * Vec>(x, in.ops[1])) {
    // The coalesced access: one check of the span.
    if (x.machine->directSpan(space, base[0] + offset, Bytes * Vec, false, r)) {
      readConsecutive(r.host + (base[0] + offset - r.origin));
      return;
    }
  }
  addresses(x, in.ops[1], addrs);
  if (directRegion<kShared>(x, space, x.mask, addrs, Bytes * Vec, false, r)) {
    // Lane l's address a is at r.host + l * laneStride + (a - origin): offsets first, so no
    // pointer outside the region is ever formed (UBSan: "pointer index expression overflowed").
    const uint8_t* host = r.host;
    const uint64_t origin = r.origin;
    if constexpr (Vec == 1) {
      if (r.laneStride == 0 && x.mask == ~0u && dst[0]) {
        if (halfWarps<Bytes>(addrs, host, origin, dst[0],
                             [&](uint64_t raw) { return value(raw, 0); }))
          return;
      }
    } else if (r.laneStride == 0 && consecutive(x.mask, addrs, Bytes * Vec)) {
      readConsecutive(host + (addrs[0] - origin));
      return;
    }
    if constexpr (Vec == 1) {
      uint64_t* out = dst[0];
      forLanes(x.mask, [&](unsigned l) {
        out[l] = value(readElement<Bytes>(host + (l * r.laneStride + (addrs[l] - origin))), 0);
      });
    } else {
      for (unsigned i = 0; i < Vec; ++i) {  // element by element, as the .shared path above
        uint64_t* const d = dst[i];
        if (!d) continue;
        forLanes(x.mask, [&](unsigned l) {
          d[l] = value(
              readElement<Bytes>(host + (l * r.laneStride + (addrs[l] - origin)) + i * Bytes), i);
        });
      }
    }
    return;
  }
  uint64_t out[kWarpSize * Vec];
  x.machine->load(in, space, x.mask, addrs, Bytes, Vec, out);
  for (unsigned i = 0; i < Vec; ++i) {
    uint64_t* reg = dst[i];
    if (reg) forLanes(x.mask, [&](unsigned l) { reg[l] = value(out[l * Vec + i], i); });
  }
}

// Where lane 0's `n` bytes at the frame .param address `address` are in Exec::laneParams (lane
// l's are laneParamBytes further per lane), or null when the handler must ask the machine: no
// area handed out, or an access outside the area or misaligned, which the machine reports.
inline uint8_t* laneParamBytesAt(const Exec& x, uint64_t address, unsigned n) {
  const uint64_t at = address - kLaneParamBase;
  if (!x.laneParams || (at & (n - 1)) != 0 || at > x.laneParamBytes || n > x.laneParamBytes - at)
    return nullptr;
  return x.laneParams + at;
}

// ld.param of the frame's own .param variable at a fixed address (bindLd picks it): every lane
// reads the same offset of its own area, so one check on the offset vouches for the warp, with
// neither the per-lane addresses nor the machine's region check of ldH.
template <unsigned Bytes, bool Signed, unsigned Vec>
void ldLaneParamH(Exec& x, const Inst& in) {
  const uint8_t* p = laneParamBytesAt(x, uint64_t(in.ops[1].offset), Bytes * Vec);
  if (!p) return ldH<Bytes, Signed, Vec>(x, in);
  const LoadTargets<Bytes, Signed, Vec> t(x, in.ops[0]);
  const size_t stride = x.laneParamBytes;
  // Element by element, so that a missing destination (`_`) is tested once, not per lane.
  for (unsigned i = 0; i < Vec; ++i) {
    uint64_t* const d = t.dst[i];
    if (!d) continue;
    const uint8_t* const at = p + i * Bytes;
    forLanes(x.mask, [&](unsigned l) { d[l] = t.value(readElement<Bytes>(at + l * stride), i); });
  }
}

// ld.param of a kernel parameter (no base register, an address below the frames' .param areas:
// bindLd picks it): every lane reads the same bytes of the launch's parameters, so one check of
// the offset vouches for the warp and the value is broadcast, without the machine's region check.
template <unsigned Bytes, bool Signed, unsigned Vec>
void ldKernelParamH(Exec& x, const Inst& in) {
  constexpr unsigned n = Bytes * Vec;
  const uint64_t at = uint64_t(in.ops[1].offset);
  if (!x.kernelParams || (at & (n - 1)) != 0 || at > x.kernelParamBytes ||
      n > x.kernelParamBytes - at)
    return ldH<Bytes, Signed, Vec>(x, in);
  const LoadTargets<Bytes, Signed, Vec> t(x, in.ops[0]);
  for (unsigned i = 0; i < Vec; ++i) {
    uint64_t* const d = t.dst[i];
    if (!d) continue;
    const uint64_t v = t.value(readElement<Bytes>(x.kernelParams + at + i * Bytes), i);
    forLanesElementwise(x.mask, [&](unsigned l) { d[l] = v; });
  }
}

template <unsigned Bytes, unsigned Vec, bool kShared = false>
void stH(Exec& x, const Inst& in) {
  const Opnd& s = in.ops[1];
  const uint64_t* src[Vec];
  for (unsigned i = 0; i < Vec; ++i) src[i] = x.reg(Vec == 1 ? s : s.elems[i]);
  if constexpr (kShared) {
    uint32_t offs[kWarpSize];
    if (fewSharedOffsets<Bytes * Vec>(x, in.ops[0], addressedSpace(in), offs)) {
      forLanes(x.mask, [&](unsigned l) {
        uint8_t* p = x.shared + offs[l];
        for (unsigned i = 0; i < Vec; ++i) writeElement<Bytes>(p + i * Bytes, src[i][l]);
      });
      return;
    }
  }
  // A full warp's consecutive elements from host bytes `p` on, as in ldH.
  const auto writeConsecutive = [&](uint8_t* p) {
    for (unsigned i = 0; i < Vec; ++i) {
      const uint64_t* from = src[i];
#pragma GCC ivdep
      for (unsigned l = 0; l < kWarpSize; ++l)
        writeElement<Bytes>(p + (l * Vec + i) * Bytes, from[l]);
    }
  };
  Machine::DirectRegion r;
  if (const uint64_t* base = spanBase<Bytes * Vec>(x, in.ops[0])) {
    const uint64_t at = base[0] + uint64_t(in.ops[0].offset);
    if (x.machine->directSpan(addressedSpace(in), at, Bytes * Vec, true, r)) {
      writeConsecutive(r.host + (at - r.origin));
      return;
    }
  }
  uint64_t addrs[kWarpSize];
  addresses(x, in.ops[0], addrs);
  if (directRegion<kShared>(x, addressedSpace(in), x.mask, addrs, Bytes * Vec, true, r)) {
    uint8_t* host = r.host;  // as in ldH: offsets first
    const uint64_t origin = r.origin;
    if (r.laneStride == 0 && consecutive(x.mask, addrs, Bytes * Vec)) {
      writeConsecutive(host + (addrs[0] - origin));  // one block, as in ldH
      return;
    }
    forLanes(x.mask, [&](unsigned l) {
      uint8_t* p = host + (l * r.laneStride + (addrs[l] - origin));
      for (unsigned i = 0; i < Vec; ++i) writeElement<Bytes>(p + i * Bytes, src[i][l]);
    });
    return;
  }
  uint64_t data[kWarpSize * Vec];
  for (unsigned i = 0; i < Vec; ++i) {
    const uint64_t* reg = src[i];
    forLanes(x.mask, [&](unsigned l) { data[l * Vec + i] = reg[l]; });
  }
  x.machine->store(in, addressedSpace(in), x.mask, addrs, Bytes, Vec, data);
}

// st.param to the frame's own .param variable at a fixed address (bindSt picks it), as
// ldLaneParamH.
template <unsigned Bytes, unsigned Vec>
void stLaneParamH(Exec& x, const Inst& in) {
  uint8_t* p = laneParamBytesAt(x, uint64_t(in.ops[0].offset), Bytes * Vec);
  if (!p) return stH<Bytes, Vec>(x, in);
  const Opnd& s = in.ops[1];
  const uint64_t* src[Vec];
  for (unsigned i = 0; i < Vec; ++i) src[i] = x.reg(Vec == 1 ? s : s.elems[i]);
  const size_t stride = x.laneParamBytes;
  forLanes(x.mask, [&](unsigned l) {
    for (unsigned i = 0; i < Vec; ++i) writeElement<Bytes>(p + l * stride + i * Bytes, src[i][l]);
  });
}

// Which handler an ld or st gets besides its shape: the general one, the frame's .param
// variables at a fixed address, a kernel parameter (ld only) or an access bound as .shared.
enum class Path : uint8_t { Any, LaneParam, KernelParam, Shared };

template <unsigned Bytes, bool Signed, unsigned Vec>
Handler ldOf(Path path) {
  switch (path) {
    case Path::LaneParam:
      return ldLaneParamH<Bytes, Signed, Vec>;
    case Path::KernelParam:
      return ldKernelParamH<Bytes, Signed, Vec>;
    case Path::Shared:
      return ldH<Bytes, Signed, Vec, true>;
    default:
      return ldH<Bytes, Signed, Vec>;
  }
}

template <unsigned Bytes, bool Signed>
Handler ldFor(unsigned vec, Path path) {
  switch (vec) {
    case 1:
      return ldOf<Bytes, Signed, 1>(path);
    case 2:
      return ldOf<Bytes, Signed, 2>(path);
    case 4:
      return ldOf<Bytes, Signed, 4>(path);
    case 8:
      return ldOf<Bytes, Signed, 8>(path);
  }
  return nullptr;
}

Handler ldHandler(Type t, unsigned vec, Path path) {
  const bool s = isSigned(t);
  switch (typeBytes(t)) {
    case 1:
      return s ? ldFor<1, true>(vec, path) : ldFor<1, false>(vec, path);
    case 2:
      return s ? ldFor<2, true>(vec, path) : ldFor<2, false>(vec, path);
    case 4:
      return s ? ldFor<4, true>(vec, path) : ldFor<4, false>(vec, path);
    case 8:
      return ldFor<8, false>(vec, path);
  }
  return nullptr;
}

template <unsigned Bytes, unsigned Vec>
Handler stOf(bool laneParam, bool shared) {
  return laneParam ? stLaneParamH<Bytes, Vec> : shared ? stH<Bytes, Vec, true> : stH<Bytes, Vec>;
}

template <unsigned Bytes>
Handler stFor(unsigned vec, bool laneParam, bool shared) {
  switch (vec) {
    case 1:
      return stOf<Bytes, 1>(laneParam, shared);
    case 2:
      return stOf<Bytes, 2>(laneParam, shared);
    case 4:
      return stOf<Bytes, 4>(laneParam, shared);
    case 8:
      return stOf<Bytes, 8>(laneParam, shared);
  }
  return nullptr;
}

Handler stHandler(Type t, unsigned vec, bool laneParam, bool shared) {
  switch (typeBytes(t)) {
    case 1:
      return stFor<1>(vec, laneParam, shared);
    case 2:
      return stFor<2>(vec, laneParam, shared);
    case 4:
      return stFor<4>(vec, laneParam, shared);
    case 8:
      return stFor<8>(vec, laneParam, shared);
  }
  return nullptr;
}

// Whether an ld/st names .shared (the CTA's own or the cluster's), whose handlers check the
// CTA's shared memory themselves (sharedDirect).
bool namesShared(const Inst& in) {
  const Space s = addressedSpace(in);
  return s == Space::Shared || s == Space::SharedCluster;
}

// Whether an ld/st operand addresses the frame's own .param variables at a fixed address
// (ld/stLaneParamH): no base register, a .param address in the per-lane area.
bool fixedLaneParam(const Inst& in, const Opnd& a) {
  return addressedSpace(in) == Space::Param && a.baseSlot == kNoSlot &&
         uint64_t(a.offset) >= kLaneParamBase;
}

// Whether an ld operand addresses a kernel parameter (ldKernelParamH): no base register, a
// .param address below the frames' areas.
bool kernelParam(const Inst& in, const Opnd& a) {
  return addressedSpace(in) == Space::Param && a.baseSlot == kNoSlot &&
         uint64_t(a.offset) < kLaneParamBase;
}

void nopH(Exec&, const Inst&) {}

// cvta.space d, a: space address -> generic; cvta.to.space d, a: generic -> space address.
// Inst::flags: kCvtaTo for cvta.to, kCvtaNarrow for .u32.
constexpr uint32_t kCvtaTo = 1, kCvtaNarrow = 2;
void cvtaH(Exec& x, const Inst& in) {
  const Space space = in.mods.space;
  if (x.globalIsGeneric && (space == Space::Global || space == Space::Const)) {
    // The identity (a .u32 cvta keeps the low 32 bits), without the machine's call.
    const uint64_t keep = in.flags & kCvtaNarrow ? 0xFFFFFFFFull : ~0ull;
    uint64_t* d = x.reg(in.ops[0]);
    const uint64_t* a = x.reg(in.ops[1]);
    forLanesElementwise(x.mask, [&](unsigned l) { d[l] = a[l] & keep; });
    return;
  }
  x.machine->convertAddresses(in.mods.space, !(in.flags & kCvtaTo), x.mask, x.reg(in.ops[1]),
                              x.reg(in.ops[0]), (in.flags & kCvtaNarrow) != 0);
}

void isspacepH(Exec& x, const Inst& in) {
  uint32_t& p = x.pred(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  const Space want = in.mods.space;
  forLanes(x.mask, [&](unsigned l) {
    const Space got = x.machine->spaceOf(a[l], l);
    const bool yes = got == want || (want == Space::Const && got == Space::Global) ||
                     (want == Space::SharedCluster && got == Space::Shared);
    p = yes ? (p | 1u << l) : (p & ~(1u << l));
  });
}

InsnClass classOf(Space s, bool store) {
  switch (s) {
    case Space::Shared:
    case Space::SharedCluster:
      return store ? InsnClass::StoreShared : InsnClass::LoadShared;
    case Space::Local:
      return store ? InsnClass::StoreLocal : InsnClass::LoadLocal;
    case Space::Param:
      return store ? InsnClass::StoreParam : InsnClass::LoadParam;
    case Space::Const:
      return InsnClass::LoadConst;
    default:
      return store ? InsnClass::StoreGlobal : InsnClass::LoadGlobal;
  }
}

// The data operand of ld (`store` false: elements may be `_`) or st (every element a register).
std::string checkVector(const Inst& in, const Opnd& v, bool store) {
  const unsigned vec = in.mods.vec;
  if (vec == 1) {
    if (v.kind != OpndKind::Reg) return "'" + in.text + "' needs a register operand";
    return "";
  }
  if (v.kind != OpndKind::Vec || v.elems.size() != vec)
    return "'" + in.text + "' needs a vector of " + std::to_string(vec) + " registers";
  for (const Opnd& e : v.elems)
    if (e.kind != OpndKind::Reg && (store || e.kind != OpndKind::Sink))
      return "the elements of '" + in.text + "' must be registers" + (store ? "" : " or '_'");
  if (typeBytes(in.mods.type()) * vec > 16 && !(vec == 8 && typeBytes(in.mods.type()) <= 4))
    return "'" + in.text + "' accesses more than 16 bytes";
  return "";
}

// ld/st take 2 operands, and a third, the 64-bit cache policy, with .L2::cache_hint (PTX ISA,
// "ld" / "st"): it only steers L2 eviction, so the access is the same.
std::string expectMemoryOperands(const Inst& in) {
  if (in.mods.has("L2::cache_hint") && in.ops.size() == 3) {
    if (in.ops[2].kind != OpndKind::Reg)
      return "the cache policy of '" + in.text + "' must be a register";
    return "";
  }
  return expectOperands(in, 2);
}

std::string bindLd(Inst& in) {
  if (auto e = expectMemoryOperands(in); !e.empty()) return e;
  if (in.ops[1].kind != OpndKind::Addr) return "the source of '" + in.text + "' must be an address";
  if (in.mods.types.size() != 1) return "'" + in.text + "' needs exactly one type";
  if (auto e = checkVector(in, in.ops[0], false); !e.empty()) return e;
  in.cls = classOf(addressedSpace(in), false);
  in.skipsL1 = in.mods.has("cg");
  const Opnd& a = in.ops[1];
  in.run = ldHandler(in.mods.type(), in.mods.vec,
                     fixedLaneParam(in, a) ? Path::LaneParam
                     : kernelParam(in, a)  ? Path::KernelParam
                     : namesShared(in)     ? Path::Shared
                                           : Path::Any);
  if (!in.run)
    return "'" + in.text + "': loads of " + std::to_string(typeBytes(in.mods.type())) +
           "-byte elements are not supported yet";
  return "";
}

std::string bindSt(Inst& in) {
  if (auto e = expectMemoryOperands(in); !e.empty()) return e;
  if (in.ops[0].kind != OpndKind::Addr)
    return "the destination of '" + in.text + "' must be an address";
  if (in.mods.types.size() != 1) return "'" + in.text + "' needs exactly one type";
  if (auto e = checkVector(in, in.ops[1], true); !e.empty()) return e;
  if (addressedSpace(in) == Space::Const) return "st.const is not allowed";
  in.cls = classOf(addressedSpace(in), true);
  in.skipsL1 = in.mods.has("cg");
  in.run = stHandler(in.mods.type(), in.mods.vec, fixedLaneParam(in, in.ops[0]), namesShared(in));
  if (!in.run)
    return "'" + in.text + "': stores of " + std::to_string(typeBytes(in.mods.type())) +
           "-byte elements are not supported yet";
  return "";
}

std::string bindCvta(Inst& in) {
  if (auto e = expectOperands(in, 2); !e.empty()) return e;
  if (auto e = expectRegs(in, {0, 1}); !e.empty()) return e;
  if (in.mods.space == Space::None) return "'cvta' needs a state space";
  in.cls = InsnClass::Int;
  in.run = cvtaH;
  in.flags = (in.mods.has("to") ? kCvtaTo : 0) | (typeBits(in.mods.type()) == 32 ? kCvtaNarrow : 0);
  return "";
}

std::string bindPrefetch(Inst& in) {
  if (in.ops.size() != 1 || in.ops[0].kind != OpndKind::Addr)
    return "'" + in.text + "' takes one address";
  in.cls = InsnClass::Misc;
  in.run = nopH;
  return "";
}

std::string bindIsspacep(Inst& in) {
  if (auto e = expectOperands(in, 2); !e.empty()) return e;
  if (in.ops[0].kind != OpndKind::Pred) return "'isspacep' writes a predicate";
  if (in.mods.space == Space::None) return "'isspacep' needs a state space";
  in.cls = InsnClass::Int;
  in.run = isspacepH;
  return "";
}

const std::vector<Type> kLoadTypes = {Type::B8,   Type::B16,    Type::B32, Type::B64, Type::B128,
                                      Type::U8,   Type::U16,    Type::U32, Type::U64, Type::S8,
                                      Type::S16,  Type::S32,    Type::S64, Type::F16, Type::F16x2,
                                      Type::BF16, Type::BF16x2, Type::F32, Type::F64};
const std::vector<std::string_view> kMemoryWords = {
    "global",  "shared",   "shared::cta",  "shared::cluster",
    "local",   "param",    "param::entry", "param::func",
    "const",   "v2",       "v4",           "v8",
    "nc",      "volatile", "weak",         "relaxed",
    "acquire", "release",  "cta",          "cluster",
    "gpu",     "sys",      "ca",           "cg",
    "cs",      "lu",       "cv",           "wb",
    "wt",      "L1::*",    "L2::*",        "mmio",
    "unified"};

}  // namespace

std::vector<OpcodeSpec> memory() {
  return {
      {"ld", "memory", InsnClass::LoadGlobal, Role::Compute, Operation::Load, kLoadTypes,
       kMemoryWords, bindLd},
      {"ldu", "memory", InsnClass::LoadGlobal, Role::Compute, Operation::Other, kLoadTypes,
       kMemoryWords, bindLd},
      {"st", "memory", InsnClass::StoreGlobal, Role::Effect, Operation::Other, kLoadTypes,
       kMemoryWords, bindSt},
      {"prefetch",
       "memory",
       InsnClass::Misc,
       Role::Effect,
       Operation::Other,
       {},
       {"global", "local", "L1", "L2", "tensormap", "L2::*", "const", "param"},
       bindPrefetch},
      {"prefetchu",
       "memory",
       InsnClass::Misc,
       Role::Effect,
       Operation::Other,
       {},
       {"L1"},
       bindPrefetch},
      {"cvta",
       "memory",
       InsnClass::Int,
       Role::Compute,
       Operation::ConvertAddress,
       {Type::U32, Type::U64},
       {"to", "global", "shared", "shared::cta", "shared::cluster", "local", "const", "param"},
       bindCvta},
      {"isspacep",
       "memory",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       {},
       {"global", "shared", "shared::cta", "shared::cluster", "local", "const", "param",
        "param::entry"},
       bindIsspacep},
  };
}

}  // namespace warpsim::isa::insns
