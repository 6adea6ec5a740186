#include "sim/observers/event_log.h"

#include <bit>
#include <cstdio>

namespace warpsim::sim {

namespace {

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", v);
  return b;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// The lanes' addresses, compactly: "base + lane*stride" when they form one, else each.
std::string addresses(const uint64_t* a, isa::LaneMask mask) {
  const unsigned first = unsigned(std::countr_zero(mask));
  bool strided = true;
  int64_t stride = 0;
  bool haveStride = false;
  isa::forLanes(mask & (mask - 1), [&](unsigned lane) {
    const int64_t d = int64_t(a[lane] - a[first]);
    if (d % int64_t(lane - first) != 0) {
      strided = false;
      return;
    }
    const int64_t s = d / int64_t(lane - first);
    if (haveStride && s != stride) strided = false;
    stride = s;
    haveStride = true;
  });
  if (strided) return hex(a[first]) + " + lane*" + std::to_string(stride);
  std::string s;
  isa::forLanes(mask, [&](unsigned lane) {
    if (!s.empty()) s += " ";
    s += std::to_string(lane) + ":" + hex(a[lane]);
  });
  return s;
}

}  // namespace

std::string EventLogObserver::regName(const isa::FunctionCode& fn, isa::RegRef r) {
  if (names_ != &fn) {
    byReg_.clear();
    for (const auto& [name, reg] : fn.regNames)
      byReg_[(uint64_t(reg.slot) << 1) | uint64_t(reg.pred)] = name;
    names_ = &fn;
  }
  if (!r.pred && r.slot == isa::kCarrySlot) return "carry";
  auto it = byReg_.find((uint64_t(r.slot) << 1) | uint64_t(r.pred));
  return it != byReg_.end() ? it->second : "slot" + std::to_string(r.slot);
}

void EventLogObserver::ctaStarted(const CtaInfo& c) {
  text_ += "cta " + std::to_string(c.linear) + " (" + std::to_string(c.id.x) + "," +
           std::to_string(c.id.y) + "," + std::to_string(c.id.z) +
           ") starts: " + std::to_string(c.threads) + " threads in " + std::to_string(c.warps) +
           " warps\n";
}

void EventLogObserver::warpStarted(unsigned warp, isa::LaneMask threads) {
  text_ += "w" + std::to_string(warp) + " starts, threads " + hex32(threads) + "\n";
}

void EventLogObserver::instruction(const InstructionEvent& e) {
  const isa::Inst& in = *e.inst;
  std::string s = "w" + std::to_string(e.warp) + " line " + std::to_string(in.ptxLine) + " " +
                  in.text + " [" + isa::insnClassName(in.cls);
  if (in.flow != isa::Flow::Next) s += std::string(", ") + isa::flowName(in.flow);
  s += "] active " + hex32(e.active);
  if (e.executed != e.active) s += " executed " + hex32(e.executed);
  auto regs = [&](const char* what, const std::vector<isa::RegRef>& rs) {
    if (rs.empty()) return;
    s += std::string(" ") + what;
    for (isa::RegRef r : rs) s += " " + regName(*e.function, r);
  };
  regs("defs", in.defs);
  regs("uses", in.uses);
  text_ += s + "\n";
}

void EventLogObserver::memory(const MemoryEvent& e) {
  std::string s =
      "w" + std::to_string(e.warp) + "   " + accessKindName(e.kind) + " " + isa::spaceName(e.space);
  if (e.landed != e.space) s += std::string("->") + isa::spaceName(e.landed);
  s += " lanes " + hex32(e.mask);
  if (e.kind != AccessKind::Fence && e.mask)
    s += ", " + std::to_string(e.bytes) + " bytes at " + addresses(e.addresses, e.mask);
  text_ += s + "\n";
}

void EventLogObserver::diverged(const DivergenceEvent& e) {
  text_ += "w" + std::to_string(e.warp) + "   diverges: taken " + hex32(e.taken) + ", not taken " +
           hex32(e.notTaken) + "\n";
}

void EventLogObserver::barrierArrived(const BarrierArrival& e) {
  text_ += "w" + std::to_string(e.warp) + "   arrives at barrier " + std::to_string(e.id) +
           ", lanes " + hex32(e.mask) + (e.waits ? ", waits" : "") + "\n";
}

void EventLogObserver::barrierReleased(uint32_t id, const std::vector<unsigned>& waiters) {
  std::string s = "barrier " + std::to_string(id) + " completes, releasing";
  for (unsigned w : waiters) s += " w" + std::to_string(w);
  text_ += s + "\n";
}

void EventLogObserver::warpFinished(unsigned warp) {
  text_ += "w" + std::to_string(warp) + " finishes\n";
}

void EventLogObserver::ctaFinished(const FaultInfo* fault) {
  text_ += fault ? "cta faults: " + fault->message + "\n" : "cta finishes\n";
}

std::unique_ptr<Observer> EventLog::create(const CtaInfo&) {
  return std::make_unique<EventLogObserver>();
}

void EventLog::merge(Observer& finished) {
  text_ += static_cast<EventLogObserver&>(finished).text();
}

}  // namespace warpsim::sim
