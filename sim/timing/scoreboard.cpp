#include "sim/timing/scoreboard.h"

#include <algorithm>

namespace warpsim::sim::timing {

void Scoreboard::reset(uint32_t slots, uint32_t preds, uint32_t crossPipe) {
  regs_.assign(slots, Entry{});
  preds_.assign(preds, Entry{});
  crossPipe_ = crossPipe;
}

// Slots index the current frame; a device function's frame shares the table (a callee's
// register waits on the caller's same slot: conservative, and only across a call).
const Scoreboard::Entry* Scoreboard::entry(const isa::RegRef& r) const {
  const auto& v = r.pred ? preds_ : regs_;
  return r.slot < v.size() ? &v[r.slot] : nullptr;
}

uint64_t Scoreboard::readyFor(const Entry& e, const isa::RegRef& r, const isa::Inst& in,
                              FixedPipe pipe) const {
  if (r.pred && r.slot == in.guard) return std::max(e.ready, e.guardReady);
  const bool across = pipe != FixedPipe::Unknown && e.pipe != FixedPipe::Unknown && e.pipe != pipe;
  return across ? e.ready + crossPipe_ : e.ready;
}

std::pair<uint64_t, Stall> Scoreboard::waitFor(const isa::Inst& in, FixedPipe pipe) const {
  uint64_t at = 0;
  Stall kind = Stall::Wait;
  for (const isa::RegRef& r : in.uses)
    if (const Entry* e = entry(r))
      if (const uint64_t ready = readyFor(*e, r, in, pipe); ready > at) {
        at = ready;
        kind = e->kind;
      }
  for (const isa::RegRef& r : in.defs)
    if (const Entry* e = entry(r); e && e->ready > at) {
      at = e->ready;
      kind = e->kind;
    }
  return {at, kind};
}

uint64_t Scoreboard::usesReady(const isa::Inst& in, FixedPipe pipe) const {
  uint64_t at = 0;
  for (const isa::RegRef& r : in.uses)
    if (const Entry* e = entry(r)) at = std::max(at, readyFor(*e, r, in, pipe));
  return at;
}

uint64_t Scoreboard::sourcesGuardReady(const isa::Inst& in) const {
  uint64_t at = 0;
  for (const isa::RegRef& r : in.uses)
    if (r.pred && r.slot != in.guard)
      if (const Entry* e = entry(r)) at = std::max(at, e->guardReady);
  return at;
}

void Scoreboard::write(const isa::RegRef& r, uint64_t readyAt, Stall kind, uint64_t guardReadyAt,
                       FixedPipe pipe) {
  auto& v = r.pred ? preds_ : regs_;
  if (r.slot >= v.size()) v.resize(r.slot + 1);
  v[r.slot] = {readyAt, guardReadyAt, kind, pipe};
}

}  // namespace warpsim::sim::timing
