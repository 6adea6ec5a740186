#include "sim/check/last_writer.h"

namespace warpsim::check {

class LastWriterObserver final : public sim::Observer {
 public:
  explicit LastWriterObserver(LastWriter& owner) : owner_(owner), last_(owner.addresses_.size()) {}
  void ctaStarted(const sim::CtaInfo& c) override { view_.start(c); }
  void memory(const sim::MemoryEvent& e) override {
    if (e.kind != sim::AccessKind::Store && e.kind != sim::AccessKind::Atomic) return;
    const uint64_t stamp = owner_.clock_.fetch_add(1, std::memory_order_relaxed) + 1;
    // Lanes in order: of one instruction's lanes writing one byte, the highest lane lands last.
    isa::forLanes(e.mask, [&](unsigned lane) {
      const auto [space, a] = landing(e, lane);
      if (space != isa::Space::Global) return;
      for (size_t i = 0; i < owner_.addresses_.size(); ++i) {
        const uint64_t w = owner_.addresses_[i];
        if (w < a || w >= a + e.bytes) continue;
        last_[i].stamp = stamp;
        last_[i].actor = view_.actor(*e.inst, e.warp, lane,
                                     e.kind == sim::AccessKind::Store ? "Write" : "Atomic");
      }
    });
  }
  std::vector<LastWriter::Write>& last() { return last_; }

 private:
  LastWriter& owner_;
  CtaView view_;
  std::vector<LastWriter::Write> last_;
};

LastWriter::LastWriter(std::vector<uint64_t> addresses)
    : addresses_(std::move(addresses)), last_(addresses_.size()) {}

std::unique_ptr<sim::Observer> LastWriter::create(const sim::CtaInfo&) {
  return std::make_unique<LastWriterObserver>(*this);
}

void LastWriter::merge(sim::Observer& finished) {
  auto& mine = static_cast<LastWriterObserver&>(finished).last();
  for (size_t i = 0; i < last_.size(); ++i)
    if (mine[i].actor && mine[i].stamp > last_[i].stamp) last_[i] = std::move(mine[i]);
}

}  // namespace warpsim::check
