// The argument language of `warpsim run`: one --arg per kernel parameter, in order.
//
//   scalar:   TYPE:VALUE                 u32:1024  s32:-3  f32:0.5  f64:1e-3  u64:0x10
//   buffer:   [NAME=]TYPE[COUNT][:INIT]  x=f32[4096]:random(7,-1,1)  out=f32[4096]
//   INIT:     zeros (default) | iota | iota(START,STEP) | const(V) | random(SEED[,LO,HI])
//             | file(PATH)  (raw little-endian elements; COUNT may then be omitted:
//             f32[]:file(x.bin))
//   TYPE:     u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64
// Buffers are passed as device pointers. Named buffers can be written out with --dump.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/card.h"

namespace warpsim::harness {

// A bad --arg / --dump: the message names the argument and what is wrong with it.
class ArgError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ParsedArg {
  bool isBuffer = false;
  kernels::KernelArg arg;      // a scalar's bytes, or the buffer's index
  kernels::HostBuffer buffer;  // isBuffer: name, type, initial contents
};

// Parses one --arg; `position` (1-based) names it in errors; `bufferIndex` is the index the
// buffer will take in the problem.
ParsedArg parseArg(const std::string& text, size_t position, size_t bufferIndex);

// Builds the Problem of a `warpsim run`: every buffer marked as an output.
kernels::Problem buildProblem(const std::vector<std::string>& args, const std::string& entry,
                              kernels::Dim3 grid, kernels::Dim3 block, uint32_t dynamicShared);

// "X[,Y[,Z]]" -> Dim3; throws ArgError naming `option`.
kernels::Dim3 parseDim3(const std::string& text, const std::string& option);

struct DumpSpec {
  std::string buffer;  // a buffer name
  std::string path;    // empty: print the first elements; else write raw bytes there
};
// NAME or NAME:PATH
DumpSpec parseDump(const std::string& text);

}  // namespace warpsim::harness
