// What the PTX memory model's qualifiers cost in the timing model: which fences and accesses
// order a warp's memory operations beyond its SM (gpu, system or cluster scope; a CTA-scope
// fence orders within the SM, where accesses already stay in order), and which loads are
// strong at such a scope, so that the SM's L1, which is not coherent with the other SMs, cannot
// serve them (ptxas makes them LD.E.STRONG.GPU/SYS; ld.volatile is ld.relaxed.sys).
#pragma once

#include "isa/insn_table.h"
#include "sim/observer.h"

namespace warpsim::sim::timing {

// A scope beyond the SM. An access's missing scope is .gpu's (atom, red: PTX ISA, "Scope").
inline bool beyondTheSm(isa::MemScope s) {
  return s == isa::MemScope::None || s == isa::MemScope::Cluster || s == isa::MemScope::Gpu ||
         s == isa::MemScope::Sys;
}

// A fence beyond the SM, as ptxas makes it: MEMBAR.SC.GPU for membar.gl/.sys and fence.sc,
// MEMBAR.ALL.GPU for fence.acq_rel (fence's default) and for a release access (each with
// ERRBAR and, for the SC one, CCTL.IVALL). None for CTA-scope and the proxy fences. What the
// fence orders was decided when it was bound (isa::Inst::fence).
enum class GpuFence : uint8_t { None, Sc, AcqRel };
inline GpuFence gpuFenceOf(const isa::Inst& in) {
  const isa::Fence f = in.fence;
  if (f.scope == isa::MemScope::None || f.scope == isa::MemScope::Cta) return GpuFence::None;
  switch (f.kind) {
    case isa::FenceKind::Sc:
      return GpuFence::Sc;
    case isa::FenceKind::AcqRel:
    case isa::FenceKind::MbarrierInit:
      return GpuFence::AcqRel;
    default:
      return GpuFence::None;
  }
}

inline bool releaseOrder(isa::MemOrder o) {
  return o == isa::MemOrder::Release || o == isa::MemOrder::AcqRel || o == isa::MemOrder::Sc;
}
inline bool acquireOrder(isa::MemOrder o) {
  return o == isa::MemOrder::Acquire || o == isa::MemOrder::AcqRel || o == isa::MemOrder::Sc;
}

// A store or atomic with release semantics beyond the SM: performed after the warp's earlier
// stores.
inline bool releasesToTheGpu(const MemoryEvent& e) {
  return (e.kind == AccessKind::Store || e.kind == AccessKind::Atomic) && releaseOrder(e.order) &&
         beyondTheSm(e.scope);
}

// A load or atomic with acquire semantics beyond the SM.
inline bool acquiresFromTheGpu(const MemoryEvent& e) {
  return (e.kind == AccessKind::Load || e.kind == AccessKind::Atomic) && acquireOrder(e.order) &&
         beyondTheSm(e.scope);
}

// A load that the L1 cannot serve: strong (relaxed, acquire, volatile) beyond the SM.
inline bool strongBeyondTheSm(const MemoryEvent& e) {
  if (e.kind != AccessKind::Load) return false;
  if (e.order == isa::MemOrder::Volatile) return true;
  return (e.order == isa::MemOrder::Relaxed || acquireOrder(e.order)) && beyondTheSm(e.scope) &&
         e.scope != isa::MemScope::None;
}

}  // namespace warpsim::sim::timing
