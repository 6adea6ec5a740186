// The JIT linker (cuLinkCreate, cuLinkAddData, cuLinkAddFile, cuLinkComplete, cuLinkDestroy).
// The CUDA runtime uses it for a program built with relocatable device code (`nvcc -rdc=true`,
// which dynamic parallelism needs) and PTX only: nvlink cannot link PTX, so the runtime hands
// the driver each translation unit's PTX and the device runtime library (libcudadevrt) and
// loads what cuLinkComplete returns. warpsim runs PTX and implements the device runtime's
// entry points itself (sim/func/device_launch.h), so linking keeps the PTX and leaves the
// library out: the image is the module's PTX text, several inputs linked into one by
// isa/ptx_link.h (one's .extern declarations resolved against another's definitions; inputs
// that do not link give CUDA_ERROR_INVALID_PTX and the linker's message).
#include <cstring>

#include "harness/driver/fatbinary.h"
#include "harness/driver/internal.h"
#include "isa/diagnostic.h"
#include "isa/ptx_link.h"

using namespace warpsim::driver;

namespace {

using Session = Driver::LinkSession;

Session& session(Driver& d, CUlinkState state) {
  const auto it = d.links.find(state);
  if (it == d.links.end()) throw ApiError{CUDA_ERROR_INVALID_HANDLE, ""};
  return *it->second;
}

bool isDeviceRuntime(const char* name) { return name && std::strstr(name, "cudadevrt") != nullptr; }

// Adds one input. PTX and the PTX of a fatbinary are kept; the device runtime library, and
// cubins or objects without PTX, are left out (a kernel they alone define is then reported as
// missing when the program asks for it).
void add(Driver& d, Session& s, CUjitInputType type, const uint8_t* data, size_t size,
         const char* name) {
  const std::string what = name && *name ? name : "an input";
  switch (type) {
    case CU_JIT_INPUT_PTX: {
      std::string text(reinterpret_cast<const char*>(data), size);
      text.erase(text.find_last_not_of('\0') + 1);
      s.ptx.push_back(std::move(text));
      return;
    }
    case CU_JIT_INPUT_FATBINARY: {
      const std::vector<FatbinEntry> entries = parseFatbinary(data, size);
      if (const FatbinEntry* e = selectPtx(entries)) {
        s.ptx.push_back(entryText(*e));
      } else if (!isDeviceRuntime(name)) {
        d.warn("cuLinkAddData: " + what + " holds " + describeEntries(entries) +
               " and no PTX for compute_90 or below: left out of the link");
      }
      return;
    }
    case CU_JIT_INPUT_LIBRARY:
    case CU_JIT_INPUT_CUBIN:
    case CU_JIT_INPUT_OBJECT:
      if (!isDeviceRuntime(name))
        d.warn("cuLinkAddData: " + what + " (a cubin, object or library) holds no PTX for the " +
               "simulator: left out of the link");
      return;
    default:
      throw ApiError{CUDA_ERROR_INVALID_VALUE,
                     "cuLinkAddData: input type " + std::to_string(int(type)) +
                         " (LTO IR or NVVM) cannot be linked by the simulator"};
  }
}

}  // namespace

extern "C" {

CUresult cuLinkCreate(unsigned, CUjit_option*, void**, CUlinkState* state) {
  return api([&](Driver& d) {
    auto s = std::make_unique<Session>();
    *need(state) = reinterpret_cast<CUlinkState>(s.get());
    d.links.emplace(*state, std::move(s));
    return CUDA_SUCCESS;
  });
}

CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void* data, size_t size,
                       const char* name, unsigned, CUjit_option*, void**) {
  return api([&](Driver& d) {
    add(d, session(d, state), type, static_cast<const uint8_t*>(need(data)), size, name);
    return CUDA_SUCCESS;
  });
}

CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char* path, unsigned,
                       CUjit_option*, void**) {
  return api([&](Driver& d) {
    Session& s = session(d, state);
    if (isDeviceRuntime(need(path))) return CUDA_SUCCESS;  // built into the simulator
    const std::string bytes = readFile(path);
    add(d, s, type, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), path);
    return CUDA_SUCCESS;
  });
}

CUresult cuLinkComplete(CUlinkState state, void** image, size_t* size) {
  return api([&](Driver& d) {
    Session& s = session(d, state);
    if (s.ptx.empty())
      throw ApiError{CUDA_ERROR_NO_BINARY_FOR_GPU,
                     "cuLinkComplete: no PTX was added (the simulator links PTX only: build "
                     "with -gencode arch=compute_90,code=compute_90)"};
    std::vector<warpsim::isa::PtxUnit> units;
    for (const std::string& text : s.ptx)
      units.push_back({text, "cuLinkAddData input " + std::to_string(units.size() + 1)});
    try {
      s.image = warpsim::isa::linkPtx(units);
    } catch (const warpsim::isa::PtxError& e) {
      throw ApiError{CUDA_ERROR_INVALID_PTX, "cuLinkComplete: " + std::string(e.what())};
    }
    *need(image) = s.image.data();  // NUL-terminated: std::string keeps the terminator
    if (size) *size = s.image.size() + 1;
    return CUDA_SUCCESS;
  });
}

CUresult cuLinkDestroy(CUlinkState state) {
  return api(
      [&](Driver& d) {
        if (!d.links.erase(state)) throw ApiError{CUDA_ERROR_INVALID_HANDLE, ""};
        return CUDA_SUCCESS;
      },
      false);
}

}  // extern "C"
