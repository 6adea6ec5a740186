// Compiling a .cu file to PTX with the CUDA Toolkit's nvcc, as the suite's kernels are built:
// `nvcc -ptx -lineinfo -arch=sm_90`.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace warpsim::harness {

class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whether `path` is a regular file (or a link to one) this process may execute.
bool isExecutableFile(const std::string& path);

// `name` in the first directory of $PATH that holds it as an executable file, or "".
std::string findOnPath(const std::string& name);

// The nvcc to use: $WARPSIM_NVCC, $CUDA_HOME/bin/nvcc, /usr/local/cuda/bin/nvcc, or PATH.
// Throws ToolError("nvcc not found: ...") when there is none.
std::string findNvcc();

// ptxas beside that nvcc. Throws ToolError like findNvcc.
std::string findPtxas();

// Assembles a PTX file with `ptxas -arch=sm_90` in a child process: "" when it assembles,
// "crashed (signal N)" when ptxas dies of a signal (the driver's JIT, which shares its code,
// would take the caller down with it), "refused it" otherwise.
std::string ptxasVerdict(const std::string& ptxas, const std::string& file);

// Returns the PTX text; throws ToolError with nvcc's diagnostics when compilation fails.
std::string compileCudaToPtx(const std::string& cuPath);

// The same with further nvcc flags after the defaults (-I, -D, -std=c++17, --use_fast_math;
// a later -arch=sm_90a replaces the default -arch=sm_90, as nvcc's last value wins).
std::string compileCudaToPtx(const std::string& cuPath, const std::vector<std::string>& flags);

// Compiles CUDA source text (the Python module's Module.from_cuda): the text is written to a
// temporary file that takes the file name of `name` ("kernel.cu"), and the PTX's .file
// directives name `name` itself, so fault reports point at it rather than at a deleted file.
std::string compileCudaSourceToPtx(const std::string& source, const std::string& name,
                                   const std::vector<std::string>& flags);

// Reads a whole file; throws ToolError naming the file when it cannot.
std::string readTextFile(const std::string& path);

}  // namespace warpsim::harness
