#include "harness/cuda_backend.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "harness/cuda_texture.h"
#include "isa/insns/tensor_map.h"

namespace warpsim::harness {
namespace {

// The few driver API types and constants used, declared here so that the build needs no CUDA
// headers: they are part of the driver's stable C ABI.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
// cuLaunchKernelEx's configuration (cuda.h, CUlaunchConfig / CUlaunchAttribute): clusters and
// cooperative launches.
constexpr int CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2;
constexpr int CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4;
struct CUlaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
    int cooperative;
  } value;
};
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute* attrs;
  unsigned numAttrs;
};
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

struct Driver {
  void* lib = nullptr;
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int*);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDeviceGetName)(char*, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t);
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, CUstream, void**, void**);
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig*, CUfunction, void**, void**);
  CUresult (*cuEventCreate)(CUevent*, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuGetErrorName)(CUresult, const char**);
  // The linker, for PTX with device-side launches (bound when present; only such PTX needs it).
  CUresult (*cuLinkCreate)(unsigned, int*, void**, void**) = nullptr;
  CUresult (*cuLinkAddData)(void*, int, void*, size_t, const char*, unsigned, int*,
                            void**) = nullptr;
  CUresult (*cuLinkAddFile)(void*, int, const char*, unsigned, int*, void**) = nullptr;
  CUresult (*cuLinkComplete)(void*, void**, size_t*) = nullptr;
  CUresult (*cuLinkDestroy)(void*) = nullptr;
  // TMA descriptors (bound when present; only a kernel with a tensor-map argument needs it).
  CUresult (*cuTensorMapEncodeTiled)(void*, int, unsigned, void*, const uint64_t*, const uint64_t*,
                                     const uint32_t*, const uint32_t*, int, int, int,
                                     int) = nullptr;
  CUresult (*cuTensorMapEncodeIm2col)(void*, int, unsigned, void*, const uint64_t*, const uint64_t*,
                                      const int*, const int*, unsigned, unsigned, const uint32_t*,
                                      int, int, int, int) = nullptr;
};

constexpr int CU_JIT_INPUT_PTX = 1;
constexpr int CU_JIT_INPUT_LIBRARY = 4;

template <class F>
void bind(void* lib, F& fn, const char* name, std::string& missing) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  if (!fn && missing.empty()) missing = name;
}

// Opens the driver; returns "" or why it could not.
std::string openDriver(Driver& d) {
  d.lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!d.lib) return std::string("libcuda.so.1 cannot be opened (") + dlerror() + ")";
  std::string missing;
  bind(d.lib, d.cuInit, "cuInit", missing);
  bind(d.lib, d.cuDeviceGetCount, "cuDeviceGetCount", missing);
  bind(d.lib, d.cuDeviceGet, "cuDeviceGet", missing);
  bind(d.lib, d.cuDeviceGetName, "cuDeviceGetName", missing);
  bind(d.lib, d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", missing);
  bind(d.lib, d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", missing);
  bind(d.lib, d.cuCtxSetCurrent, "cuCtxSetCurrent", missing);
  bind(d.lib, d.cuCtxSynchronize, "cuCtxSynchronize", missing);
  bind(d.lib, d.cuModuleLoadDataEx, "cuModuleLoadDataEx", missing);
  bind(d.lib, d.cuModuleUnload, "cuModuleUnload", missing);
  bind(d.lib, d.cuModuleGetFunction, "cuModuleGetFunction", missing);
  bind(d.lib, d.cuFuncSetAttribute, "cuFuncSetAttribute", missing);
  bind(d.lib, d.cuMemAlloc, "cuMemAlloc_v2", missing);
  bind(d.lib, d.cuMemFree, "cuMemFree_v2", missing);
  bind(d.lib, d.cuMemcpyHtoD, "cuMemcpyHtoD_v2", missing);
  bind(d.lib, d.cuMemcpyDtoH, "cuMemcpyDtoH_v2", missing);
  bind(d.lib, d.cuLaunchKernel, "cuLaunchKernel", missing);
  bind(d.lib, d.cuLaunchKernelEx, "cuLaunchKernelEx", missing);
  bind(d.lib, d.cuEventCreate, "cuEventCreate", missing);
  bind(d.lib, d.cuEventRecord, "cuEventRecord", missing);
  bind(d.lib, d.cuEventSynchronize, "cuEventSynchronize", missing);
  bind(d.lib, d.cuEventElapsedTime, "cuEventElapsedTime", missing);
  bind(d.lib, d.cuEventDestroy, "cuEventDestroy_v2", missing);
  bind(d.lib, d.cuGetErrorName, "cuGetErrorName", missing);
  if (!missing.empty()) return "libcuda.so.1 lacks " + missing;
  std::string optional;
  bind(d.lib, d.cuLinkCreate, "cuLinkCreate_v2", optional);
  bind(d.lib, d.cuLinkAddData, "cuLinkAddData_v2", optional);
  bind(d.lib, d.cuLinkAddFile, "cuLinkAddFile_v2", optional);
  bind(d.lib, d.cuLinkComplete, "cuLinkComplete", optional);
  bind(d.lib, d.cuLinkDestroy, "cuLinkDestroy", optional);
  bind(d.lib, d.cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled", optional);
  bind(d.lib, d.cuTensorMapEncodeIm2col, "cuTensorMapEncodeIm2col", optional);
  return "";
}

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(const CudaOptions& o) : options_(o) {
    if (std::string why = openDriver(d_); !why.empty()) throw NoDevice("no CUDA device: " + why);
    CUresult r = d_.cuInit(0);
    if (r != 0) throw NoDevice("no CUDA device: cuInit failed with " + errorName(r));
    int count = 0;
    r = d_.cuDeviceGetCount(&count);
    if (r != 0 || count == 0) throw NoDevice("no CUDA device: the driver reports none");
    check(d_.cuDeviceGet(&device_, 0), "cuDeviceGet");
    char name[256] = {};
    check(d_.cuDeviceGetName(name, sizeof name, device_), "cuDeviceGetName");
    deviceName_ = name;
    check(d_.cuDevicePrimaryCtxRetain(&ctx_, device_), "cuDevicePrimaryCtxRetain");
    check(d_.cuCtxSetCurrent(ctx_), "cuCtxSetCurrent");
    textures_ = std::make_unique<CudaTextures>(d_.lib, checkFrom, this);
  }
  ~CudaBackend() override {
    textures_.reset();  // the objects and arrays go before the context
    for (CUmodule m : modules_) d_.cuModuleUnload(m);
    if (ctx_) d_.cuDevicePrimaryCtxRelease(device_);
    // The library stays loaded: the driver does not support being unloaded and reloaded.
  }

  std::string name() const override { return "cuda (" + deviceName_ + ")"; }

  void loadModule(const std::string& ptx, const std::string& path) override {
    std::vector<char> log(16384, 0);
    int opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* vals[] = {log.data(), reinterpret_cast<void*>(uintptr_t(log.size()))};
    CUmodule m = nullptr;
    // PTX with device-side launches (nvcc -rdc) calls into the device runtime, which the JIT
    // does not add: link it with libcudadevrt.a, as nvcc links such a program.
    void* linker = nullptr;
    const void* image = ptx.c_str();
    if (ptx.find("__cudaCDP2") != std::string::npos) {
      if (!d_.cuLinkCreate || !d_.cuLinkAddData || !d_.cuLinkAddFile || !d_.cuLinkComplete)
        throw CudaError("cuLinkCreate_v2: the driver cannot link " + path +
                        " with the device runtime");
      const char* devrt = std::getenv("WARPSIM_CUDADEVRT");
      const std::string lib = devrt ? devrt : "/usr/local/cuda/lib64/libcudadevrt.a";
      check(d_.cuLinkCreate(2, opts, vals, &linker), "cuLinkCreate_v2");
      CUresult lr = d_.cuLinkAddData(linker, CU_JIT_INPUT_PTX, const_cast<char*>(ptx.c_str()),
                                     ptx.size() + 1, path.c_str(), 0, nullptr, nullptr);
      if (lr == 0)
        lr = d_.cuLinkAddFile(linker, CU_JIT_INPUT_LIBRARY, lib.c_str(), 0, nullptr, nullptr);
      size_t bytes = 0;
      void* cubin = nullptr;
      if (lr == 0) lr = d_.cuLinkComplete(linker, &cubin, &bytes);
      if (lr != 0) {
        d_.cuLinkDestroy(linker);
        throw CudaError("linking " + path + " with " + lib + ": " + errorName(lr) + "\n" +
                        log.data());
      }
      image = cubin;  // owned by the linker until it is destroyed, after the load
    }
    const CUresult r = d_.cuModuleLoadDataEx(&m, image, 2, opts, vals);
    if (linker) d_.cuLinkDestroy(linker);
    if (r != 0)
      throw CudaError("cuModuleLoadDataEx(" + path + "): " + errorName(r) + "\n" + log.data());
    modules_.push_back(m);
    // A kernel that mallocs may leave its blocks to a later launch (heap_list's build launch
    // does): repeating it for timing would leak the heap that every later launch in this
    // context shares, so such a module's launches run once (launch()).
    callsMalloc_.push_back(ptx.find(") malloc\n") != std::string::npos ||
                           ptx.find("__cudaCDP2Malloc") != std::string::npos);
  }

  uint64_t allocate(uint64_t bytes, const std::string&) override {
    CUdeviceptr p = 0;
    check(d_.cuMemAlloc(&p, std::max<uint64_t>(bytes, 1)), "cuMemAlloc_v2");
    return p;
  }
  void free(uint64_t address) override {
    textures_->release(address);
    check(d_.cuMemFree(address), "cuMemFree_v2");
  }
  // A buffer holding a texture or surface object also becomes one on the GPU (cuda_texture.h).
  void copyIn(uint64_t dst, const void* src, uint64_t bytes) override {
    if (bytes) check(d_.cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD_v2");
    textures_->adopt(dst, src, bytes);
  }
  void copyOut(void* dst, uint64_t src, uint64_t bytes) override {
    if (bytes) check(d_.cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH_v2");
    textures_->copyBack(src, dst, bytes);
  }

  LaunchOutcome launch(const LaunchSpec& spec) override {
    CUfunction f = nullptr;
    size_t module = modules_.size();
    while (module > 0 && !f)
      if (d_.cuModuleGetFunction(&f, modules_[--module], spec.entry.c_str()) != 0) f = nullptr;
    if (!f) throw CudaError("cuModuleGetFunction: no kernel named '" + spec.entry + "'");
    if (spec.dynamicShared > 48 * 1024)
      check(d_.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                  int(spec.dynamicShared)),
            "cuFuncSetAttribute");
    std::vector<std::vector<uint8_t>> storage = spec.args;
    // The address of a buffer that holds a texture object passes the object's handle.
    for (auto& a : storage) {
      if (a.size() != 8) continue;
      uint64_t v = 0;
      std::memcpy(&v, a.data(), 8);
      if (const uint64_t h = textures_->handleFor(v)) std::memcpy(a.data(), &h, 8);
    }
    for (auto& a : storage) toDriverTensorMap(a);
    std::vector<void*> params;
    for (auto& a : storage) params.push_back(a.data());
    // A cluster shape or a cooperative launch goes through cuLaunchKernelEx's attributes.
    std::vector<CUlaunchAttribute> attrs;
    if (spec.cluster.x != 0) {
      CUlaunchAttribute a{};
      a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      a.value.clusterDim = {spec.cluster.x, spec.cluster.y, spec.cluster.z};
      attrs.push_back(a);
    }
    if (spec.cooperative) {
      CUlaunchAttribute a{};
      a.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
      a.value.cooperative = 1;
      attrs.push_back(a);
    }
    const CUlaunchConfig config{
        spec.grid.x,  spec.grid.y,        spec.grid.z, spec.block.x, spec.block.y,
        spec.block.z, spec.dynamicShared, nullptr,     attrs.data(), unsigned(attrs.size())};
    auto launchOnce = [&] {
      if (!attrs.empty()) return d_.cuLaunchKernelEx(&config, f, params.data(), nullptr);
      return d_.cuLaunchKernel(f, spec.grid.x, spec.grid.y, spec.grid.z, spec.block.x, spec.block.y,
                               spec.block.z, spec.dynamicShared, nullptr, params.data(), nullptr);
    };
    LaunchOutcome out;
    CUevent start = nullptr, stop = nullptr;
    check(d_.cuEventCreate(&start, 0), "cuEventCreate");
    check(d_.cuEventCreate(&stop, 0), "cuEventCreate");
    const unsigned runs = options_.timedRuns && !callsMalloc_[module] ? options_.timedRuns + 1 : 1;
    std::vector<float> ms;
    for (unsigned i = 0; i < runs; ++i) {
      check(d_.cuEventRecord(start, nullptr), "cuEventRecord");
      CUresult r = launchOnce();
      if (r == 0) r = d_.cuEventRecord(stop, nullptr);
      if (r == 0) r = d_.cuEventSynchronize(stop);
      if (r != 0) {
        sim::FaultInfo fi;
        fi.kind = sim::FaultKind::Trap;
        fi.message = "the GPU reported " + errorName(r) + " running " + spec.entry;
        out.fault = fi;
        break;
      }
      float t = 0;
      check(d_.cuEventElapsedTime(&t, start, stop), "cuEventElapsedTime");
      if (runs == 1 || i > 0) ms.push_back(t);  // the first of several is the warm-up
    }
    d_.cuEventDestroy(start);
    d_.cuEventDestroy(stop);
    if (!ms.empty()) {
      std::sort(ms.begin(), ms.end());
      out.seconds = double(ms[ms.size() / 2]) * 1e-3;
    }
    return out;
  }

 private:
  std::string errorName(CUresult r) const {
    const char* n = nullptr;
    if (d_.cuGetErrorName && d_.cuGetErrorName(r, &n) == 0 && n) return n;
    return "CUDA error " + std::to_string(r);
  }
  void check(CUresult r, const char* call) const {
    if (r != 0) throw CudaError(std::string(call) + ": " + errorName(r));
  }
  static void checkFrom(int r, const char* call, const void* self) {
    static_cast<const CudaBackend*>(self)->check(r, call);
  }

  CudaOptions options_;
  Driver d_{};
  CUdevice device_ = 0;
  CUcontext ctx_ = nullptr;
  std::string deviceName_;
  std::vector<CUmodule> modules_;
  std::vector<bool> callsMalloc_;  // per module: its kernels call malloc (timed once)
  // A parameter that is warpsim's encoding of a tensor map (kernels::KernelArg::tensorMap)
  // becomes the driver's, encoded by cuTensorMapEncodeTiled or cuTensorMapEncodeIm2col from the
  // same fields.
  void toDriverTensorMap(std::vector<uint8_t>& param) {
    namespace tmap = isa::insns::tmap;
    tmap::TensorMap m;
    if (param.size() != sizeof m || !tmap::load(param.data(), m)) return;
    const char* encoder = m.im2col ? "cuTensorMapEncodeIm2col" : "cuTensorMapEncodeTiled";
    if (m.im2col ? !d_.cuTensorMapEncodeIm2col : !d_.cuTensorMapEncodeTiled)
      throw CudaError(std::string("a tensor-map argument needs ") + encoder +
                      ", which libcuda.so.1 lacks");
    uint64_t dims[5], strides[4];
    for (unsigned d = 0; d < m.rank; ++d) dims[d] = uint64_t(m.globalDimMinus1[d]) + 1;
    for (unsigned d = 1; d < m.rank; ++d) strides[d - 1] = m.globalStrides[d];
    struct alignas(64) DriverMap {
      uint8_t bytes[128];
    } out{};
    void* address = reinterpret_cast<void*>(m.globalAddress);
    if (m.im2col) {
      int lower[3], upper[3];
      for (unsigned i = 0; i + 2 < m.rank; ++i) {
        lower[i] = tmap::lowerCorner(m, i);
        upper[i] = tmap::upperCorner(m, i);
      }
      check(d_.cuTensorMapEncodeIm2col(&out, int(m.dataType), m.rank, address, dims, strides, lower,
                                       upper, tmap::channelsPerPixel(m), tmap::pixelsPerColumn(m),
                                       m.elementStrides, m.interleave, int(m.swizzle),
                                       m.l2Promotion, m.oobFillNaN),
            encoder);
    } else {
      check(d_.cuTensorMapEncodeTiled(&out, int(m.dataType), m.rank, address, dims, strides,
                                      m.boxDim, m.elementStrides, m.interleave, int(m.swizzle),
                                      m.l2Promotion, m.oobFillNaN),
            encoder);
    }
    std::memcpy(param.data(), out.bytes, sizeof out.bytes);
  }

  std::unique_ptr<CudaTextures> textures_;
};

}  // namespace

std::unique_ptr<Backend> makeCudaBackend(const CudaOptions& options) {
  return std::make_unique<CudaBackend>(options);
}

std::string cudaUnavailableReason() {
  try {
    makeCudaBackend();
    return "";
  } catch (const NoDevice& e) {
    return e.what();
  } catch (const CudaError& e) {
    return std::string("no CUDA device: ") + e.what();
  }
}

}  // namespace warpsim::harness
