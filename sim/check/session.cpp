#include "sim/check/session.h"

#include <algorithm>

namespace warpsim::check {

std::optional<ToolSet> ToolSet::parse(const std::string& name) {
  if (name == "all") return all();
  for (unsigned t = 0; t < kToolCount; ++t)
    if (name == toolName(Tool(t))) {
      ToolSet s;
      s.on[t] = true;
      return s;
    }
  return std::nullopt;
}

ToolSet ToolSet::all() {
  ToolSet s;
  s.on.fill(true);
  return s;
}

CheckSession::CheckSession(ToolSet tools) : tools_(tools) {}

std::vector<sim::ObserverFactory*> CheckSession::factories() {
  std::vector<sim::ObserverFactory*> f;
  if (tools_.has(Tool::Memcheck)) f.push_back(&memcheck_);
  if (tools_.has(Tool::Racecheck)) f.push_back(&racecheck_);
  if (tools_.has(Tool::Initcheck)) f.push_back(&initcheck_);
  if (tools_.has(Tool::Synccheck)) f.push_back(&synccheck_);
  return f;
}

void CheckSession::trackUninitialized(uint64_t base, uint64_t size) {
  initcheck_.shadow().track(base, size);
}

void CheckSession::launchDone() {
  initcheck_.launchFinished();
  racecheck_.launchFinished();
}

void CheckSession::hostWrote(uint64_t address, uint64_t bytes) {
  uint64_t index = 0;
  std::vector<uint8_t>* flags = initcheck_.shadow().find(address, &index);
  if (!flags) return;
  const uint64_t n = std::min<uint64_t>(bytes, flags->size() - index);
  std::fill(flags->begin() + std::ptrdiff_t(index), flags->begin() + std::ptrdiff_t(index + n), 1);
}

void CheckSession::forget(uint64_t base) { initcheck_.shadow().forget(base); }

void CheckSession::finish() {
  if (finished_) return;
  finished_ = true;
  initcheck_.launchFinished();
  racecheck_.launchFinished();
  memcheck_.programFinished();
}

const std::vector<Finding>& CheckSession::findings(Tool t) const {
  switch (t) {
    case Tool::Memcheck:
      return memcheck_.findings().list();
    case Tool::Racecheck:
      return racecheck_.findings().list();
    case Tool::Initcheck:
      return initcheck_.findings().list();
    default:
      return synccheck_.findings().list();
  }
}

uint64_t CheckSession::errors(Tool t) const {
  uint64_t n = 0;
  for (const Finding& f : findings(t)) n += f.severity == Severity::Error;
  return n;
}

uint64_t CheckSession::warnings(Tool t) const {
  uint64_t n = 0;
  for (const Finding& f : findings(t)) n += f.severity == Severity::Warning;
  return n;
}

}  // namespace warpsim::check
