// The mbarrier object's 64 bits in shared memory (PTX ISA, "mbarrier": the object is opaque; its
// contents are the implementation's). warpsim's encoding:
//   bits  0..19  pending arrivals of the current phase
//   bits 20..39  expected arrivals (what each new phase starts with)
//   bits 40..61  tx-count, 22-bit two's complement (PTX's range is -(2^20-1) .. 2^20-1)
//   bit  63      the current phase's parity
// Every operation is one atomic read-modify-write of the word (the machine's atomic), so lanes
// that arrive together are serialized in lane order and observers see an atomic access. A phase
// completes when both its pending arrivals and its tx-count reach zero: the parity flips, the
// pending count starts again from the expected count and the tx-count from zero.
#pragma once

#include <cstdint>

#include "isa/exec.h"

namespace warpsim::isa::insns {

namespace mbarrier {

inline constexpr uint64_t kCountMask = (1ull << 20) - 1;
inline constexpr uint64_t kTxMask = (1ull << 22) - 1;
inline constexpr unsigned kExpectedShift = 20, kTxShift = 40, kPhaseShift = 63;

inline uint64_t pending(uint64_t w) { return w & kCountMask; }
inline uint64_t expected(uint64_t w) { return (w >> kExpectedShift) & kCountMask; }
inline int64_t tx(uint64_t w) {
  const int64_t t = int64_t((w >> kTxShift) & kTxMask);
  return t >= int64_t(1) << 21 ? t - (int64_t(1) << 22) : t;
}
inline unsigned phase(uint64_t w) { return unsigned(w >> kPhaseShift); }

inline uint64_t make(uint64_t pendingCount, uint64_t expectedCount, int64_t txCount,
                     unsigned parity) {
  return (pendingCount & kCountMask) | (expectedCount & kCountMask) << kExpectedShift |
         (uint64_t(txCount) & kTxMask) << kTxShift | uint64_t(parity & 1) << kPhaseShift;
}

// The phase completes when nothing is pending: the next one starts.
inline uint64_t settle(uint64_t pendingCount, uint64_t expectedCount, int64_t txCount,
                       unsigned parity) {
  if (pendingCount == 0 && txCount == 0) return make(expectedCount, expectedCount, 0, parity ^ 1);
  return make(pendingCount, expectedCount, txCount, parity);
}

// mbarrier.init: a = the expected count; phase 0.
inline uint64_t initFn(uint64_t, uint64_t a, uint64_t) { return make(a, a, 0, 0); }
// mbarrier.inval: the word is free memory again.
inline uint64_t invalFn(uint64_t, uint64_t, uint64_t) { return 0; }
// Arrivals: a = the count, b = the tx-count expected first (arrive.expect_tx), as two's
// complement. A count larger than what is pending is undefined in PTX; it completes the phase.
inline uint64_t arriveFn(uint64_t w, uint64_t a, uint64_t b) {
  const int64_t t = tx(w) + int64_t(b);
  const uint64_t p = pending(w) > a ? pending(w) - a : 0;
  return settle(p, expected(w), t, phase(w));
}
// arrive_drop: the expected count of later phases drops by the count too.
inline uint64_t arriveDropFn(uint64_t w, uint64_t a, uint64_t b) {
  const uint64_t e = expected(w) > a ? expected(w) - a : 0;
  const int64_t t = tx(w) + int64_t(b);
  const uint64_t p = pending(w) > a ? pending(w) - a : 0;
  return settle(p, e, t, phase(w));
}
// expect_tx (a = +tx) and complete_tx (a = -tx, two's complement): no arrival.
inline uint64_t txFn(uint64_t w, uint64_t a, uint64_t) {
  return settle(pending(w), expected(w), tx(w) + int64_t(a), phase(w));
}

}  // namespace mbarrier
}  // namespace warpsim::isa::insns
