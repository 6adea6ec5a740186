#include "harness/driver/driver.h"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <set>
#include <sstream>

#include "harness/check_report.h"
#include "harness/driver/cubin.h"
#include "harness/driver/fatbinary.h"
#include "harness/kernel_lookup.h"
#include "harness/ptxas_resources.h"
#include "isa/diagnostic.h"
#include "isa/ptx_link.h"

namespace warpsim::driver {

namespace {

constexpr uint64_t kPage = 4096;

uint64_t envNumber(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 0);
  if (*end) {
    std::fprintf(stderr, "warpsim: %s=%s is not a number; using %llu\n", name, v,
                 static_cast<unsigned long long>(fallback));
    return fallback;
  }
  return n;
}

// The CUresult the GPU reports for each kind of kernel fault.
CUresult faultCode(sim::FaultKind k) {
  switch (k) {
    case sim::FaultKind::OutOfBounds:
      return CUDA_ERROR_ILLEGAL_ADDRESS;
    case sim::FaultKind::Misaligned:
      return CUDA_ERROR_MISALIGNED_ADDRESS;
    case sim::FaultKind::Assertion:  // a failed device-side assert: cudaErrorAssert
      return CUDA_ERROR_ASSERT;
    case sim::FaultKind::Trap:  // `trap` and __trap(): as the chip reports them (trap_probe.cu)
      return CUDA_ERROR_LAUNCH_FAILED;
    case sim::FaultKind::Watchdog:
    case sim::FaultKind::Interrupted:  // stopped from outside, as the display watchdog does
      return CUDA_ERROR_LAUNCH_TIMEOUT;
    case sim::FaultKind::NotSupported:
    case sim::FaultKind::InvalidInstruction:
      return CUDA_ERROR_ILLEGAL_INSTRUCTION;
    case sim::FaultKind::StackOverflow:  // as the H200 reports it (tests/recorded/stack/)
      return CUDA_ERROR_ILLEGAL_ADDRESS;
    case sim::FaultKind::BarrierDeadlock:
    case sim::FaultKind::WarpSync:
    case sim::FaultKind::HeapError:  // undefined on the chip (scripts/device_malloc.sh records it)
      return CUDA_ERROR_LAUNCH_FAILED;
  }
  return CUDA_ERROR_LAUNCH_FAILED;
}

// What the chip's driver answers for PTX it does not load (isa/diagnostic.h).
CUresult refusalCode(isa::Refusal r) {
  switch (r) {
    case isa::Refusal::None:
      return CUDA_ERROR_INVALID_PTX;
    case isa::Refusal::ModuleNotSupported:
      return CUDA_ERROR_NOT_SUPPORTED;
    case isa::Refusal::ModuleNotFound:
    case isa::Refusal::KernelNotFound:
      return CUDA_ERROR_NOT_FOUND;
  }
  return CUDA_ERROR_INVALID_PTX;
}

// The text of a NUL-terminated image (PTX handed to cuModuleLoadData).
std::string cString(const void* image) { return std::string(static_cast<const char*>(image)); }

}  // namespace

Driver::Driver() {
  options.threads = unsigned(envNumber("WARPSIM_EXEC_THREADS", 0));
  options.serial = envNumber("WARPSIM_EXEC_SERIAL", 0) != 0;
  options.budget = envNumber("WARPSIM_EXEC_BUDGET", 0);
  options.reportLaunches = envNumber("WARPSIM_EXEC_REPORT", 0) != 0;
  options.trace = envNumber("WARPSIM_EXEC_TRACE", 0) != 0;
  if (const char* dir = std::getenv("WARPSIM_EXEC_KEEP_PTX")) options.keepPtx = dir;
  options.timing = envNumber("WARPSIM_EXEC_TIMING", 0) != 0;
  if (const char* file = std::getenv("WARPSIM_EXEC_TIMING_CONFIG")) options.timingConfig = file;
  if (const char* tools = std::getenv("WARPSIM_EXEC_CHECK")) options.checkTools = tools;
  options.printLimit = envNumber("WARPSIM_EXEC_PRINT_LIMIT", 100);
  if (const char* file = std::getenv("WARPSIM_EXEC_RESULT")) options.resultFile = file;
  if (const char* file = std::getenv("WARPSIM_EXEC_JSON")) options.jsonFile = file;
  if (options.timing || !options.timingConfig.empty()) {
    sim::timing::TimingConfig config;
    // warpsim exec read the file before starting the program: it fails here only when the
    // program was started by hand with a bad WARPSIM_EXEC_TIMING_CONFIG.
    try {
      if (!options.timingConfig.empty())
        config = sim::timing::loadTimingConfig(options.timingConfig);
    } catch (const sim::timing::ConfigError& e) {
      std::fprintf(stderr, "warpsim: %s; using the H200 defaults\n", e.what());
    }
    timing.emplace(config);
  }
  if (!options.checkTools.empty()) {
    const auto tools = check::ToolSet::parse(options.checkTools);
    if (!tools)
      std::fprintf(stderr, "warpsim: WARPSIM_EXEC_CHECK=%s is not a checker; using all\n",
                   options.checkTools.c_str());
    checks = std::make_unique<check::CheckSession>(tools.value_or(check::ToolSet::all()));
  }
  if (timing || checks || !options.jsonFile.empty())
    report = std::make_unique<ProgramReport>(timing.has_value(), checks != nullptr,
                                             options.reportLaunches, options.jsonFile);
}

// Never destroyed: the runtime's exit handlers call the driver (module unloads, context
// release) after static destructors would have run.
Driver& driver() {
  static Driver* d = new Driver;
  return *d;
}

void Driver::warn(const std::string& message) {
  static std::set<std::string>* seen = new std::set<std::string>;  // never destroyed: exit-safe
  if (options.trace || seen->insert(message).second)
    std::fprintf(stderr, "warpsim: %s\n", message.c_str());
}

CUresult translate(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const ApiError& a) {
    if (!a.message.empty()) driver().warn(a.message);
    return a.code;
  } catch (const isa::PtxError& p) {
    driver().warn(std::string(p.refusal() == isa::Refusal::None
                                  ? "the program's PTX does not load: "
                                  : "the driver refuses the program's PTX, as the chip's does: ") +
                  p.what());
    return refusalCode(p.refusal());
  } catch (const FatbinError& f) {
    driver().warn(std::string("the program's fatbinary does not load: ") + f.what());
    return CUDA_ERROR_INVALID_IMAGE;
  } catch (const sim::LaunchError& l) {
    driver().warn(std::string("launch refused: ") + l.what());
    // Cluster and cooperative refusals name the chip's error (sim/group_launch.cpp).
    const std::string what = l.what();
    if (what.find("(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)") != std::string::npos)
      return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
    if (what.find("(CUDA_ERROR_INVALID_CLUSTER_SIZE)") != std::string::npos)
      return CUDA_ERROR_INVALID_CLUSTER_SIZE;
    return CUDA_ERROR_INVALID_VALUE;
  } catch (const std::bad_alloc&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  } catch (const std::length_error& l) {
    driver().warn(l.what());
    return CUDA_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception& x) {
    driver().warn(std::string("internal error: ") + x.what());
    return CUDA_ERROR_UNKNOWN;
  }
}

Module* Driver::loadImage(const void* image, bool lazy) {
  need(image);
  const auto* bytes = static_cast<const uint8_t*>(image);
  uint32_t magic;
  std::memcpy(&magic, bytes, 4);
  // __fatBinC_Wrapper_t: magic, version, the fatbinary, and (version 2, relocatable device
  // code) a null-terminated array of the translation units' prelinked fatbinaries.
  const void* prelinked = nullptr;
  if (magic == kFatbinWrapperMagic) {
    const void* data;
    int32_t version;
    std::memcpy(&version, bytes + 4, 4);
    std::memcpy(&data, bytes + 8, sizeof data);
    if (version == 2) std::memcpy(&prelinked, bytes + 16, sizeof prelinked);
    if (!prelinked) return loadImage(data, lazy);
    bytes = static_cast<const uint8_t*>(data);
    std::memcpy(&magic, bytes, 4);
  }
  auto m = std::make_unique<Module>();
  const size_t index = modules.size() + 1;
  std::string ptx, arch = "90";
  if (magic == kFatbinMagic && prelinked) {
    // nvcc -rdc=true: nvlink linked SASS into `bytes` for the sm_ targets; for PTX it cannot
    // link, the driver JIT-links the translation units' PTX (and libcudadevrt, whose entry
    // points the simulator implements itself): the units' PTX linked is the module.
    std::vector<std::string> units;
    std::string held;
    for (const void* const* f = static_cast<const void* const*>(prelinked); *f; ++f) {
      const auto* unit = static_cast<const uint8_t*>(*f);
      const std::vector<FatbinEntry> entries = parseFatbinary(unit, fatbinaryBytes(unit));
      if (const FatbinEntry* e = selectPtx(entries)) {
        units.push_back(entryText(*e));
        arch = std::to_string(e->arch);
      } else {
        held = describeEntries(entries);
      }
    }
    // A unit without usable PTX is left out: libcudadevrt's (SASS and compute_121 PTX) is one.
    if (!units.empty()) {
      std::vector<isa::PtxUnit> linked;
      for (std::string& u : units)
        linked.push_back({std::move(u), "translation unit " + std::to_string(linked.size() + 1) +
                                            " of " + std::to_string(units.size())});
      try {
        ptx = isa::linkPtx(linked);
      } catch (const isa::PtxError& e) {
        m->noPtxReason = "holds relocatable device code whose translation units do not link: " +
                         std::string(e.what());
      }
    } else
      m->noPtxReason = "holds relocatable device code with " + held +
                       " and no PTX for "
                       "compute_90 or below";
  } else if (magic == kFatbinMagic) {
    const std::vector<FatbinEntry> entries = parseFatbinary(bytes, fatbinaryBytes(bytes));
    for (const FatbinEntry& e : entries)
      if (e.kind == uint16_t(EntryKind::Elf) && e.arch == 90) {
        const std::string elf = entryText(e);
        m->registers =
            cubinRegisterCounts(reinterpret_cast<const uint8_t*>(elf.data()), elf.size());
      }
    if (const FatbinEntry* e = selectPtx(entries)) {
      ptx = entryText(*e);
      arch = std::to_string(e->arch);
    } else {
      m->noPtxReason = "holds " + describeEntries(entries) + " and no PTX for compute_90 or below";
    }
  } else if (std::memcmp(bytes,
                         "\x7f"
                         "ELF",
                         4) == 0) {
    m->noPtxReason = "is a cubin (SASS only, no PTX)";
  } else {
    ptx = cString(image);
  }
  m->name = "module " + std::to_string(index);
  if (!ptx.empty()) {
    const std::string path = "module" + std::to_string(index) + ".compute_" + arch + ".ptx";
    if (!options.keepPtx.empty()) {
      const std::string file = options.keepPtx + "/" + path;
      if (FILE* f = std::fopen(file.c_str(), "w")) {
        std::fwrite(ptx.data(), 1, ptx.size(), f);
        std::fclose(f);
      } else {
        warn("cannot write " + file);
      }
    }
    const size_t before = gpu.memory().allocationCount();
    try {
      m->loaded = &gpu.loadPtx(ptx, path);
    } catch (const isa::PtxError& e) {
      if (!lazy || !isa::refusesModule(e.refusal())) throw;
      m->name = path;
      m->refused = std::make_shared<isa::PtxError>(e);
      modules.push_back(std::move(m));
      return modules.back().get();
    }
    if (timing) kernelResources(*m, ptx);
    m->name = path;
    // The module's variables are the allocations loadPtx just made (labelled ".global NAME" or
    // ".const NAME"): walk down from a probe allocation above them to find their addresses.
    size_t count = gpu.memory().allocationCount() - before;
    const uint64_t probe = gpu.memory().allocate(1, "probe");
    gpu.memory().free(probe);
    uint64_t below = probe;
    while (count > 0) {
      const sim::Allocation* a = gpu.memory().allocationBelow(below - 1);
      if (!a) break;
      const std::string& label = a->label;
      const size_t space = label.find(' ');
      if (space != std::string::npos) m->globals[label.substr(space + 1)] = {a->base, a->size};
      below = a->base;
      --count;
    }
  }
  modules.push_back(std::move(m));
  return modules.back().get();
}

Function* Driver::function(Module* m, const std::string& name) {
  need(m);
  if (m->refused) throw *m->refused;
  if (!m->loaded)
    throw ApiError{CUDA_ERROR_NO_BINARY_FOR_GPU,
                   "kernel " + harness::demangle(name) + " cannot run: the program's fatbinary " +
                       m->noPtxReason +
                       ". The simulator runs PTX: rebuild with "
                       "-gencode arch=compute_90,code=compute_90 (PTX embedded) added to nvcc's "
                       "options"};
  auto it = m->functions.find(name);
  if (it != m->functions.end()) return it->second.get();
  const int entry = m->loaded->program.findEntry(name);
  if (entry < 0) throw ApiError{CUDA_ERROR_NOT_FOUND, ""};
  // A kernel the chip's driver leaves out of the module is not found (tex.2dms).
  if (std::unique_ptr<isa::PtxError> err = m->loaded->program.buildError(entry))
    if (err->refusal() == isa::Refusal::KernelNotFound) throw *err;
  auto f = std::make_unique<Function>();
  f->module = m;
  f->name = name;
  return (m->functions[name] = std::move(f)).get();
}

void Driver::kernelResources(Module& m, const std::string& ptx) {
  if (m.registers.empty()) {
    // No sm_90 cubin in the image: ptxas makes one, as the driver's JIT would.
    harness::PtxasResources r = harness::ptxasResources(ptx);
    m.resources = std::move(r.kernels);
    m.resourceNote = r.error;
    return;
  }
  const isa::Program& program = m.loaded->program;
  for (const auto& [name, registers] : m.registers) {
    const int e = program.findEntry(name);
    if (e < 0) continue;
    sim::timing::KernelResources r;
    r.registers = uint32_t(registers);
    r.staticShared = uint32_t(program.functions[size_t(e)].sharedBytes);
    r.source = "the program's sm_90 cubin";
    m.resources[name] = r;
  }
}

Function* Driver::checkFunction(CUfunction f) {
  Function* fn = reinterpret_cast<Function*>(need(f));
  for (const auto& m : modules)
    for (const auto& [name, g] : m->functions)
      if (g.get() == fn) return fn;
  throw ApiError{CUDA_ERROR_INVALID_HANDLE, ""};
}

HostMirror* Driver::mirrorOf(const void* p, uint64_t bytes) {
  const uint64_t a = addr(p);
  auto it = mirrors.upper_bound(a);
  if (it == mirrors.begin()) return nullptr;
  --it;
  HostMirror& m = it->second;
  return a - addr(m.host) < m.bytes && a + bytes <= addr(m.host) + m.bytes ? &m : nullptr;
}

uint8_t* Driver::resolve(uint64_t address, uint64_t bytes) {
  if (HostMirror* m = mirrorOf(reinterpret_cast<void*>(address))) {
    if (address + bytes > addr(m->host) + m->bytes)
      throw ApiError{CUDA_ERROR_INVALID_VALUE, std::to_string(bytes) + " bytes at " +
                                                   std::to_string(address) +
                                                   " run past the end of a host allocation"};
    return reinterpret_cast<uint8_t*>(address);
  }
  for (auto& [host, m] : mirrors)  // a registered range's device address
    if (!m.mapped && address - m.device < m.bytes && address + bytes <= m.device + m.bytes)
      return m.host + (address - m.device);
  if (const sim::Allocation* a = gpu.memory().allocationContaining(address)) {
    uint8_t* p = gpu.memory().find(address, bytes);
    if (!p) {
      std::ostringstream os;
      os << std::hex << "an access of 0x" << bytes << " bytes at 0x" << address
         << " runs past the end of the device allocation at 0x" << a->base << " (0x" << a->size
         << " bytes)";
      throw ApiError{CUDA_ERROR_INVALID_VALUE, os.str()};
    }
    return p;
  }
  return reinterpret_cast<uint8_t*>(address);
}

bool Driver::isDevice(uint64_t address, uint64_t bytes) {
  return !mirrorOf(reinterpret_cast<void*>(address)) &&
         gpu.memory().allocationContaining(address) != nullptr;
}

void Driver::copy(uint64_t dst, uint64_t src, uint64_t bytes) {
  if (bytes == 0) return;
  uint8_t* d = resolve(dst, bytes);
  const uint8_t* s = resolve(src, bytes);
  std::memmove(d, s, bytes);
  if (checks) checks->hostWrote(dst, bytes);  // initcheck: the bytes are initialized now
}

void Driver::fill(uint64_t dst, uint64_t value, unsigned elementBytes, uint64_t count) {
  uint8_t* d = resolve(dst, count * elementBytes);
  if (checks) checks->hostWrote(dst, count * elementBytes);
  if (elementBytes == 1) {
    std::memset(d, int(value & 0xff), count);
    return;
  }
  for (uint64_t i = 0; i < count; ++i) std::memcpy(d + i * elementBytes, &value, elementBytes);
}

uint64_t Driver::allocateShared(uint64_t bytes, unsigned flags, bool managed) {
  if (bytes == 0) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  const uint64_t mapped = (bytes + kPage - 1) / kPage * kPage;
  // Room to place a page-aligned range of `mapped` bytes inside the simulator's allocation.
  const uint64_t base =
      gpu.memory().allocate(mapped + kPage, managed ? "managed memory" : "host memory");
  const uint64_t at = (base + kPage - 1) / kPage * kPage;
  void* p = mmap(reinterpret_cast<void*>(at), mapped, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (p != reinterpret_cast<void*>(at)) {
    if (p != MAP_FAILED) munmap(p, mapped);
    gpu.memory().free(base);
    throw ApiError{CUDA_ERROR_OUT_OF_MEMORY,
                   "cannot map " + std::to_string(bytes) +
                       " bytes of host-visible memory at the device address (the program "
                       "already uses that host address range)"};
  }
  HostMirror m;
  m.allocation = base;
  m.device = at;
  m.host = static_cast<uint8_t*>(p);
  m.bytes = bytes;
  m.mapped = mapped;
  m.flags = flags;
  m.managed = managed;
  mirrors[at] = m;
  return at;
}

void Driver::freeShared(uint64_t hostAddress) {
  auto it = mirrors.find(hostAddress);
  if (it == mirrors.end() || !it->second.mapped) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  munmap(it->second.host, it->second.mapped);
  gpu.memory().free(it->second.allocation);
  mirrors.erase(it);
}

void Driver::printSummary() {
  std::fprintf(stderr,
               "warpsim: program: %llu launches, %llu threads, %llu warp-instructions, %llu "
               "faults, %.3f s in kernels\n",
               static_cast<unsigned long long>(launches),
               static_cast<unsigned long long>(totalThreads),
               static_cast<unsigned long long>(totalWarpInsns),
               static_cast<unsigned long long>(faults), kernelSeconds);
}

void Driver::finishProgram() {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  if (options.reportLaunches) printSummary();
  if (checks) checks->finish();
  if (report) report->finish(timing ? timing->config().name : "", checks.get(), options.printLimit);
  if (checks && !options.resultFile.empty())
    // Appended: every CUDA process the command starts (a script's) adds its count.
    if (FILE* f = std::fopen(options.resultFile.c_str(), "a")) {
      std::fprintf(f, "errors %llu\n",
                   static_cast<unsigned long long>(harness::totalErrors(*checks)));
      std::fclose(f);
    }
  std::fflush(stderr);
}

std::vector<uint8_t> Driver::packParams(Function* f, void** params, void** extra) {
  const sim::LoadedModule& m = *f->module->loaded;
  const isa::FunctionCode& code = m.program.functions[size_t(m.program.findEntry(f->name))];
  std::vector<uint8_t> bytes(code.paramBytes, 0);
  if (params) {
    for (const isa::ParamSlot& p : code.params)
      std::memcpy(bytes.data() + p.offset, params[&p - code.params.data()], p.bytes);
  } else if (extra) {
    const void* buffer = nullptr;
    size_t size = 0;
    for (void** x = extra; *x != CU_LAUNCH_PARAM_END; x += 2) {
      if (*x == CU_LAUNCH_PARAM_BUFFER_POINTER) buffer = x[1];
      if (*x == CU_LAUNCH_PARAM_BUFFER_SIZE) size = *static_cast<size_t*>(x[1]);
    }
    if (!buffer || size < code.paramBytes)
      throw ApiError{CUDA_ERROR_INVALID_VALUE,
                     "launch of " + harness::demangle(f->name) +
                         ": the extra parameter buffer holds " + std::to_string(size) +
                         " bytes, the kernel takes " + std::to_string(code.paramBytes)};
    std::memcpy(bytes.data(), buffer, code.paramBytes);
  } else if (code.paramBytes) {
    throw ApiError{CUDA_ERROR_INVALID_VALUE,
                   "launch of " + harness::demangle(f->name) + " without its parameters"};
  }
  return bytes;
}

void Driver::launch(Function* f, const sim::Dim3& grid, const sim::Dim3& block, unsigned shared,
                    void** params, void** extra, const sim::Dim3& cluster, bool cooperative) {
  const sim::LoadedModule& m = *f->module->loaded;
  sim::LaunchConfig config;
  config.entry = f->name;
  config.grid = grid;
  config.block = block;
  config.dynamicShared = shared;
  config.cluster = cluster;
  config.nonPortableCluster = f->nonPortableCluster;
  config.cooperative = cooperative;
  if (auto it = f->module->registers.find(f->name); it != f->module->registers.end())
    config.registersPerThread = uint32_t(it->second);
  config.params = packParams(f, params, extra);
  if (shared > unsigned(f->maxDynamicShared) && shared > 48 * 1024u)
    throw ApiError{CUDA_ERROR_INVALID_VALUE,
                   "launch of " + harness::demangle(f->name) + " asks for " +
                       std::to_string(shared) +
                       " bytes of dynamic shared memory; set "
                       "cudaFuncAttributeMaxDynamicSharedMemorySize first (now " +
                       std::to_string(f->maxDynamicShared) + ")"};
  sim::LaunchOptions lo;
  lo.threads = options.threads;
  lo.serial = options.serial;
  if (options.budget) lo.instructionBudget = options.budget;
  lo.stackSize = stackLimit;  // cuCtxSetLimit(CU_LIMIT_STACK_SIZE), cudaDeviceSetLimit
  if (timing) {
    timing->clearResources();
    timing->setFallbackNote(f->module->resourceNote);
    if (auto it = f->module->resources.find(f->name); it != f->module->resources.end())
      timing->setResources(f->name, it->second);
    lo.runner = &*timing;
  }
  std::array<size_t, check::kToolCount> found{};
  if (checks) {
    lo.observers = checks->factories();
    lo.recoverInvalidAccess = true;  // every invalid access of the launch, as findings
    lo.statistics = options.reportLaunches;
    for (unsigned t = 0; t < check::kToolCount; ++t)
      found[t] = checks->findings(check::Tool(t)).size();
  }
  lo.mallocHeapSize = mallocHeap;  // CU_LIMIT_MALLOC_HEAP_SIZE: read by the first malloc kernel
  lo.pendingLaunchLimit = uint32_t(pendingLaunches);
  for (auto& [host, mirror] : mirrors)
    gpu.memory().copyIn(mirror.device, mirror.host, mirror.bytes);
  sim::LaunchResult r;
  try {
    r = gpu.launch(m, config, lo);
  } catch (const sim::timing::ConfigError& e) {
    throw sim::LaunchError(e.what());  // a CTA that fits on no SM
  }
  if (checks) checks->launchDone();
  for (auto& [host, mirror] : mirrors)
    gpu.memory().copyOut(mirror.host, mirror.device, mirror.bytes);
  if (++launches == 1 && (options.reportLaunches || report))
    std::atexit([] { driver().finishProgram(); });  // the Driver outlives exit handlers
  totalThreads += r.stats.threads;
  totalWarpInsns += r.stats.totalWarpInsns();
  kernelSeconds += r.seconds;
  faults += r.fault.has_value();
  if (!r.printfOutput.empty()) {
    std::fwrite(r.printfOutput.data(), 1, r.printfOutput.size(), stdout);
    std::fflush(stdout);
  }
  if (options.reportLaunches) {
    std::fprintf(stderr,
                 "warpsim: launch %llu %s<<<(%u,%u,%u), (%u,%u,%u), %u>>>: %llu threads, %llu "
                 "warp-instructions, SIMD efficiency %.1f%%, %.3f s\n",
                 static_cast<unsigned long long>(launches), harness::demangle(f->name).c_str(),
                 grid.x, grid.y, grid.z, block.x, block.y, block.z, shared,
                 static_cast<unsigned long long>(r.stats.threads),
                 static_cast<unsigned long long>(r.stats.totalWarpInsns()),
                 100 * r.stats.simdEfficiency(), r.seconds);
  }
  if (report) {
    LaunchRecord record;
    record.index = launches;
    record.kernel = harness::demangle(f->name);
    record.grid = grid;
    record.block = block;
    record.shared = shared;
    record.faulted = r.fault.has_value();
    if (timing && !r.fault) record.timing = timing->lastReport();
    if (checks)
      for (unsigned t = 0; t < check::kToolCount; ++t)
        record.newFindings[t] = checks->findings(check::Tool(t)).size() - found[t];
    report->add(std::move(record));
  }
  // compute-sanitizer stops a kernel at an invalid access: the program then sees
  // cudaErrorLaunchFailure, as it does here.
  if (checks && !r.fault &&
      checks->findings(check::Tool::Memcheck).size() > found[size_t(check::Tool::Memcheck)])
    sticky = CUDA_ERROR_LAUNCH_FAILED;
  if (r.fault) {
    sticky = faultCode(r.fault->kind);
    std::fprintf(stderr, "warpsim: in kernel %s (launch %llu): %s\n",
                 harness::demangle(f->name).c_str(), static_cast<unsigned long long>(launches),
                 r.fault->describe(f->module->name).c_str());
    std::fflush(stderr);
  }
}

}  // namespace warpsim::driver
