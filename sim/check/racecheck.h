// racecheck: hazards (read after write, write after read, write after write) between threads
// that nothing orders.
//  - Shared memory, per byte, within the CTA. Barriers order warps by vector clocks, one row per
//    warp: each warp's accesses carry its epoch, a warp's arrival at barrier `id` (bar.sync,
//    bar.arrive, bar.red; __syncthreads is bar.sync 0) starts its next epoch and adds its row to
//    the barrier's, and the release adds the barrier's row to every warp it releases. So a
//    named barrier over a subset of warps (bar.sync 1, 64) orders exactly the warps that
//    arrived at it, a producer's bar.arrive orders its earlier accesses before the consumers it
//    releases, and each completion of a barrier is its own epoch. Between lanes of one warp,
//    a bar.warp.sync (__syncwarp) in between also orders them: sm_90 schedules a warp's threads
//    independently, so lanes are not lockstep. Lanes of one warp instruction are simultaneous,
//    not a hazard. Atomics are not tracked (an atomic never races with an atomic).
//  - Global memory within a CTA: the same rules per 4-byte word (with byte masks), judged when
//    the CTA ends from its plain accesses in order (each keeps its warp's clock row as it was).
//  - Global memory between CTAs: each CTA's plain (weak) loads and stores are summarized per
//    4-byte word and byte mask; the factory compares the CTAs' summaries when the launch ends
//    (a word written by one CTA and read or written by another). Atomics,
//    volatile and memory-model (relaxed/acquire/release) accesses are synchronization, not
//    races.
//  - Thread-block clusters: distributed shared memory (another CTA's shared memory through
//    mapa / shared::cluster addresses) is checked in the owning CTA's shadow, each access stamped
//    with the cluster rank of its CTA (the cluster's CTAs run on one host thread, so their
//    observers see one another: Racecheck keeps them by cluster). The cluster barrier
//    (barrier.cluster.arrive, then .wait; cluster.sync()) orders every thread of the cluster:
//    each warp's arrivals are kept with the epoch each ended, and an access is ordered after an
//    earlier one (any CTA of the cluster, shared or global memory) when its warp has waited for
//    a phase that the earlier access's warp arrived at after it. barrier.cluster.arrive.relaxed
//    orders nothing.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "sim/check/cluster_directory.h"
#include "sim/check/cta_view.h"
#include "sim/check/word_table.h"

namespace warpsim::check {

// One recorded access: which instruction, which thread (linear in the CTA) and when.
struct AccessStamp {
  const isa::Inst* inst = nullptr;  // null: none
  uint32_t epoch = 0;               // its warp's epoch (barrier arrivals so far, from 1)
  uint32_t wsync = 0;               // the warp's __syncwarp count when it happened
  uint32_t seq = 0;     // the warp's instruction count (same value: the same instruction)
  uint16_t thread = 0;  // linear thread index in its CTA (at most 1024 threads)
  uint16_t rank = 0;    // its CTA's rank in the cluster (another rank: distributed shared memory)
  bool atomic = false;  // a bulk reduction's element update (an atomic of the asynchronous proxy)
};

// Per warp, the epoch each of its cluster-barrier arrivals ended (0 for a .relaxed arrival,
// which orders nothing). Whether an access of warp `warp` at `epoch` is ordered before every
// access of a warp that has waited for `waits` phases of the cluster barrier.
using ClusterArrivals = std::vector<std::vector<uint32_t>>;
bool beforeClusterPhase(const ClusterArrivals& arrivals, unsigned warp, uint32_t epoch,
                        uint32_t waits);

// Where in its CTA a global access, a release or an acquire happened: enough to tell, when the
// launch ends, whether another point of the CTA is ordered before or after it.
struct CtaPoint {
  const isa::Inst* inst = nullptr;         // null: none
  uint32_t thread = 0;                     // linear in the CTA
  uint32_t epoch = 0, wsync = 0, seq = 0;  // as AccessStamp
  uint32_t snapshot = 0;      // its warp's clock row then (RacecheckObserver::snapshots_)
  uint32_t clusterWaits = 0;  // cluster-barrier phases its warp had waited for
};

// A CTA's plain global accesses to one 4-byte word: the first reader and writer, and the bytes.
struct GlobalWordUse {
  uint64_t word = 0;  // address / 4
  CtaPoint read, write;
  uint8_t readMask = 0, writeMask = 0;
};

// Synchronization between CTAs (PTX memory model, at GPU or system scope): a release (st.release,
// atom.release/acq_rel, or a strong write after fence.sc/acq_rel or membar.gl in the same thread)
// published on a flag word, and an acquire of it in another CTA (ld.acquire, atom.acquire/acq_rel,
// or a strong read of the flag followed by such a fence in the same thread) that read it.
// Read-modify-writes continue a word's release sequence: a release RMW joins it rather than
// replacing it, so an acquire that reads the last of a chain of release RMWs synchronizes with
// every release in the chain. That is how a grid-wide sync (cg::this_grid().sync(): each CTA's
// atom.add.release.gpu on the grid-sync workspace, then a spin of ld.acquire.gpu) orders every
// CTA's accesses before it before every CTA's accesses after it.
struct Release {
  uint64_t cta = 0;  // linear index
  CtaPoint at;
  std::vector<uint32_t> row;  // the releasing warp's clock row then
};
// What a strong read saw: the first `length` releases of release sequence `sequence`.
struct SeenReleases {
  uint32_t sequence = ~0u, length = 0;  // sequence ~0u: none
  bool none() const { return sequence == ~0u; }
};
struct Acquire {
  SeenReleases seen;
  CtaPoint at;
};

class Racecheck;

class RacecheckObserver final : public sim::Observer {
 public:
  // `owner`: the launch's factory, where releases are published (null: none between CTAs).
  explicit RacecheckObserver(Racecheck* owner = nullptr) : owner_(owner) {}
  void ctaStarted(const sim::CtaInfo& c) override;
  void instruction(const sim::InstructionEvent& e) override;
  void memory(const sim::MemoryEvent& e) override;
  void atomicCompleted(const sim::MemoryEvent& e) override;
  void barrierArrived(const sim::BarrierArrival& a) override;
  void barrierReleased(uint32_t id, const std::vector<unsigned>& waiters) override;
  void ctaFinished(const sim::FaultInfo* fault) override;
  Findings& findings() { return findings_; }
  // After ctaFinished: the CTA's plain global accesses by word, sorted.
  std::vector<GlobalWordUse>& globalWords() { return words_; }
  std::vector<Acquire>& acquires() { return acquires_; }
  std::vector<uint32_t>& snapshots() { return snapshots_; }
  unsigned warps() const { return warps_; }
  const sim::CtaInfo& info() const { return view_.info(); }
  ClusterArrivals& clusterArrivals() { return clusterArrivals_; }
  // The cluster this CTA is in (null: a cluster of one) and its key among the launch's.
  uint64_t clusterKey() const { return seat_.key(); }
  bool inCluster() const { return seat_.inCluster(); }

 private:
  struct Cell {
    AccessStamp write, read, read2;  // the last write; the last two readers (distinct threads)
  };
  bool ordered(const AccessStamp& earlier, unsigned warp) const;
  // Shared memory of `owner` (this CTA, or another of its cluster) at `offset`.
  void shared(RacecheckObserver& owner, const sim::MemoryEvent& e, unsigned lane, uint64_t offset);
  const RacecheckObserver* peer(unsigned rank) const;
  void global(const sim::MemoryEvent& e, unsigned lane, uint64_t a);
  // A strong (atomic, volatile or memory-model) global access: its write part publishes a
  // release (at the memory event, before the value is visible), its read part learns the
  // releases its value came from (after the read: a load's memory event, an atomic's
  // atomicCompleted).
  void release(const sim::MemoryEvent& e, unsigned lane, uint64_t a);
  void acquire(const sim::MemoryEvent& e, unsigned lane, uint64_t a);
  void fence(const sim::MemoryEvent& e);
  // mbarrier arrivals (releases) and waits (acquires) within the CTA, as barriers order warps.
  void mbarrier(const sim::MemoryEvent& e);
  // Whether lane's address is an mbarrier its CTA has used (initialized, arrived on, waited
  // on): what tells a bulk reduction's complete_tx from its element updates (both atomics).
  bool knownMbarrier(const sim::MemoryEvent& e, unsigned lane) const;
  CtaPoint pointNow(const isa::Inst* in, unsigned warp, unsigned lane);
  void report(const AccessStamp& earlier, const char* earlierKind, const sim::MemoryEvent& e,
              unsigned lane, const char* kind, uint64_t address, unsigned ownerRank);

  CtaView view_;
  Findings findings_;
  std::vector<Cell> cells_;  // per byte of the CTA's shared memory
  // clock(v, u): how many epochs of warp u are ordered before warp v's next access.
  uint32_t& clock(unsigned v, unsigned u) { return rows_[size_t(v) * warps_ + u]; }
  uint32_t clock(unsigned v, unsigned u) const { return rows_[size_t(v) * warps_ + u]; }
  unsigned warps_ = 0;
  std::vector<uint32_t> rows_;                      // warps_ x warps_
  std::vector<std::vector<uint32_t>> barrierRows_;  // per barrier id: the arrivals' rows joined
  // Per mbarrier (its shared address): the rows of every release into it so far, joined. A
  // test_wait or try_wait acquires them all, whether or not its phase completed (the event
  // does not say): a thread that reads after a wait that failed is not reported.
  // `async`: the newest bulk copy (asyncEpoch_) whose complete_tx, or whose acquirer's
  // release, reached the mbarrier.
  struct MbarrierClock {
    std::vector<uint32_t> row;
    uint32_t async = 0;
  };
  std::unordered_map<uint64_t, MbarrierClock> mbarriers_;
  MbarrierClock& mbarrierAt(uint64_t offset);  // the clock of the mbarrier at that shared offset
  // Bulk copies (cp.async.bulk, TMA) complete when issued in the core, but their writes belong
  // to the asynchronous proxy, not to the issuing thread: they are stamped with the copy's
  // number (epoch, with seq kAsyncSeq) and ordered before a warp's access only when the warp
  // has acquired (by an mbarrier wait, or a barrier after one) an mbarrier that the copy's
  // complete_tx reached: asyncSeen_[warp] >= that number.
  uint32_t asyncEpoch_ = 0;
  uint64_t asyncCopy_ = ~0ull;  // warp and instruction count of the copy numbered asyncEpoch_
  std::vector<uint32_t> asyncSeen_;
  std::vector<uint32_t> barrierAsync_;  // per barrier id, as barrierRows_
  // Global accesses are judged when the CTA ends: each keeps the index of its warp's row as it
  // was then, a copy made whenever a release changes it.
  std::vector<uint32_t> snapshots_;  // rows, warps_ each
  std::vector<uint32_t> warpSnapshot_;
  std::vector<uint32_t> warpSync_, warpSeq_;
  // The cluster: this CTA's seat (its rank, the members' observers by rank, in Racecheck's
  // directory), each warp's arrivals and the phases it has waited for.
  ClusterSeat<RacecheckObserver> seat_;
  ClusterArrivals clusterArrivals_;
  std::vector<uint32_t> clusterWaits_;
  // Global accesses are appended as they come (cheap on the CTA's path) and summarized per word
  // when the CTA ends, on its own host thread.
  struct GlobalAccess {
    uint64_t word = 0;
    const isa::Inst* inst = nullptr;
    uint32_t thread = 0;
    uint32_t epoch = 0, snapshot = 0, wsync = 0, seq = 0;  // as AccessStamp; the warp's row
    uint16_t clusterWaits = 0;  // saturates (it keeps the record at 40 bytes)
    uint8_t mask = 0;           // the word's bytes (low 4 bits); kAtomicWrite: see below
    bool write = false;
  };
  // In GlobalAccess::mask: a bulk reduction's element update (the asynchronous proxy's atomic),
  // which races with plain accesses but not with another such update, and stays out of the
  // summary compared between CTAs (atomics are synchronization there).
  static constexpr uint8_t kAtomicWrite = 0x80;
  // Per thread: the bulk groups it has committed, and the global words its bulk copies and
  // reductions (.bulk_group, shared -> global) are still writing. They are the asynchronous
  // proxy's writes: each is recorded as done where the thread's cp.async.bulk.wait_group
  // covers its group (or where the CTA ends), and the thread's own access to such a word before
  // that is a hazard.
  struct BulkWrite {
    uint64_t word = 0;
    const isa::Inst* inst = nullptr;
    uint32_t group = 0;  // the thread's committed groups when it was issued: its group's index
    uint8_t mask = 0;    // as GlobalAccess::mask
  };
  struct BulkGroups {
    uint32_t committed = 0;
    std::vector<BulkWrite> writing;
  };
  std::vector<BulkGroups> bulk_;  // per thread, sized at the first bulk write
  void bulkWrite(const sim::MemoryEvent& e, unsigned lane, uint64_t a);
  // Records thread `thread`'s bulk writes of groups below `upTo` as done now.
  void bulkDone(unsigned thread, uint32_t upTo);
  // The thread's own access to a word its bulk writes have not finished.
  void bulkInFlight(const sim::MemoryEvent& e, unsigned lane, uint64_t a);
  // Hazards on global words between threads of this CTA, from its accesses sorted by word.
  void globalHazards();
  std::vector<GlobalAccess> accesses_;
  std::vector<GlobalWordUse> words_;
  Racecheck* owner_ = nullptr;
  std::vector<Acquire> acquires_;
  // Per thread: its last GPU-scope fence (a strong write after it is a release), and the
  // release its last strong read saw (a GPU-scope fence after it makes it an acquire).
  std::vector<CtaPoint> fences_;
  std::vector<SeenReleases> seen_;
  // An acquire, merged into the previous one when it adds nothing that point could not have
  // (a spin re-reading a flag: same thread, same sequence, no barrier or global access between).
  void addAcquire(SeenReleases seen, const CtaPoint& at);
  size_t accessesAtAcquire_ = 0;
};

class Racecheck final : public sim::ObserverFactory {
 public:
  std::unique_ptr<sim::Observer> create(const sim::CtaInfo&) override {
    return std::make_unique<RacecheckObserver>(this);
  }
  void merge(sim::Observer& finished) override;
  // Judges the launch's global accesses between CTAs (every CTA's are known only now).
  void launchFinished();
  // The observers of the running clusters' CTAs: each enters itself when it starts and leaves
  // when it finishes.
  ClusterDirectory<RacecheckObserver>& clusters() { return clusters_; }
  const Findings& findings() const { return findings_; }

  // Called by the CTAs' observers while they run (on their host threads): a release by CTA
  // `cta` on flag `word` (`rmw`: a read-modify-write, which continues the word's release
  // sequence; any other release starts a new one); a strong write that is not a release and not
  // an RMW (it ends the sequence: a later reader sees no release); a strong read of `word` by
  // CTA `cta`: the releases it saw.
  void publish(uint64_t word, Release r, bool rmw);
  void overwrite(uint64_t word);
  SeenReleases observe(uint64_t word, uint64_t cta);

 private:
  struct CtaWords {
    sim::CtaInfo info;
    std::vector<GlobalWordUse> words;  // sorted
    std::vector<Acquire> acquires;
    std::vector<uint32_t> snapshots;
    unsigned warps = 0;
    bool inCluster = false;
    uint64_t clusterKey = 0;
    ClusterArrivals arrivals;
  };
  struct Writer {
    uint64_t cta = 0;  // index into ctas_
    CtaPoint at;
    uint8_t mask = 0;
  };
  // Whether `x` of CTA ctas_[cx] happens before `y` of CTA ctas_[cy] through a release of cx
  // that cy acquired.
  bool synchronized(uint64_t cx, const CtaPoint& x, uint64_t cy, const CtaPoint& y) const;
  void race(const CtaWords& a, const CtaPoint& aAt, const char* aKind, const CtaWords& b,
            const CtaPoint& bAt, const char* bKind, uint64_t word);
  Findings findings_;
  std::vector<CtaWords> ctas_;  // the launch's CTAs with global accesses, in CTA order
  std::mutex flagsMutex_;  // guards flags_, releases_, sequences_ (CTAs run on several threads)
  std::unordered_map<uint64_t, uint32_t> flags_;  // word -> its current release sequence
  std::vector<Release> releases_;
  std::vector<std::vector<uint32_t>> sequences_;  // release sequences: indices into releases_
  ClusterDirectory<RacecheckObserver> clusters_;
};

}  // namespace warpsim::check
