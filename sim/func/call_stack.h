// The per-thread call stack as the chip counts it against cudaLimitStackSize: each device-function
// call pushes the callee's frame, and a call that would pass the limit is a "stack overflow"
// kernel fault (FaultKind::StackOverflow), as the chip faults when recursion outgrows the stack.
//
// The driver sizes a thread's stack for the deepest call chain ptxas can see, so only a kernel
// that reaches recursion (a cycle in the call graph) can overflow: for any other kernel the
// model checks nothing. A frame's size is ptxas's ("N bytes stack frame", from
// LaunchOptions::frameBytes) when the harness ran ptxas, otherwise estimated from the PTX: the
// function's .local bytes plus its per-thread .param area (parameters, return values and its
// call sites' .param variables), rounded up to 8 bytes; a device function's frame is at least 8
// bytes (its return address). The kernel's own frame counts too.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/program.h"

namespace warpsim::sim {

struct CallStackModel {
  bool checked = false;              // whether the kernel reaches recursion (else nothing to check)
  uint64_t limit = 0;                // bytes per thread
  std::vector<uint32_t> frameBytes;  // per function index of the program
  std::vector<bool> fromPtxas;       // per function: whether frameBytes is ptxas's
};

// A function's frame as estimated from its PTX (see above).
uint32_t estimatedFrameBytes(const isa::FunctionCode& fn);

// Whether the function `entry` (an index into p.functions) can reach a call cycle.
bool reachesRecursion(const isa::Program& p, int entry);

// Whether any function of the program is part of a call cycle (the harness then asks ptxas for
// the frame sizes).
bool hasRecursion(const isa::Program& p);

// The model for a launch of `entry` with the stack limit `limit` (bytes per thread) and ptxas's
// frame sizes by function name (may be empty).
CallStackModel callStackModel(const isa::Program& p, int entry, uint64_t limit,
                              const std::map<std::string, uint32_t>& ptxasFrames);

}  // namespace warpsim::sim
