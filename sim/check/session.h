// The checkers of one `warpsim check` (or `suite --check`) run: the tools asked for, their
// observer factories for LaunchOptions::observers, and their findings.
//
// A launch's first merge (CTA 0: merges come in CTA order) closes the launch before it, so one
// session serves a problem of several launches; finish() closes the last.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "sim/check/initcheck.h"
#include "sim/check/memcheck.h"
#include "sim/check/racecheck.h"
#include "sim/check/synccheck.h"

namespace warpsim::check {

struct ToolSet {
  std::array<bool, kToolCount> on{};
  bool has(Tool t) const { return on[size_t(t)]; }
  // "memcheck", "racecheck", "initcheck", "synccheck" or "all"; nullopt when unknown.
  static std::optional<ToolSet> parse(const std::string& name);
  static ToolSet all();
};

class CheckSession {
 public:
  explicit CheckSession(ToolSet tools);
  CheckSession(const CheckSession&) = delete;
  CheckSession& operator=(const CheckSession&) = delete;
  const ToolSet& tools() const { return tools_; }
  // The factories to put in LaunchOptions::observers (they live as long as the session).
  std::vector<sim::ObserverFactory*> factories();
  // initcheck: [base, base + size) was allocated and not filled by the host.
  void trackUninitialized(uint64_t base, uint64_t size);
  // Closes the last launch (initcheck's global reads are judged then).
  void finish();
  // Closes the launch that just ran without ending the session, so that its findings are
  // complete before the host acts (a program between launches: warpsim exec).
  void launchDone();
  // initcheck: the host wrote [address, address + bytes) of one tracked buffer (a copy or a
  // fill), which initializes those bytes.
  void hostWrote(uint64_t address, uint64_t bytes);
  // initcheck: the buffer at `base` was freed.
  void forget(uint64_t base);
  // The tool's findings, in the order found (CTA order).
  const std::vector<Finding>& findings(Tool t) const;
  uint64_t errors(Tool t) const;  // findings of Severity::Error, counted once per site
  uint64_t warnings(Tool t) const;

 private:
  ToolSet tools_;
  Memcheck memcheck_;
  Racecheck racecheck_;
  Initcheck initcheck_;
  Synccheck synccheck_;
  bool finished_ = false;
};

}  // namespace warpsim::check
