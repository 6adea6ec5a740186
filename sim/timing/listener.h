// A hook of the timing engine: what happened when, for recorders that turn it into a trace
// (trace.h) or a per-line breakdown (source_lines.h). Listeners only hear; the prediction is the
// same with and without them. Times are cycles of the launch; `wi` names a warp's context
// (reused after the warp retires, between warpStarted and warpFinished it is one warp).
#pragma once

#include <cstdint>

#include "isa/program.h"
#include "sim/timing/report.h"

namespace warpsim::sim::timing {

class EngineListener {
 public:
  virtual ~EngineListener() = default;
  virtual void launchStarted(const isa::Program&) {}
  virtual void ctaStarted(uint32_t /*sm*/, uint64_t /*cta*/, uint64_t /*t*/) {}
  virtual void ctaFinished(uint32_t /*sm*/, uint64_t /*cta*/, uint64_t /*t*/) {}
  virtual void warpStarted(uint32_t /*wi*/, uint32_t /*sm*/, uint64_t /*cta*/, unsigned /*warp*/,
                           uint64_t /*t*/) {}
  // Warp `wi` spent cycles [from, to) in state `s` (Selected: it issued), at instruction `at`
  // (the one it issues or waits to issue; null when the engine could not tell).
  virtual void warpState(uint32_t /*wi*/, uint64_t /*from*/, uint64_t /*to*/, Stall /*s*/,
                         const isa::Inst* /*at*/) {}
  virtual void warpFinished(uint32_t /*wi*/, uint64_t /*t*/) {}
  // The launch ended at `cycles` (its prediction, launch latency included).
  virtual void launchEnded(uint64_t /*cycles*/) {}
};

}  // namespace warpsim::sim::timing
