#include "sim/func/cta.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "sim/func/spin.h"

namespace warpsim::sim {

using isa::Inst;
using isa::kWarpSize;
using isa::LaneMask;

Cta::Cta(const LaunchContext& ctx, uint64_t linearIndex, Observer* observer) : ctx_(&ctx) {
  restart(linearIndex, observer);
}

void Cta::restart(const LaunchContext& ctx, uint64_t linearIndex, Observer* observer) {
  ctx_ = &ctx;
  recent_.clear();  // the allocations it remembers may have been freed since
  restart(linearIndex, observer);
}

// What launch-invariant instructions read (isa/invariants.h): the kernel's code, its parameters
// and the block's shape (a place special's value). When any differs from the previous CTA's, the
// warps' records of written lanes are out of date (restart starts them again).
void Cta::noteInvariantInputs() {
  const std::vector<uint8_t>& params = *ctx_->params;
  const Dim3& b = ctx_->block;
  if (invariantEpoch_ != 0 && ctx_->entry == invariantEntry_ && b.x == invariantBlock_.x &&
      b.y == invariantBlock_.y && b.z == invariantBlock_.z && params == invariantParams_)
    return;
  ++invariantEpoch_;
  invariantEntry_ = ctx_->entry;
  invariantBlock_ = b;
  invariantParams_ = params;
}

void Cta::trim(uint64_t keepBytes) {
  uint64_t local = 0;
  for (const Warp& w : warps_) local += w.local.capacity();
  if (local <= keepBytes) return;
  for (Warp& w : warps_) std::vector<uint8_t>().swap(w.local);
}

CtaInfo ctaInfoOf(const LaunchContext& ctx, uint64_t linearIndex) {
  CtaInfo info;
  info.linear = linearIndex;
  info.id = positionIn(ctx.grid, linearIndex);
  info.block = ctx.block;
  info.grid = ctx.grid;
  info.threads = uint32_t(ctx.block.count());
  info.warps = (info.threads + kWarpSize - 1) / kWarpSize;
  info.staticShared = ctx.entry->ownSharedBytes;
  info.dynamicSharedBase = ctx.entry->sharedBytes;
  info.dynamicShared = ctx.dynamicShared;
  info.sharedBytes = ctx.entry->sharedBytes + ctx.dynamicShared;
  info.localBytes = ctx.program->localBytesPerThread;
  info.cluster = ctx.cluster;
  info.program = ctx.program;
  info.entry = ctx.entry;
  info.heap = ctx.heap;
  return info;
}

void Cta::restart(uint64_t linearIndex, Observer* observer) {
  obs_ = observer;
  info_ = ctaInfoOf(*ctx_, linearIndex);
  noteInvariantInputs();
  liveThreads_ = info_.threads;
  liveWarps_ = info_.warps;
  shared_.reset(size_t(ctx_->entry->sharedBytes) + ctx_->dynamicShared);
  barriers_.reset();
  async_.reset(info_.warps);
  wgmma_.resize(info_.warps);
  for (unsigned w = 0; w < info_.warps; ++w) wgmma_[w].reset(w % 4);
  printf_.clear();
  heapSites_.clear();
  // Every thread starts with cudaSuccess, whatever the CTA run before on this host thread left.
  deviceErrors_.clear();
  recovered_ = 0;
  cur_ = nullptr;
  if (ctx_->options.schedule)
    schedule_.emplace(*ctx_->options.schedule, linearIndex);
  else
    schedule_.reset();
  warps_.resize(info_.warps);
  rank_ = sim::clusterRank(ctx_->cluster, info_.id);
  Cta* const self = this;
  solo_.reset({&self, 1});
  cluster_ = &solo_;
  if (obs_) obs_->ctaStarted(info_);
  for (unsigned w = 0; w < info_.warps; ++w) {
    Warp& warp = warps_[w];
    warp.frames.clear();
    warp.stack.clear();
    warp.index = w;
    const unsigned lanes = std::min<unsigned>(kWarpSize, info_.threads - w * kWarpSize);
    warp.valid = lanes == kWarpSize ? ~0u : (1u << lanes) - 1;
    warp.exited = 0;
    warp.state = WarpState::Ready;
    warp.instructions = 0;
    warp.barrierId = warp.barrierPc = 0;
    warp.clusterPending = false;
    warp.clusterLanes = 0;
    warp.clusterTarget = 0;
    warp.localBytes = ctx_->program->localBytesPerThread;
    if (warp.localBytes) warp.local.assign(size_t(warp.localBytes) * kWarpSize, 0);
    if (warp.invariantEpoch != invariantEpoch_) {
      warp.invariantLanes.assign(ctx_->entry->numInvariants, 0);
      warp.invariantEpoch = invariantEpoch_;
    }
    enterFrame(warp, *ctx_->entry, warp.valid, nullptr);
    if (obs_) obs_->warpStarted(w, warp.valid);
  }
}

void Cta::reconverge(Warp& w) {
  for (;;) {
    if (w.frames.size() > 1 && w.stack.size() == w.frames.back().stackBase) {
      finishCall(w);
      continue;
    }
    if (w.stack.empty()) {
      w.state = WarpState::Done;
      --liveWarps_;
      if (obs_) obs_->warpFinished(w.index);
      return;
    }
    const SimtEntry& t = w.stack.back();
    if (t.mask == 0 || t.pc == t.rpc) {
      w.stack.pop_back();
      continue;
    }
    return;
  }
}

namespace {

// Whether `w`'s top path runs on as it is: reconverge would change nothing.
inline bool settled(const Warp& w) {
  // The frame's entries are all gone (its call returns), or the kernel's (the warp is done).
  const SimtEntry* const end = w.stack.data() + w.stack.size();
  if (end <= w.stack.data() + w.frames.back().stackBase) return false;
  const SimtEntry& t = end[-1];
  return t.mask != 0 && t.pc != t.rpc;
}

}  // namespace

StepResult Cta::step(unsigned wi, uint32_t limit) {
  return obs_ ? stepWarp<true>(wi, limit) : stepWarp<false>(wi, limit);
}

// The step's loop, once with an observer and once without (no test of it per instruction).
// What it reads of the warp's frame and paths is read again only where control flow may have
// changed it: after an instruction that moved the pc (a branch, call, ret, exit) or reached the
// path's reconvergence point.
template <bool kObserved>
StepResult Cta::stepWarp(unsigned wi, uint32_t limit) {
  Warp& w = warps_[wi];
  cur_ = &w;
  stop_ = 0;
  isa::Exec x;
  x.machine = this;
  // An observer sees every shared-memory access through load/store.
  x.shared = kObserved ? nullptr : shared_.data();
  x.sharedBytes = shared_.size();
  // The same for ld.param of the kernel's parameters.
  x.kernelParams = kObserved ? nullptr : ctx_->params->data();
  x.kernelParamBytes = ctx_->params->size();
  x.globalIsGeneric = true;  // cvta's global conversions are the identity (memory.h)
  uint32_t issued = 0;
  SpinWatch spin;
  const bool skipSpins = !kObserved && !schedule_;
  // The frame the values below were read from. A frame's storage stays where it is while it is
  // the top one: a call or a return makes another frame the top one (another address), and a
  // call that moves the frames (its push grows their vector) moves this one too.
  const Frame* frame = nullptr;
  const Inst* code = nullptr;
  uint32_t size = 0;
  while (issued < limit) {
    if (!settled(w)) {
      reconverge(w);
      if (w.state == WarpState::Done) break;
    }
    if (Frame& f = w.frames.back(); &f != frame) {
      frame = &f;
      code = f.fn->code.data();
      size = uint32_t(f.fn->code.size());
      x.regs = f.regs.data();
      x.preds = f.preds.data();
      // An observer sees every .param access through load/store.
      x.laneParams = kObserved ? nullptr : f.laneParams.data();
      x.laneParamBytes = f.fn->laneParamBytes;
    }
    SimtEntry& top = w.stack.back();
    x.active = top.mask;
    if (top.pc >= size)
      fault(FaultKind::InvalidInstruction,
            "execution ran off the end of '" + frame->fn->name + "' (missing ret/exit)", nullptr,
            unsigned(std::countr_zero(top.mask)));
    // Until an instruction moves the pc itself (control flow) or blocks, the warp's frame, paths
    // and active lanes stay as they are: its instructions run back to back up to the path's
    // reconvergence point (where reconverge looks again) or the function's end (where the
    // check above faults), at most as many as the step has left. The pc is written back when
    // the run ends (nothing reads it meanwhile; a control-flow instruction writes its own).
    const uint32_t until = top.rpc > top.pc && top.rpc < size ? top.rpc : size;
    const Inst* const first = code + top.pc;
    const Inst* const last = first + std::min(until - top.pc, limit - issued) - 1;
    // A function without launch-invariant instructions (every device function) runs the loop
    // without their test; an observer sees every instruction run.
    const Inst* const p =
        kObserved || frame->fn->numInvariants == 0
            ? runStraight<kObserved, false>(x, w, *frame->fn, nullptr, first, last)
            : runStraight<kObserved, true>(x, w, *frame->fn, w.invariantLanes.data(), first, last);
    issued += uint32_t(p - first) + 1;
    if (stop_ & kPcSet) {  // `top` may be gone: the outer loop looks at the paths again
      stop_ &= uint8_t(~kPcSet);
      const Inst& in = *p;
      // Taken back by every active lane (a divergent branch pushes a path of fewer lanes).
      if (in.closesPureLoop && skipSpins && w.stack.back().pc == in.target &&
          w.stack.back().mask == x.active) {
        const uint32_t skip = spin.passed(in, w, issued, limit - issued);
        issued += skip;
        w.instructions += skip;
      }
    } else {
      top.pc = uint32_t(p - code) + 1;
    }
    if (stop_ & kBlocked) break;
  }
  cur_ = nullptr;
  // Settle a warp whose last instruction ended its paths, so that Finished is reported now.
  if (w.state == WarpState::Ready) reconverge(w);
  StepResult r;
  r.issued = issued;
  r.status = w.state == WarpState::Done ? StepStatus::Finished
             : stop_ & kBlocked         ? StepStatus::Blocked
                                        : StepStatus::Issued;
  return r;
}

// The straight run of stepWarp: its own function, so that what its loop keeps across the
// handler's call (the instruction, the run's last, the warp, the CTA, the state) stays in
// registers.
template <bool kObserved, bool kInvariants>
const Inst* Cta::runStraight(isa::Exec& x, Warp& w, const isa::FunctionCode& fn,
                             uint32_t* invariantLanes, const Inst* p, const Inst* last) {
  for (;;) {
    const Inst& in = *p;
    x.mask = x.active;
    if (in.guard != isa::kNoSlot)
      x.mask &= in.guardNegated ? ~x.preds[in.guard] : x.preds[in.guard];
    if (in.readsDynamic) [[unlikely]]
      fillDynamic(w, fn, x.regs);
    if constexpr (kObserved) obs_->instruction({w.index, &fn, &in, x.active, x.mask, x.regs});
    ++w.instructions;
    if (x.mask || in.cls == isa::InsnClass::Control) {
      // A launch-invariant instruction (isa/invariants.h) runs for lanes that have not written
      // its value in this frame yet.
      if (!kInvariants || in.invariant == isa::kNoInvariant) [[likely]] {
        in.run(x, in);
      } else if (uint32_t& written = invariantLanes[in.invariant]; x.mask & ~written) {
        in.run(x, in);
        written |= x.mask;
      }
    }
    if (stop_ || p == last) return p;
    ++p;
  }
}

void Cta::fillDynamic(const Warp& w, const isa::FunctionCode& fn, uint64_t* regs) const {
  for (const auto& [slot, s] : fn.specials)
    if (isa::isDynamic(s)) fillSpecial(w, s, regs + size_t(slot) * kWarpSize);
}

template StepResult Cta::stepWarp<true>(unsigned, uint32_t);
template StepResult Cta::stepWarp<false>(unsigned, uint32_t);

void Cta::failDeadlock() {
  fault(FaultKind::BarrierDeadlock,
        "every warp of the CTA waits at a barrier that cannot complete (barrier divergence: "
        "some threads never arrive)",
        nullptr, 0, std::nullopt, describeWaits());
}

void Cta::failStuck(FaultKind kind, const std::string& why) {
  // The headline names where the first warp that still runs is (else the first live one).
  Warp* at = nullptr;
  for (Warp& w : warps_)
    if (w.state != WarpState::Done && !w.stack.empty() && !w.frames.empty() &&
        (!at || (at->state != WarpState::Ready && w.state == WarpState::Ready)))
      at = &w;
  const Inst* in = nullptr;
  unsigned lane = 0;
  if (at) {
    cur_ = at;
    const auto& code = at->frames.back().fn->code;
    const uint32_t pc = at->stack.back().pc;
    if (pc < code.size()) in = &code[pc];
    const isa::LaneMask m = at->stack.back().mask;
    lane = m ? unsigned(std::countr_zero(m)) : 0;
  }
  fault(kind, why, in, lane, std::nullopt, describeWaits());
}

uint64_t watchdogBudget(const LaunchOptions& options, unsigned warps) {
  return options.instructionBudget ? options.instructionBudget
                                   : kDefaultWarpBudget * uint64_t(warps);
}

namespace {
std::string withCommas(uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string s;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}
}  // namespace

void Cta::failBudget(uint64_t issued, uint64_t budget) {
  failStuck(FaultKind::Watchdog,
            "the CTA issued " + withCommas(issued) +
                " warp-instructions without finishing, past the watchdog's budget of " +
                withCommas(budget) + " (an infinite loop? raise the budget with --budget)");
}

std::string Cta::placeOf(const Inst& in) const {
  std::string s;
  if (in.cuda.known()) {
    const auto& files = ctx_->program->module->files;
    auto it = files.find(in.cuda.file);
    s = (it != files.end() ? it->second : "file" + std::to_string(in.cuda.file)) + ":" +
        std::to_string(in.cuda.line) + " ";
  }
  return s + "(PTX line " + std::to_string(in.ptxLine) + ", " + in.text + ")";
}

std::string Cta::describeWaits() const {
  std::string s;
  for (const Warp& w : warps_) {
    if (w.state == WarpState::Done) continue;
    s += "  warp " + std::to_string(w.index) + ": ";
    if (w.state == WarpState::AtBarrier) {
      s += "waits at barrier " + std::to_string(w.barrierId) + " (PTX line " +
           std::to_string(w.barrierPc) + "), " + barriers_.progress(w.barrierId, liveThreads_);
    } else if (w.state == WarpState::AtClusterBarrier) {
      s += "waits at barrier.cluster.wait (PTX line " + std::to_string(w.barrierPc) + "), phase " +
           std::to_string(w.clusterTarget - 1) + ": " + cluster_->progress();
    } else if (!w.stack.empty() && !w.frames.empty()) {
      const auto& code = w.frames.back().fn->code;
      const uint32_t pc = w.stack.back().pc;
      s += pc < code.size() ? "runs at " + placeOf(code[pc]) : std::string("runs past its end");
    }
    if (!w.stack.empty() && w.stack.size() > w.frames.back().stackBase + 1)
      s += " (diverged: " + std::to_string(w.stack.size()) + " reconvergence entries)";
    s += "\n";
  }
  if (!s.empty()) s.pop_back();
  return s;
}

void Cta::barrier(const Inst& in, isa::BarrierKind kind, LaneMask mask, uint32_t id,
                  uint32_t threadCount, LaneMask value, uint32_t resultSlot) {
  Warp& w = *cur_;
  if (kind == isa::BarrierKind::Warp) {
    const LaneMask absent = mask & ~w.stack.back().mask & ~w.exited;
    if (absent) warpSyncFault(in, mask, w.stack.back().mask);
    return;
  }
  if (id >= BarrierUnit::kCount)
    fault(FaultKind::InvalidInstruction,
          "barrier id " + std::to_string(id) + " is out of range (0..15)", &in,
          unsigned(std::countr_zero(mask)));
  if (threadCount % kWarpSize != 0 && threadCount != 0)
    fault(FaultKind::InvalidInstruction,
          "barrier thread count " + std::to_string(threadCount) + " is not a multiple of 32", &in,
          unsigned(std::countr_zero(mask)));
  // Hardware counts a whole warp per arrival for .aligned barriers; counting the lanes that
  // execute makes a divergent arrival visible as a deadlock instead of a silent release.
  // Against a thread count (a multiple of 32: warps x 32), the lanes that are no threads (a
  // partial last warp) or have exited arrive with their warp (PTX ISA, "barrier": it "waits for
  // all non-exited threads from its warp and marks warps' arrival").
  const LaneMask counted = threadCount ? mask | ~w.valid | w.exited : mask;
  const bool waits = kind != isa::BarrierKind::Arrive;
  barriers_.arrive({id, kind, threadCount, w.index, counted, mask, value, resultSlot});
  if (obs_) obs_->barrierArrived({w.index, &in, id, mask, waits});
  if (waits) {
    w.state = WarpState::AtBarrier;
    w.barrierId = id;
    w.barrierPc = in.ptxLine;
    stop_ |= kBlocked;
  }
  releaseBarrier(id);
}

void Cta::releaseBarrier(uint32_t id) {
  if (barriers_.tryRelease(id, liveThreads_, warps_) && obs_)
    obs_->barrierReleased(id, barriers_.released());
}

void Cta::nanosleep(const Inst&) { stop_ |= kBlocked; }

void Cta::fault(FaultKind kind, std::string message, const Inst* in, unsigned lane,
                std::optional<uint64_t> address, std::string details) {
  throw KernelFault(faultInfo(kind, std::move(message), in, lane, address, std::move(details)));
}

FaultInfo Cta::faultInfo(FaultKind kind, std::string message, const Inst* in, unsigned lane,
                         std::optional<uint64_t> address, std::string details) const {
  FaultInfo f;
  f.kind = kind;
  f.message = std::move(message);
  f.cta = info_.id;
  f.lane = lane;
  if (cur_) {
    f.warp = cur_->index;
    f.thread = threadOf(cur_->index, lane);
  }
  if (in) {
    f.ptxLine = in->ptxLine;
    f.instruction = in->text;
    if (in->cuda.known()) {
      const auto& files = ctx_->program->module->files;
      auto it = files.find(in->cuda.file);
      f.cudaFile = it != files.end() ? it->second : "file" + std::to_string(in->cuda.file);
      f.cudaLine = in->cuda.line;
    }
  }
  if (address) {
    f.address = *address;
    f.hasAddress = true;
  }
  f.details = std::move(details);
  return f;
}

void Cta::trap(const Inst& in, LaneMask mask, const char* why) {
  fault(FaultKind::Trap, why, &in, unsigned(std::countr_zero(mask)));
}

void Cta::addressFault(const Inst& in, unsigned lane, const std::string& why) {
  fault(FaultKind::OutOfBounds, why, &in, lane);
}

void Cta::warpSyncFault(const Inst& in, LaneMask members, LaneMask present) {
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "'%s' names member lanes 0x%08x but only lanes 0x%08x are converged here",
                in.text.c_str(), members, present);
  fault(FaultKind::WarpSync, buf, &in, unsigned(std::countr_zero(present ? present : 1u)));
}

void Cta::assertFailed(const Inst& in, unsigned lane, const std::string& message) {
  fault(FaultKind::Assertion, message, &in, lane);
}

void Cta::unsupported(const Inst& in, const char* what) {
  // The fault's description adds the kind ("not supported yet") and the CUDA and PTX lines.
  fault(FaultKind::NotSupported, what, &in, 0);
}

}  // namespace warpsim::sim
