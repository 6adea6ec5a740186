#include "sim/check/initcheck.h"

#include <algorithm>
#include <cstdio>

namespace warpsim::check {

namespace {

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

std::string uninitTitle(const char* space, unsigned bytes) {
  return std::string("Uninitialized ") + space + " memory read of size " + std::to_string(bytes) +
         (bytes == 1 ? " byte" : " bytes");
}

}  // namespace

std::vector<uint8_t>* GlobalInitShadow::find(uint64_t a, uint64_t* index) {
  auto it = buffers_.upper_bound(a);
  if (it == buffers_.begin()) return nullptr;
  --it;
  if (a - it->first >= it->second.size()) return nullptr;
  *index = a - it->first;
  return &it->second;
}

void InitcheckObserver::ctaStarted(const sim::CtaInfo& c) {
  view_.start(c);
  shared_.assign(c.sharedBytes, 0);
  local_.assign(size_t(c.localBytes) * c.threads, 0);
  seat_.take(clusters_, c, this);
}

void InitcheckObserver::ctaFinished(const sim::FaultInfo*) { seat_.leave(); }

void InitcheckObserver::reportUninit(const sim::MemoryEvent& e, unsigned lane, uint64_t a,
                                     const char* space) {
  Finding f;
  f.tool = Tool::Initcheck;
  f.kernel = view_.kernel();
  f.title = uninitTitle(space, e.bytes);
  f.first = view_.actor(*e.inst, e.warp, lane, "");
  f.address = a;
  f.space = space;
  f.detail = "Address " + hex(a) + " holds bytes that were never written";
  findings_.add(std::move(f));
}

bool InitcheckObserver::globalWritten(uint64_t byte) const {
  auto it = written_.find(byte >> 6);
  return it != written_.end() && (it->second >> (byte & 63) & 1);
}

void InitcheckObserver::memory(const sim::MemoryEvent& e) {
  if (!e.addresses || e.kind == sim::AccessKind::Fence) return;
  // mbarrier.init is an atomic in the event stream (it goes through the core's read-modify-write
  // of the object), but it reads nothing: it sets the object whatever its bytes held.
  const bool reads =
      e.kind != sim::AccessKind::Store && e.inst->sync != isa::SyncRole::MbarrierInit;
  const bool writes = e.kind != sim::AccessKind::Load;
  const sim::CtaInfo& c = view_.info();
  isa::forLanes(e.mask, [&](unsigned lane) {
    const auto [space, landed] = landing(e, lane);
    uint64_t a = landed;
    if (space == isa::Space::Shared) {
      std::vector<uint8_t>* shadow = &shared_;
      if (sim::namesRank(a)) {  // another CTA of the cluster: its shadow
        const unsigned r = sim::rankOfClusterAddress(a);
        InitcheckObserver* owner = seat_.member(r);
        if (!owner) return;
        shadow = &owner->shared_;
        a &= sim::kClusterOffsetMask;
      }
      if (a > shadow->size() || e.bytes > shadow->size() - a) return;  // memcheck's
      uint8_t* bytes = shadow->data() + a;
      if (reads)
        for (unsigned b = 0; b < e.bytes; ++b)
          if (!bytes[b]) {
            reportUninit(e, lane, a, "__shared__");
            break;
          }
      if (writes) std::fill(bytes, bytes + e.bytes, uint8_t{1});
    } else if (space == isa::Space::Local) {
      if (a > c.localBytes || e.bytes > c.localBytes - a) return;
      uint8_t* bytes = local_.data() + size_t(e.warp * 32 + lane) * c.localBytes + a;
      if (reads)
        for (unsigned b = 0; b < e.bytes; ++b)
          if (!bytes[b]) {
            reportUninit(e, lane, a, "__local__");
            break;
          }
      if (writes) std::fill(bytes, bytes + e.bytes, uint8_t{1});
    } else if (space == isa::Space::Global && !globalInit_.empty()) {
      uint64_t index = 0;
      const std::vector<uint8_t>* flags = globalInit_.find(a, &index);
      if (!flags) return;
      if (reads)
        for (unsigned b = 0; b < e.bytes && index + b < flags->size(); ++b)
          if (!(*flags)[index + b] && !globalWritten(a + b)) {
            candidates_.push_back({a, e.inst, e.warp * 32 + lane, uint8_t(e.bytes)});
            break;
          }
      if (writes)
        for (unsigned b = 0; b < e.bytes; ++b) written_[(a + b) >> 6] |= 1ull << ((a + b) & 63);
    }
  });
}

void Initcheck::merge(sim::Observer& finished) {
  auto& o = static_cast<InitcheckObserver&>(finished);
  const sim::CtaInfo& info = o.info();
  if (info.linear == 0) launchFinished();  // a new launch: judge the one before
  findings_.merge(o.findings());
  for (const InitCandidate& r : o.candidates())
    pending_.push_back(
        {r, info.linear, info.block, info.grid, info.program, info.entry ? info.entry->name : ""});
  for (const auto& [chunk, mask] : o.globalWrites())
    for (unsigned b = 0; b < 64; ++b)
      if (mask >> b & 1) {
        const uint64_t byte = chunk * 64 + b;
        auto [it, fresh] = writer_.try_emplace(byte, info.linear);
        if (!fresh && it->second != info.linear) multi_[byte] = true;
      }
}

void Initcheck::launchFinished() {
  for (const Pending& p : pending_) {
    bool uninit = false;
    for (unsigned b = 0; b < p.read.bytes && !uninit; ++b) {
      const uint64_t byte = p.read.address + b;
      uint64_t index = 0;
      const std::vector<uint8_t>* flags = shadow_.find(byte, &index);
      if (!flags || (*flags)[index]) continue;
      auto it = writer_.find(byte);
      // Written by another CTA of the launch: initialized (whether in time is racecheck's).
      uninit = it == writer_.end() || (it->second == p.cta && !multi_.count(byte));
    }
    if (!uninit) continue;
    Finding f;
    f.tool = Tool::Initcheck;
    f.kernel = p.kernel;
    f.title = uninitTitle("__global__", p.read.bytes);
    f.first = {"", siteOf(*p.program, *p.read.inst), sim::positionIn(p.block, p.read.thread),
               sim::positionIn(p.grid, p.cta)};
    f.address = p.read.address;
    f.space = "__global__";
    f.detail = "Address " + hex(p.read.address) + " holds bytes that were never written";
    findings_.add(std::move(f));
  }
  for (const auto& [byte, cta] : writer_) {
    uint64_t index = 0;
    if (std::vector<uint8_t>* flags = shadow_.find(byte, &index)) (*flags)[index] = 1;
  }
  pending_.clear();
  writer_.clear();
  multi_.clear();
}

}  // namespace warpsim::check
