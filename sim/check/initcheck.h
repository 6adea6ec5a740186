// initcheck: loads (and atomics, which read) of bytes that nothing wrote.
//  - Shared memory, per byte, per CTA: a byte is written by a store or atomic of the CTA.
//  - Local memory, per byte, per thread.
//  - Global memory, per byte, of the buffers the host did not initialize (trackBuffer): a read
//    is uninitialized unless the byte was written by an earlier launch, by the reading CTA
//    before the read, or by another CTA of the launch (whose order against the read is
//    racecheck's question). Other CTAs' writes are known only when every CTA has run, so reads
//    are kept as candidates and judged in launchFinished().
#pragma once

#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "sim/check/cluster_directory.h"
#include "sim/check/cta_view.h"

namespace warpsim::check {

// The global bytes whose initialization is tracked: buffers the host allocated but did not
// fill, one flag per byte (1 = written). Read-only while a launch runs.
class GlobalInitShadow {
 public:
  void track(uint64_t base, uint64_t size) { buffers_[base].assign(size, 0); }
  void forget(uint64_t base) { buffers_.erase(base); }
  bool empty() const { return buffers_.empty(); }
  // The flags of the tracked buffer holding byte `a`, with the byte's index, or nullptr.
  std::vector<uint8_t>* find(uint64_t a, uint64_t* index);
  const std::vector<uint8_t>* find(uint64_t a, uint64_t* index) const {
    return const_cast<GlobalInitShadow*>(this)->find(a, index);
  }

 private:
  std::map<uint64_t, std::vector<uint8_t>> buffers_;
};

// A read of a tracked global byte that neither the host nor the reading CTA had written.
struct InitCandidate {
  uint64_t address = 0;
  const isa::Inst* inst = nullptr;
  uint32_t thread = 0;
  uint8_t bytes = 0;
};

class InitcheckObserver final : public sim::Observer {
 public:
  // `clusters`: where the CTAs of a cluster find one another (null: shared memory is each
  // CTA's own).
  InitcheckObserver(const GlobalInitShadow& global,
                    ClusterDirectory<InitcheckObserver>* clusters = nullptr)
      : globalInit_(global), clusters_(clusters) {}
  void ctaStarted(const sim::CtaInfo& c) override;
  void memory(const sim::MemoryEvent& e) override;
  void ctaFinished(const sim::FaultInfo* fault) override;
  Findings& findings() { return findings_; }
  const sim::CtaInfo& info() const { return view_.info(); }
  const std::unordered_map<uint64_t, uint64_t>& globalWrites() const { return written_; }
  const std::vector<InitCandidate>& candidates() const { return candidates_; }

 private:
  void reportUninit(const sim::MemoryEvent& e, unsigned lane, uint64_t a, const char* space);
  bool globalWritten(uint64_t byte) const;

  const GlobalInitShadow& globalInit_;
  // The cluster's CTAs by rank (distributed shared memory and multicast copies write into
  // another CTA's shared memory, whose shadow is its observer's).
  ClusterDirectory<InitcheckObserver>* clusters_ = nullptr;
  ClusterSeat<InitcheckObserver> seat_;
  CtaView view_;
  Findings findings_;
  std::vector<uint8_t> shared_;                     // per byte: written
  std::vector<uint8_t> local_;                      // per thread, per byte: written
  std::unordered_map<uint64_t, uint64_t> written_;  // tracked global bytes: 64-byte chunk -> mask
  std::vector<InitCandidate> candidates_;
};

class Initcheck final : public sim::ObserverFactory {
 public:
  std::unique_ptr<sim::Observer> create(const sim::CtaInfo&) override {
    return std::make_unique<InitcheckObserver>(shadow_, &clusters_);
  }
  void merge(sim::Observer& finished) override;
  // Judges the launch's candidate reads, then counts its writes as initialization.
  void launchFinished();
  GlobalInitShadow& shadow() { return shadow_; }
  const Findings& findings() const { return findings_; }

 private:
  struct Pending {
    InitCandidate read;
    uint64_t cta = 0;
    sim::Dim3 block, grid;
    const isa::Program* program = nullptr;
    std::string kernel;
  };
  GlobalInitShadow shadow_;
  ClusterDirectory<InitcheckObserver> clusters_;
  Findings findings_;
  std::vector<Pending> pending_;
  std::unordered_map<uint64_t, uint64_t> writer_;  // tracked byte -> first writing CTA
  std::unordered_map<uint64_t, bool> multi_;       // tracked byte written by several CTAs
};

}  // namespace warpsim::check
