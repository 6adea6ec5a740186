// The generator's operations (internal to ptxgen): each draws one instruction form (or a short
// fixed sequence: a carry chain, a warp primitive's member region, a shared-memory exchange)
// with random types, modifiers and operands, and emits it through the Builder.
#pragma once

#include <vector>

#include "harness/ptxgen/builder.h"

namespace warpsim::ptxgen {

enum OpFlags : unsigned {
  kGuardable = 1,   // one instruction: may run under a guard predicate
  kConverged = 2,   // needs every thread of the CTA (warp primitives, bar.sync)
  kApprox = 4,      // an .approx / .full form: only with GenOptions::approx
  kWarp = 8,        // a warp primitive: only with GenOptions::warp
  kShared = 16,     // shared memory and bar.sync: only with GenOptions::shared
  kFp8 = 32,        // e4m3 / e5m2 conversions: only with GenOptions::fp8
  kVideo = 64,      // video instructions: only with GenOptions::video
  kContract = 128,  // mul + add/sub pairs ptxas may fuse: only with GenOptions::contract
};

struct Op {
  const char* family;  // the coverage name, "int.add"
  unsigned weight;     // relative frequency
  unsigned flags;
  void (*gen)(Builder&);
};

std::vector<Op> intOps();
std::vector<Op> logicOps();
std::vector<Op> compareOps();
std::vector<Op> floatOps();
std::vector<Op> halfOps();
std::vector<Op> convertOps();
std::vector<Op> moveOps();
std::vector<Op> warpOps();
std::vector<Op> memoryOps();
std::vector<Op> videoOps();

// Every operation of every file.
const std::vector<Op>& allOps();

}  // namespace warpsim::ptxgen
