#include "sim/timing/scoreboard.h"

#include <algorithm>

namespace warpsim::sim::timing {

void Scoreboard::reset(uint32_t slots, uint32_t preds) {
  regs_.assign(slots, Entry{});
  preds_.assign(preds, Entry{});
}

// Slots index the current frame; a device function's frame shares the table (a callee's
// register waits on the caller's same slot: conservative, and only across a call).
const Scoreboard::Entry* Scoreboard::entry(const isa::RegRef& r) const {
  const auto& v = r.pred ? preds_ : regs_;
  return r.slot < v.size() ? &v[r.slot] : nullptr;
}

uint64_t Scoreboard::readyFor(const Entry& e, const isa::RegRef& r, const isa::Inst& in) {
  return r.pred && r.slot == in.guard ? std::max(e.ready, e.guardReady) : e.ready;
}

std::pair<uint64_t, Stall> Scoreboard::waitFor(const isa::Inst& in) const {
  uint64_t at = 0;
  Stall kind = Stall::Wait;
  for (const isa::RegRef& r : in.uses)
    if (const Entry* e = entry(r))
      if (const uint64_t ready = readyFor(*e, r, in); ready > at) {
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

uint64_t Scoreboard::usesReady(const isa::Inst& in) const {
  uint64_t at = 0;
  for (const isa::RegRef& r : in.uses)
    if (const Entry* e = entry(r)) at = std::max(at, readyFor(*e, r, in));
  return at;
}

void Scoreboard::write(const isa::RegRef& r, uint64_t readyAt, Stall kind, uint64_t guardReadyAt) {
  auto& v = r.pred ? preds_ : regs_;
  if (r.slot >= v.size()) v.resize(r.slot + 1);
  v[r.slot] = {readyAt, guardReadyAt, kind};
}

}  // namespace warpsim::sim::timing
