#include "sim/check/racecheck.h"

#include <algorithm>
#include <cstdio>

namespace warpsim::check {

namespace {

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

bool isSyncWarp(const isa::Inst& in) { return in.text.rfind("bar.warp.sync", 0) == 0; }

// Loads and stores that take part in the memory model's synchronization are not data races.
bool isPlain(const sim::MemoryEvent& e) {
  return e.order == isa::MemOrder::None || e.order == isa::MemOrder::Weak;
}

std::string raceTitle(const char* first, const char* second) {
  return std::string("Race reported between ") + first + " access and " + second + " access";
}

}  // namespace

void RacecheckObserver::ctaStarted(const sim::CtaInfo& c) {
  view_.start(c);
  cells_.assign(c.sharedBytes, Cell{});
  warpGen_.assign(c.warps, 0);
  warpSync_.assign(c.warps, 0);
  warpSeq_.assign(c.warps, 0);
}

void RacecheckObserver::instruction(const sim::InstructionEvent& e) {
  ++warpSeq_[e.warp];
  if (e.executed && isSyncWarp(*e.inst)) ++warpSync_[e.warp];
}

void RacecheckObserver::barrierReleased(uint32_t, const std::vector<unsigned>& waiters) {
  ++gen_;
  for (unsigned w : waiters) {
    warpGen_[w] = gen_;
    ++warpSync_[w];  // a CTA barrier orders the warp's own lanes too
  }
}

bool RacecheckObserver::ordered(const AccessStamp& earlier, unsigned warp) const {
  if (warpGen_[warp] > earlier.gen) return true;
  if (earlier.thread / 32 != warp) return false;
  return warpSync_[warp] > earlier.wsync;
}

void RacecheckObserver::report(const AccessStamp& earlier, const char* earlierKind,
                               const sim::MemoryEvent& e, unsigned lane, const char* kind,
                               uint64_t address) {
  const unsigned earlierWarp = earlier.thread / 32;
  Finding f;
  f.tool = Tool::Racecheck;
  f.kernel = view_.kernel();
  f.title = raceTitle(earlierKind, kind);
  f.first = {earlierKind, siteOf(*view_.info().program, *earlier.inst),
             view_.threadOf(earlierWarp, earlier.thread % 32), view_.info().id};
  f.second = view_.actor(*e.inst, e.warp, lane, kind);
  f.address = address;
  f.space = "__shared__";
  f.detail = earlierWarp == e.warp
                 ? "intra-warp hazard at __shared__ address " + hex(address) +
                       ": lanes of one warp with no __syncwarp() between them"
                 : "hazard at __shared__ address " + hex(address) +
                       ": threads of the CTA with no __syncthreads() between them";
  findings_.add(std::move(f));
}

void RacecheckObserver::shared(const sim::MemoryEvent& e, unsigned lane, uint64_t a) {
  const unsigned w = e.warp;
  const uint32_t thread = w * 32 + lane;
  const AccessStamp now{e.inst, gen_, warpSync_[w], warpSeq_[w], thread};
  // Two accesses conflict when they come from different threads, are not the same warp
  // instruction, and nothing orders them.
  auto conflicts = [&](const AccessStamp& s) {
    if (!s.inst || s.thread == thread) return false;
    if (s.thread / 32 == w && s.seq == now.seq) return false;
    return !ordered(s, w);
  };
  const bool write = e.kind == sim::AccessKind::Store;
  bool reported = false;  // one hazard per lane access
  for (unsigned b = 0; b < e.bytes; ++b) {
    Cell& c = cells_[a + b];
    if (!reported) {
      if (conflicts(c.write)) {
        report(c.write, "Write", e, lane, write ? "Write" : "Read", a + b);
        reported = true;
      } else if (write && (conflicts(c.read) || conflicts(c.read2))) {
        report(conflicts(c.read) ? c.read : c.read2, "Read", e, lane, "Write", a + b);
        reported = true;
      }
    }
    if (write) {
      c.write = now;
      c.read = c.read2 = AccessStamp{};
    } else if (!c.read.inst || c.read.thread == thread) {
      c.read = now;
    } else {
      c.read2 = c.read;
      c.read = now;
    }
  }
}

void RacecheckObserver::global(const sim::MemoryEvent& e, unsigned lane, uint64_t a) {
  const bool write = e.kind == sim::AccessKind::Store;
  const uint32_t thread = e.warp * 32 + lane;
  for (uint64_t word = a >> 2, last = (a + e.bytes - 1) >> 2; word <= last; ++word) {
    const uint64_t lo = std::max(a, word << 2), hi = std::min(a + e.bytes, (word + 1) << 2);
    const uint8_t mask = uint8_t(((1u << (hi - lo)) - 1) << (lo & 3));
    GlobalAccess* prev = accesses_.empty() ? nullptr : &accesses_.back();
    if (prev && prev->word == word && prev->write == write && prev->inst == e.inst &&
        prev->seq == warpSeq_[e.warp] && prev->thread / 32 == e.warp)
      prev->mask |= mask;  // lanes of one instruction in one word (byte loads, ...)
    else
      accesses_.push_back({word, e.inst, thread, gen_, warpGen_[e.warp], warpSync_[e.warp],
                           warpSeq_[e.warp], mask, write});
  }
}

void RacecheckObserver::ctaFinished(const sim::FaultInfo*) {
  // Stable: the first reader and writer of a word stay the first in the CTA's order.
  std::stable_sort(accesses_.begin(), accesses_.end(),
                   [](const GlobalAccess& x, const GlobalAccess& y) { return x.word < y.word; });
  globalHazards();
  for (const GlobalAccess& g : accesses_) {
    if (words_.empty() || words_.back().word != g.word) words_.push_back({g.word});
    GlobalWordUse& u = words_.back();
    if (g.write) {
      if (!u.writeInst) u.writeInst = g.inst, u.writeThread = g.thread;
      u.writeMask |= g.mask;
    } else {
      if (!u.readInst) u.readInst = g.inst, u.readThread = g.thread;
      u.readMask |= g.mask;
    }
  }
  accesses_ = {};
}

void RacecheckObserver::globalHazards() {
  // `a` before `b` in the CTA's order: ordered when one thread made both, when they are one
  // warp instruction, or when a barrier (or, within a warp, a __syncwarp) came between.
  auto ordered = [](const GlobalAccess& a, const GlobalAccess& b) {
    const bool sameWarp = a.thread / 32 == b.thread / 32;
    return a.thread == b.thread || (sameWarp && a.seq == b.seq) || b.warpGen > a.gen ||
           (sameWarp && b.wsync > a.wsync);
  };
  auto report = [&](const GlobalAccess& a, const GlobalAccess& b) {
    const bool intraWarp = a.thread / 32 == b.thread / 32;
    const char* aKind = a.write ? "Write" : "Read";
    const char* bKind = b.write ? "Write" : "Read";
    Finding f;
    f.tool = Tool::Racecheck;
    f.kernel = view_.kernel();
    f.title = raceTitle(aKind, bKind);
    f.first = {aKind, siteOf(*view_.info().program, *a.inst),
               view_.threadOf(a.thread / 32, a.thread % 32), view_.info().id};
    f.second = Actor{bKind, siteOf(*view_.info().program, *b.inst),
                     view_.threadOf(b.thread / 32, b.thread % 32), view_.info().id};
    f.address = a.word << 2;
    f.space = "__global__";
    f.detail = "hazard at __global__ address " + hex(a.word << 2) +
               (intraWarp ? ": lanes of one warp with no __syncwarp() between them"
                          : ": threads of the CTA with no __syncthreads() between them");
    findings_.add(std::move(f));
  };
  const GlobalAccess *write = nullptr, *read = nullptr, *read2 = nullptr;
  for (size_t i = 0; i < accesses_.size(); ++i) {
    const GlobalAccess& b = accesses_[i];
    if (i == 0 || accesses_[i - 1].word != b.word) write = read = read2 = nullptr;
    auto conflicts = [&](const GlobalAccess* a) {
      return a && (a->mask & b.mask) && !ordered(*a, b);
    };
    if (conflicts(write))
      report(*write, b);
    else if (b.write && conflicts(read))
      report(*read, b);
    else if (b.write && conflicts(read2))
      report(*read2, b);
    if (b.write) {
      write = &b;
      read = read2 = nullptr;
    } else if (!read || read->thread == b.thread) {
      read = &b;
    } else {
      read2 = read;
      read = &b;
    }
  }
}

void RacecheckObserver::memory(const sim::MemoryEvent& e) {
  if (!e.addresses || (e.kind != sim::AccessKind::Load && e.kind != sim::AccessKind::Store)) return;
  const uint32_t sharedBytes = view_.info().sharedBytes;
  const bool plain = isPlain(e);
  isa::forLanes(e.mask, [&](unsigned lane) {
    const auto [space, a] = landing(e, lane);
    if (space == isa::Space::Shared) {
      if (a <= sharedBytes && e.bytes <= sharedBytes - a) shared(e, lane, a);
    } else if (space == isa::Space::Global && plain) {
      global(e, lane, a);
    }
  });
}

void Racecheck::merge(sim::Observer& finished) {
  auto& o = static_cast<RacecheckObserver&>(finished);
  if (o.info().linear == 0) launchFinished();  // a new launch: judge the one before
  findings_.merge(o.findings());
  if (!o.globalWords().empty()) ctas_.push_back({o.info(), std::move(o.globalWords())});
}

void Racecheck::race(const CtaWords& a, const isa::Inst* aInst, uint32_t aThread, const char* aKind,
                     const CtaWords& b, const isa::Inst* bInst, uint32_t bThread, const char* bKind,
                     uint64_t word) {
  auto actor = [](const CtaWords& c, const isa::Inst* in, uint32_t thread, const char* kind) {
    return Actor{kind, siteOf(*c.info.program, *in), sim::positionIn(c.info.block, thread),
                 c.info.id};
  };
  Finding f;
  f.tool = Tool::Racecheck;
  f.kernel = a.info.entry ? a.info.entry->name : "";
  f.title = raceTitle(aKind, bKind);
  f.first = actor(a, aInst, aThread, aKind);
  f.second = actor(b, bInst, bThread, bKind);
  f.address = word << 2;
  f.space = "__global__";
  f.detail = "hazard at __global__ address " + hex(word << 2) +
             " between CTAs: no atomic or memory-model synchronization orders them";
  findings_.add(std::move(f));
}

void Racecheck::launchFinished() {
  // Writes first: the first writer of each word, and any second CTA writing it. Then every
  // CTA's reads against the writers: only words some CTA writes can race, and outputs are
  // few next to inputs, so reads are looked up, never inserted.
  WordTable<Writer> writers;
  for (uint64_t c = 0; c < ctas_.size(); ++c)
    for (const GlobalWordUse& u : ctas_[c].words) {
      if (!u.writeMask) continue;
      Writer& w = writers[u.word];
      if (!w.inst) {
        w = {c, u.writeInst, u.writeThread, u.writeMask};
      } else if (w.cta != c && (w.mask & u.writeMask)) {
        race(ctas_[w.cta], w.inst, w.thread, "Write", ctas_[c], u.writeInst, u.writeThread, "Write",
             u.word);
      }
    }
  if (writers.size())
    for (uint64_t c = 0; c < ctas_.size(); ++c)
      for (const GlobalWordUse& u : ctas_[c].words) {
        if (!u.readMask) continue;
        const Writer* w = writers.find(u.word);
        if (!w || w->cta == c || !(w->mask & u.readMask)) continue;
        if (w->cta < c)
          race(ctas_[w->cta], w->inst, w->thread, "Write", ctas_[c], u.readInst, u.readThread,
               "Read", u.word);
        else
          race(ctas_[c], u.readInst, u.readThread, "Read", ctas_[w->cta], w->inst, w->thread,
               "Write", u.word);
      }
  ctas_.clear();
}

}  // namespace warpsim::check
