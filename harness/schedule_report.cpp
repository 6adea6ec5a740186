#include "harness/schedule_report.h"

#include <set>

#include "harness/compare.h"

namespace warpsim::harness {

namespace {

constexpr const char* kBar = "========= ";

std::string siteText(const check::Site& s) {
  std::string t;
  if (!s.cudaFile.empty()) t = s.cudaFile + ":" + std::to_string(s.cudaLine) + " ";
  return t + "(PTX line " + std::to_string(s.ptxLine) + ", " + s.instruction + ")";
}

// A finding's site as Findings de-duplicates it: tool, title and both accesses' places.
std::string keyOf(const check::Finding& f) {
  auto place = [](const check::Site& s) {
    return s.cudaLine ? s.cudaFile + ":" + std::to_string(s.cudaLine)
                      : "ptx" + std::to_string(s.ptxLine);
  };
  std::string k = std::string(check::toolName(f.tool)) + "|" + f.title + "|" + place(f.first.site);
  if (f.second) k += "|" + place(f.second->site);
  return k;
}

std::string describeFinding(const check::Finding& f) {
  std::string s =
      std::string(check::toolName(f.tool)) + ": " + f.title + " at " + siteText(f.first.site);
  if (f.second) s += " and " + siteText(f.second->site);
  return s;
}

std::string describeFault(const std::optional<sim::FaultInfo>& f) {
  if (!f) return "no fault";
  return f->message + " (PTX line " + std::to_string(f->ptxLine) + ")";
}

std::string pos(const sim::ThreadPos& p) {
  return "(" + std::to_string(p.x) + "," + std::to_string(p.y) + "," + std::to_string(p.z) + ")";
}

std::string writerText(const std::optional<check::Actor>& w) {
  if (!w) return ", not written by the kernel";
  return ", written last by thread " + pos(w->thread) + " in block " + pos(w->cta) + " at " +
         siteText(w->site);
}

void writerJson(Json& j, const std::optional<check::Actor>& w) {
  if (!w) {
    j.null();
    return;
  }
  j.beginObject().field("access", w->access).field("ptx_line", uint64_t(w->site.ptxLine));
  j.field("instruction", w->site.instruction);
  if (!w->site.cudaFile.empty())
    j.field("cuda_file", w->site.cudaFile).field("cuda_line", uint64_t(w->site.cudaLine));
  j.field("thread", pos(w->thread)).field("block", pos(w->cta));
  j.endObject();
}

}  // namespace

std::vector<ScheduleDifference> compareSchedules(const std::vector<ScheduleOutcome>& runs) {
  std::vector<ScheduleDifference> diffs;
  if (runs.size() < 2) return diffs;
  const ScheduleOutcome& base = runs[0];
  for (size_t b = 0; b < base.buffers.size(); ++b) {
    const kernels::HostBuffer& want = base.buffers[b];
    for (size_t r = 1; r < runs.size(); ++r) {
      const kernels::HostBuffer& got = runs[r].buffers[b];
      size_t at = 0;
      while (at < want.bytes.size() && want.bytes[at] == got.bytes[at]) ++at;
      if (at == want.bytes.size()) continue;
      ScheduleDifference d;
      d.kind = ScheduleDifference::Kind::Output;
      d.seedA = base.seed;
      d.seedB = runs[r].seed;
      d.bufferIndex = b;
      d.buffer = want.name;
      d.type = want.type;
      d.offset = at;
      d.element = at / kernels::elemBytes(want.type);
      d.valueA = formatElement(want.type, elementBits(want, d.element));
      d.valueB = formatElement(got.type, elementBits(got, d.element));
      diffs.push_back(std::move(d));
      break;  // the first schedule that disagrees on this buffer
    }
  }
  std::set<std::string> seen;
  for (const check::Finding& f : base.findings) seen.insert(keyOf(f));
  for (size_t r = 1; r < runs.size(); ++r)
    for (const check::Finding& f : runs[r].findings)
      if (seen.insert(keyOf(f)).second) {
        ScheduleDifference d;
        d.kind = ScheduleDifference::Kind::Finding;
        d.seedA = base.seed;
        d.seedB = runs[r].seed;
        d.what = describeFinding(f);
        diffs.push_back(std::move(d));
      }
  for (size_t r = 1; r < runs.size(); ++r) {
    const auto& a = base.fault;
    const auto& b = runs[r].fault;
    const bool same =
        a.has_value() == b.has_value() && (!a || (a->kind == b->kind && a->ptxLine == b->ptxLine));
    if (same) continue;
    ScheduleDifference d;
    d.kind = ScheduleDifference::Kind::Fault;
    d.seedA = base.seed;
    d.seedB = runs[r].seed;
    d.what = describeFault(a) + " under the first schedule, " + describeFault(b) + " under this";
    diffs.push_back(std::move(d));
    break;
  }
  return diffs;
}

std::string formatSchedules(const std::vector<ScheduleDifference>& diffs, size_t schedules,
                            uint64_t seed, const std::string& command) {
  std::string out = std::string(kBar) + "SCHEDULES\n";
  auto reproduce = [&](uint64_t s) {
    return std::string(kBar) + "    reproduce: " + command + " --schedule-seed " +
           std::to_string(s) + "\n";
  };
  for (const ScheduleDifference& d : diffs) {
    switch (d.kind) {
      case ScheduleDifference::Kind::Output:
        out += std::string(kBar) + "Error: Output depends on the schedule: buffer '" + d.buffer +
               "' (" + kernels::elemName(d.type) + ") differs at byte " + std::to_string(d.offset) +
               " (element " + std::to_string(d.element) + ")\n";
        out += std::string(kBar) + "    schedule seed " + std::to_string(d.seedA) + ": " +
               d.valueA + writerText(d.writerA) + "\n";
        out += std::string(kBar) + "    schedule seed " + std::to_string(d.seedB) + ": " +
               d.valueB + writerText(d.writerB) + "\n";
        break;
      case ScheduleDifference::Kind::Finding:
        out += std::string(kBar) + "Error: Finding under schedule seed " + std::to_string(d.seedB) +
               " only: " + d.what + "\n";
        break;
      case ScheduleDifference::Kind::Fault:
        out += std::string(kBar) + "Error: Fault depends on the schedule: " + d.what + "\n";
        break;
    }
    out += reproduce(d.seedA) + reproduce(d.seedB) + "=========\n";
  }
  out += std::string(kBar) + "SCHEDULES SUMMARY: " + std::to_string(schedules) +
         " schedules run (seed " + std::to_string(seed) + "), " + std::to_string(diffs.size()) +
         (diffs.size() == 1 ? " difference" : " differences") + "\n";
  return out;
}

void schedulesJson(Json& j, const std::vector<ScheduleDifference>& diffs, size_t schedules,
                   uint64_t seed, const std::string& command) {
  static const char* const kinds[] = {"output", "finding", "fault"};
  j.beginObject().field("schedules", uint64_t(schedules)).field("seed", seed);
  j.key("differences").beginArray();
  for (const ScheduleDifference& d : diffs) {
    j.beginObject().field("kind", kinds[size_t(d.kind)]);
    j.key("seeds").beginArray().value(d.seedA).value(d.seedB).endArray();
    if (d.kind == ScheduleDifference::Kind::Output) {
      j.field("buffer", d.buffer).field("type", kernels::elemName(d.type));
      j.field("offset", d.offset).field("element", d.element);
      j.key("values").beginArray().value(d.valueA).value(d.valueB).endArray();
      j.key("writers").beginArray();
      writerJson(j, d.writerA);
      writerJson(j, d.writerB);
      j.endArray();
    } else {
      j.field("what", d.what);
    }
    j.key("commands")
        .beginArray()
        .value(command + " --schedule-seed " + std::to_string(d.seedA))
        .value(command + " --schedule-seed " + std::to_string(d.seedB))
        .endArray();
    j.endObject();
  }
  j.endArray().endObject();
}

}  // namespace warpsim::harness
