// What stops a kernel from running in warpsim, found without running it: the kernel (or a
// function it calls) could not be lowered (Program::buildError), or it reaches an instruction
// that is parsed but faults "not supported yet" when executed. `warpsim support` reports this
// for every kernel of many modules at once: the share of public code that runs, and the
// constructs that stop the rest.
#pragma once

#include <string>
#include <utility>

#include "isa/program.h"

namespace warpsim::isa {

enum class KernelStatus {
  Runs,         // everything it can reach is supported
  Unsupported,  // loads, but reaches an instruction that faults "not supported yet"
  DoesNotLoad,  // it (or a function it calls) could not be lowered
};

struct KernelSupport {
  KernelStatus status = KernelStatus::Runs;
  // The construct that stops it, with names and numbers taken out so that kernels stopped by
  // the same construct share it: "wgmma", "call to external function", "the address of
  // function '…' (function pointers) in 'mov.u64'".
  std::string construct;
  // The same construct as this kernel meets it, its names kept and its place left out:
  // "call to external function cudaStreamCreate", "recursion through 'depth', which has
  // .local memory". What a per-kernel report prints, beside `cudaPlace` (named once).
  std::string detail;
  std::string message;  // the whole message, as `warpsim run` gives it
  std::string file;     // DoesNotLoad: the PTX file of the error (else the module's)
  uint32_t ptxLine = 0, ptxCol = 0;
  std::string cudaPlace;  // the user's CUDA line, "k.cu:7" ("" without .loc)
};

// The first blocker of entry `entry` (an index into p.functions), breadth first from the
// kernel through its calls, so the construct named is the one nearest the kernel.
KernelSupport kernelSupport(const Program& p, int entry);

// `message` without its "not supported yet: " prefix and " at FILE:LINE" suffix, every quoted
// name ('...') replaced by '…'.
std::string constructKey(const std::string& message);

// A load error's message split into what it says and the user's CUDA line that lowering
// appends (" at k.cu:7"): {"'mov.b128' needs ...", "k.cu:7"}; the place is "" when absent.
std::pair<std::string, std::string> splitCudaPlace(const std::string& message);

}  // namespace warpsim::isa
