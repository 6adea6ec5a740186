// The simulator's CUDA driver (libcuda.so.1): the state behind the driver API that the CUDA
// runtime calls underneath an unmodified program, implemented on sim::Gpu.
//
// One Driver per process: the C API hands the driver no object to hang its state on, so the
// process-wide instance (driver()) is the one place it lives. Every API call takes its lock,
// so calls from several host threads are serialized. Work is executed when it is enqueued, in
// order: a valid schedule of CUDA's stream semantics (every stream is then always idle).
#pragma once

#include <cuda.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/driver/graph.h"
#include "harness/driver/program_report.h"
#include "isa/diagnostic.h"
#include "sim/check/session.h"
#include "sim/gpu.h"
#include "sim/timing/timing_model.h"

namespace warpsim::driver {

// A failure of an API call: the CUresult to return and, when not empty, a message for stderr.
struct ApiError {
  CUresult code;
  std::string message;
};

struct Module;

// A kernel of a module: CUfunction and CUkernel are both this (the runtime passes a CUkernel
// where a CUfunction is expected).
struct Function {
  Module* module = nullptr;
  std::string name;
  int maxDynamicShared = 48 * 1024;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
  int preferredCarveout = -1;
  bool nonPortableCluster = false;  // CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED
};

// A loaded fatbinary, cubin or PTX image (CUmodule; CUlibrary is the same object).
struct Module {
  const sim::LoadedModule* loaded = nullptr;  // null: the image has no PTX the simulator can run
  std::string name;                           // "module 2 (PTX for compute_90)"
  std::string noPtxReason;                    // why `loaded` is null
  // The driver's refusal of the whole module (isa::refusesModule), kept by a lazy load for its
  // kernels' lookups and launches: on the chip the runtime's first launch of any of them fails.
  std::shared_ptr<const isa::PtxError> refused;
  std::map<std::string, std::unique_ptr<Function>> functions;
  std::map<std::string, std::pair<uint64_t, uint64_t>> globals;  // name -> (address, bytes)
  std::map<std::string, int> registers;  // per kernel, from the image's sm_90 cubin when it has one
  // Under --timing: each kernel's registers and static shared memory for the model's occupancy
  // (the cubin's registers, else ptxas run on the PTX), and why there are none when there are not.
  std::map<std::string, sim::timing::KernelResources> resources;
  std::string resourceNote;
};

struct Stream {
  unsigned flags = 0;
  int priority = 0;
  uint64_t id = 0;
  std::unique_ptr<Capture> capture;  // while it captures into a graph (graph.h)
};

struct Event {
  unsigned flags = 0;
  std::optional<std::chrono::steady_clock::time_point> recorded;
  double modelSeconds = 0;  // under --timing: the device timeline's time when recorded
  // Last recorded in a stream capture (its id, else 0): that capture's graph and the nodes the
  // record followed, which a stream waiting on the event joins (graph.h).
  uint64_t capture = 0;
  Graph* captureGraph = nullptr;
  std::vector<GraphNode*> captureNodes;
};

// A stream-ordered memory pool (cuMemPoolCreate, the device's default pool; mem_pool.cpp):
// allocations from it are made at once (work runs when enqueued) and freed at once, so the
// pool keeps no memory of its own: reserved memory is the memory in use.
struct MemPool {
  CUmemPoolProps props{};
  cuuint64_t releaseThreshold = 0;
  int followEventDependencies = 1, allowOpportunistic = 1, allowInternalDependencies = 1;
  cuuint64_t used = 0, usedHigh = 0, reservedHigh = 0;
};

// Memory the host and kernels share (pinned, mapped, managed, registered): the host bytes
// are authoritative between launches; they are copied into the simulator's allocation
// before every launch and back after it.
struct HostMirror {
  uint64_t allocation = 0;  // the simulator allocation's base (to free it)
  uint64_t device = 0;      // the address kernels use (the host address when mapped)
  uint8_t* host = nullptr;
  uint64_t bytes = 0;
  uint64_t mapped = 0;  // bytes mmap'ed at host (0: the host memory is the program's own)
  unsigned flags = 0;   // CU_MEMHOSTALLOC_* / CU_MEM_ATTACH_*
  bool managed = false;
};

// A CUDA array (cuArrayCreate / cuArray3DCreate): densely packed texels in a simulator
// allocation, rows of width * element bytes (harness/driver/texture.cpp).
struct CudaArray {
  uint64_t data = 0;                        // the allocation
  size_t width = 0, height = 0, depth = 0;  // as created (0: the dimension is absent)
  CUarray_format format = CU_AD_FORMAT_FLOAT;
  unsigned channels = 1, flags = 0;
  uint64_t pitch = 0, slicePitch = 0;  // bytes per row, per slice (z or layer)
  bool level = false;  // a level of a mipmapped array: its memory is the mipmapped array's
};

// A mipmapped array (cuMipmappedArrayCreate): its levels packed densely one after another in
// one allocation, level l of max(1, size >> l) texels per axis, as the texture descriptor
// expects (isa/insns/texture_mipmap.h); each level is a CudaArray into it.
struct CudaMipmappedArray {
  uint64_t data = 0;
  CUDA_ARRAY3D_DESCRIPTOR desc{};
  std::vector<CUarray> levels;
};

struct Options {
  unsigned threads = 0;
  bool serial = false;
  uint64_t budget = 0;  // 0: the simulator's default
  bool reportLaunches = false;
  bool trace = false;         // every unsupported entry point and private-table call on stderr
  std::string keepPtx;        // a directory to write each module's PTX to (fault lines refer to it)
  bool timing = false;        // every launch on the timing model (WARPSIM_EXEC_TIMING)
  std::string timingConfig;   // a JSON file over the H200 defaults ("" = the defaults)
  std::string checkTools;     // "" or the checkers' --tool (memcheck, ..., all)
  uint64_t printLimit = 100;  // findings printed per tool at exit (0 = all)
  std::string resultFile;     // where the checkers' error count goes at exit (warpsim exec)
  std::string jsonFile;       // every launch's timing and findings, as JSON, at exit
};

class Driver {
 public:
  Driver();
  std::recursive_mutex mutex;
  sim::Gpu gpu;
  Options options;
  bool initialized = false;
  int primaryRetains = 0;
  unsigned primaryFlags = 0;
  CUresult sticky = CUDA_SUCCESS;  // a kernel fault: every later call returns it
  uint64_t launches = 0;
  // The whole program's work, printed at exit under --report.
  uint64_t totalThreads = 0, totalWarpInsns = 0, faults = 0;
  double kernelSeconds = 0;
  // --timing: the model every launch runs on. The simulator runs the program's work one
  // operation at a time, in issue order, so the device's clock is the predictions of the
  // launches so far end to end (report.modelSeconds(): events record it; copies take no time).
  std::optional<sim::timing::TimingModel> timing;
  // --check: one session over all launches (initcheck follows buffers from launch to launch).
  std::unique_ptr<check::CheckSession> checks;
  std::unique_ptr<ProgramReport> report;  // under --timing, --check or --json
  uint64_t allocations = 0;  // numbers device buffers in fault reports ("cudaMalloc buffer #3")
  size_t stackLimit = 1024, printfFifo = 1 << 20, mallocHeap = 8 << 20;
  size_t pendingLaunches = 2048;  // CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT

  std::vector<std::unique_ptr<Module>> modules;
  std::map<Stream*, std::unique_ptr<Stream>> streams;
  std::map<Event*, std::unique_ptr<Event>> events;
  std::map<uint64_t, HostMirror> mirrors;  // by host address
  std::map<std::pair<void*, void*>, void*> contextStorage;
  // Stream attributes (access-policy windows, priorities, ...): kept and reported back; the
  // simulator has no cache to apply them to.
  std::map<std::pair<CUstream, int>, CUstreamAttrValue>
      streamAttributes;  // (context, key) -> value
  uint64_t nextStreamId = 1;
  // CUDA arrays by handle, and the descriptors of texture and surface objects (their handles
  // are the descriptors' device addresses: isa/insns/texture_object.h).
  std::map<CUarray, std::unique_ptr<CudaArray>> arrays;
  std::map<CUmipmappedArray, std::unique_ptr<CudaMipmappedArray>> mipmappedArrays;
  std::set<uint64_t> textureObjects;
  // cuLink* sessions (link.cpp): what was added, and the image cuLinkComplete handed out.
  struct LinkSession {
    std::vector<std::string> ptx;  // each module's text, in the order added
    std::string image;             // the linked image, NUL-terminated PTX
  };
  std::map<CUlinkState, std::unique_ptr<LinkSession>> links;
  // CUDA graphs (graph.h): the graphs the program owns, the bodies of their child-graph and
  // conditional nodes (owned by those nodes, but handles the program may build into), the
  // instantiated graphs and the conditional handles by address.
  std::map<Graph*, std::unique_ptr<Graph>> graphs;
  std::set<const Graph*> bodyGraphs;
  std::map<GraphExec*, std::unique_ptr<GraphExec>> graphExecs;
  std::map<uint64_t, ConditionalHandle> conditionals;
  std::map<uint64_t, uint64_t> graphAllocations;  // allocateForGraph's, with their bytes
  uint64_t graphMemoryHigh = 0;                   // cuDeviceGetGraphMemAttribute's high-water mark
  // Memory pools (mem_pool.cpp): the device's default pool (created with the driver), the
  // pool cuMemAllocAsync draws from, and each pool allocation's pool and size.
  std::map<MemPool*, std::unique_ptr<MemPool>> memPools;
  MemPool* defaultPool = nullptr;
  MemPool* currentPool = nullptr;
  std::map<uint64_t, std::pair<MemPool*, uint64_t>> poolAllocations;
  uint64_t nextCaptureId = 1;
  // A live graph (owned or a body), else throws CUDA_ERROR_INVALID_VALUE.
  Graph* checkGraph(CUgraph g);

  // The context handle of the primary (and only) context.
  CUcontext context() { return reinterpret_cast<CUcontext>(&contextTag_); }
  bool isContext(CUcontext c) { return c == context(); }

  // Loads a fatbinary, fatbinary wrapper, cubin or PTX image. `lazy`: as the runtime's images
  // load on the chip (CUDA_MODULE_LOADING=LAZY), a module the driver refuses still loads and
  // reports the refusal when a kernel of it is asked for (Module::refused).
  Module* loadImage(const void* image, bool lazy = false);
  Function* function(Module* m, const std::string& name);  // throws ApiError
  Function* checkFunction(CUfunction f);
  // Fills m.resources for the timing model (loadImage, under --timing).
  void kernelResources(Module& m, const std::string& ptx);

  // The mirror whose host range holds [p, p+bytes), else null.
  HostMirror* mirrorOf(const void* p, uint64_t bytes = 1);
  // True when `address` is a simulator allocation that is not shared with the host.
  bool isDevice(uint64_t address, uint64_t bytes = 1);
  // Allocates `bytes` the host and kernels share at one address (managed and pinned memory).
  uint64_t allocateShared(uint64_t bytes, unsigned flags, bool managed);
  void freeShared(uint64_t hostAddress);

  // Where the bytes [address, address+bytes) live on the host: a simulator allocation's storage,
  // a mirror's host side, or the program's own memory. Throws ApiError when the range starts in
  // a device allocation and runs past its end.
  uint8_t* resolve(uint64_t address, uint64_t bytes);
  // Copies between any two addresses (host, mirrored or device).
  void copy(uint64_t dst, uint64_t src, uint64_t bytes);
  void fill(uint64_t dst, uint64_t value, unsigned elementBytes, uint64_t count);

  // Runs a kernel now: mirrors in, launch, mirrors out, printf to stdout, a fault reported.
  // `cluster` (x = 0: none) and `cooperative`: cuLaunchKernelEx's attributes,
  // cuLaunchCooperativeKernel.
  void launch(Function* f, const sim::Dim3& grid, const sim::Dim3& block, unsigned shared,
              void** params, void** extra, const sim::Dim3& cluster = {0, 0, 0},
              bool cooperative = false);
  // The bytes of f's parameters from cuLaunchKernel's `params` or `extra` (throws ApiError
  // when neither holds them).
  std::vector<uint8_t> packParams(Function* f, void** params, void** extra);

  // "warpsim: program: N launches, ..." (under --report, at exit).
  void printSummary();
  // At exit: the --report, --timing and --check summaries of the whole program, and the
  // checkers' error count for warpsim exec.
  void finishProgram();

  // A failed call's message on stderr (once per distinct message when not tracing).
  void warn(const std::string& message);

 private:
  char contextTag_ = 0;
};

Driver& driver();

// Runs `body` under the driver's lock, turning exceptions into a CUresult (and a message on
// stderr); returns the sticky fault first when `checkSticky`.
template <class Body>
CUresult api(Body&& body, bool checkSticky = true);

CUresult translate(const std::exception_ptr& e);

template <class Body>
CUresult api(Body&& body, bool checkSticky) {
  Driver& d = driver();
  std::lock_guard<std::recursive_mutex> lock(d.mutex);
  if (checkSticky && d.sticky != CUDA_SUCCESS) return d.sticky;
  try {
    return body(d);
  } catch (...) {
    return translate(std::current_exception());
  }
}

// A host pointer of a value: where the API hands out CUdeviceptr values.
inline uint64_t addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

// Throws ApiError{CUDA_ERROR_INVALID_VALUE} when `p` is null.
template <class T>
T* need(T* p) {
  if (!p) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  return p;
}

}  // namespace warpsim::driver
