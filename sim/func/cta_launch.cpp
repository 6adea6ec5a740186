// The CTA's side of dynamic parallelism (device_launch.h): parameter buffers from the program's
// arena, launches queued on the grid, the chip's limits returned as cudaError_t values.
#include <cstring>

#include "isa/lower.h"
#include "sim/func/cta.h"

namespace warpsim::sim {

namespace {

// The kernel whose address `function` is (isa/lower.h functionAddress), or -1.
int kernelAt(const isa::Program& program, uint64_t function) {
  if (function < isa::kFunctionWindow || (function - isa::kFunctionWindow) % 16) return -1;
  const uint64_t index = (function - isa::kFunctionWindow) / 16;
  if (index >= program.functions.size() || !program.functions[index].isEntry) return -1;
  return int(index);
}

}  // namespace

uint64_t Cta::deviceLaunchBuffer(const isa::Inst& in, unsigned lane, uint64_t function,
                                 const uint32_t grid[3], const uint32_t block[3], uint32_t shared) {
  if (!ctx_->launches)
    unsupported(in, "a device-side kernel launch outside a launch that has them");
  ChildLaunch c;
  c.function = kernelAt(*ctx_->program, function);
  // A pointer that is no kernel: the chip's runtime cannot launch it either.
  if (c.function < 0) return 0;
  c.grid = {grid[0], grid[1], grid[2]};
  c.block = {block[0], block[1], block[2]};
  c.dynamicShared = shared;
  c.launchedBy = faultInfo(FaultKind::NotSupported, "", &in, lane, std::nullopt, "");
  return ctx_->launches->arena->take(c);
}

uint32_t Cta::deviceLaunch(const isa::Inst& in, unsigned lane, uint64_t buffer, uint64_t stream) {
  if (!ctx_->launches)
    unsupported(in, "a device-side kernel launch outside a launch that has them");
  GridLaunches& g = *ctx_->launches;
  ChildLaunch c;
  if (!g.arena->release(buffer, c)) return kCudaErrorInvalidValue;
  if (stream != 0 && stream != kTailLaunchStream && stream != kFireAndForgetStream &&
      !g.streams.count(stream))
    return kCudaErrorInvalidResourceHandle;
  c.stream = stream;
  const isa::FunctionCode& fn = ctx_->program->functions[size_t(c.function)];
  const uint32_t gd[3] = {c.grid.x, c.grid.y, c.grid.z}, bd[3] = {c.block.x, c.block.y, c.block.z};
  for (int i = 0; i < 3; ++i)
    if (gd[i] == 0 || gd[i] > ctx_->limits.maxGridDim[i] || bd[i] == 0 ||
        bd[i] > ctx_->limits.maxBlockDim[i])
      return kCudaErrorInvalidConfiguration;
  if (c.block.count() > ctx_->limits.maxThreadsPerBlock ||
      uint64_t(fn.sharedBytes) + c.dynamicShared > ctx_->limits.maxSharedPerBlock)
    return kCudaErrorInvalidConfiguration;
  if (g.depth + 1 > kMaxLaunchDepth) return kCudaErrorLaunchMaxDepthExceeded;
  if (g.arena->pending >= g.pendingLimit) return kCudaErrorLaunchPendingCountExceeded;
  if (fn.paramBytes > kParamBufferBytes)
    unsupported(in, "a device-side launch of over 4 KiB of parameters");
  c.params.resize(fn.paramBytes);
  if (fn.paramBytes) {
    const uint8_t* p = ctx_->memory->find(buffer, fn.paramBytes);
    std::memcpy(c.params.data(), p, fn.paramBytes);  // inside the arena's allocation
  }
  ++g.arena->pending;
  g.queued.push_back(std::move(c));
  return kCudaSuccess;
}

uint64_t Cta::deviceStreamCreate(const isa::Inst& in, unsigned) {
  if (!ctx_->launches)
    unsupported(in, "a stream made on the device outside a launch that has them");
  GridLaunches& g = *ctx_->launches;
  const uint64_t s = g.nextStream;
  g.nextStream += 16;
  g.streams.insert(s);
  return s;
}

uint32_t Cta::deviceStreamDestroy(const isa::Inst& in, unsigned, uint64_t stream) {
  if (!ctx_->launches)
    unsupported(in, "a stream made on the device outside a launch that has them");
  // Work already launched into it still runs (it is queued); the handle is gone.
  return ctx_->launches->streams.erase(stream) ? kCudaSuccess : kCudaErrorInvalidResourceHandle;
}

uint32_t Cta::deviceLastError(const isa::Inst&, unsigned lane, bool clear) {
  const size_t t = size_t(cur_->index) * isa::kWarpSize + lane;
  if (t >= deviceErrors_.size()) return kCudaSuccess;
  const uint32_t e = deviceErrors_[t];
  if (clear) deviceErrors_[t] = kCudaSuccess;
  return e;
}

void Cta::setDeviceLastError(const isa::Inst&, unsigned lane, uint32_t error) {
  const size_t t = size_t(cur_->index) * isa::kWarpSize + lane;
  if (deviceErrors_.empty()) deviceErrors_.assign(warps_.size() * isa::kWarpSize, kCudaSuccess);
  deviceErrors_[t] = error;
}

}  // namespace warpsim::sim
