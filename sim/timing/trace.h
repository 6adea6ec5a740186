// A Chrome/Perfetto trace of timed launches (the "traceEvents" JSON that ui.perfetto.dev and
// chrome://tracing open): one process per SM; on it a track per CTA slot with each CTA as a
// slice, and a track per warp slot with each warp as a slice and, nested in it, its states
// (issue, long_scoreboard, barrier, ...) with consecutive cycles of one state merged into one
// slice. Timestamps are SM cycles written as microseconds (the viewer's "1 us" is one cycle);
// launches follow each other on one time axis. At most `eventLimit` events are kept; the rest
// are counted (dropped()) and the file says so in its "otherData".
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/timing/listener.h"

namespace warpsim::sim::timing {

class TraceRecorder final : public EngineListener {
 public:
  explicit TraceRecorder(uint64_t eventLimit) : limit_(eventLimit) {}

  void launchStarted(const isa::Program&) override;
  void ctaStarted(uint32_t sm, uint64_t cta, uint64_t t) override;
  void ctaFinished(uint32_t sm, uint64_t cta, uint64_t t) override;
  void warpStarted(uint32_t wi, uint32_t sm, uint64_t cta, unsigned warp, uint64_t t) override;
  void warpState(uint32_t wi, uint64_t from, uint64_t to, Stall s, const isa::Inst*) override;
  void warpFinished(uint32_t wi, uint64_t t) override;
  void launchEnded(uint64_t cycles) override;

  // The whole trace so far, one event per line.
  std::string json() const;
  uint64_t written() const { return events_.size(); }
  uint64_t dropped() const { return dropped_; }

 private:
  enum class Kind : uint8_t { State, Cta, Warp, Launch };
  struct Event {
    Kind kind;
    Stall stall;
    uint32_t pid, tid;
    uint64_t ts, dur;
    uint64_t cta;
    uint32_t warp;
  };
  struct Live {  // a warp between warpStarted and warpFinished
    uint32_t sm = 0, track = 0;
    uint64_t cta = 0, start = 0;
    unsigned warp = 0;
    bool open = false;  // a state slice not yet written
    Stall kind = Stall::Wait;
    uint64_t from = 0, to = 0;
  };
  void add(const Event& e);
  void closeState(Live& l);
  // The lowest free track of `sm` in `used` (grown as needed).
  static uint32_t takeTrack(std::vector<std::vector<bool>>& used, uint32_t sm);

  uint64_t limit_;
  uint64_t dropped_ = 0;
  uint64_t offset_ = 0;  // cycles of the launches before this one
  uint32_t launch_ = 0;
  std::vector<Event> events_;
  std::vector<Live> warps_;  // by wi
  struct LiveCta {
    uint32_t sm, track;
    uint64_t start;
  };
  std::map<uint64_t, LiveCta> ctas_;                   // by CTA index, while it runs
  std::vector<std::vector<bool>> warpUsed_, ctaUsed_;  // per SM: track in use
  std::set<std::pair<uint32_t, uint32_t>> named_;      // (pid, tid) tracks that appear
};

}  // namespace warpsim::sim::timing
