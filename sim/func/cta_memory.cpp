// Memory services of a CTA: every access checked against the live allocations (global), the
// CTA's shared memory, the thread's local memory and the .param areas; generic addresses
// resolved through the shared and local windows.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdio>
#include <cstring>

#include "sim/func/cta.h"
#include "sim/func/printf_format.h"

namespace warpsim::sim {

using isa::Inst;
using isa::LaneMask;
using isa::Space;

namespace {

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// [addr, addr + n) lies inside [0, size), without the wrap-around of addr + n near 2^64 (a
// 64-bit base register holding a small negative number).
inline bool fits(uint64_t addr, uint64_t n, uint64_t size) {
  return addr <= size && n <= size - addr;
}

inline bool isShared(Space s) { return s == Space::Shared || s == Space::SharedCluster; }

}  // namespace

Space Cta::spaceOf(uint64_t a, unsigned) { return genericSpace(a); }

uint64_t Cta::toGeneric(Space space, uint64_t addr, unsigned) {
  return toGenericAddress(space, addr);
}

uint64_t Cta::fromGeneric(Space space, uint64_t addr, unsigned) {
  return fromGenericAddress(space, addr);
}

uint8_t* Cta::resolve(const Inst& in, Space space, uint64_t addr, unsigned bytes, unsigned lane,
                      bool write, Space* landed) {
  const char* what = write ? "store" : "load";
  // Access sizes are powers of two (1..32 bytes), so alignment is a mask test.
  if ((addr & (bytes - 1)) != 0)
    return badAccess(FaultKind::Misaligned,
                     std::string(what) + " of " + std::to_string(bytes) + " bytes at " + hex(addr) +
                         " is not " + std::to_string(bytes) + "-byte aligned",
                     in, lane, addr, space == Space::Generic ? genericSpace(addr) : space, bytes,
                     write);
  if (space == Space::Generic) {
    space = genericSpace(addr);
    addr = fromGenericAddress(space, addr);
    // mapa's generic addresses: another CTA of the cluster (cluster.h).
    if (space == Space::Shared && namesRank(addr)) space = Space::SharedCluster;
  }
  // Lanes that land in different spaces make the access's landing space Generic (mixed).
  if (*landed == Space::None)
    *landed = space;
  else if (*landed != space && !(isShared(*landed) && isShared(space)))
    *landed = Space::Generic;
  auto outOfBounds = [&](const std::string& where) {
    return badAccess(
        FaultKind::OutOfBounds,
        std::string(what) + " of " + std::to_string(bytes) + " bytes at " + hex(addr) + " " + where,
        in, lane, addr, space, bytes, write);
  };
  switch (space) {
    case Space::Shared:
    case Space::SharedCluster:
      if (space == Space::SharedCluster && namesRank(addr))
        return resolveCluster(in, addr, bytes, lane, write);
      if (!shared_.fits(addr, bytes))
        return outOfBounds("is outside the CTA's " + std::to_string(shared_.size()) +
                           " bytes of shared memory");
      return shared_.data() + addr;
    case Space::Local:
      if (!fits(addr, bytes, cur_->localBytes))
        return outOfBounds("is outside the thread's " + std::to_string(cur_->localBytes) +
                           " bytes of local memory");
      return cur_->laneLocal(lane) + addr;
    case Space::Param: {
      if (addr >= isa::kLaneParamBase) {
        Frame& f = cur_->frames.back();
        const uint64_t off = addr - isa::kLaneParamBase;
        if (!fits(off, bytes, f.fn->laneParamBytes))
          return outOfBounds("is outside the .param variables");
        return f.laneParam(lane) + off;
      }
      if (write) return outOfBounds("is in the kernel's parameters, which are read-only");
      if (!fits(addr, bytes, ctx_->params->size()))
        return outOfBounds("is outside the kernel's parameters");
      return const_cast<uint8_t*>(ctx_->params->data()) + addr;
    }
    default: {
      if (const Allocation* a = recent_.find(addr); a && addr + bytes <= a->base + a->size) {
        if (write && a->readOnly) return outOfBounds("is in read-only memory (" + a->label + ")");
        return a->bytes.get() + (addr - a->base);
      }
      const Allocation* hit = nullptr;
      uint8_t* p = ctx_->memory->find(addr, bytes, &hit);
      if (!p) {
        if (addr == 0 || addr < 4096) return outOfBounds("(a null pointer)");
        if (const Allocation* in = ctx_->memory->allocationContaining(addr))
          return outOfBounds("runs past the end of " + in->label + " (" + std::to_string(in->size) +
                             " bytes at " + hex(in->base) + ")");
        const Allocation* below = ctx_->memory->allocationBelow(addr);
        if (below && addr - (below->base + below->size) < 4096)
          return outOfBounds("is " + std::to_string(addr - (below->base + below->size)) +
                             " bytes past the end of " + below->label + " (" +
                             std::to_string(below->size) + " bytes at " + hex(below->base) + ")");
        return outOfBounds("is not inside any live allocation");
      }
      if (write && hit->readOnly) return outOfBounds("is in read-only memory (" + hit->label + ")");
      recent_.add(hit);
      return p;
    }
  }
}

uint8_t* Cta::badAccess(FaultKind kind, std::string message, const Inst& in, unsigned lane,
                        uint64_t addr, Space space, unsigned bytes, bool write) {
  // A kernel that goes on after its invalid accesses may loop on the zeros it reads: past
  // kMaxRecovered of them the CTA stops as it would without recovery.
  constexpr uint64_t kMaxRecovered = 1'000'000;
  if (!ctx_->options.recoverInvalidAccess || !obs_ || ++recovered_ > kMaxRecovered)
    fault(kind, std::move(message), &in, lane, addr);
  obs_->invalidAccess(
      {faultInfo(kind, std::move(message), &in, lane, addr, {}), space, bytes, write});
  // The access is skipped: a load reads zeros, a store or atomic writes into scratch.
  std::memset(scratch_, 0, sizeof scratch_);
  return scratch_;
}

MemoryEvent Cta::accessEvent(const Inst& in, AccessKind kind, Space space, Space landed,
                             LaneMask mask, const uint64_t* addrs, unsigned bytes) const {
  return {cur_->index, &in, kind, space, landed, mask, addrs, bytes, in.mods.order, in.mods.scope};
}

void Cta::emitAccess(const Inst& in, AccessKind kind, Space space, Space landed, LaneMask mask,
                     const uint64_t* addrs, unsigned bytes) {
  obs_->memory(accessEvent(in, kind, space, landed, mask, addrs, bytes));
}

namespace {

// Element copies of a fixed size: the compiler turns each into one move.
inline void readElements(const uint8_t* p, unsigned bytes, unsigned vec, uint64_t* out) {
  for (unsigned i = 0; i < vec; ++i) {
    switch (bytes) {
      case 1:
        out[i] = p[i];
        break;
      case 2: {
        uint16_t v;
        std::memcpy(&v, p + 2 * i, 2);
        out[i] = v;
        break;
      }
      case 4: {
        uint32_t v;
        std::memcpy(&v, p + 4 * i, 4);
        out[i] = v;
        break;
      }
      default: {
        uint64_t v;
        std::memcpy(&v, p + 8 * i, 8);
        out[i] = v;
        break;
      }
    }
  }
}

inline void writeElements(uint8_t* p, unsigned bytes, unsigned vec, const uint64_t* data) {
  for (unsigned i = 0; i < vec; ++i) {
    switch (bytes) {
      case 1:
        p[i] = uint8_t(data[i]);
        break;
      case 2: {
        const uint16_t v = uint16_t(data[i]);
        std::memcpy(p + 2 * i, &v, 2);
        break;
      }
      case 4: {
        const uint32_t v = uint32_t(data[i]);
        std::memcpy(p + 4 * i, &v, 4);
        break;
      }
      default:
        std::memcpy(p + 8 * i, &data[i], 8);
        break;
    }
  }
}

// Calls f.template operator()<B, V>() for the access's element size and vector width.
template <class F>
void byShape(unsigned bytes, unsigned vec, F&& f) {
  switch (bytes * 16 + vec) {
#define WARPSIM_SHAPE(B, V) \
  case B * 16 + V:          \
    return f.template operator()<B, V>();
    WARPSIM_SHAPE(1, 1)
    WARPSIM_SHAPE(1, 2)
    WARPSIM_SHAPE(1, 4)
    WARPSIM_SHAPE(2, 1)
    WARPSIM_SHAPE(2, 2)
    WARPSIM_SHAPE(2, 4)
    WARPSIM_SHAPE(2, 8)
    WARPSIM_SHAPE(4, 1)
    WARPSIM_SHAPE(4, 2)
    WARPSIM_SHAPE(4, 4)
    WARPSIM_SHAPE(4, 8)
    WARPSIM_SHAPE(8, 1)
    WARPSIM_SHAPE(8, 2)
    WARPSIM_SHAPE(8, 4)
#undef WARPSIM_SHAPE
    default:
      return f.template operator()<0, 0>();
  }
}

// Whether every lane's address in `mask` is n-aligned (n a power of two) and [a, a + n) lies
// inside [base, base + size). One pass without branches, which a full warp runs as a counted,
// vectorizable loop.
inline bool lanesInside(LaneMask mask, const uint64_t* addrs, unsigned n, uint64_t base,
                        uint64_t size) {
  if (n > size) return false;
  const uint64_t limit = size - n, misaligned = n - 1;
  uint64_t bad = 0;
  isa::forLanes(mask, [&](unsigned l) {
    bad |= uint64_t(addrs[l] - base > limit) | (addrs[l] & misaligned);
  });
  return bad == 0;
}

// The global allocation holding every lane's access, from the one `first` lands in (one of the
// last few hit, else a search). A function of its own: as a lambda capturing warpRegion's
// arguments, it had every call (most of them .param and shared accesses) store its closure first.
bool globalRegion(const DeviceMemory& memory, RecentAllocations& recent, uint64_t first,
                  LaneMask mask, const uint64_t* addrs, unsigned n, bool write, Space landed,
                  WarpRegion& r) {
  const Allocation* hit = recent.find(first);
  if (!hit) {
    if (!memory.find(first, n, &hit)) return false;
    recent.add(hit);
  }
  if ((write && hit->readOnly) || !lanesInside(mask, addrs, n, hit->base, hit->size)) return false;
  r = {hit->bytes.get(), hit->base, 0, landed};
  return true;
}

}  // namespace

bool Cta::warpRegion(Space space, LaneMask mask, const uint64_t* addrs, unsigned n, bool write,
                     WarpRegion& r) {
  // The first lane's address picks the candidate region; then one pass checks every lane.
  const uint64_t first = addrs[std::countr_zero(mask)];
  switch (space) {
    case Space::Shared:
    case Space::SharedCluster:
      if (!lanesInside(mask, addrs, n, 0, shared_.size())) return false;
      r = {shared_.data(), 0, 0, Space::Shared};
      return true;
    case Space::Local:
      if (!lanesInside(mask, addrs, n, 0, cur_->localBytes)) return false;
      r = {cur_->local.data(), 0, cur_->localBytes, Space::Local};
      return true;
    case Space::Param:
      if (first >= isa::kLaneParamBase) {  // the frame's per-lane .param variables
        Frame& f = cur_->frames.back();
        if (!lanesInside(mask, addrs, n, isa::kLaneParamBase, f.fn->laneParamBytes)) return false;
        r = {f.laneParams.data(), isa::kLaneParamBase, f.fn->laneParamBytes, Space::Param};
        return true;
      }
      if (write || !lanesInside(mask, addrs, n, 0, ctx_->params->size())) return false;
      r = {const_cast<uint8_t*>(ctx_->params->data()), 0, 0, Space::Param};
      return true;
    case Space::Generic:
      if (first - kSharedWindow < kWindowBytes) {
        if (!lanesInside(mask, addrs, n, kSharedWindow, shared_.size())) return false;
        r = {shared_.data(), kSharedWindow, 0, Space::Shared};
        return true;
      }
      return first < kLocalWindow &&
             globalRegion(*ctx_->memory, recent_, first, mask, addrs, n, write, Space::Global, r);
    case Space::Global:
    case Space::Const:
      return globalRegion(*ctx_->memory, recent_, first, mask, addrs, n, write, space, r);
    default:
      return false;
  }
}

bool Cta::direct(Space space, LaneMask mask, const uint64_t* addrs, unsigned bytes, bool write,
                 DirectRegion& d) {
  // An observer sees every access through load/store (with the space it landed in).
  if (obs_ || !mask) return false;
  WarpRegion r;
  if (!warpRegion(space, mask, addrs, bytes, write, r)) return false;
  d = {r.host, r.origin, r.laneStride};
  return true;
}

bool Cta::directSpan(Space space, uint64_t addr, unsigned laneBytes, bool write, DirectRegion& d) {
  // As direct's warpRegion, for the lanes' addresses addr + l * laneBytes: the region the first
  // lane lands in, then the span's ends instead of each lane (aligned: addr is, so is each lane).
  if (obs_ || (addr & (laneBytes - 1)) != 0) return false;
  const uint64_t span = uint64_t(laneBytes) * isa::kWarpSize;
  switch (space) {
    case Space::Shared:
    case Space::SharedCluster:
      if (!fits(addr, span, shared_.size())) return false;
      d = {shared_.data(), 0, 0};
      return true;
    case Space::Generic:
      if (addr - kSharedWindow < kWindowBytes) {
        if (!fits(addr - kSharedWindow, span, shared_.size())) return false;
        d = {shared_.data(), kSharedWindow, 0};
        return true;
      }
      if (addr >= kLocalWindow) return false;
      [[fallthrough]];
    case Space::Global:
    case Space::Const: {
      const Allocation* hit = recent_.find(addr);
      if (!hit) {
        if (!ctx_->memory->find(addr, laneBytes, &hit)) return false;
        recent_.add(hit);
      }
      if ((write && hit->readOnly) || !fits(addr - hit->base, span, hit->size)) return false;
      d = {hit->bytes.get(), hit->base, 0};
      return true;
    }
    default:  // local memory and a frame's .param variables are each lane's own
      return false;
  }
}

void Cta::convertAddresses(Space space, bool toGenericSpace, LaneMask mask, const uint64_t* a,
                           uint64_t* d, bool narrow) {
  // toGenericAddress / fromGenericAddress with the space's switch taken once for the warp.
  uint64_t window = 0;
  switch (space) {
    case Space::Shared:
    case Space::SharedCluster:
      window = kSharedWindow;
      break;
    case Space::Local:
      window = kLocalWindow;
      break;
    case Space::Param:
      window = kParamWindow;
      break;
    default:  // global and const addresses are generic addresses
      break;
  }
  const uint64_t keep = narrow ? 0xFFFFFFFFull : ~0ull;
  // One loop per direction, chosen once for the warp: a choice inside the lane loop kept it from
  // vectorizing (global addresses, the common case, are the identity).
  auto run = [&](auto convert) {
    if (mask == ~0u) {
      // Lane l reads a[l] and writes d[l] only (d is a or another register): the lanes are
      // independent, so the loop vectorizes without an overlap test.
#pragma GCC ivdep
      for (unsigned l = 0; l < isa::kWarpSize; ++l) d[l] = convert(a[l]) & keep;
    } else {
      isa::forLanes(mask, [&](unsigned l) { d[l] = convert(a[l]) & keep; });
    }
  };
  if (window == 0)
    run([](uint64_t v) { return v; });
  else if (toGenericSpace)
    run([window](uint64_t v) { return window + uint32_t(v); });
  else
    run([window](uint64_t v) { return v - window; });
}

void Cta::load(const Inst& in, Space space, LaneMask mask, const uint64_t* addrs, unsigned bytes,
               unsigned vec, uint64_t* out) {
  Space landed = Space::None;
  const unsigned n = bytes * vec;
  WarpRegion r;
  if (mask && warpRegion(space, mask, addrs, n, false, r)) {
    // One bounds check for the warp: every lane falls inside one region.
    landed = r.landed;
    byShape(bytes, vec, [&]<unsigned B, unsigned V>() {
      if constexpr (B == 0)
        isa::forLanes(mask, [&](unsigned l) {
          readElements(r.host + l * r.laneStride + (addrs[l] - r.origin), bytes, vec,
                       out + l * vec);
        });
      else
        isa::forLanes(mask, [&](unsigned l) {
          readElements(r.host + l * r.laneStride + (addrs[l] - r.origin), B, V, out + l * V);
        });
    });
  } else {
    isa::forLanes(mask, [&](unsigned lane) {
      const uint8_t* p = resolve(in, space, addrs[lane], n, lane, false, &landed);
      readElements(p, bytes, vec, out + lane * vec);
    });
  }
  if (obs_) emitAccess(in, AccessKind::Load, space, landed, mask, addrs, n);
}

namespace {

// A write the lanes do in lane order, as the per-lane path runs it: every lane's address is
// resolved (and may fault) first, then the observers hear of the access (`announce`), then each
// lane writes (`apply`). A lane's fault stops the instruction with the lanes before it written
// and nothing announced, as when each lane resolved and wrote in turn.
template <class Resolve, class Announce, class Apply>
void resolveAnnounceApply(LaneMask mask, Resolve&& resolve, Announce&& announce, Apply&& apply) {
  std::array<uint8_t*, isa::kWarpSize> at;
  LaneMask resolved = 0;
  try {
    isa::forLanes(mask, [&](unsigned lane) {
      at[lane] = resolve(lane);
      resolved |= LaneMask(1) << lane;
    });
  } catch (const KernelFault&) {
    isa::forLanes(resolved, [&](unsigned lane) { apply(lane, at[lane]); });
    throw;
  }
  announce();
  isa::forLanes(mask, [&](unsigned lane) { apply(lane, at[lane]); });
}

}  // namespace

void Cta::store(const Inst& in, Space space, LaneMask mask, const uint64_t* addrs, unsigned bytes,
                unsigned vec, const uint64_t* data) {
  // Every lane resolves (and faults) before the observers hear of the store, and they hear of it
  // before any byte is written (the order sim/observer.h promises).
  Space landed = Space::None;
  const unsigned n = bytes * vec;
  WarpRegion r;
  if (mask && warpRegion(space, mask, addrs, n, true, r)) {
    landed = r.landed;
    if (obs_) emitAccess(in, AccessKind::Store, space, landed, mask, addrs, n);
    byShape(bytes, vec, [&]<unsigned B, unsigned V>() {
      if constexpr (B == 0)
        isa::forLanes(mask, [&](unsigned l) {
          writeElements(r.host + l * r.laneStride + (addrs[l] - r.origin), bytes, vec,
                        data + l * vec);
        });
      else
        isa::forLanes(mask, [&](unsigned l) {
          writeElements(r.host + l * r.laneStride + (addrs[l] - r.origin), B, V, data + l * V);
        });
    });
    return;
  }
  resolveAnnounceApply(
      mask, [&](unsigned lane) { return resolve(in, space, addrs[lane], n, lane, true, &landed); },
      [&] {
        if (obs_) emitAccess(in, AccessKind::Store, space, landed, mask, addrs, n);
      },
      [&](unsigned lane, uint8_t* p) { writeElements(p, bytes, vec, data + lane * vec); });
}

void Cta::fence(const Inst& in, LaneMask mask) {
  if (obs_) emitAccess(in, AccessKind::Fence, in.mods.space, in.mods.space, mask, nullptr, 0);
}

namespace {

// Global memory is shared with CTAs on other host threads: RMW through std::atomic_ref.
template <class T>
uint64_t atomicRmw(uint8_t* p, isa::AtomFn fn, uint64_t a, uint64_t b) {
  std::atomic_ref<T> ref(*reinterpret_cast<T*>(p));
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, T(fn(old, a, b)), std::memory_order_acq_rel,
                                    std::memory_order_relaxed)) {
  }
  return old;
}

// Shared and local memory are touched by one host thread only (a CTA runs on one, and a
// cluster's CTAs, which see one another's shared memory, on one together: group.h), so their
// RMW needs no locked instruction; lane order is kept, as with atomicRmw.
template <class T>
uint64_t plainRmw(uint8_t* p, isa::AtomFn fn, uint64_t a, uint64_t b) {
  T old;
  std::memcpy(&old, p, sizeof(T));
  const T v = T(fn(old, a, b));
  std::memcpy(p, &v, sizeof(T));
  return old;
}

}  // namespace

void Cta::atomic(const Inst& in, Space space, LaneMask mask, const uint64_t* addrs, unsigned bytes,
                 isa::AtomFn fn, const uint64_t* a, const uint64_t* b, uint64_t* old) {
  if (mask && bytes != 2 && bytes != 4 && bytes != 8)
    fault(FaultKind::InvalidInstruction, "atomic of " + std::to_string(bytes) + " bytes", &in,
          unsigned(std::countr_zero(mask)));
  // As a store: resolved, then announced, then done (lane by lane, in lane order); and announced
  // again once done.
  Space landed = Space::None;
  const auto apply = [&](unsigned lane, uint8_t* p) {
    const uint64_t bv = b ? b[lane] : 0;
    switch (bytes) {
      case 2:
        old[lane] = atomicRmw<uint16_t>(p, fn, a[lane], bv);
        break;
      case 4:
        old[lane] = atomicRmw<uint32_t>(p, fn, a[lane], bv);
        break;
      default:
        old[lane] = atomicRmw<uint64_t>(p, fn, a[lane], bv);
        break;
    }
  };
  WarpRegion r;
  if (mask && warpRegion(space, mask, addrs, bytes, true, r)) {  // one check for the warp
    landed = r.landed;
    if (obs_) emitAccess(in, AccessKind::Atomic, space, landed, mask, addrs, bytes);
    if (landed == Space::Shared || landed == Space::Local) {
      const auto plain = [&]<class T>() {
        isa::forLanes(mask, [&](unsigned l) {
          old[l] = plainRmw<T>(r.host + l * r.laneStride + (addrs[l] - r.origin), fn, a[l],
                               b ? b[l] : 0);
        });
      };
      if (bytes == 2)
        plain.template operator()<uint16_t>();
      else if (bytes == 4)
        plain.template operator()<uint32_t>();
      else
        plain.template operator()<uint64_t>();
    } else {
      isa::forLanes(
          mask, [&](unsigned l) { apply(l, r.host + l * r.laneStride + (addrs[l] - r.origin)); });
    }
  } else {
    resolveAnnounceApply(
        mask,
        [&](unsigned lane) { return resolve(in, space, addrs[lane], bytes, lane, true, &landed); },
        [&] {
          if (obs_) emitAccess(in, AccessKind::Atomic, space, landed, mask, addrs, bytes);
        },
        apply);
  }
  if (obs_)
    obs_->atomicCompleted(accessEvent(in, AccessKind::Atomic, space, landed, mask, addrs, bytes));
}

}  // namespace warpsim::sim

namespace warpsim::sim {

uint32_t Cta::printf(const Inst& in, unsigned lane, uint64_t format, uint64_t args) {
  PrintfMemory mem;
  mem.read = [&](uint64_t address, void* out, unsigned bytes) {
    Space space = spaceOf(address, lane);
    const uint64_t a = fromGeneric(space, address, lane);
    const uint8_t* p = nullptr;
    if (space == Space::Shared)
      p = shared_.fits(a, bytes) ? shared_.data() + a : nullptr;
    else if (space == Space::Local)
      p = fits(a, bytes, cur_->localBytes) ? cur_->laneLocal(lane) + a : nullptr;
    else if (space == Space::Param)
      p = fits(a, bytes, ctx_->params->size()) ? ctx_->params->data() + a : nullptr;
    else
      p = ctx_->memory->find(a, bytes);
    if (!p) return false;
    std::memcpy(out, p, bytes);
    return true;
  };
  std::string fmt;
  if (!readDeviceString(format, mem, fmt))
    fault(FaultKind::OutOfBounds, "printf format string at " + hex(format) + " is not readable",
          &in, lane, format);
  uint32_t arguments = 0;
  printf_ += formatDevicePrintf(fmt, args, mem, &arguments);
  return arguments;
}

}  // namespace warpsim::sim
