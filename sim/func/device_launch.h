// Dynamic parallelism (CDP2, CUDA 12/13): grids launched from the device. nvcc -rdc turns a
// device-side `k<<<g, b, shared, stream>>>(args)` into two calls of the device runtime
// (isa/insns/control.cpp): one that hands out a parameter buffer, one that launches it.
//
// Completion semantics, and the schedule that gives them: a child grid completes before its
// parent grid is complete; launches into one block's stream (stream 0) run in launch order; a
// tail launch (cudaStreamTailLaunch) runs after its parent grid and all the parent's other
// children have completed; fire-and-forget launches (cudaStreamFireAndForget) are ordered with
// nothing. CDP2 has no device-side synchronize, so a parent never waits for a child. The
// simulator queues every launch of a grid (in the order the threads make them: CTAs in order,
// the functional schedule within a CTA, lanes in lane order) and, once the grid's last CTA has
// ended, runs the queued children one after another, each with all of its own descendants,
// the tail launches last (sim/gpu.cpp). That is one of the schedules the chip may take, and
// it is deterministic.
//
// Limits (the chip's, with the errors the launch call returns to the thread): a nesting depth
// of 40 below the host's grid (cudaErrorLaunchMaxDepthExceeded past it; the Programming Guide
// says 24, the H200 went 40 deep without an error, its probe's end: the chip's limit, if any, is
// deeper); at most
// cudaLimitDevRuntimePendingLaunchCount (2048 by default) launches made and not yet started
// (cudaErrorLaunchPendingCountExceeded; the simulator starts none before the parent grid ends,
// the worst case on the chip); a bad configuration (cudaErrorInvalidConfiguration).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "sim/func/fault.h"
#include "sim/func/geometry.h"

namespace warpsim::sim {

inline constexpr uint32_t kMaxLaunchDepth = 40;
inline constexpr uint32_t kDefaultPendingLaunches = 2048;
// A parameter buffer holds at most this many bytes of a child's parameters (the device
// runtime's limit for a device-side launch).
inline constexpr uint32_t kParamBufferBytes = 4096;

// cudaError_t values the device runtime returns to the launching thread.
enum : uint32_t {
  kCudaSuccess = 0,
  kCudaErrorInvalidValue = 1,
  kCudaErrorInvalidResourceHandle = 400,
  kCudaErrorInvalidConfiguration = 9,
  kCudaErrorLaunchMaxDepthExceeded = 65,
  kCudaErrorLaunchPendingCountExceeded = 69,
};

// The stream handle of a device-side launch (cuda_device_runtime_api.h).
inline constexpr uint64_t kTailLaunchStream = 3;
inline constexpr uint64_t kFireAndForgetStream = 4;
// Handles of streams made on the device: from here up in steps of 16 (no special handle).
inline constexpr uint64_t kFirstDeviceStream = 0x10000;

// A grid launched from the device, waiting for its parent grid to end.
struct ChildLaunch {
  int function = -1;  // index of the kernel in Program::functions
  Dim3 grid, block;
  uint32_t dynamicShared = 0;
  uint64_t stream = 0;
  std::vector<uint8_t> params;
  FaultInfo launchedBy;  // the launching thread and line (kind and message unused)
};

// The program's device-launch state: parameter buffers (slots of kParamBufferBytes in one
// device allocation) and the count of launches made and not yet started. One per Gpu, made at
// the first launch of a kernel that launches kernels.
class DeviceLaunchArena {
 public:
  DeviceLaunchArena(uint64_t base, uint32_t slots);
  // A free slot's address with the launch it is for, or 0 when every slot is taken.
  uint64_t take(const ChildLaunch& pending);
  // Moves the launch a taken slot was handed out for into `out` and frees the slot; false when
  // `buffer` is not a taken slot.
  bool release(uint64_t buffer, ChildLaunch& out);
  uint64_t base() const { return base_; }
  uint64_t bytes() const { return uint64_t(slots_) * kParamBufferBytes; }
  uint32_t pending = 0;  // launched and not started

 private:
  uint64_t base_;
  uint32_t slots_;
  std::vector<uint32_t> free_;             // slot numbers, the lowest last (taken first)
  std::map<uint64_t, ChildLaunch> taken_;  // by buffer address
};

// What the CTAs of one grid queue, and where that grid stands in the tree.
struct GridLaunches {
  DeviceLaunchArena* arena = nullptr;
  uint32_t depth = 0;  // 0: launched by the host
  uint32_t pendingLimit = kDefaultPendingLaunches;
  std::vector<ChildLaunch> queued;
  // Streams the grid's threads made (cudaStreamCreateWithFlags on the device), not destroyed.
  // Their launches queue like the others: the one schedule above is valid for any streams.
  std::set<uint64_t> streams;
  uint64_t nextStream = kFirstDeviceStream;
};

}  // namespace warpsim::sim
