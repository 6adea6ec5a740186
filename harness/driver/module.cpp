// Modules and libraries: the runtime registers each fatbinary of the program at start-up (through
// the private table's get_module_from_cubin, or cuLibraryLoadData), then asks for kernels and
// variables by their mangled names.
#include <cstring>
#include <fstream>
#include <sstream>

#include "harness/driver/internal.h"

using namespace warpsim::driver;

namespace {

Module* checkModule(Driver& d, void* handle) {
  for (const auto& m : d.modules)
    if (m.get() == handle) return m.get();
  throw ApiError{CUDA_ERROR_INVALID_HANDLE, ""};
}

CUresult getGlobal(CUdeviceptr* dptr, size_t* bytes, void* handle, const char* name) {
  return api([&](Driver& d) {
    Module* m = checkModule(d, handle);
    auto it = m->globals.find(need(name));
    if (it == m->globals.end()) throw ApiError{CUDA_ERROR_NOT_FOUND, ""};
    if (dptr) *dptr = it->second.first;
    if (bytes) *bytes = it->second.second;
    return CUDA_SUCCESS;
  });
}

// The entries of a module, in the module's order.
std::vector<std::string> entryNames(const Module& m) {
  std::vector<std::string> names;
  if (!m.loaded) return names;
  for (const auto& f : m.loaded->program.functions)
    if (f.isEntry) names.push_back(f.name);
  return names;
}

}  // namespace

namespace warpsim::driver {

std::string readFile(const char* path) {
  std::ifstream in(need(path), std::ios::binary);
  if (!in) throw ApiError{CUDA_ERROR_FILE_NOT_FOUND, std::string("cannot open ") + path};
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// A module is the same object whichever API loaded it; the images are kept by the runtime
// for the life of the program, and files are read into memory that lives as long as the
// driver.
CUresult loadModule(void** handle, const void* image, bool lazy) {
  return api([&](Driver& d) {
    *need(handle) = d.loadImage(image, lazy);
    return CUDA_SUCCESS;
  });
}

}  // namespace warpsim::driver

extern "C" {

CUresult cuModuleLoadData(CUmodule* module, const void* image) {
  return loadModule(reinterpret_cast<void**>(module), image);
}

CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned n, CUjit_option* options,
                            void** values) {
  return loadModule(reinterpret_cast<void**>(module), image);
}

CUresult cuModuleLoadFatBinary(CUmodule* module, const void* image) {
  return loadModule(reinterpret_cast<void**>(module), image);
}

CUresult cuModuleLoad(CUmodule* module, const char* path) {
  return api([&](Driver& d) {
    std::string text = readFile(path);
    text.push_back('\0');
    *need(module) = reinterpret_cast<CUmodule>(d.loadImage(text.data()));
    return CUDA_SUCCESS;
  });
}

// The simulator keeps a module's code and variables until the process ends (sim::Gpu has no
// unload); the handle stays valid, which a program cannot tell apart from an unload.
CUresult cuModuleUnload(CUmodule module) {
  return api(
      [&](Driver& d) {
        checkModule(d, module);
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuModuleGetFunction(CUfunction* f, CUmodule module, const char* name) {
  return api([&](Driver& d) {
    *need(f) = reinterpret_cast<CUfunction>(d.function(checkModule(d, module), need(name)));
    return CUDA_SUCCESS;
  });
}

CUresult cuModuleGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUmodule module, const char* name) {
  return getGlobal(dptr, bytes, module, name);
}

CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode* mode) {
  if (!mode) return CUDA_ERROR_INVALID_VALUE;
  *mode = CU_MODULE_EAGER_LOADING;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunctionCount(unsigned* count, CUmodule module) {
  return api([&](Driver& d) {
    *need(count) = unsigned(entryNames(*checkModule(d, module)).size());
    return CUDA_SUCCESS;
  });
}

CUresult cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option* jitOptions,
                           void** jitValues, unsigned numJit, CUlibraryOption* options,
                           void** optionValues, unsigned numOptions) {
  // The runtime's way to load the program's images: lazily, as on the chip.
  return loadModule(reinterpret_cast<void**>(library), code, true);
}

CUresult cuLibraryLoadFromFile(CUlibrary* library, const char* path, CUjit_option* jitOptions,
                               void** jitValues, unsigned numJit, CUlibraryOption* options,
                               void** optionValues, unsigned numOptions) {
  return cuModuleLoad(reinterpret_cast<CUmodule*>(library), path);
}

CUresult cuLibraryUnload(CUlibrary library) {
  return cuModuleUnload(reinterpret_cast<CUmodule>(library));
}

CUresult cuLibraryGetKernel(CUkernel* kernel, CUlibrary library, const char* name) {
  return cuModuleGetFunction(reinterpret_cast<CUfunction*>(kernel),
                             reinterpret_cast<CUmodule>(library), name);
}

CUresult cuLibraryGetModule(CUmodule* module, CUlibrary library) {
  return api([&](Driver& d) {
    *need(module) = reinterpret_cast<CUmodule>(checkModule(d, library));
    return CUDA_SUCCESS;
  });
}

CUresult cuKernelGetFunction(CUfunction* f, CUkernel kernel) {
  return api([&](Driver& d) {
    *need(f) = reinterpret_cast<CUfunction>(d.checkFunction(reinterpret_cast<CUfunction>(kernel)));
    return CUDA_SUCCESS;
  });
}

CUresult cuKernelGetLibrary(CUlibrary* library, CUkernel kernel) {
  return api([&](Driver& d) {
    Function* f = d.checkFunction(reinterpret_cast<CUfunction>(kernel));
    *need(library) = reinterpret_cast<CUlibrary>(f->module);
    return CUDA_SUCCESS;
  });
}

CUresult cuLibraryGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUlibrary library, const char* name) {
  return getGlobal(dptr, bytes, library, name);
}

CUresult cuLibraryGetManaged(CUdeviceptr* dptr, size_t* bytes, CUlibrary library,
                             const char* name) {
  return getGlobal(dptr, bytes, library, name);
}

CUresult cuLibraryGetUnifiedFunction(void** fptr, CUlibrary library, const char* symbol) {
  return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuLibraryGetKernelCount(unsigned* count, CUlibrary library) {
  return cuModuleGetFunctionCount(count, reinterpret_cast<CUmodule>(library));
}

CUresult cuLibraryEnumerateKernels(CUkernel* kernels, unsigned count, CUlibrary library) {
  return api([&](Driver& d) {
    Module* m = checkModule(d, library);
    const std::vector<std::string> names = entryNames(*m);
    for (unsigned i = 0; i < count && i < names.size(); ++i)
      need(kernels)[i] = reinterpret_cast<CUkernel>(d.function(m, names[i]));
    return CUDA_SUCCESS;
  });
}

CUresult cuModuleEnumerateFunctions(CUfunction* functions, unsigned count, CUmodule module) {
  return cuLibraryEnumerateKernels(reinterpret_cast<CUkernel*>(functions), count,
                                   reinterpret_cast<CUlibrary>(module));
}

CUresult cuFuncGetName(const char** name, CUfunction f) {
  return api(
      [&](Driver& d) {
        *need(name) = d.checkFunction(f)->name.c_str();
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuKernelGetName(const char** name, CUkernel kernel) {
  return cuFuncGetName(name, reinterpret_cast<CUfunction>(kernel));
}

CUresult cuFuncGetModule(CUmodule* module, CUfunction f) {
  return api([&](Driver& d) {
    *need(module) = reinterpret_cast<CUmodule>(d.checkFunction(f)->module);
    return CUDA_SUCCESS;
  });
}

CUresult cuFuncGetParamInfo(CUfunction f, size_t index, size_t* offset, size_t* size) {
  return api([&](Driver& d) {
    Function* fn = d.checkFunction(f);
    const auto& program = fn->module->loaded->program;
    const auto& code = program.functions[size_t(program.findEntry(fn->name))];
    if (index >= code.params.size()) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    if (offset) *offset = code.params[index].offset;
    if (size) *size = code.params[index].bytes;
    return CUDA_SUCCESS;
  });
}

CUresult cuKernelGetParamInfo(CUkernel kernel, size_t index, size_t* offset, size_t* size) {
  return cuFuncGetParamInfo(reinterpret_cast<CUfunction>(kernel), index, offset, size);
}

CUresult cuFuncIsLoaded(CUfunctionLoadingState* state, CUfunction f) {
  if (!state) return CUDA_ERROR_INVALID_VALUE;
  *state = CU_FUNCTION_LOADING_STATE_LOADED;
  return CUDA_SUCCESS;
}

CUresult cuFuncLoad(CUfunction f) { return CUDA_SUCCESS; }

}  // extern "C"
