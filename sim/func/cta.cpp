#include "sim/func/cta.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace warpsim::sim {

using isa::Inst;
using isa::kWarpSize;
using isa::LaneMask;

Cta::Cta(const LaunchContext& ctx, uint64_t linearIndex) : ctx_(ctx), linear_(linearIndex) {
  ctaId_.x = uint32_t(linearIndex % ctx.grid.x);
  ctaId_.y = uint32_t(linearIndex / ctx.grid.x % ctx.grid.y);
  ctaId_.z = uint32_t(linearIndex / (uint64_t(ctx.grid.x) * ctx.grid.y));
  threads_ = uint32_t(ctx.block.count());
  liveThreads_ = threads_;
  shared_.assign(size_t(ctx.entry->sharedBytes) + ctx.dynamicShared, 0);
  const unsigned nWarps = (threads_ + kWarpSize - 1) / kWarpSize;
  warps_.resize(nWarps);
  for (unsigned w = 0; w < nWarps; ++w) {
    Warp& warp = warps_[w];
    warp.index = w;
    const unsigned lanes = std::min<unsigned>(kWarpSize, threads_ - w * kWarpSize);
    warp.valid = lanes == kWarpSize ? ~0u : (1u << lanes) - 1;
    warp.localBytes = ctx.program->localBytesPerThread;
    if (warp.localBytes) warp.local.assign(size_t(warp.localBytes) * kWarpSize, 0);
    enterFrame(warp, *ctx.entry, warp.valid, nullptr);
  }
  stats_.ctas = 1;
  stats_.warps = nWarps;
  stats_.threads = threads_;
}

ThreadPos Cta::threadOf(unsigned warp, unsigned lane) const {
  const uint32_t t = warp * kWarpSize + lane;
  return {t % ctx_.block.x, t / ctx_.block.x % ctx_.block.y, t / (ctx_.block.x * ctx_.block.y)};
}

void Cta::enterFrame(Warp& w, const isa::FunctionCode& fn, LaneMask mask, const Inst* callSite) {
  Frame f;
  f.fn = &fn;
  f.regs.assign(size_t(fn.numSlots) * kWarpSize, 0);
  f.preds.assign(fn.numPreds, 0);
  f.laneParams.assign(size_t(fn.laneParamBytes) * kWarpSize, 0);
  f.stackBase = w.stack.size();
  f.callSite = callSite;
  for (const auto& [slot, value] : fn.constants)
    std::fill_n(f.regs.begin() + size_t(slot) * kWarpSize, kWarpSize, value);
  for (const auto& [slot, s] : fn.specials)
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      f.regs[size_t(slot) * kWarpSize + lane] = specialOf(w, s, lane);
  w.frames.push_back(std::move(f));
  w.stack.push_back({0, isa::kNoPc, mask});
}

uint64_t Cta::special(isa::Special s, unsigned lane) {
  return cur_ ? specialOf(*cur_, s, lane) : 0;
}

uint64_t Cta::specialOf(const Warp& w, isa::Special s, unsigned lane) const {
  using isa::Special;
  const unsigned warp = w.index;
  const ThreadPos t = threadOf(warp, lane);
  const uint32_t bit = 1u << lane;
  switch (s) {
    case Special::TidX:
      return t.x;
    case Special::TidY:
      return t.y;
    case Special::TidZ:
      return t.z;
    case Special::NtidX:
      return ctx_.block.x;
    case Special::NtidY:
      return ctx_.block.y;
    case Special::NtidZ:
      return ctx_.block.z;
    case Special::CtaidX:
      return ctaId_.x;
    case Special::CtaidY:
      return ctaId_.y;
    case Special::CtaidZ:
      return ctaId_.z;
    case Special::NctaidX:
      return ctx_.grid.x;
    case Special::NctaidY:
      return ctx_.grid.y;
    case Special::NctaidZ:
      return ctx_.grid.z;
    case Special::LaneId:
      return lane;
    case Special::WarpId:
      return warp;
    case Special::NWarpId:
      return ctx_.limits.maxWarpsPerSm;
    case Special::SmId:
      return uint32_t(linear_ % ctx_.limits.smCount);
    case Special::NSmId:
      return ctx_.limits.smCount;
    case Special::GridId:
      return ctx_.gridId;
    case Special::LanemaskEq:
      return bit;
    case Special::LanemaskLe:
      return bit | (bit - 1);
    case Special::LanemaskLt:
      return bit - 1;
    case Special::LanemaskGe:
      return ~(bit - 1);
    case Special::LanemaskGt:
      return ~(bit | (bit - 1));
    // The functional model has no cycles: clocks advance with the warp's instructions, which
    // keeps them monotonic and deterministic (the timing model supplies real cycles).
    case Special::Clock:
      return uint32_t(w.instructions);
    case Special::Clock64:
      return w.instructions;
    case Special::ClockHi:
      return uint32_t(w.instructions >> 32);
    case Special::GlobalTimer:
      return w.instructions * 1000;
    case Special::GlobalTimerLo:
      return uint32_t(w.instructions * 1000);
    case Special::GlobalTimerHi:
      return uint32_t((w.instructions * 1000) >> 32);
    case Special::DynamicSmemSize:
      return ctx_.dynamicShared;
    case Special::TotalSmemSize:
      return uint32_t(shared_.size());
    case Special::AggrSmemSize:  // with the system's reserved part
      return uint32_t(shared_.size()) + isa::kReservedSmemBytes;
    case Special::ClusterCtaRank:
      return 0;
    case Special::ClusterNctaRank:
      return 1;
    case Special::EnvReg:
      return 0;
    case Special::Count_:
      break;
  }
  return 0;
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
    const auto& rets = site->ops[0].elems;
    for (size_t i = 0; i < rets.size() && i < callee.fn->returns.size(); ++i) {
      const isa::ParamSlot& r = callee.fn->returns[i];
      const uint64_t dst = uint64_t(rets[i].offset) - isa::kLaneParamBase;
      isa::forLanes(callee.returned, [&](unsigned lane) {
        std::memcpy(caller.laneParam(lane) + dst, callee.laneParam(lane) + r.offset, r.bytes);
      });
    }
  }
  w.frames.pop_back();
}

void Cta::reconverge(Warp& w) {
  for (;;) {
    if (w.frames.size() > 1 && w.stack.size() == w.frames.back().stackBase) {
      finishCall(w);
      continue;
    }
    if (w.stack.empty()) {
      w.state = WarpState::Done;
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

void Cta::runWarp(Warp& w, uint32_t slice) {
  cur_ = &w;
  blocked_ = false;
  isa::Exec x;
  x.machine = this;
  uint64_t executed = 0;
  while (executed < slice) {
    reconverge(w);
    if (w.state == WarpState::Done) break;
    Frame& f = w.frames.back();
    SimtEntry& top = w.stack.back();
    if (top.pc >= f.fn->code.size())
      fault(FaultKind::InvalidInstruction,
            "execution ran off the end of '" + f.fn->name + "' (missing ret/exit)", nullptr,
            unsigned(std::countr_zero(top.mask)));
    const Inst& in = f.fn->code[top.pc];
    x.regs = f.regs.data();
    x.preds = f.preds.data();
    x.active = top.mask;
    x.mask = top.mask;
    if (in.guard != isa::kNoSlot)
      x.mask &= in.guardNegated ? ~f.preds[in.guard] : f.preds[in.guard];
    if (in.readsDynamic)
      for (const auto& [slot, s] : f.fn->specials)
        if (isa::isDynamic(s))
          for (unsigned lane = 0; lane < kWarpSize; ++lane)
            f.regs[size_t(slot) * kWarpSize + lane] = specialOf(w, s, lane);
    stats_.warpInsns[size_t(in.cls)] += 1;
    stats_.threadInsns[size_t(in.cls)] += unsigned(std::popcount(x.mask));
    ++w.instructions;
    ++executed;
    pcSet_ = false;
    if (x.mask || in.cls == isa::InsnClass::Control) in.run(x, in);
    if (!pcSet_) ++w.stack.back().pc;
    if (blocked_) break;
  }
  cur_ = nullptr;
  const uint64_t used = ctx_.budgetUsed->fetch_add(executed, std::memory_order_relaxed) + executed;
  if (used > ctx_.options.instructionBudget)
    fault(FaultKind::Watchdog,
          "instruction budget of " + std::to_string(ctx_.options.instructionBudget) +
              " warp-instructions exhausted (an infinite loop?)",
          nullptr, 0, std::nullopt, describeWaits());
}

void Cta::run() {
  for (;;) {
    bool progressed = false;
    bool allDone = true;
    for (Warp& w : warps_) {
      if (w.state == WarpState::Done) continue;
      allDone = false;
      if (w.state != WarpState::Ready) continue;
      if (ctx_.stop->load(std::memory_order_relaxed)) return;
      runWarp(w, ctx_.options.warpSlice);
      progressed = true;
    }
    if (allDone) return;
    if (!progressed)
      fault(FaultKind::BarrierDeadlock,
            "every warp of the CTA waits at a barrier that cannot complete (barrier divergence: "
            "some threads never arrive)",
            nullptr, 0, std::nullopt, describeWaits());
  }
}

std::string Cta::describeWaits() const {
  std::string s;
  for (const Warp& w : warps_) {
    if (w.state == WarpState::Done) continue;
    s += "  warp " + std::to_string(w.index) + ": ";
    if (w.state == WarpState::AtBarrier) {
      const Barrier& b = barriers_[w.barrierId];
      s += "waits at barrier " + std::to_string(w.barrierId) + " (PTX line " +
           std::to_string(w.barrierPc) + "), " + std::to_string(b.arrived) + " of " +
           std::to_string(b.expected ? b.expected : liveThreads_) + " threads arrived";
    } else if (!w.stack.empty() && !w.frames.empty()) {
      const auto& code = w.frames.back().fn->code;
      const uint32_t pc = w.stack.back().pc;
      s += "runs at PTX line " + std::to_string(pc < code.size() ? code[pc].ptxLine : 0);
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
  if (id >= kBarriers)
    fault(FaultKind::InvalidInstruction,
          "barrier id " + std::to_string(id) + " is out of range (0..15)", &in,
          unsigned(std::countr_zero(mask)));
  if (threadCount % kWarpSize != 0 && threadCount != 0)
    fault(FaultKind::InvalidInstruction,
          "barrier thread count " + std::to_string(threadCount) + " is not a multiple of 32", &in,
          unsigned(std::countr_zero(mask)));
  Barrier& b = barriers_[id];
  if (b.arrived == 0) {
    b.expected = threadCount;
    b.kind = kind;
    b.popc = 0;
    b.all = true;
    b.any = false;
  }
  // Hardware counts a whole warp per arrival for .aligned barriers; counting the lanes that
  // execute makes a divergent arrival visible as a deadlock instead of a silent release.
  // Against a thread count (a multiple of 32: warps x 32), the lanes that are no threads (a
  // partial last warp) or have exited arrive with their warp (PTX ISA, "barrier": it "waits for
  // all non-exited threads from its warp and marks warps' arrival").
  const LaneMask counted = threadCount ? mask | ~w.valid | w.exited : mask;
  b.arrived += unsigned(std::popcount(counted));
  b.popc += unsigned(std::popcount(value & mask));
  b.all = b.all && (value & mask) == mask;
  b.any = b.any || (value & mask) != 0;
  if (kind != isa::BarrierKind::Arrive) {
    w.state = WarpState::AtBarrier;
    w.barrierId = id;
    w.barrierPc = in.ptxLine;
    b.waiting.push_back(w.index);
    if (resultSlot != isa::kNoSlot) b.results.push_back({w.index, resultSlot, mask});
    blocked_ = true;
  }
  tryReleaseBarrier(id);
}

void Cta::tryReleaseBarrier(unsigned id) {
  Barrier& b = barriers_[id];
  if (b.arrived == 0) return;
  const uint32_t need = b.expected ? b.expected : liveThreads_;
  if (b.arrived < need) return;
  for (const PendingResult& r : b.results) {
    uint64_t v = 0;
    switch (b.kind) {
      case isa::BarrierKind::RedPopc:
        v = b.popc;
        break;
      case isa::BarrierKind::RedAnd:
        v = b.all;
        break;
      case isa::BarrierKind::RedOr:
        v = b.any;
        break;
      default:
        break;
    }
    Frame& f = warps_[r.warp].frames.back();
    if (b.kind == isa::BarrierKind::RedPopc) {
      isa::forLanes(r.mask, [&](unsigned lane) { f.regs[size_t(r.slot) * kWarpSize + lane] = v; });
    } else {
      // bar.red.and/or write a predicate.
      if (v)
        f.preds[r.slot] |= r.mask;
      else
        f.preds[r.slot] &= ~r.mask;
    }
  }
  for (unsigned wi : b.waiting)
    if (warps_[wi].state == WarpState::AtBarrier) warps_[wi].state = WarpState::Ready;
  b = Barrier{};
  ++stats_.barriers;
}

void Cta::nanosleep(const Inst&) { blocked_ = true; }

void Cta::fault(FaultKind kind, std::string message, const Inst* in, unsigned lane,
                std::optional<uint64_t> address, std::string details) {
  FaultInfo f;
  f.kind = kind;
  f.message = std::move(message);
  f.cta = ctaId_;
  f.lane = lane;
  if (cur_) {
    f.warp = cur_->index;
    f.thread = threadOf(cur_->index, lane);
  }
  if (in) {
    f.ptxLine = in->ptxLine;
    f.instruction = in->text;
    if (in->cuda.known()) {
      const auto& files = ctx_.program->module->files;
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
  throw KernelFault(std::move(f));
}

void Cta::trap(const Inst& in, LaneMask mask, const char* why) {
  fault(FaultKind::Trap, why, &in, unsigned(std::countr_zero(mask)));
}

void Cta::warpSyncFault(const Inst& in, LaneMask members, LaneMask present) {
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "'%s' names member lanes 0x%08x but only lanes 0x%08x are converged here",
                in.text.c_str(), members, present);
  fault(FaultKind::WarpSync, buf, &in, unsigned(std::countr_zero(present ? present : 1u)));
}

}  // namespace warpsim::sim

namespace warpsim::sim {

void Cta::assertFailed(const Inst& in, unsigned lane, const std::string& message) {
  fault(FaultKind::Assertion, message, &in, lane);
}

void Cta::unsupported(const Inst& in, const char* what) {
  // The fault's description adds the kind ("not supported yet") and the CUDA and PTX lines.
  fault(FaultKind::NotSupported, what, &in, 0);
}

}  // namespace warpsim::sim
