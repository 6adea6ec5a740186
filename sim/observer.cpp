#include "sim/observer.h"

#include <array>

namespace warpsim::sim {

const char* accessKindName(AccessKind k) {
  static constexpr std::array<const char*, 4> kNames = {"load", "store", "atomic", "fence"};
  return kNames[size_t(k)];
}

void ObserverList::ctaStarted(const CtaInfo& c) {
  for (auto& o : observers_) o->ctaStarted(c);
}
void ObserverList::warpStarted(unsigned w, isa::LaneMask threads) {
  for (auto& o : observers_) o->warpStarted(w, threads);
}
void ObserverList::instruction(const InstructionEvent& e) {
  for (auto& o : observers_) o->instruction(e);
}
void ObserverList::memory(const MemoryEvent& e) {
  for (auto& o : observers_) o->memory(e);
}
void ObserverList::atomicCompleted(const MemoryEvent& e) {
  for (auto& o : observers_) o->atomicCompleted(e);
}
void ObserverList::diverged(const DivergenceEvent& e) {
  for (auto& o : observers_) o->diverged(e);
}
void ObserverList::barrierArrived(const BarrierArrival& e) {
  for (auto& o : observers_) o->barrierArrived(e);
}
void ObserverList::barrierReleased(uint32_t id, const std::vector<unsigned>& waiters) {
  for (auto& o : observers_) o->barrierReleased(id, waiters);
}
void ObserverList::warpFinished(unsigned w) {
  for (auto& o : observers_) o->warpFinished(w);
}
void ObserverList::invalidAccess(const InvalidAccessEvent& e) {
  for (auto& o : observers_) o->invalidAccess(e);
}
void ObserverList::heap(const HeapEvent& e) {
  for (auto& o : observers_) o->heap(e);
}
void ObserverList::ctaFinished(const FaultInfo* fault) {
  for (auto& o : observers_) o->ctaFinished(fault);
}

}  // namespace warpsim::sim
