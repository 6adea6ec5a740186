// The host threads that run a Gpu's launches and what each of them keeps from one launch to the
// next: a launch of a small grid (bitonic_global: 91 launches of 16 CTAs) paid, per launch, for
// a TBB arena that its worker threads had to join anew and for a CTA object per host thread
// built from nothing (its warps, frames, register files, shared memory). The Gpu owns one
// (LaunchContext::executor) and its launches, one at a time, reuse both.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace warpsim::sim {

class Cta;

class GridExecutor {
 public:
  GridExecutor();
  ~GridExecutor();
  GridExecutor(const GridExecutor&) = delete;
  GridExecutor& operator=(const GridExecutor&) = delete;

  // Calls body(i, slot) for every i in [0, count) on up to `threads` host threads (the calling
  // one among them), in any order, and returns when all are done; `slot` < threads names the
  // host thread, so that body may use cta(slot) without a lock. The arena of each thread count
  // is made at its first use and kept (none for the calling thread's own arena's count). A throw
  // from body ends the call (with that exception) once the calls already started have returned; no
  // index starts after it.
  void parallelFor(unsigned threads, uint64_t count,
                   const std::function<void(uint64_t i, unsigned slot)>& body);

  // The CTA object that host thread `slot` keeps between CTAs and launches (empty until the
  // first CTA makes it). Slot 0 is also the one a launch run on the calling thread alone uses.
  std::optional<Cta>& cta(unsigned slot);

  // After a launch: frees what the kept CTAs hold beyond a small bound (Cta::trim), so that a
  // kernel with much .local memory does not leave it held until the next launch.
  void trim();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace warpsim::sim
