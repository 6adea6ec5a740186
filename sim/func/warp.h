// One warp's architectural state: its call frames (registers, predicates, .param areas), its
// SIMT reconvergence stack, which lanes exist and which have exited.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "isa/program.h"
#include "sim/func/geometry.h"

namespace warpsim::sim {

// An entry of the reconvergence stack: `mask` lanes run from `pc` until they reach `rpc`,
// where they pop and rejoin the entry below (post-dominator reconvergence).
struct SimtEntry {
  uint32_t pc = 0;
  uint32_t rpc = isa::kNoPc;
  isa::LaneMask mask = 0;
};

// An allocator whose resize leaves new elements uninitialized. A frame's registers need no
// zeroing but the few its function may read before writing (FunctionCode::zeroAtEntry,
// isa/liveness.h), which enterFrame zeroes; a recycled frame already holds anything. Zeroing
// every slot of a fresh frame was 29% of a cooperative launch's instructions (its CTAs all
// start at once, so none reuses another's frames; grid_sync_reduce, docs/PERFORMANCE.md).
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) {}
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0)
      ::new (static_cast<void*>(p)) U;
    else
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

struct Frame {
  const isa::FunctionCode* fn = nullptr;
  std::vector<uint64_t, UninitializedAllocator<uint64_t>> regs;  // numSlots x 32
  std::vector<uint32_t> preds;                                   // numPreds lane masks
  std::vector<uint8_t> laneParams;                               // 32 x laneParamBytes
  size_t stackBase = 0;                 // the SIMT stack's size when the frame was entered
  const isa::Inst* callSite = nullptr;  // the call that made the frame (returns copied there)
  isa::LaneMask returned = 0;           // lanes that executed ret
  uint64_t stackTop = 0;  // the thread's stack bytes in use with this frame (call_stack.h)
  // The block shape for which the frame's slots hold the specials that only the thread's place
  // gives (%tid, %ntid, %laneid, %warpid, %lanemask_*: Cta::enterFrame fills them again only for
  // another shape or function; the warp's index is its own). x = 0: none filled.
  Dim3 placeBlock{0, 0, 0};
  uint8_t* laneParam(unsigned lane) { return laneParams.data() + lane * fn->laneParamBytes; }
};

// A warp's call frames: the first size() are its call stack, the kernel's frame first. The
// storage above them stays for the next calls and the next CTA on this host thread: a call takes
// the frame that was last at its depth (a recursive function's own), or swaps in one above it
// that last held the same function, so that a frame keeps its registers' storage and its
// function's immediates instead of moving between lists.
class CallFrames {
 public:
  size_t size() const { return depth_; }
  bool empty() const { return depth_ == 0; }
  Frame& back() { return frames_[depth_ - 1]; }
  const Frame& back() const { return frames_[depth_ - 1]; }
  Frame& operator[](size_t i) { return frames_[i]; }
  const Frame& operator[](size_t i) const { return frames_[i]; }
  Frame* begin() { return frames_.data(); }
  Frame* end() { return frames_.data() + depth_; }
  const Frame* begin() const { return frames_.data(); }
  const Frame* end() const { return frames_.data() + depth_; }

  // The frame of a new call of `fn` on top of the stack: storage that held `fn` last when there
  // is some above the stack, else any spare storage, else new. Its contents are whatever they
  // were (Cta::enterFrame initializes it). May move the frames (references to them end).
  Frame& push(const isa::FunctionCode& fn) {
    if (depth_ == frames_.size()) {
      frames_.emplace_back();
    } else if (frames_[depth_].fn != &fn) {
      for (size_t i = depth_ + 1; i < frames_.size(); ++i)
        if (frames_[i].fn == &fn) {
          std::swap(frames_[depth_], frames_[i]);
          break;
        }
    }
    return frames_[depth_++];
  }
  void pop() { --depth_; }
  void clear() { depth_ = 0; }  // every frame becomes spare storage

 private:
  std::vector<Frame> frames_;
  size_t depth_ = 0;
};

// AtClusterBarrier: in barrier.cluster.wait until the cluster's phase completes (cluster.h).
enum class WarpState { Ready, AtBarrier, Done, AtClusterBarrier };

struct Warp {
  unsigned index = 0;       // within the CTA
  isa::LaneMask valid = 0;  // lanes that are threads of the CTA
  isa::LaneMask exited = 0;
  WarpState state = WarpState::Ready;
  CallFrames frames;  // the call stack, the kernel's frame first
  std::vector<SimtEntry> stack;
  uint64_t instructions = 0;  // warp-instructions executed (drives %clock)
  uint32_t barrierId = 0;     // while AtBarrier
  uint32_t barrierPc = 0;
  // barrier.cluster: the lanes that arrived and the phase their wait ends with (cluster.h).
  bool clusterPending = false;
  isa::LaneMask clusterLanes = 0;
  uint32_t clusterTarget = 0;
  std::vector<uint8_t> local;  // 32 x local bytes per thread
  uint32_t localBytes = 0;
  // Per launch-invariant instruction of the kernel (isa/invariants.h), the lanes whose register
  // in the kernel's frame holds its value, and the CTA's invariant inputs (Cta::invariantEpoch_)
  // they were written under. (The warp's, not the frame's: a call's frames swap places, and
  // only kernels have such instructions.)
  std::vector<uint32_t> invariantLanes;
  uint64_t invariantEpoch = 0;
  uint8_t* laneLocal(unsigned lane) { return local.data() + size_t(lane) * localBytes; }
};

}  // namespace warpsim::sim
