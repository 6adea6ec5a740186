// Asynchronous copies, global to shared (PTX ISA, "cp.async", "cp.async.commit_group",
// "cp.async.wait_group / wait_all", "cp.async.mbarrier.arrive"):
//   cp.async.ca|cg.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B}
//            [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy};
//   cp.async.commit_group;  cp.async.wait_group N;  cp.async.wait_all;
//   cp.async.mbarrier.arrive{.noinc}.shared{::cta}.b64 [mbar];
// cp-size is 4, 8 or 16 (16 only with .cg); src-size bytes are read and the rest of the
// destination is zero-filled; ignore-src true reads nothing. .ca/.cg and the L2 hints choose
// caches only. The in-flight state lives in the simulator (sim/func/async_copy.h): the data lands
// at the wait. The bulk forms (cp.async.bulk, .tensor) are bulk_copy.cpp's, the bulk
// reductions (cp.reduce.async.bulk, .tensor) bulk_reduce.cpp's.
#include "isa/insns/addresses.h"
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"
#include "isa/insns/mbarrier_state.h"

namespace warpsim::isa::insns {
namespace {

// What the operand after cp-size is (Inst::flags).
enum : uint32_t { kNoSrcSize = 0, kSrcSize = 1, kIgnoreSrc = 2 };

void cpAsyncH(Exec& x, const Inst& in) {
  uint64_t dst[kWarpSize], src[kWarpSize];
  uint32_t srcBytes[kWarpSize];
  laneAddresses(x, in.ops[0], x.mask, dst);
  laneAddresses(x, in.ops[1], x.mask, src);
  const uint64_t bytes = uniformValue(x, in.ops[2], x.mask);
  if (bytes != 4 && bytes != 8 && bytes != 16)
    x.machine->trap(in, x.mask, "cp.async's cp-size must be 4, 8 or 16");
  if (bytes != 16 && in.mods.has("cg")) x.machine->trap(in, x.mask, "cp.async.cg copies 16 bytes");
  switch (in.flags) {
    case kSrcSize: {
      const uint64_t* n = x.reg(in.ops[3]);
      forLanes(x.mask, [&](unsigned l) { srcBytes[l] = uint32_t(n[l]); });
      break;
    }
    case kIgnoreSrc: {
      const LaneMask ignore = predSource(x, in.ops[3]);
      forLanes(x.mask, [&](unsigned l) { srcBytes[l] = (ignore >> l & 1) ? 0 : uint32_t(bytes); });
      break;
    }
    default:
      forLanes(x.mask, [&](unsigned l) { srcBytes[l] = uint32_t(bytes); });
  }
  x.machine->asyncCopy(in, x.mask, dst, src, unsigned(bytes), srcBytes);
}

void commitH(Exec& x, const Inst& in) { x.machine->asyncCommit(in, x.mask); }

void waitGroupH(Exec& x, const Inst& in) {
  x.machine->asyncWait(in, x.mask, uint32_t(uniformValue(x, in.ops[0], x.mask)));
}

// wait_all is commit_group followed by wait_group 0.
void waitAllH(Exec& x, const Inst& in) {
  x.machine->asyncCommit(in, x.mask);
  x.machine->asyncWait(in, x.mask, 0);
}

// The thread's copies complete (now, in the functional model), then it arrives on the mbarrier:
// without .noinc the pending count is first raised by one, so the arrival changes nothing but
// the phase's data (PTX ISA: "a zero-net change for the pending count").
template <bool NoInc>
void mbarrierArriveH(Exec& x, const Inst& in) {
  x.machine->asyncCompleteAll(in, x.mask);
  uint64_t addrs[kWarpSize], a[kWarpSize], old[kWarpSize];
  laneAddresses(x, in.ops[0], x.mask, addrs);
  forLanes(x.mask, [&](unsigned l) { a[l] = NoInc ? 1 : 0; });
  x.machine->atomic(in, addressedSpace(in), x.mask, addrs, 8, mbarrier::arriveFn, a, nullptr, old);
}

std::string bindCp(Inst& in) {
  const Mods& m = in.mods;
  const bool async = m.has("async");
  if (async && m.has("bulk"))  // bulk_reduce.cpp, bulk_copy.cpp
    return m.has("reduce") ? bindBulkReduce(in) : bindBulkCopy(in);
  if (!async || m.has("reduce")) {
    in.run = notSupportedHandler;  // no form of cp that sm_90 has
    return "";
  }
  if (m.has("commit_group")) {
    in.cls = InsnClass::Misc;
    in.sync = SyncRole::AsyncCommit;
    in.run = commitH;
    return in.ops.empty() ? "" : msg(in, "takes no operands");
  }
  if (m.has("wait_group")) {
    in.cls = InsnClass::Misc;
    in.sync = SyncRole::AsyncWait;
    in.run = waitGroupH;
    if (in.ops.size() != 1 || in.ops[0].kind != OpndKind::Reg || in.ops[0].declared)
      return msg(in, "takes one immediate operand");
    return "";
  }
  if (m.has("wait_all")) {
    in.cls = InsnClass::Misc;
    in.sync = SyncRole::AsyncWaitAll;
    in.run = waitAllH;
    return in.ops.empty() ? "" : msg(in, "takes no operands");
  }
  if (m.has("mbarrier")) {
    if (!m.has("arrive")) return msg(in, "needs .arrive");
    if (in.ops.size() != 1 || in.ops[0].kind != OpndKind::Addr) return msg(in, "takes one address");
    in.cls = InsnClass::AtomicShared;
    in.sync = SyncRole::MbarrierArrive;
    in.run = m.has("noinc") ? mbarrierArriveH<true> : mbarrierArriveH<false>;
    return "";
  }
  if (!m.has("ca") && !m.has("cg")) return msg(in, "needs .ca or .cg");
  if (!m.has("global") || !(m.has("shared") || m.has("shared::cta")))
    return msg(in, "copies from .global to .shared");
  const bool hint = m.has("L2::cache_hint");
  const size_t base = 3, n = in.ops.size();
  if (n < base + (hint ? 1 : 0) || n > base + 1 + (hint ? 1 : 0))
    return msg(in, "has the wrong number of operands");
  if (in.ops[0].kind != OpndKind::Addr || in.ops[1].kind != OpndKind::Addr)
    return msg(in, "takes a shared destination and a global source address");
  if (in.ops[2].kind != OpndKind::Reg || in.ops[2].declared)
    return msg(in, "takes an immediate cp-size");
  in.flags = kNoSrcSize;
  const size_t extra = n - base - (hint ? 1 : 0);
  if (extra == 1) {
    const Opnd& o = in.ops[3];
    if (o.kind == OpndKind::Pred)
      in.flags = kIgnoreSrc;
    else if (o.kind == OpndKind::Reg)
      in.flags = kSrcSize;
    else
      return msg(in, "takes a src-size register or an ignore-src predicate");
  }
  if (hint && n == base + extra + 1 && in.ops.back().kind != OpndKind::Reg)
    return msg(in, "takes a 64-bit cache policy register");
  in.cls = InsnClass::LoadGlobal;
  in.skipsL1 = m.has("cg");
  in.run = cpAsyncH;
  return "";
}

}  // namespace

std::vector<OpcodeSpec> asyncCopy() {
  // `cp` takes any modifier word: its bulk forms have many; the binders check
  // the forms it executes.
  return {{"cp",
           "async_copy",
           InsnClass::LoadGlobal,
           Role::Effect,
           Operation::Other,
           {},
           {"*"},
           bindCp}};
}

}  // namespace warpsim::isa::insns
