// What an instruction's semantics see while it runs: the warp's registers for the current
// frame, the lanes that execute, and the machine's services (memory, control flow, barriers).
// The simulator (sim/func) implements Machine; isa/ never depends on sim/.
#pragma once

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "isa/program.h"

namespace warpsim::isa {

namespace insns {
class WgmmaQueue;  // isa/insns/wgmma_state.h
}

enum class AtomOp : uint8_t { Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };

// One lane's atomic read-modify-write: new value from the old one and the operands.
using AtomFn = uint64_t (*)(uint64_t old, uint64_t a, uint64_t b);

enum class BarrierKind : uint8_t { Sync, Arrive, RedPopc, RedAnd, RedOr, Warp };

class Machine {
 public:
  virtual ~Machine() = default;

  // Memory: one warp-wide access. For each lane in `mask`: `bytes` per element, `vec`
  // consecutive elements at addrs[lane]; data/out hold lane*vec + i, each element's bits in the
  // low bytes. Faults (out of bounds, misaligned, unmapped) are thrown as sim::KernelFault.
  virtual void load(const Inst& in, Space space, LaneMask mask, const uint64_t* addrs,
                    unsigned bytes, unsigned vec, uint64_t* out) = 0;
  virtual void store(const Inst& in, Space space, LaneMask mask, const uint64_t* addrs,
                     unsigned bytes, unsigned vec, const uint64_t* data) = 0;
  // Atomic RMW per lane (lanes in lane order): old[lane] receives the previous value.
  virtual void atomic(const Inst& in, Space space, LaneMask mask, const uint64_t* addrs,
                      unsigned bytes, AtomFn fn, const uint64_t* a, const uint64_t* b,
                      uint64_t* old) = 0;
  // The fast path of ld/st: when the machine can vouch for the whole warp's access with one check
  // (every lane in `mask` inside one region, aligned to `bytes`, writable for a store, nobody
  // observing the access), it says where the bytes are and the handler copies them between the
  // registers and memory itself, without the per-lane address and data arrays of load/store.
  // False: use load/store, which check lane by lane and report faults.
  struct DirectRegion {
    uint8_t* host = nullptr;  // lane l's address a is at host + l * laneStride + (a - origin)
    uint64_t origin = 0;
    uint64_t laneStride = 0;
  };
  virtual bool direct(Space space, LaneMask mask, const uint64_t* addrs, unsigned bytes, bool write,
                      DirectRegion& r) {
    return false;
  }
  // direct for a full warp whose lanes access consecutive blocks of `laneBytes` (lane l at
  // addr + l * laneBytes, the coalesced access): the machine checks the span of all 32 at once
  // (addr aligned to laneBytes, [addr, addr + 32 * laneBytes) inside one region, as direct's
  // check of each lane would find) and the handler needs no per-lane addresses. Only regions
  // that all lanes share (laneStride 0); false: use direct or load/store.
  virtual bool directSpan(Space space, uint64_t addr, unsigned laneBytes, bool write,
                          DirectRegion& r) {
    return false;
  }
  // Address conversion between a state space and the generic space (cvta / cvta.to).
  virtual uint64_t toGeneric(Space space, uint64_t addr, unsigned lane) = 0;
  virtual uint64_t fromGeneric(Space space, uint64_t addr, unsigned lane) = 0;
  // The same for every lane in `mask` (one call per warp): d[l] from a[l], truncated to 32 bits
  // when `narrow`.
  virtual void convertAddresses(Space space, bool toGenericSpace, LaneMask mask, const uint64_t* a,
                                uint64_t* d, bool narrow) {
    for (LaneMask m = mask; m; m &= m - 1) {
      const unsigned l = unsigned(std::countr_zero(m));
      const uint64_t v = toGenericSpace ? toGeneric(space, a[l], l) : fromGeneric(space, a[l], l);
      d[l] = narrow ? uint32_t(v) : v;
    }
  }
  // The state space a generic address falls in (isspacep).
  virtual Space spaceOf(uint64_t genericAddr, unsigned lane) = 0;
  // membar / fence by the lanes in `mask`: ordering only in the functional model; observers
  // (checkers, timing) see it.
  virtual void fence(const Inst& in, LaneMask mask) = 0;

  // Control flow: the handler tells the machine what happened; the machine moves the PC.
  virtual void branch(const Inst& in, LaneMask taken) = 0;  // taken lanes go to in.target
  virtual void call(const Inst& in, LaneMask mask) = 0;
  // An indirect call (isa/indirect.h): each lane in `mask` calls the function whose address is
  // targets[lane]; lanes calling different functions diverge and reconverge after the call.
  virtual void callIndirect(const Inst& in, LaneMask mask, const uint64_t* targets) {
    unsupported(in, "an indirect call (through a function pointer)");
  }
  // brx.idx: each lane in `mask` goes to entry indices[lane] of in.table's targets (the
  // current function's TargetTable); the active lanes outside `mask` go on after it.
  virtual void branchIndexed(const Inst& in, LaneMask mask, const uint64_t* indices) {
    unsupported(in, in.text.c_str());
  }
  virtual void ret(const Inst& in, LaneMask mask) = 0;
  virtual void exit(const Inst& in, LaneMask mask) = 0;
  [[noreturn]] virtual void trap(const Inst& in, LaneMask mask, const char* why) = 0;
  // An access the instruction itself finds outside its object (a .trap surface access past the
  // surface's edge): the chip stops the kernel with an illegal address, as for an access outside
  // every allocation (cudaErrorIllegalAddress). A machine without address faults traps.
  [[noreturn]] virtual void addressFault(const Inst& in, unsigned lane, const std::string& why) {
    trap(in, LaneMask{1} << lane, why.c_str());
    std::abort();  // not reached: trap() does not return on any machine that runs kernels
  }
  // bar / barrier / bar.warp.sync. `value` is the bar.red predicate per lane (bit mask);
  // the result (bar.red) is written back through `result` when the barrier completes.
  virtual void barrier(const Inst& in, BarrierKind kind, LaneMask mask, uint32_t id,
                       uint32_t threadCount, LaneMask value, uint32_t resultSlot) = 0;
  // Formats one lane's printf into the output; returns the number of arguments it consumed
  // (what CUDA's printf returns).
  virtual uint32_t printf(const Inst& in, unsigned lane, uint64_t format, uint64_t args) = 0;
  virtual void nanosleep(const Inst& in) = 0;
  // Values of dynamic special registers for a lane (clocks, timers).
  virtual uint64_t special(Special s, unsigned lane) = 0;
  // A failed device-side assert (a call to __assertfail): the kernel stops, as on the chip
  // (cudaErrorAssert), at `lane`, the first failing lane. `message` is what CUDA prints:
  // "FILE:LINE: FUNCTION: Assertion `EXPR` failed.". A machine without assertion faults traps.
  [[noreturn]] virtual void assertFailed(const Inst& in, unsigned lane,
                                         const std::string& message) {
    trap(in, LaneMask{1} << lane, message.c_str());
    // trap() stops the kernel on every machine that runs kernels (it throws); one that returns
    // from it cannot go on past an assertion either.
    std::abort();
  }
  // cp.async (isa/insns/async_copy.cpp): each lane in `mask` starts a copy of `bytes` (4, 8 or
  // 16) from the global address src[lane] to the shared address dst[lane], of which only
  // srcBytes[lane] are read and the rest zero-filled. The copy joins the lane's open group; its
  // data lands in shared memory only when a wait completes it (sim/func/async_copy.h).
  virtual void asyncCopy(const Inst& in, LaneMask mask, const uint64_t* dst, const uint64_t* src,
                         unsigned bytes, const uint32_t* srcBytes) {
    unsupported(in, in.text.c_str());
  }
  // cp.async.commit_group: each lane's open copies become its newest group.
  virtual void asyncCommit(const Inst& in, LaneMask mask) { unsupported(in, in.text.c_str()); }
  // cp.async.wait_group N: each lane's committed groups but the newest `pending` land.
  virtual void asyncWait(const Inst& in, LaneMask mask, uint32_t pending) {
    unsupported(in, in.text.c_str());
  }
  // Every copy the lanes started, committed or not, lands (cp.async.mbarrier.arrive: the arrive
  // happens once they are complete, and the functional model completes them now).
  virtual void asyncCompleteAll(const Inst& in, LaneMask mask) { unsupported(in, in.text.c_str()); }
  // Device-side malloc and free (the extern functions nvcc calls for them), one lane at a time
  // in lane order: the address of a fresh heap block of `bytes` bytes, or 0 when the heap has
  // none; free of 0 does nothing. A machine without a device heap reports them unsupported.
  virtual uint64_t deviceMalloc(const Inst& in, unsigned lane, uint64_t bytes) {
    unsupported(in, "call to external function malloc");
    return 0;  // not reached: unsupported() throws (GCC does not see through the virtual call)
  }
  virtual void deviceFree(const Inst& in, unsigned lane, uint64_t address) {
    unsupported(in, "call to external function free");
  }
  // The same for the lanes of a warp's call at once, in lane order (out[lane] = malloc's
  // address): a machine may look up what the lanes share once (the CTA: the call's site).
  virtual void deviceMallocLanes(const Inst& in, LaneMask mask, const uint64_t* bytes,
                                 uint64_t* out) {
    for (LaneMask m = mask; m; m &= m - 1) {
      const unsigned l = unsigned(__builtin_ctz(m));
      out[l] = deviceMalloc(in, l, bytes[l]);
    }
  }
  virtual void deviceFreeLanes(const Inst& in, LaneMask mask, const uint64_t* addresses) {
    for (LaneMask m = mask; m; m &= m - 1) {
      const unsigned l = unsigned(__builtin_ctz(m));
      deviceFree(in, l, addresses[l]);
    }
  }
  // Dynamic parallelism (CDP2: what nvcc -rdc makes of a device-side <<<>>>), one lane at a
  // time: the parameter buffer for a launch of the kernel at address `function` (isa/lower.h
  // functionAddress) with `grid`, `block` and `shared` bytes (0 when it cannot be had), then the
  // launch of a filled buffer into `stream` (0: the block's stream, 3: tail launch, 4: fire and
  // forget), which returns a cudaError_t.
  virtual uint64_t deviceLaunchBuffer(const Inst& in, unsigned lane, uint64_t function,
                                      const uint32_t grid[3], const uint32_t block[3],
                                      uint32_t shared) {
    unsupported(in, "a device-side kernel launch (dynamic parallelism)");
    return 0;
  }
  virtual uint32_t deviceLaunch(const Inst& in, unsigned lane, uint64_t buffer, uint64_t stream) {
    unsupported(in, "a device-side kernel launch (dynamic parallelism)");
    return 0;
  }
  // cudaStreamCreateWithFlags / cudaStreamDestroy in device code: a fresh stream handle for
  // deviceLaunch; destroy returns a cudaError_t.
  virtual uint64_t deviceStreamCreate(const Inst& in, unsigned lane) {
    unsupported(in, "a stream made on the device (dynamic parallelism)");
    return 0;
  }
  virtual uint32_t deviceStreamDestroy(const Inst& in, unsigned lane, uint64_t stream) {
    unsupported(in, "a stream made on the device (dynamic parallelism)");
    return 0;
  }
  // The device runtime's last error of the thread of `lane` (cudaGetLastError, which clears
  // it, and cudaPeekAtLastError in device code), which a failed device runtime call sets.
  virtual uint32_t deviceLastError(const Inst& in, unsigned lane, bool clear) {
    unsupported(in, "the device runtime's last error (dynamic parallelism)");
    return 0;
  }
  virtual void setDeviceLastError(const Inst& in, unsigned lane, uint32_t error) {
    unsupported(in, "the device runtime's last error (dynamic parallelism)");
  }
  // Thread-block clusters (isa/insns/cluster.cpp; sim/func/cluster.h says what the addresses
  // are). mapa: the address, in `space` (Generic or SharedCluster), of the shared variable at
  // `addr` in the cluster's CTA of rank `rank`. getctarank: the rank of the CTA whose shared
  // memory `addr` lies in. barrier.cluster: the lanes in `mask` arrive (`arrive`) or wait for
  // the phase of their last arrival to complete.
  virtual uint64_t mapSharedRank(const Inst& in, Space space, uint64_t addr, uint32_t rank,
                                 unsigned lane) {
    unsupported(in, in.text.c_str());
    return 0;  // not reached: unsupported() throws
  }
  virtual uint32_t ctaRankOf(const Inst& in, Space space, uint64_t addr, unsigned lane) {
    unsupported(in, in.text.c_str());
    return 0;
  }
  virtual void clusterBarrier(const Inst& in, LaneMask mask, bool arrive) {
    unsupported(in, in.text.c_str());
  }
  // wgmma.* (isa/insns/wgmma.cpp): the executing warp's queue of warpgroup MMAs in flight. The
  // machine checks that the warp's warpgroup is whole (four warps of the CTA) and faults
  // otherwise; a machine without warpgroups reports the instruction as not supported.
  virtual insns::WgmmaQueue& wgmmaQueue(const Inst& in) {
    unsupported(in, in.text.c_str());
    std::abort();  // unsupported() does not return on any machine
  }
  // An instruction warpsim parses but does not execute yet.
  [[noreturn]] virtual void unsupported(const Inst& in, const char* what) = 0;
  // A warp-level primitive whose member mask names lanes that are not here to take part.
  [[noreturn]] virtual void warpSyncFault(const Inst& in, LaneMask members, LaneMask present) = 0;
};

struct Exec {
  uint64_t* regs = nullptr;   // the current frame: regs[slot * kWarpSize + lane]
  uint32_t* preds = nullptr;  // the current frame: one lane mask per predicate
  LaneMask mask = 0;          // lanes executing (active and guard true)
  LaneMask active = 0;        // active lanes (before the guard)
  Machine* machine = nullptr;
  // The current frame's per-lane .param area (lane l's at laneParams + l * laneParamBytes) when
  // the machine lets handlers copy .param variables at fixed addresses themselves (a call's
  // arguments and return values: ld/st.param [param0]); null when every access must go through
  // the machine (an observer sees them, or the machine has no frames).
  uint8_t* laneParams = nullptr;
  uint32_t laneParamBytes = 0;
  // The CTA's shared memory when the machine lets ld/st reach it themselves (insns/memory.cpp
  // checks the lanes against sharedBytes: one check with neither Machine::direct's virtual call
  // nor its switch on the space); null when every access must go through the machine (an
  // observer sees them, or the machine has no shared memory of its own).
  uint8_t* shared = nullptr;
  uint64_t sharedBytes = 0;
  // The kernel's parameters when the machine lets ld.param read them itself (a kernel
  // parameter's ld.param: one check of its offset, then its value broadcast to the lanes); null
  // when every access must go through the machine (an observer sees them).
  const uint8_t* kernelParams = nullptr;
  uint64_t kernelParamBytes = 0;
  // Whether the machine's global (and const) addresses are generic addresses, as on the chip,
  // so that cvta to or from .global is the identity, which the handler applies itself.
  bool globalIsGeneric = false;

  uint64_t* reg(uint32_t slot) const { return regs + size_t(slot) * kWarpSize; }
  uint64_t* reg(const Opnd& o) const { return reg(o.slot); }
  uint32_t& pred(const Opnd& o) const { return preds[o.slot]; }
};

// Runs `body(lane)` for every lane set in `mask`, in lane order. A full warp, the common case, is
// a plain counted loop that the compiler can unroll and vectorize.
template <class F>
inline void forLanes(LaneMask mask, F&& body) {
  if (mask == ~0u) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane) body(lane);
    return;
  }
  while (mask) {
    const unsigned lane = unsigned(std::countr_zero(mask));
    mask &= mask - 1;
    body(lane);
  }
}

// Sets a warp's register or lane array (32 lanes of 8 bytes) to zero with eight 32-byte stores.
// `uint64_t a[kWarpSize] = {}` and fill_n are a memset of 256 bytes, which GCC's generic tuning
// emits as `rep stosq`, whose start-up cost is most of the work at this size. (Written out: as a
// loop, GCC turns it back into that memset.)
inline void zeroLanes(uint64_t* r) {
  static_assert(kWarpSize == 32);
  using Four = uint64_t __attribute__((vector_size(32), aligned(8)));
  Four* v = reinterpret_cast<Four*>(r);
  v[0] = v[1] = v[2] = v[3] = v[4] = v[5] = v[6] = v[7] = Four{0, 0, 0, 0};
}

// Register bits <-> typed values. Registers hold raw bits in 64-bit slots.
template <class T>
inline T as(uint64_t bits) {
  if constexpr (sizeof(T) == 8) {
    T v;
    std::memcpy(&v, &bits, 8);
    return v;
  } else {
    using U = std::conditional_t<sizeof(T) == 4, uint32_t,
                                 std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>;
    const U u = static_cast<U>(bits);
    T v;
    std::memcpy(&v, &u, sizeof(T));
    return v;
  }
}

template <class T>
inline uint64_t bitsOf(T v) {
  if constexpr (sizeof(T) == 8) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
  } else {
    using U = std::conditional_t<sizeof(T) == 4, uint32_t,
                                 std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>;
    U u;
    std::memcpy(&u, &v, sizeof(T));
    return u;
  }
}

}  // namespace warpsim::isa
