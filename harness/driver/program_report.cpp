#include "harness/driver/program_report.h"

#include <algorithm>
#include <cstdio>

#include "harness/check_report.h"
#include "harness/json.h"
#include "harness/timing_report.h"

namespace warpsim::driver {

namespace {

std::string geometry(const LaunchRecord& r) {
  auto dim = [](const sim::Dim3& d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
  };
  return "launch " + std::to_string(r.index) + " " + r.kernel + "<<<" + dim(r.grid) + ", " +
         dim(r.block) + ", " + std::to_string(r.shared) + ">>>";
}

void dimJson(harness::Json& j, const char* key, const sim::Dim3& d) {
  j.key(key).beginArray().value(d.x).value(d.y).value(d.z).endArray();
}

}  // namespace

ProgramReport::ProgramReport(bool timing, bool checking, bool fullTiming, std::string jsonFile)
    : timing_(timing),
      checking_(checking),
      fullTiming_(fullTiming),
      jsonFile_(std::move(jsonFile)) {}

void ProgramReport::add(LaunchRecord r) {
  ++launches_;
  const std::string name = geometry(r);
  if (r.timing) {
    const sim::timing::TimingReport& t = *r.timing;
    modelCycles_ += t.cycles;
    modelSeconds_ += t.seconds();
    KernelTotals& k = kernels_[r.kernel];
    ++k.launches;
    k.cycles += t.cycles;
    k.seconds += t.seconds();
    std::fprintf(stderr, "warpsim: %s: %llu cycles, %.2f us at %.2f GHz (IPC %.2f, %s bound)\n",
                 name.c_str(), static_cast<unsigned long long>(t.cycles), t.seconds() * 1e6,
                 t.clockGhz, t.ipc(), t.bound().c_str());
    if (fullTiming_) std::fputs(harness::formatTiming(t).c_str(), stderr);
  } else if (timing_) {
    std::fprintf(stderr, "warpsim: %s: faulted, no prediction\n", name.c_str());
  }
  if (checking_) {
    std::string fresh;
    size_t total = 0;
    for (unsigned t = 0; t < check::kToolCount; ++t) {
      if (!r.newFindings[t]) continue;
      total += r.newFindings[t];
      fresh += std::string(fresh.empty() ? "" : ", ") + check::toolName(check::Tool(t)) + " " +
               std::to_string(r.newFindings[t]);
    }
    const std::string what = total ? std::to_string(total) +
                                         (total == 1 ? " new finding (" : " new findings (") +
                                         fresh + ")"
                                   : "no new findings";
    std::fprintf(stderr, "warpsim: %s: %s\n", name.c_str(), what.c_str());
  }
  if (!jsonFile_.empty()) records_.push_back(std::move(r));
}

void ProgramReport::finish(const std::string& timingConfigName, check::CheckSession* checks,
                           uint64_t printLimit) {
  if (timing_) {
    std::fprintf(stderr,
                 "warpsim: program on the timing model (%s): %llu launches, %llu cycles, %.2f us "
                 "predicted in kernels\n",
                 timingConfigName.c_str(), static_cast<unsigned long long>(launches_),
                 static_cast<unsigned long long>(modelCycles_), modelSeconds_ * 1e6);
    // Kernels by predicted time, the largest first (as nsys's kernel summary).
    std::vector<std::pair<std::string, KernelTotals>> kernels(kernels_.begin(), kernels_.end());
    std::stable_sort(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) {
      return a.second.cycles > b.second.cycles;
    });
    for (const auto& [name, k] : kernels)
      std::fprintf(stderr, "warpsim:   %5.1f%%  %10.2f us  %4llu launch%s  %s\n",
                   modelSeconds_ > 0 ? 100 * k.seconds / modelSeconds_ : 0.0, k.seconds * 1e6,
                   static_cast<unsigned long long>(k.launches), k.launches == 1 ? "  " : "es",
                   name.c_str());
  }
  if (checks) {
    harness::SourceLines src;
    const std::string report = harness::formatFindings(*checks, printLimit, src);
    std::fflush(stdout);
    std::fwrite(report.data(), 1, report.size(), stdout);
    std::fflush(stdout);
  }
  if (!jsonFile_.empty()) writeJson(timingConfigName, checks, printLimit);
  std::fflush(stderr);
}

void ProgramReport::writeJson(const std::string& timingConfigName, check::CheckSession* checks,
                              uint64_t printLimit) const {
  harness::Json j;
  j.beginObject().key("launches").beginArray();
  for (const LaunchRecord& r : records_) {
    j.beginObject().field("launch", r.index).field("kernel", r.kernel);
    dimJson(j, "grid", r.grid);
    dimJson(j, "block", r.block);
    j.field("shared", uint64_t(r.shared)).field("faulted", r.faulted);
    if (r.timing) {
      j.key("timing");
      harness::timingJson(j, *r.timing);
    }
    if (checking_) {
      j.key("new_findings").beginObject();
      for (unsigned t = 0; t < check::kToolCount; ++t)
        if (checks && checks->tools().has(check::Tool(t)))
          j.field(check::toolName(check::Tool(t)), uint64_t(r.newFindings[t]));
      j.endObject();
    }
    j.endObject();
  }
  j.endArray();
  if (timing_) {
    j.key("timing").beginObject().field("config", timingConfigName);
    j.field("launches", launches_).field("cycles", modelCycles_);
    j.field("nanoseconds", modelSeconds_ * 1e9).key("kernels").beginArray();
    for (const auto& [name, k] : kernels_)
      j.beginObject()
          .field("kernel", name)
          .field("launches", k.launches)
          .field("cycles", k.cycles)
          .field("nanoseconds", k.seconds * 1e9)
          .endObject();
    j.endArray().endObject();
  }
  if (checks) {
    harness::SourceLines src;
    j.key("check").beginObject().field("errors", harness::totalErrors(*checks)).key("tools");
    harness::findingsJson(j, *checks, printLimit, src);
    j.endObject();
  }
  j.endObject();
  if (FILE* f = std::fopen(jsonFile_.c_str(), "w")) {
    std::fputs(j.str().c_str(), f);
    std::fputc('\n', f);
    std::fclose(f);
  } else {
    std::fprintf(stderr, "warpsim: cannot write %s\n", jsonFile_.c_str());
  }
}

}  // namespace warpsim::driver
