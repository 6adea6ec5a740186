// Thread-block clusters: mapa (a shared address -> the same variable's address in the CTA of
// rank r of the cluster), getctarank (the rank of the CTA a shared::cluster or generic address
// lies in) and barrier.cluster.arrive / .wait (the cluster-wide split barrier that
// cooperative_groups' cluster.sync() compiles to). What the addresses look like and how a
// cluster's CTAs wait for one another is the machine's (sim/func/cluster.h).
#include <bit>

#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

// Operand spaces, decoded at bind into Inst::flags: the address operand is generic (no
// .shared::cluster) or a shared::cluster address, and the result is 32 or 64 bits wide.
constexpr uint32_t kGenericAddress = 1;
constexpr uint32_t kWide = 2;

Space addressSpace(const Inst& in) {
  return (in.flags & kGenericAddress) ? Space::Generic : Space::SharedCluster;
}

void mapaH(Exec& x, const Inst& in) {
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  const uint64_t* r = x.reg(in.ops[2]);
  const bool wide = in.flags & kWide;
  forLanes(x.mask, [&](unsigned lane) {
    const uint64_t addr = wide ? a[lane] : uint32_t(a[lane]);
    const uint64_t v =
        x.machine->mapSharedRank(in, addressSpace(in), addr, uint32_t(r[lane]), lane);
    d[lane] = wide ? v : uint32_t(v);
  });
}

void getctarankH(Exec& x, const Inst& in) {
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  const bool wide = in.flags & kWide;
  forLanes(x.mask, [&](unsigned lane) {
    const uint64_t addr = wide ? a[lane] : uint32_t(a[lane]);
    d[lane] = x.machine->ctaRankOf(in, addressSpace(in), addr, lane);
  });
}

template <bool Arrive>
void clusterBarrierH(Exec& x, const Inst& in) {
  if (x.mask) x.machine->clusterBarrier(in, x.mask, Arrive);
}

std::string bindAddressForm(Inst& in, size_t operands, Handler h) {
  if (auto e = expectOperands(in, operands); !e.empty()) return e;
  if (auto e = expectRegs(in, {0}); !e.empty()) return e;
  const Space s = in.mods.space;
  if (s != Space::None && s != Space::SharedCluster)
    return "'" + in.text + "' takes a generic or .shared::cluster address";
  in.flags = (s == Space::None ? kGenericAddress : 0) | (in.mods.type() == Type::U64 ? kWide : 0);
  in.cls = InsnClass::Int;
  in.run = h;
  return "";
}

std::string bindMapa(Inst& in) { return bindAddressForm(in, 3, mapaH); }
std::string bindGetctarank(Inst& in) { return bindAddressForm(in, 2, getctarankH); }

}  // namespace

std::string bindClusterBarrier(Inst& in) {
  const bool arrive = in.mods.has("arrive"), wait = in.mods.has("wait");
  if (arrive == wait) return "'" + in.text + "' needs exactly one of .arrive and .wait";
  if (!in.ops.empty()) return "'" + in.text + "' takes no operands";
  if (wait && (in.mods.has("release") || in.mods.has("relaxed")))
    return "barrier.cluster.wait takes only .acquire";
  if (arrive && in.mods.has("acquire")) return "barrier.cluster.arrive takes .release or .relaxed";
  in.cls = InsnClass::Barrier;
  in.sync = arrive ? SyncRole::ClusterArrive : SyncRole::ClusterWait;
  in.run = arrive ? clusterBarrierH<true> : clusterBarrierH<false>;
  return "";
}

std::vector<OpcodeSpec> clusterFamily() {
  const std::vector<std::string_view> words = {"shared::cluster"};
  return {
      {"mapa",
       "cluster",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       {Type::U32, Type::U64},
       words,
       bindMapa},
      {"getctarank",
       "cluster",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       {Type::U32, Type::U64},
       words,
       bindGetctarank},
  };
}

}  // namespace warpsim::isa::insns
