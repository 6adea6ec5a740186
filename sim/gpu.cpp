#include "sim/gpu.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <limits>
#include <optional>
#include <unordered_map>

#include "isa/fp.h"
#include "isa/insn_table.h"
#include "isa/lower.h"
#include "isa/parser.h"
#include "sim/func/grid.h"
#include "sim/group_launch.h"
#include "sim/observers/statistics.h"
#include "sim/observers/write_watch.h"

namespace warpsim::sim {

const LoadedModule& Gpu::loadPtx(const std::string& text, const std::string& path,
                                 const isa::LowerOptions& options) {
  auto m = std::make_unique<LoadedModule>();
  m->ir = isa::parseModule(text, path, isa::validateInstruction);
  m->ir.text = text;
  std::unordered_map<std::string, uint64_t> addresses;
  for (const ir::VarDecl& v : m->ir.globals) {
    if (v.space != ir::StateSpace::Global && v.space != ir::StateSpace::Const) continue;
    // One allocation per name: the definition's, wherever its .extern declarations stand.
    if (m->ir.findGlobal(v.name) != &v) continue;
    const std::string label =
        std::string(v.space == ir::StateSpace::Const ? ".const " : ".global ") + v.name;
    // .const data is read-only to kernels: a store to it (through a generic or .global
    // address) is a kernel fault.
    try {
      addresses[v.name] = memory_.allocate(std::max<uint64_t>(1, v.totalBytes()), label,
                                           v.space == ir::StateSpace::Const);
      m->variables[v.name] = {addresses[v.name], v.totalBytes()};
    } catch (const OutOfDeviceMemory& e) {
      throw isa::PtxError(path, v.loc.line, std::max<uint32_t>(1, v.loc.col), e.what(),
                          isa::lineOf(text, v.loc.line));
    }
  }
  for (const ir::VarDecl& v : m->ir.globals) {
    auto it = addresses.find(v.name);
    if (it == addresses.end() || v.init.empty()) continue;
    const uint32_t eb = std::max<uint32_t>(1, v.elementBytes() / v.vecWidth);
    // Written in place: a host copy of a large variable would double its memory.
    const uint64_t size = v.totalBytes();
    uint8_t* bytes = memory_.find(it->second, size);
    for (size_t i = 0; i < v.init.size() && (i + 1) * eb <= size; ++i) {
      const ir::InitValue& iv = v.init[i];
      uint64_t bits = iv.bits;
      if (iv.kind == ir::InitValue::Kind::Float && iv.isDouble && eb == 4)
        bits = isa::bitsOf(fp::f64ToF32(fp::f64(iv.bits), fp::Round::RN));
      if (iv.kind == ir::InitValue::Kind::SymbolAddr) {
        auto s = addresses.find(iv.symbol);
        if (s == addresses.end() && m->ir.findFunction(iv.symbol)) {
          // A function-pointer table: the function's address (isa/lower.h), numbered as
          // lowering numbers it (its definition, else its first declaration).
          const size_t f = size_t(m->ir.findFunction(iv.symbol) - m->ir.functions.data());
          bits = isa::functionAddress(f) + uint64_t(iv.offset);
          std::memcpy(bytes + i * eb, &bits, std::min<uint32_t>(eb, 8));
          continue;
        }
        if (s == addresses.end())
          throw isa::PtxError(path, v.loc.line, std::max<uint32_t>(1, v.loc.col),
                              "initializer of '" + v.name + "' takes the address of '" + iv.symbol +
                                  "', which is not a .global or .const variable",
                              isa::lineOf(text, v.loc.line));
        bits = s->second + uint64_t(iv.offset);
      }
      std::memcpy(bytes + i * eb, &bits, std::min<uint32_t>(eb, 8));
    }
  }
  m->program = isa::lower(
      m->ir, [&](const ir::VarDecl& v) { return addresses.at(v.name); }, options);
  modules_.push_back(std::move(m));
  return *modules_.back();
}

const isa::FunctionCode& Gpu::runnableEntry(const LoadedModule& m, const std::string& entry) {
  const int e = m.program.findEntry(entry);
  if (e < 0) throw LaunchError("no kernel named '" + entry + "' in " + m.ir.path);
  if (std::unique_ptr<isa::PtxError> err = m.program.buildError(e)) throw *err;
  return m.program.functions[size_t(e)];
}

std::vector<uint8_t> Gpu::packParams(const LoadedModule& m, const std::string& entry,
                                     const std::vector<std::vector<uint8_t>>& args) const {
  const isa::FunctionCode& fn = runnableEntry(m, entry);
  if (args.size() != fn.params.size())
    throw LaunchError("kernel '" + entry + "' takes " + std::to_string(fn.params.size()) +
                      " parameters, " + std::to_string(args.size()) + " given");
  std::vector<uint8_t> buf(fn.paramBytes, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const isa::ParamSlot& p = fn.params[i];
    if (args[i].size() != p.bytes)
      throw LaunchError("parameter " + std::to_string(i) + " ('" + p.name + "') of '" + entry +
                        "' is " + std::to_string(p.bytes) + " bytes, " +
                        std::to_string(args[i].size()) + " given");
    std::memcpy(buf.data() + p.offset, args[i].data(), p.bytes);
  }
  return buf;
}

DeviceHeap* Gpu::heapFor(const LoadedModule& m, uint64_t heapBytes) {
  bool calls = false;
  for (const ir::Function& f : m.ir.functions)
    calls |= !f.hasBody && (f.name == "malloc" || f.name == "free" ||
                            f.name == "__cudaCDP2Malloc" || f.name == "__cudaCDP2Free");
  if (!calls) return nullptr;
  // A heap of 0 bytes is allowed, as in CUDA: every malloc returns NULL.
  // The chip grants more than the limit (device_heap.h); a limit of 0 grants nothing.
  if (!heap_) {
    const uint64_t granted = grantedHeapBytes(heapBytes);
    heap_.emplace(memory_.allocate(granted, "the device heap (cudaLimitMallocHeapSize)"), granted);
  }
  return &*heap_;
}

LaunchResult Gpu::launch(const LoadedModule& m, const LaunchConfig& config,
                         const LaunchOptions& options) {
  const isa::FunctionCode& fn = runnableEntry(m, config.entry);
  const Dim3& g = config.grid;
  const Dim3& b = config.block;
  const uint32_t gd[3] = {g.x, g.y, g.z}, bd[3] = {b.x, b.y, b.z};
  const char* axis = "xyz";
  for (int i = 0; i < 3; ++i) {
    if (gd[i] == 0 || gd[i] > limits_.maxGridDim[i])
      throw LaunchError(std::string("grid dimension ") + axis[i] + " = " + std::to_string(gd[i]) +
                        " is outside 1.." + std::to_string(limits_.maxGridDim[i]));
    if (bd[i] == 0 || bd[i] > limits_.maxBlockDim[i])
      throw LaunchError(std::string("block dimension ") + axis[i] + " = " + std::to_string(bd[i]) +
                        " is outside 1.." + std::to_string(limits_.maxBlockDim[i]));
  }
  if (b.count() > limits_.maxThreadsPerBlock)
    throw LaunchError("block of " + std::to_string(b.count()) + " threads exceeds the limit of " +
                      std::to_string(limits_.maxThreadsPerBlock));
  const ir::Function& src = *fn.src;
  if (src.reqntid[0] && (b.x != src.reqntid[0] || b.y != std::max(1u, src.reqntid[1]) ||
                         b.z != std::max(1u, src.reqntid[2])))
    throw LaunchError("kernel '" + config.entry + "' requires a block of exactly .reqntid " +
                      std::to_string(src.reqntid[0]) + "," +
                      std::to_string(std::max(1u, src.reqntid[1])) + "," +
                      std::to_string(std::max(1u, src.reqntid[2])));
  if (src.maxntid[0]) {
    const uint64_t maxThreads =
        uint64_t(src.maxntid[0]) * std::max(1u, src.maxntid[1]) * std::max(1u, src.maxntid[2]);
    if (b.count() > maxThreads)
      throw LaunchError("block of " + std::to_string(b.count()) + " threads exceeds kernel '" +
                        config.entry + "''s .maxntid of " + std::to_string(maxThreads));
  }
  if (fn.sharedBytes > limits_.maxStaticShared)
    throw LaunchError("kernel '" + config.entry + "' uses " + std::to_string(fn.sharedBytes) +
                      " bytes of static shared memory; the limit is " +
                      std::to_string(limits_.maxStaticShared));
  if (uint64_t(fn.sharedBytes) + config.dynamicShared > limits_.maxSharedPerBlock)
    throw LaunchError("static (" + std::to_string(fn.sharedBytes) + ") plus dynamic (" +
                      std::to_string(config.dynamicShared) +
                      ") shared memory exceeds the per-block limit of " +
                      std::to_string(limits_.maxSharedPerBlock) + " bytes");
  if (fn.paramBytes > limits_.maxParamBytes)
    throw LaunchError("kernel '" + config.entry + "' takes " + std::to_string(fn.paramBytes) +
                      " bytes of parameters; the limit is " +
                      std::to_string(limits_.maxParamBytes));
  if (config.params.size() != fn.paramBytes)
    throw LaunchError("parameter buffer of " + std::to_string(config.params.size()) +
                      " bytes given, kernel '" + config.entry + "' takes " +
                      std::to_string(fn.paramBytes));
  return run(m, fn, config, options, 0);
}

LaunchResult Gpu::run(const LoadedModule& m, const isa::FunctionCode& fn,
                      const LaunchConfig& config, const LaunchOptions& options, uint32_t depth) {
  const Dim3& g = config.grid;
  const Dim3& b = config.block;

  std::atomic<uint64_t> stopAt{std::numeric_limits<uint64_t>::max()};
  LaunchContext ctx;
  ctx.program = &m.program;
  ctx.entry = &fn;
  ctx.memory = &memory_;
  ctx.grid = g;
  ctx.block = b;
  ctx.dynamicShared = config.dynamicShared;
  ctx.params = &config.params;
  ctx.options = options;
  ctx.limits = limits_;
  ctx.gridId = ++launches_;
  ctx.depth = depth;
  ctx.stopAt = &stopAt;
  ctx.executor = &executor_;
  ctx.heap = heapFor(m, options.mallocHeapSize);
  GridLaunches children;
  if (DeviceLaunchArena* arena = launchArenaFor(m, options.pendingLaunchLimit)) {
    children.arena = arena;
    children.depth = depth;
    children.pendingLimit = options.pendingLaunchLimit;
    ctx.launches = &children;
  }
  ctx.stack = callStackModel(m.program, int(&fn - m.program.functions.data()), options.stackSize,
                             options.frameBytes);
  configureGroups(config, fn, limits_, ctx);
  // A cooperative launch's grid-sync workspace: {wsSize, barrier} as the CUDA driver gives it
  // (cooperative_groups/details/driver_abi.h), found through %envreg1/%envreg2.
  struct Workspace {
    DeviceMemory& memory;
    uint64_t address = 0;
    ~Workspace() {
      if (address) memory.free(address);
    }
  } workspace{memory_};
  if (ctx.cooperative) {
    workspace.address = memory_.allocate(8, "the grid-sync workspace");
    const uint32_t wsSize = 8;
    memory_.copyIn(workspace.address, &wsSize, 4);
    ctx.gridSyncWorkspace = workspace.address;
  }
  if (options.timeLimit > 0)
    ctx.deadline = std::chrono::steady_clock::now() +
                   std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                       std::chrono::duration<double>(options.timeLimit));
  std::vector<ObserverFactory*> factories = options.observers;
  StatsCollector stats;
  if (options.statistics) factories.push_back(&stats);
  std::optional<WriteWatch> watch;
  if (!options.watch.empty()) factories.push_back(&watch.emplace(options.watch));
  LaunchResult result =
      options.runner ? options.runner->run(ctx, factories) : runGrid(ctx, factories);
  result.stats = stats.total();
  if (watch) result.writes = std::move(watch->writes());
  // The grids it launched, each run to its end with its own descendants; tail launches after
  // all the others (device_launch.h). A fault in one ends the program's work, as on the chip.
  for (const bool tail : {false, true})
    for (ChildLaunch& c : children.queued) {
      if ((c.stream == kTailLaunchStream) != tail) continue;
      --children.arena->pending;
      if (result.fault) continue;
      LaunchConfig cc;
      if (auto error = m.program.buildError(c.function)) throw *error;
      const isa::FunctionCode& child = m.program.functions[size_t(c.function)];
      cc.entry = child.name;
      cc.grid = c.grid;
      cc.block = c.block;
      cc.dynamicShared = c.dynamicShared;
      cc.params = std::move(c.params);
      LaunchResult r = run(m, child, cc, options, depth + 1);
      result.printfOutput += r.printfOutput;
      result.stats.merge(r.stats);
      result.childGrids += 1 + r.childGrids;
      if (r.fault) result.fault = std::move(r.fault);
    }
  return result;
}

DeviceLaunchArena* Gpu::launchArenaFor(const LoadedModule& m, uint32_t pendingLimit) {
  bool launches = false;
  for (const ir::Function& f : m.ir.functions)
    launches |= !f.hasBody && (f.name == "__cudaCDP2GetParameterBufferV2" ||
                               f.name == "cudaGetParameterBufferV2");
  if (!launches) return nullptr;
  // One parameter buffer per launch that may be pending, and as many again for buffers taken
  // and not launched yet.
  if (!launchArena_) {
    const uint32_t slots = 2 * std::max(pendingLimit, kDefaultPendingLaunches);
    launchArena_.emplace(memory_.allocate(uint64_t(slots) * kParamBufferBytes,
                                          "device-side launch parameter buffers"),
                         slots);
  }
  return &*launchArena_;
}

}  // namespace warpsim::sim
