#include "sim/check/synccheck.h"

#include <bit>
#include <cstdio>

#include "isa/facts.h"

namespace warpsim::check {

namespace {

constexpr uint32_t kNoCount = ~0u;

std::string mask(isa::LaneMask m) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", m);
  return b;
}

// Warp primitives that take a member mask as their last operand.
bool hasMemberMask(const isa::Inst& in) {
  return in.sync == isa::SyncRole::WarpSync || in.sync == isa::SyncRole::WarpExchange ||
         in.sync == isa::SyncRole::WarpCollective;
}

}  // namespace

void SynccheckObserver::ctaStarted(const sim::CtaInfo& c) {
  view_.start(c);
  live_.assign(c.warps, 0);
  regs_.assign(c.warps, nullptr);
  barrierCount_.assign(16, kNoCount);
}

void SynccheckObserver::warpStarted(unsigned warp, isa::LaneMask threads) { live_[warp] = threads; }

void SynccheckObserver::add(Severity s, std::string title, const isa::Inst& in, unsigned warp,
                            unsigned lane, std::string detail) {
  Finding f;
  f.tool = Tool::Synccheck;
  f.severity = s;
  f.kernel = view_.kernel();
  f.title = std::move(title);
  f.first = view_.actor(in, warp, lane, "");
  f.detail = std::move(detail);
  findings_.add(std::move(f));
}

void SynccheckObserver::instruction(const sim::InstructionEvent& e) {
  regs_[e.warp] = e.regs;
  if (!e.executed) return;
  const isa::Inst& in = *e.inst;
  if (isa::endsPath(in) && (in.flow != isa::Flow::Return || (e.function && e.function->isEntry)))
    live_[e.warp] &= ~e.executed;  // exit, trap, or ret from the kernel: these lanes are done
  if (!hasMemberMask(in) || in.ops.empty() || in.ops.back().slot == isa::kNoSlot || !e.regs) return;
  const unsigned first = unsigned(std::countr_zero(e.executed));
  const isa::LaneMask members =
      isa::LaneMask(e.regs[size_t(in.ops.back().slot) * isa::kWarpSize + first]);
  if (const isa::LaneMask outside = e.executed & ~members)
    add(Severity::Error, "Warp-synchronous instruction executed by threads outside its member mask",
        in, e.warp, unsigned(std::countr_zero(outside)),
        "member mask " + mask(members) + ", executing lanes " + mask(e.executed) + ": lanes " +
            mask(outside) + " are not members");
  // Members that do not execute it have exited, or wait on another path and exit before they
  // get here (otherwise the core stops on a member mask naming live lanes that never come).
  if (const isa::LaneMask absent = members & ~e.executed)
    add(Severity::Warning,
        "Member mask names threads that do not execute the instruction (they have exited or "
        "do not exist)",
        in, e.warp, first,
        "member mask " + mask(members) + ", executing lanes " + mask(e.executed) + ": lanes " +
            mask(absent) +
            (in.sync == isa::SyncRole::WarpExchange ? " (a shuffle reads 0 from them)" : ""));
}

void SynccheckObserver::barrierArrived(const sim::BarrierArrival& e) {
  const isa::LaneMask live = live_[e.warp];
  if (e.mask != live) {
    const isa::LaneMask missing = live & ~e.mask;
    add(Severity::Error, "Barrier error detected. Divergent thread(s) in warp", *e.inst, e.warp,
        unsigned(std::countr_zero(e.mask ? e.mask : 1u)),
        "barrier " + std::to_string(e.id) + " reached by lanes " + mask(e.mask) + " of warp " +
            std::to_string(e.warp) + "; its live lanes " + mask(missing) + " do not reach it");
  }
  // The thread count (bar.sync id, count): every warp waiting at one barrier must agree.
  const isa::Inst& in = *e.inst;
  uint32_t count = 0;
  const uint64_t* regs = regs_[e.warp];
  if (in.ops.size() > 1 && in.ops[1].slot != isa::kNoSlot && regs && e.mask)
    count = uint32_t(regs[size_t(in.ops[1].slot) * isa::kWarpSize + std::countr_zero(e.mask)]);
  if (e.id < barrierCount_.size()) {
    uint32_t& expected = barrierCount_[e.id];
    if (expected == kNoCount)
      expected = count;
    else if (expected != count)
      add(Severity::Error, "Barrier error detected. Mismatched thread counts", in, e.warp,
          unsigned(std::countr_zero(e.mask ? e.mask : 1u)),
          "barrier " + std::to_string(e.id) + " expects " +
              (expected ? std::to_string(expected) + " threads" : "every thread") +
              " from the warps waiting; warp " + std::to_string(e.warp) + " arrives with " +
              (count ? std::to_string(count) : std::string("every thread")));
  }
}

void SynccheckObserver::barrierReleased(uint32_t id, const std::vector<unsigned>&) {
  if (id < barrierCount_.size()) barrierCount_[id] = kNoCount;
}

void SynccheckObserver::ctaFinished(const sim::FaultInfo* fault) {
  if (!fault) return;
  Finding f;
  f.tool = Tool::Synccheck;
  f.kernel = view_.kernel();
  f.first = {"", siteOf(*fault), fault->thread, fault->cta};
  if (fault->kind == sim::FaultKind::BarrierDeadlock) {
    f.title = "Deadlock: every warp of the CTA waits at a barrier that cannot complete";
    f.extra = fault->details;
  } else if (fault->kind == sim::FaultKind::WarpSync) {
    f.title = "Invalid member mask: live threads named in it do not take part";
    f.detail = fault->message;
  } else {
    return;
  }
  findings_.add(std::move(f));
}

}  // namespace warpsim::check
