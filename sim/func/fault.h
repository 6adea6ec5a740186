// A kernel's own bug, reported as a result: which thread, which CTA, which PTX (and CUDA)
// line, what address. Thrown by the machine while a warp runs; caught by the launch, which
// stops and reports it. Never a simulator crash.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "isa/ir.h"
#include "sim/func/geometry.h"

namespace warpsim::sim {

enum class FaultKind {
  OutOfBounds,         // an address outside every live allocation / the shared or local window
  Misaligned,          // not aligned to the access size
  Trap,                // trap / brkpt
  Assertion,           // a failed device-side assert() (__assertfail)
  BarrierDeadlock,     // warps wait at barriers that cannot complete (barrier divergence)
  WarpSync,            // a .sync warp primitive whose member mask names absent lanes
  Watchdog,            // a CTA's instruction budget or the launch's time limit ran out
  Interrupted,         // the user stopped the launch (Ctrl-C)
  NotSupported,        // an instruction warpsim parses but does not execute yet
  InvalidInstruction,  // an operand combination the semantics reject at run time
  StackOverflow,       // a call past the per-thread stack limit (cudaLimitStackSize)
  HeapError,           // free of an address that is no live device-heap block (double free, ...)
};
const char* faultKindName(FaultKind k);

struct FaultInfo {
  FaultKind kind = FaultKind::OutOfBounds;
  std::string message;    // what happened, e.g. "load of 4 bytes at 0x... is out of bounds"
  ThreadPos thread, cta;  // the first faulting lane's thread and its CTA
  unsigned lane = 0, warp = 0;
  uint32_t ptxLine = 0;
  std::string instruction;  // "ld.global.f32"
  std::string cudaFile;     // from .loc, when known
  uint32_t cudaLine = 0;
  uint64_t address = 0;
  bool hasAddress = false;
  std::string details;  // extra lines (which warps wait where, ...)
  // "kernel fault: <message> at <file.cu:line> (PTX line N, ld.global.f32), thread (x,y,z)
  //  block (x,y,z)"
  std::string describe(const std::string& ptxPath) const;
};

class KernelFault : public std::runtime_error {
 public:
  explicit KernelFault(FaultInfo info);
  const FaultInfo& info() const { return info_; }
  FaultInfo& info() { return info_; }

 private:
  FaultInfo info_;
};

}  // namespace warpsim::sim
