// Schedule exploration's verdict (`warpsim check --schedules N`): the same problem run under
// several schedules (sim/func/schedule.h), compared byte for byte and finding by finding. A
// correct kernel gives the same bytes under every schedule; what differs is reported with the two
// schedule seeds that disagree and a command line that reproduces each.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/json.h"
#include "kernels/card.h"
#include "sim/check/finding.h"
#include "sim/func/fault.h"

namespace warpsim::harness {

// What one schedule gave.
struct ScheduleOutcome {
  uint64_t seed = 0;                         // 0: the fixed order
  std::vector<kernels::HostBuffer> buffers;  // every buffer after the last launch
  std::vector<check::Finding> findings;      // every selected tool's
  std::optional<sim::FaultInfo> fault;
};

struct ScheduleDifference {
  enum class Kind { Output, Finding, Fault } kind = Kind::Output;
  uint64_t seedA = 0, seedB = 0;  // the schedules that disagree (seedA: the first one run)
  // Output: the first differing byte of a buffer and the element that holds it.
  size_t bufferIndex = 0;
  std::string buffer;
  kernels::ElemType type = kernels::ElemType::U8;
  uint64_t offset = 0, element = 0;
  std::string valueA, valueB;
  std::optional<check::Actor> writerA, writerB;  // who wrote that byte last in each (when known)
  // Finding / Fault: what the later schedule reported that the first did not.
  std::string what;
};

// Every buffer that differs between the first run and a later one (the first such schedule,
// the first differing byte); every finding site and fault that a later schedule reports and the
// first does not (findings a schedule misses are not differences: the checkers judge the
// accesses a schedule makes, and another schedule may not make them).
std::vector<ScheduleDifference> compareSchedules(const std::vector<ScheduleOutcome>& runs);

// `command`: the check command line without any schedule option; " --schedule-seed X" is
// appended to reproduce a schedule. The text ends with the SCHEDULES SUMMARY line.
std::string formatSchedules(const std::vector<ScheduleDifference>& diffs, size_t schedules,
                            uint64_t seed, const std::string& command);
void schedulesJson(Json& j, const std::vector<ScheduleDifference>& diffs, size_t schedules,
                   uint64_t seed, const std::string& command);

}  // namespace warpsim::harness
