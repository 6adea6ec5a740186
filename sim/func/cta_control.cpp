// SIMT control flow: divergence on branches, reconvergence at immediate post-dominators,
// device-function calls with their own frames (entered and left here), ret and exit.
#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>

#include "isa/indirect.h"
#include "sim/func/cta.h"

namespace warpsim::sim {

using isa::Inst;
using isa::kWarpSize;
using isa::LaneMask;

namespace {

// Whether lanes arriving at `pc` leave the kernel at once: an unguarded exit, or an unguarded
// ret of the kernel itself. ptxas compiles `if (c) return;` in a kernel into an exit of those
// lanes, so a later warp primitive does not wait for them; a branch to such a pc exits them.
bool exitsAt(const isa::FunctionCode& fn, uint32_t pc, bool kernelFrame) {
  if (pc >= fn.code.size()) return false;
  const Inst& in = fn.code[pc];
  if (in.guard != isa::kNoSlot) return false;
  return in.flow == isa::Flow::Exit || (kernelFrame && in.flow == isa::Flow::Return);
}

// Each lane's `bytes` of .param space at `from` in frame `src` to `to` in frame `dst`. The
// usual sizes are one fixed-size move a lane instead of a call to memcpy; the areas' places are
// read once (a byte store could alias them). Inlined into its two callers (a call's arguments
// and its return values, about four lanes each in a divergent recursion): the call's own
// prologue and size switch were a third of its cost.
[[gnu::always_inline]] inline void copyLaneParams(LaneMask mask, Frame& dst, uint64_t to,
                                                  Frame& src, uint64_t from, uint32_t bytes) {
  uint8_t* const out = dst.laneParams.data() + to;
  const uint8_t* const in = src.laneParams.data() + from;
  const size_t outStride = dst.fn->laneParamBytes, inStride = src.fn->laneParamBytes;
  const auto copy = [&](auto size) {
    isa::forLanes(mask, [&](unsigned lane) {
      std::memcpy(out + lane * outStride, in + lane * inStride, size);
    });
  };
  if (bytes == 4)
    copy(std::integral_constant<size_t, 4>{});
  else if (bytes == 8)
    copy(std::integral_constant<size_t, 8>{});
  else
    copy(size_t(bytes));
}

}  // namespace

void Cta::branch(const Inst& in, LaneMask taken) {
  Warp& w = *cur_;
  const LaneMask active = w.stack.back().mask;
  taken &= active;
  // No lane takes it (its guard is false on every active lane, the usual case of a loop's exit
  // or an if's skip): the straight run goes on with the next instruction, whose pc the step
  // writes back when the run ends, instead of leaving for the step's outer loop.
  if (taken == 0) return;
  LaneMask notTaken = active & ~taken;
  stop_ |= kPcSet;
  if (taken && notTaken) {
    const isa::FunctionCode& fn = *w.frames.back().fn;
    const bool kernelFrame = w.frames.size() == 1;
    if (exitsAt(fn, in.target, kernelFrame)) {
      exitLanes(w, taken);
      w.stack.back().pc = in.pc + 1;
      return;
    }
    if (exitsAt(fn, in.pc + 1, kernelFrame)) {
      exitLanes(w, notTaken);
      w.stack.back().pc = in.target;
      return;
    }
  }
  SimtEntry& t = w.stack.back();
  if (notTaken == 0) {
    t.pc = in.target;
    return;
  }
  if (obs_) obs_->diverged({w.index, &in, taken, notTaken});
  // The taken side runs first (on top); a schedule (schedule.h) may run the other side first:
  // the program does not order them.
  uint32_t firstPc = in.target, secondPc = in.pc + 1;
  LaneMask first = taken, second = notTaken;
  if (schedule_ && !schedule_->takenFirst()) {
    std::swap(firstPc, secondPc);
    std::swap(first, second);
  }
  const uint32_t rpc = in.reconverge;
  if (rpc == isa::kNoPc) {
    // The paths meet only at the exit: both keep the enclosing reconvergence point.
    t.mask = second;
    t.pc = secondPc;
    const uint32_t outer = t.rpc;
    w.stack.push_back({firstPc, outer, first});
    return;
  }
  t.pc = rpc;  // the entry below waits at the reconvergence point with every lane
  w.stack.push_back({secondPc, rpc, second});
  // A first path that starts at the reconvergence point (an if's skip: the taken lanes branch
  // to where both sides meet) would be popped before it runs an instruction: it is not pushed.
  // (A second one at that point waits below the first until the first meets it, so it stays.)
  if (firstPc != rpc) w.stack.push_back({firstPc, rpc, first});
}

void Cta::diverge(Warp& w, const Inst& in, uint32_t rpc, Paths& paths) {
  SimtEntry& t = w.stack.back();
  // The path holding the lowest lane runs first (on top); a schedule may reverse the order.
  std::sort(paths.begin(), paths.end(), [](const auto& a, const auto& b) {
    return std::countr_zero(a.second) < std::countr_zero(b.second);
  });
  if (!schedule_ || schedule_->takenFirst()) std::reverse(paths.begin(), paths.end());
  if (obs_) obs_->diverged({w.index, &in, paths.back().second, t.mask & ~paths.back().second});
  if (rpc == isa::kNoPc) {
    // The paths meet only at the exit: all keep the enclosing reconvergence point.
    t.pc = paths.front().first;
    t.mask = paths.front().second;
    const uint32_t outer = t.rpc;
    for (size_t i = 1; i < paths.size(); ++i)
      w.stack.push_back({paths[i].first, outer, paths[i].second});
    return;
  }
  t.pc = rpc;  // the entry below waits at the reconvergence point with every lane
  for (const auto& [pc, lanes] : paths) w.stack.push_back({pc, rpc, lanes});
}

namespace {

// Adds `lane` to the path going to `key`, or a new path.
template <class Key>
void addLane(std::vector<std::pair<Key, LaneMask>>& groups, Key key, unsigned lane) {
  for (auto& [k, lanes] : groups)
    if (k == key) {
      lanes |= LaneMask{1} << lane;
      return;
    }
  groups.push_back({key, LaneMask{1} << lane});
}

}  // namespace

void Cta::branchIndexed(const Inst& in, LaneMask mask, const uint64_t* indices) {
  Warp& w = *cur_;
  const isa::TargetTable& table = w.frames.back().fn->tables[size_t(in.table)];
  const LaneMask active = w.stack.back().mask;
  mask &= active;
  Paths paths;
  isa::forLanes(mask, [&](unsigned l) {
    const uint32_t index = uint32_t(indices[l]);
    if (index >= table.pcs.size())
      fault(FaultKind::InvalidInstruction,
            "brx.idx index " + std::to_string(index) + " is outside its .branchtargets list '" +
                table.name + "' of " + std::to_string(table.pcs.size()) + " labels",
            &in, l);
    addLane(paths, table.pcs[index], l);
  });
  if (active & ~mask) paths.push_back({in.pc + 1, active & ~mask});  // guard false: fall through
  stop_ |= kPcSet;
  if (paths.size() == 1) {
    w.stack.back().pc = paths[0].first;
    return;
  }
  diverge(w, in, in.reconverge, paths);
}

void Cta::callIndirect(const Inst& in, LaneMask mask, const uint64_t* targets) {
  Warp& w = *cur_;
  const isa::TargetTable& table = w.frames.back().fn->tables[size_t(in.table)];
  std::vector<std::pair<uint64_t, LaneMask>> groups;
  isa::forLanes(mask, [&](unsigned l) { addLane(groups, targets[l], l); });
  // Every target is checked before any lane moves: the lowest lane at fault is reported.
  int32_t callee = -1;
  for (const auto& [address, lanes] : groups) {
    const isa::CallTarget t = isa::resolveCallTarget(*ctx_->program, table, address);
    const unsigned lane = unsigned(std::countr_zero(lanes));
    if (!t.error.empty()) fault(FaultKind::InvalidInstruction, t.error, &in, lane);
    if (!t.unsupported.empty()) fault(FaultKind::NotSupported, t.unsupported, &in, lane);
    callee = t.function;
  }
  if (groups.size() > 1) {
    // Lanes calling different functions: each group becomes a path that executes the call
    // again, all its lanes calling one function, and the paths reconverge after the call (the
    // lanes whose guard was false wait there).
    Paths paths;
    for (const auto& [address, lanes] : groups) paths.push_back({in.pc, lanes});
    stop_ |= kPcSet;
    diverge(w, in, in.pc + 1, paths);
    return;
  }
  enterCall(in, ctx_->program->functions[size_t(callee)], mask);
}

void Cta::call(const Inst& in, LaneMask mask) {
  enterCall(in, ctx_->program->functions[size_t(in.callee)], mask);
}

inline void Cta::checkStack(const Warp& w, const isa::FunctionCode& callee, const Inst& in,
                            LaneMask mask) {
  const size_t index = size_t(&callee - ctx_->program->functions.data());
  const uint64_t top = w.frames.back().stackTop + ctx_->stack.frameBytes[index];
  if (top > ctx_->stack.limit) [[unlikely]]
    stackOverflow(w, index, top, in, mask);
}

void Cta::enterCall(const Inst& in, const isa::FunctionCode& callee, LaneMask mask) {
  Warp& w = *cur_;
  if (ctx_->stack.checked) checkStack(w, callee, in, mask);
  // The caller's entry resumes after the call with every lane; the callee's lanes run above.
  w.stack.back().pc = in.pc + 1;
  stop_ |= kPcSet;
  enterFrame(w, callee, mask, &in);
  Frame& f = w.frames.back();
  Frame& caller = w.frames[w.frames.size() - 2];
  // The call binder normalizes operands to {returns list, function, arguments list}; the
  // argument list names the caller's .param variables, in order. The bounds and the slots are
  // read once: the copies below are about four lanes each in a divergent recursion.
  const std::vector<isa::Opnd>& args = in.ops[2].elems;
  const size_t passed = args.size(), declared = callee.params.size();
  const isa::Opnd* const arg = args.data();
  const isa::ParamSlot* const param = callee.params.data();
  for (size_t i = 0; i < std::min(passed, declared); ++i) {
    const uint64_t src = uint64_t(arg[i].offset) - isa::kLaneParamBase;
    copyLaneParams(mask, f, param[i].offset, caller, src, param[i].bytes);
  }
  // Parameters the call passes nothing for read as zero: enterFrame zeroed them only when it
  // zeroed the whole area, since the analysis counts every parameter as written at entry.
  if (passed < declared && callee.paramZeroKnown) [[unlikely]]
    for (size_t i = passed; i < declared; ++i)
      isa::forLanes(mask, [&](unsigned lane) {
        std::memset(f.laneParam(lane) + param[i].offset, 0, param[i].bytes);
      });
}

void Cta::ret(const Inst& in, LaneMask mask) {
  Warp& w = *cur_;
  if (w.frames.size() == 1) {  // ret from the kernel itself is an exit
    exit(in, mask);
    return;
  }
  Frame& f = w.frames.back();
  f.returned |= mask;
  // Every lane of the frame's one path returns (the usual ret, after the callee's paths met):
  // the call ends now, as reconverge would end it once the path had lost its lanes (pop the
  // path, copy the return values back, pop the frame), without the lanes' removal and the pass
  // through reconverge. The caller's path resumes after the call as it was left there.
  if (w.stack.size() == f.stackBase + 1 && w.stack.back().mask == mask) {
    w.stack.pop_back();
    finishCall(w);
    stop_ |= kPcSet;
    return;
  }
  removeLanes(w, mask, f.stackBase);
  // Lanes whose guard was false go on after the ret.
  w.stack.back().pc = in.pc + 1;
  stop_ |= kPcSet;
}

void Cta::exit(const Inst& in, LaneMask mask) {
  Warp& w = *cur_;
  exitLanes(w, mask);
  w.stack.back().pc = in.pc + 1;
  stop_ |= kPcSet;
}

void Cta::exitLanes(Warp& w, LaneMask mask) {
  w.exited |= mask;
  removeLanes(w, mask, 0);
  for (Frame& f : w.frames) f.returned &= ~mask;
  liveThreads_ -= unsigned(std::popcount(mask));
  clusterThreadsExited(w, mask);
  // Exited threads count as arrived: a barrier others wait at may be complete now (in id order;
  // a barrier nobody arrived at cannot complete).
  for (uint32_t open = barriers_.open(); open; open &= open - 1)
    releaseBarrier(uint32_t(std::countr_zero(open)));
}

// A frame's storage is the warp's from earlier calls when it can be (CallFrames::push: a call, a
// return and the next CTA on this host thread reuse it): the same function's frame keeps its
// immediates; only the registers that may be read before written are zeroed (isa/liveness.h:
// the carry flag among them when an addc, subc or madc may read it first).
void Cta::enterFrame(Warp& w, const isa::FunctionCode& fn, LaneMask mask, const Inst* callSite) {
  const uint64_t callerTop = w.frames.empty() ? 0 : w.frames.back().stackTop;
  Frame& f = w.frames.push(fn);
  const size_t laneBytes = fn.laneParamBytes;
  if (f.fn != &fn) {
    f.fn = &fn;
    f.regs.resize(size_t(fn.numSlots) * kWarpSize);
    for (const auto& [slot, value] : fn.constants)
      std::fill_n(f.regs.data() + size_t(slot) * kWarpSize, kWarpSize, value);
    f.preds.resize(fn.numPreds);
    f.laneParams.resize(laneBytes * kWarpSize);
    f.placeBlock = {0, 0, 0};
  }
  uint64_t* regs = f.regs.data();
  // Each register a shuffle reads (isa/liveness.h): isa::zeroLanes, not fill_n (`rep stosq`).
  for (uint32_t slot : fn.zeroAtEntry) isa::zeroLanes(regs + size_t(slot) * kWarpSize);
  // The predicates likewise (a memset of them all was a library call every time).
  uint32_t* const preds = f.preds.data();
  for (uint32_t p : fn.predsZeroAtEntry) preds[p] = 0;
  // The .param variables of the lanes that enter read as zero until written: the bytes that may
  // be read before written (isa/param_zeroing.h), each lane's own, else the whole area. Only
  // these lanes ever run in the frame (a call's lanes never grow), so the others' bytes may stay
  // as they were: one block from the lowest lane to the highest.
  if (!fn.paramZeroKnown) {
    if (mask && laneBytes) {
      const unsigned lo = unsigned(std::countr_zero(mask)),
                     hi = 31u - unsigned(std::countl_zero(mask));
      std::memset(f.laneParams.data() + lo * laneBytes, 0, (hi - lo + 1) * laneBytes);
    }
  } else {
    for (const auto& [offset, bytes] : fn.paramZeroRanges)
      isa::forLanes(mask, [&, offset = offset, bytes = bytes](unsigned lane) {
        std::memset(f.laneParams.data() + lane * laneBytes + offset, 0, bytes);
      });
  }
  f.stackBase = w.stack.size();
  f.callSite = callSite;
  f.returned = 0;
  f.stackTop = callerTop;
  if (ctx_->stack.checked)
    f.stackTop += ctx_->stack.frameBytes[size_t(&fn - ctx_->program->functions.data())];
  // The thread-place specials are what they were when this frame last ran `fn` in a block of
  // this shape (the kernel's frame of the previous CTA on this host thread, a call's frame of the
  // previous call): nothing writes a special's slot.
  const Dim3& block = ctx_->block;
  const bool placeKept =
      f.placeBlock.x == block.x && f.placeBlock.y == block.y && f.placeBlock.z == block.z;
  for (const auto& [slot, s] : fn.specials)
    if (!placeKept || !isa::isPlaceSpecial(s)) fillSpecial(w, s, regs + size_t(slot) * kWarpSize);
  f.placeBlock = block;
  w.stack.push_back({0, isa::kNoPc, mask});
}

void Cta::stackOverflow(const Warp& w, size_t index, uint64_t top, const Inst& in, LaneMask mask) {
  fault(FaultKind::StackOverflow,
        "call " + std::to_string(w.frames.size()) + " deep, of '" +
            ctx_->program->functions[index].name + "' (a frame of " +
            std::to_string(ctx_->stack.frameBytes[index]) + " bytes, " +
            (ctx_->stack.fromPtxas[index] ? "ptxas's" : "estimated from the PTX") + "), needs " +
            std::to_string(top) + " bytes of stack per thread; the limit is " +
            std::to_string(ctx_->stack.limit) + " (cudaLimitStackSize; --stack-size)",
        &in, unsigned(std::countr_zero(mask)));
}

void Cta::removeLanes(Warp& w, LaneMask lanes, size_t fromEntry) {
  for (size_t i = fromEntry; i < w.stack.size(); ++i) w.stack[i].mask &= ~lanes;
}

void Cta::finishCall(Warp& w) {
  Frame& callee = w.frames.back();
  Frame& caller = w.frames[w.frames.size() - 2];
  const Inst* site = callee.callSite;
  // Copy the return values of the lanes that returned into the caller's .param variables.
  if (site && callee.returned) {  // ops[0]: the returns list (see Cta::call)
    const std::vector<isa::Opnd>& rets = site->ops[0].elems;
    const std::vector<isa::ParamSlot>& slots = callee.fn->returns;
    const isa::Opnd* const ret = rets.data();
    const isa::ParamSlot* const slot = slots.data();
    for (size_t i = 0, n = std::min(rets.size(), slots.size()); i < n; ++i) {
      const uint64_t dst = uint64_t(ret[i].offset) - isa::kLaneParamBase;
      copyLaneParams(callee.returned, caller, dst, callee, slot[i].offset, slot[i].bytes);
    }
  }
  w.frames.pop();
}

}  // namespace warpsim::sim
