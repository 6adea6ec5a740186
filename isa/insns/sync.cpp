// Barriers and fences: bar / barrier (.sync .arrive .red with thread counts and named
// barriers 0..15), bar.warp.sync, membar / fence (ordering only: the functional model is
// sequentially consistent within a CTA, so they change nothing architecturally).
#include <bit>

#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

// The barrier id and thread count are warp-uniform: read them from the first executing lane.
uint32_t uniform(const Exec& x, const Opnd& o) {
  return uint32_t(x.reg(o)[std::countr_zero(x.mask)]);
}

template <BarrierKind K>
void barH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  // Operands: [d,] a [, b] [, {!}c]; the binder records where each sits in `ops`.
  const bool red = K == BarrierKind::RedPopc || K == BarrierKind::RedAnd || K == BarrierKind::RedOr;
  const size_t first = red ? 1 : 0;
  const uint32_t id = uniform(x, in.ops[first]);
  const size_t nAfter = in.ops.size() - first - 1 - (red ? 1 : 0);
  const uint32_t count = nAfter ? uniform(x, in.ops[first + 1]) : 0;
  LaneMask value = 0;
  uint32_t resultSlot = kNoSlot;
  if (red) {
    const Opnd& c = in.ops.back();
    value = c.negated ? ~x.pred(c) : x.pred(c);
    resultSlot = in.ops[0].slot;
  }
  x.machine->barrier(in, K, x.mask, id, count, value, resultSlot);
}

void warpSyncH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  x.machine->barrier(in, BarrierKind::Warp, uint32_t(x.reg(in.ops[0])[std::countr_zero(x.mask)]), 0,
                     0, 0, kNoSlot);
}

void fenceH(Exec& x, const Inst& in) {
  if (x.mask) x.machine->fence(in, x.mask);
}

std::string bindBar(Inst& in) {
  if (in.mods.has("cluster")) return bindClusterBarrier(in);
  if (in.mods.has("warp")) {
    if (auto e = expectOperands(in, 1); !e.empty()) return e;
    in.cls = InsnClass::Warp;
    in.sync = SyncRole::WarpSync;
    in.run = warpSyncH;
    return "";
  }
  const bool red = in.mods.has("red");
  const bool arrive = in.mods.has("arrive");
  const size_t minOps = red ? 3 : 1, maxOps = red ? 4 : 2;
  if (in.ops.size() < minOps || in.ops.size() > maxOps)
    return "'" + in.text + "' takes " + std::to_string(minOps) + " to " + std::to_string(maxOps) +
           " operands";
  if (arrive && in.ops.size() != 2) return "'" + in.text + "' needs a thread count";
  in.cls = InsnClass::Barrier;
  if (!red) {
    in.run = arrive ? barH<BarrierKind::Arrive> : barH<BarrierKind::Sync>;
    return "";
  }
  if (in.ops.back().kind != OpndKind::Pred) return "the last operand of bar.red is a predicate";
  switch (in.mods.boolOp) {
    case BoolOp::Popc:
      if (in.ops[0].kind != OpndKind::Reg) return "bar.red.popc writes a register";
      in.run = barH<BarrierKind::RedPopc>;
      return "";
    case BoolOp::And:
    case BoolOp::Or:
      if (in.ops[0].kind != OpndKind::Pred) return "bar.red.and/.or write a predicate";
      in.run = in.mods.boolOp == BoolOp::And ? barH<BarrierKind::RedAnd> : barH<BarrierKind::RedOr>;
      return "";
    default:
      return "bar.red needs .popc, .and or .or";
  }
}

// membar and fence take no operands, but fence.proxy.tensormap::generic.acquire.scope [addr],
// size, which names the tensormap it orders (PTX ISA, "membar / fence").
std::string bindFenceOperands(Inst& in) {
  in.cls = InsnClass::Misc;
  in.run = fenceH;
  if (in.mods.has("tensormap::generic") && in.mods.has("acquire")) {
    if (in.ops.size() != 2 || in.ops[0].kind != OpndKind::Addr || in.ops[1].kind != OpndKind::Reg)
      return "'" + in.text + "' takes an address and a size";
    return "";
  }
  return in.ops.empty() ? "" : "'" + in.text + "' takes no operands";
}

// What a fence orders (Inst::fence), decided here once: the timing model and the race checker
// read it for every fence event. membar.{cta,gl,sys} is fence.sc.{cta,gpu,sys}.
std::string bindMembar(Inst& in) {
  if (in.mods.has("proxy"))
    in.fence = {FenceKind::Proxy, in.mods.scope};
  else
    in.fence = {FenceKind::Sc, in.mods.has("gl") ? MemScope::Gpu : in.mods.scope};
  return bindFenceOperands(in);
}

std::string bindFence(Inst& in) {
  FenceKind kind = in.mods.order == MemOrder::Sc ? FenceKind::Sc : FenceKind::AcqRel;
  if (in.mods.has("proxy"))
    kind = FenceKind::Proxy;
  else if (in.mods.has("mbarrier_init"))
    kind = FenceKind::MbarrierInit;
  in.fence = {kind, in.mods.scope};
  return bindFenceOperands(in);
}

}  // namespace

std::vector<OpcodeSpec> synchronization() {
  const std::vector<std::string_view> barWords = {
      "sync", "arrive", "red", "popc", "and", "or", "aligned", "cta", "warp",
      // barrier.cluster (cluster.cpp)
      "cluster", "wait", "acquire", "release", "relaxed"};
  return {
      {"bar",
       "sync",
       InsnClass::Barrier,
       Role::Barrier,
       Operation::Other,
       {Type::U32, Type::Pred},
       barWords,
       bindBar},
      {"bar", "sync", InsnClass::Barrier, Role::Barrier, Operation::Other, {}, barWords, bindBar},
      {"barrier",
       "sync",
       InsnClass::Barrier,
       Role::Barrier,
       Operation::Other,
       {Type::U32, Type::Pred},
       barWords,
       bindBar},
      {"barrier",
       "sync",
       InsnClass::Barrier,
       Role::Barrier,
       Operation::Other,
       {},
       barWords,
       bindBar},
      {"membar",
       "sync",
       InsnClass::Misc,
       Role::Effect,
       Operation::Membar,
       {},
       {"cta", "gl", "sys", "proxy", "alias", "async", "global", "shared::cta", "shared::cluster"},
       bindMembar},
      {"fence",
       "sync",
       InsnClass::Misc,
       Role::Effect,
       Operation::Fence,
       {},
       {"cta", "cluster", "gpu", "sys", "sc", "acq_rel", "acquire", "release", "proxy", "async",
        "alias", "global", "shared::cta", "shared::cluster", "mbarrier_init",
        "tensormap::generic",  // .to_proxykind::from_proxykind
        "async::generic", "sync_restrict::*"},
       bindFence},
  };
}

}  // namespace warpsim::isa::insns
