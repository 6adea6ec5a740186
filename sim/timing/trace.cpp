#include "sim/timing/trace.h"

#include <algorithm>

namespace warpsim::sim::timing {

namespace {
// Track ids within an SM's process: CTA slots first, warp slots after them.
constexpr uint32_t kWarpTrackBase = 100;
// The process that holds one slice per launch (after every SM's).
constexpr uint32_t kLaunchPid = 100000;
}  // namespace

uint32_t TraceRecorder::takeTrack(std::vector<std::vector<bool>>& used, uint32_t sm) {
  if (used.size() <= sm) used.resize(sm + 1);
  std::vector<bool>& u = used[sm];
  const auto it = std::find(u.begin(), u.end(), false);
  const uint32_t k = uint32_t(it - u.begin());
  if (it == u.end())
    u.push_back(true);
  else
    *it = true;
  return k;
}

void TraceRecorder::add(const Event& e) {
  if (events_.size() >= limit_) {
    ++dropped_;
    return;
  }
  events_.push_back(e);
  named_.insert({e.pid, e.tid});
}

void TraceRecorder::launchStarted(const isa::Program&) {}

void TraceRecorder::ctaStarted(uint32_t sm, uint64_t cta, uint64_t t) {
  ctas_[cta] = {sm, takeTrack(ctaUsed_, sm), t};
}

void TraceRecorder::ctaFinished(uint32_t sm, uint64_t cta, uint64_t t) {
  const auto it = ctas_.find(cta);
  if (it == ctas_.end()) return;
  const LiveCta c = it->second;
  ctas_.erase(it);
  ctaUsed_[sm][c.track] = false;
  add({Kind::Cta, Stall::Wait, sm, c.track, offset_ + c.start, t - c.start, cta, 0});
}

void TraceRecorder::warpStarted(uint32_t wi, uint32_t sm, uint64_t cta, unsigned warp, uint64_t t) {
  if (warps_.size() <= wi) warps_.resize(wi + 1);
  Live& l = warps_[wi];
  l = Live{};
  l.sm = sm;
  l.track = takeTrack(warpUsed_, sm);
  l.cta = cta;
  l.warp = warp;
  l.start = t;
}

void TraceRecorder::closeState(Live& l) {
  if (!l.open) return;
  add({Kind::State, l.kind, l.sm, kWarpTrackBase + l.track, offset_ + l.from, l.to - l.from, l.cta,
       l.warp});
  l.open = false;
}

void TraceRecorder::warpState(uint32_t wi, uint64_t from, uint64_t to, Stall s, const isa::Inst*) {
  if (wi >= warps_.size() || to <= from) return;
  Live& l = warps_[wi];
  if (l.open && l.kind == s && l.to == from) {
    l.to = to;
    return;
  }
  closeState(l);
  l.open = true;
  l.kind = s;
  l.from = from;
  l.to = to;
}

void TraceRecorder::warpFinished(uint32_t wi, uint64_t t) {
  if (wi >= warps_.size()) return;
  Live& l = warps_[wi];
  // Its states nest in its slice (same track, inside its time).
  add({Kind::Warp, Stall::Wait, l.sm, kWarpTrackBase + l.track, offset_ + l.start, t - l.start,
       l.cta, l.warp});
  closeState(l);
  warpUsed_[l.sm][l.track] = false;
}

void TraceRecorder::launchEnded(uint64_t cycles) {
  add({Kind::Launch, Stall::Wait, kLaunchPid, 0, offset_, cycles, 0, launch_});
  offset_ += cycles;
  ++launch_;
  ctas_.clear();
}

std::string TraceRecorder::json() const {
  std::string s =
      "{\"otherData\":{\"producer\":\"warpsim --timing\","
      "\"time_unit\":\"1 us on the time axis is 1 SM cycle\",\"events_written\":" +
      std::to_string(events_.size()) + ",\"events_dropped\":" + std::to_string(dropped_) +
      "},\n\"traceEvents\":[\n";
  std::set<uint32_t> pids;
  for (const auto& [pid, tid] : named_) pids.insert(pid);
  bool first = true;
  auto line = [&](const std::string& e) {
    s += first ? "" : ",\n";
    s += e;
    first = false;
  };
  for (uint32_t pid : pids) {
    const std::string name = pid == kLaunchPid ? "launches" : "SM " + std::to_string(pid);
    line("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(pid) +
         ",\"args\":{\"name\":\"" + name + "\"}}");
    line("{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" + std::to_string(pid) +
         ",\"args\":{\"sort_index\":" + std::to_string(pid) + "}}");
  }
  for (const auto& [pid, tid] : named_) {
    const std::string name = pid == kLaunchPid ? "launch"
                             : tid < kWarpTrackBase
                                 ? "CTA slot " + std::to_string(tid)
                                 : "warp slot " + std::to_string(tid - kWarpTrackBase);
    line("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(pid) +
         ",\"tid\":" + std::to_string(tid) + ",\"args\":{\"name\":\"" + name + "\"}}");
  }
  for (const Event& e : events_) {
    std::string name;
    switch (e.kind) {
      case Kind::State:
        name = e.stall == Stall::Selected ? "issue" : stallName(e.stall);
        break;
      case Kind::Cta:
        name = "CTA " + std::to_string(e.cta);
        break;
      case Kind::Warp:
        name = "CTA " + std::to_string(e.cta) + " warp " + std::to_string(e.warp);
        break;
      case Kind::Launch:
        name = "launch " + std::to_string(e.warp);
        break;
    }
    line("{\"ph\":\"X\",\"name\":\"" + name + "\",\"pid\":" + std::to_string(e.pid) +
         ",\"tid\":" + std::to_string(e.tid) + ",\"ts\":" + std::to_string(e.ts) +
         ",\"dur\":" + std::to_string(e.dur) + "}");
  }
  s += "\n]}\n";
  return s;
}

}  // namespace warpsim::sim::timing
