// mbarrier (PTX ISA, "Parallel Synchronization and Communication Instructions: mbarrier"):
//   mbarrier.init{.shared{::cta}}.b64 [addr], count;
//   mbarrier.inval{.shared{::cta}}.b64 [addr];
//   mbarrier.arrive{.noComplete}{.sem}{.scope}{.space}.b64 state, [addr]{, count};
//   mbarrier.arrive.expect_tx{.sem}{.scope}{.space}.b64 state, [addr], txCount;
//   mbarrier.arrive_drop{.noComplete|.expect_tx}... .b64 state, [addr]{, count | txCount};
//   mbarrier.expect_tx / complete_tx{.sem}{.scope}{.space}.b64 [addr], txCount;
//   mbarrier.test_wait / try_wait{.parity}{.sem}{.scope}{.space}.b64 waitComplete, [addr],
//           state | phaseParity {, suspendTimeHint};
//   mbarrier.pending_count.b64 count, state;
// The object's encoding and the operations' arithmetic are in mbarrier_state.h. `state` is the
// word before the arrival (its parity is the phase the thread arrived on); `_` discards it.
// try_wait that finds the phase incomplete returns false, as it may after its time limit, and
// lets the other warps run (the machine's nanosleep) so that a spin loop makes progress.
#include "isa/insns/addresses.h"
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"
#include "isa/insns/mbarrier_state.h"

namespace warpsim::isa::insns {
namespace {

enum class Op : uint32_t { Init, Inval, Arrive, ArriveDrop, ExpectTx, CompleteTx };

// Runs fn with per-lane operand a (`aOpnd`, or `aDefault` when absent) and b, writing the
// previous word to `state` (a register, or nothing for `_` or no destination).
void rmw(Exec& x, const Inst& in, const Opnd& addr, AtomFn fn, const Opnd* aOpnd, uint64_t aDefault,
         bool bFromA, bool negateA, const Opnd* state) {
  uint64_t addrs[kWarpSize], a[kWarpSize], b[kWarpSize], old[kWarpSize];
  laneAddresses(x, addr, x.mask, addrs);
  const uint64_t* av = aOpnd ? x.reg(*aOpnd) : nullptr;
  forLanes(x.mask, [&](unsigned l) {
    const uint64_t v = av ? uint64_t(uint32_t(av[l])) : aDefault;
    a[l] = negateA ? uint64_t(-int64_t(v)) : v;
    b[l] = 0;
    if (bFromA) {  // arrive.expect_tx: count 1, and the tx-count first
      b[l] = a[l];
      a[l] = 1;
    }
  });
  x.machine->atomic(in, addressedSpace(in), x.mask, addrs, 8, fn, a, bFromA ? b : nullptr, old);
  if (state && state->kind == OpndKind::Reg) {
    uint64_t* d = x.reg(*state);
    forLanes(x.mask, [&](unsigned l) { d[l] = old[l]; });
  }
}

template <Op K>
void updateH(Exec& x, const Inst& in) {
  switch (K) {
    case Op::Init: {
      const uint64_t* c = x.reg(in.ops[1]);
      forLanes(x.mask, [&](unsigned l) {
        const uint64_t n = uint32_t(c[l]);
        if (n < 1 || n > mbarrier::kCountMask)
          x.machine->trap(in, 1u << l, "mbarrier.init's count must be in 1 .. 2^20-1");
      });
      rmw(x, in, in.ops[0], mbarrier::initFn, &in.ops[1], 0, false, false, nullptr);
      return;
    }
    case Op::Inval:
      rmw(x, in, in.ops[0], mbarrier::invalFn, nullptr, 0, false, false, nullptr);
      return;
    case Op::ExpectTx:
      rmw(x, in, in.ops[0], mbarrier::txFn, &in.ops[1], 0, false, false, nullptr);
      return;
    case Op::CompleteTx:
      rmw(x, in, in.ops[0], mbarrier::txFn, &in.ops[1], 0, false, true, nullptr);
      return;
    case Op::Arrive:
    case Op::ArriveDrop: {
      const AtomFn fn = K == Op::Arrive ? mbarrier::arriveFn : mbarrier::arriveDropFn;
      const bool tx = in.flags & 1;
      const Opnd* count = in.ops.size() > 2 ? &in.ops[2] : nullptr;
      rmw(x, in, in.ops[1], fn, count, 1, tx, false, &in.ops[0]);
      return;
    }
  }
}

// test_wait / try_wait: flags bit 0 = .parity, bit 1 = try_wait.
void waitH(Exec& x, const Inst& in) {
  uint64_t addrs[kWarpSize], words[kWarpSize];
  laneAddresses(x, in.ops[1], x.mask, addrs);
  x.machine->load(in, addressedSpace(in), x.mask, addrs, 8, 1, words);
  const uint64_t* s = x.reg(in.ops[2]);
  const bool parity = in.flags & 1;
  LaneMask done = 0;
  forLanes(x.mask, [&](unsigned l) {
    const unsigned waitedPhase = parity ? unsigned(s[l] & 1) : mbarrier::phase(s[l]);
    if (mbarrier::phase(words[l]) != waitedPhase) done |= 1u << l;
  });
  predWrite(x, in.ops[0], done);
  if ((in.flags & 2) && done != x.mask) x.machine->nanosleep(in);
}

void pendingCountH(Exec& x, const Inst& in) {
  unary<uint64_t>(x, in, [](uint64_t state) { return mbarrier::pending(state); });
}

std::string bindMbarrier(Inst& in) {
  const Mods& m = in.mods;
  if (m.types.size() != 1 || m.type() != Type::B64) return msg(in, "takes the type .b64");
  if (m.space != Space::None && m.space != Space::Shared && m.space != Space::SharedCluster)
    return msg(in, "addresses shared memory");
  auto addrAt = [&](size_t i) { return i < in.ops.size() && in.ops[i].kind == OpndKind::Addr; };
  in.cls = InsnClass::AtomicShared;
  in.sync = SyncRole::MbarrierArrive;  // refined below for init and the waits
  if (m.has("init")) {
    in.sync = SyncRole::MbarrierInit;
    in.run = updateH<Op::Init>;
    return in.ops.size() == 2 && addrAt(0) && in.ops[1].kind == OpndKind::Reg
               ? ""
               : msg(in, "takes an address and a count");
  }
  if (m.has("inval")) {
    in.sync = SyncRole::None;
    in.run = updateH<Op::Inval>;
    return in.ops.size() == 1 && addrAt(0) ? "" : msg(in, "takes an address");
  }
  if (m.has("pending_count")) {
    in.sync = SyncRole::None;
    in.cls = InsnClass::Int;
    in.run = pendingCountH;
    return expectRegs(in, {0, 1}).empty() && in.ops.size() == 2
               ? ""
               : msg(in, "takes a count register and a state");
  }
  if (m.has("test_wait") || m.has("try_wait")) {
    in.sync = SyncRole::MbarrierWait;
    in.cls = InsnClass::LoadShared;
    in.flags = (m.has("parity") ? 1 : 0) | (m.has("try_wait") ? 2 : 0);
    in.run = waitH;
    const bool ok = (in.ops.size() == 3 || (in.ops.size() == 4 && m.has("try_wait"))) &&
                    in.ops[0].kind == OpndKind::Pred && addrAt(1) &&
                    in.ops[2].kind == OpndKind::Reg;
    return ok ? "" : msg(in, "takes a predicate, an address and a state or parity");
  }
  const bool arrive = m.has("arrive"), drop = m.has("arrive_drop");
  if (arrive || drop) {
    in.flags = m.has("expect_tx") ? 1 : 0;
    in.run = drop ? updateH<Op::ArriveDrop> : updateH<Op::Arrive>;
    const bool dst =
        in.ops.size() >= 2 && (in.ops[0].kind == OpndKind::Reg || in.ops[0].kind == OpndKind::Sink);
    const bool ok =
        dst && addrAt(1) &&
        (in.ops.size() == 2 ? !in.flags : in.ops.size() == 3 && in.ops[2].kind == OpndKind::Reg);
    return ok ? "" : msg(in, "takes a state (or _), an address and an optional count");
  }
  if (m.has("expect_tx") || m.has("complete_tx")) {
    in.run = m.has("expect_tx") ? updateH<Op::ExpectTx> : updateH<Op::CompleteTx>;
    return in.ops.size() == 2 && addrAt(0) && in.ops[1].kind == OpndKind::Reg
               ? ""
               : msg(in, "takes an address and a tx-count");
  }
  return msg(in, "needs an operation (.init, .arrive, .test_wait, ...)");
}

}  // namespace

std::vector<OpcodeSpec> mbarrierFamily() {
  return {{"mbarrier",
           "mbarrier",
           InsnClass::AtomicShared,
           Role::Compute,
           Operation::Other,
           {Type::B64},
           {"init", "inval", "arrive", "arrive_drop", "noComplete", "expect_tx", "complete_tx",
            "test_wait", "try_wait", "parity", "pending_count", "release", "acquire", "relaxed",
            "cta", "cluster", "shared", "shared::cta", "shared::cluster"},
           bindMbarrier}};
}

}  // namespace warpsim::isa::insns
