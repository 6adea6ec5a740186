// The options that name a user's kernel and its launch, shared by `run` and `diff`:
// FILE.cu|FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES] --arg ...
#pragma once

#include <boost/program_options.hpp>

#include <string>
#include <vector>

#include "harness/arg_spec.h"
#include "kernels/card.h"
#include "sim/func/memory.h"

namespace warpsim::cli {

struct KernelJob {
  std::string path;  // the file as given
  std::string ptx;   // its PTX (a .cu compiled with nvcc first)
  std::string kernel;
  kernels::Problem problem;
  std::vector<harness::DumpSpec> dumps;
  uint64_t deviceMemory = sim::kDefaultDeviceMemoryBytes;  // --device-memory
  // Per buffer, in Problem::buffers order: whether its --arg gave an INIT (`x=f32[8]:zeros`
  // did, `x=f32[8]` did not). The buffers are zeros either way; initcheck tracks the others.
  std::vector<bool> bufferInitialized;
};

// The argument language, for --help texts.
extern const char* const kArgLanguageHelp;
// --nvcc-flag, -- and --keep-ptx, for --help texts.
extern const char* const kNvccFlagsHelp;

void addKernelJobOptions(boost::program_options::options_description& opts);

// Throws harness::ArgError (bad or missing option, an argument that does not fit the kernel's
// parameter), harness::ToolError (unreadable file, nvcc), isa::PtxError (bad PTX).
KernelJob kernelJobFrom(const boost::program_options::variables_map& vm,
                        const std::string& command);

}  // namespace warpsim::cli
