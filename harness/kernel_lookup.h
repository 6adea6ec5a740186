// Finding a kernel in a module by the name a user gives: the mangled name, the demangled name
// (with or without its parameter list) or a unique prefix of either; a name that matches none
// (or several) is an error listing the module's kernels with their signatures. Shared by the
// command line (`warpsim run --kernel`) and the Python module (`Module.get_kernel`).
#pragma once

#include <string>
#include <vector>

#include "harness/arg_spec.h"
#include "isa/ir.h"

namespace warpsim::harness {

// A name that finds no kernel, or more than one; the message lists the candidates.
class KernelLookupError : public ArgError {
 public:
  using ArgError::ArgError;
};

struct KernelParam {
  std::string name;              // the PTX parameter name
  std::string type;              // its PTX type: "u32", "f32", "u64", "b8"
  uint32_t vecWidth = 1;         // .v2 / .v4
  uint64_t bytes = 0;            // the whole parameter (a byte array for a struct by value)
  bool isArray = false;          // declared with dimensions: a struct or array passed by value
  std::string ptrSpace;          // .ptr.global and the like: "global"; empty when not declared
  std::string describe() const;  // ".u32", ".f32", ".b8[16]", ".v2.f32"
};

struct KernelSignature {
  std::string name;       // as in the PTX (mangled for C++ kernels)
  std::string demangled;  // equal to name for extern "C" kernels
  std::string baseName;   // the demangled name without return type and parameter list
  std::vector<KernelParam> params;
  // "saxpy(int, float, float const*, float*)  [_Z5saxpyifPKfPf: .u32 .f32 .u64 .u64]"
  std::string describe() const;
};

// "_Z5saxpyifPKfPf" -> "saxpy(int, float, float const*, float*)"; a name that is not mangled
// comes back as it is.
std::string demangle(const std::string& name);

// Every .entry of the module, in source order.
std::vector<KernelSignature> kernelSignatures(const ir::Module& m);

// The kernel `name` denotes: an exact PTX name, then an exact demangled name, then an exact
// base name, then a unique prefix of a PTX or base name. Throws KernelLookupError naming the
// module (`where`) and listing its kernels when none matches or the name is ambiguous.
const ir::Function& findKernel(const ir::Module& m, const std::string& name,
                               const std::string& where);

}  // namespace warpsim::harness
