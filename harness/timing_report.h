// The timing model's prediction for people (text) and tools (JSON with Nsight Compute's metric
// names), and the effective configuration it ran with.
#pragma once

#include <string>

#include "harness/json.h"
#include "sim/timing/config.h"
#include "sim/timing/report.h"

namespace warpsim::harness {

// `sourceLines`: how many of the report's source lines (the most cycles first) to list.
std::string formatTiming(const sim::timing::TimingReport& r, unsigned sourceLines = 0);
// Every source line the report has goes into "source_lines".
void timingJson(Json& j, const sim::timing::TimingReport& r);
void timingConfigJson(Json& j, const sim::timing::TimingConfig& c);

}  // namespace warpsim::harness
