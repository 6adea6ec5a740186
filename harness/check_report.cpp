#include "harness/check_report.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>

#include "harness/kernel_lookup.h"

namespace warpsim::harness {

std::string SourceLines::line(const std::string& path, uint32_t n) {
  auto [it, fresh] = files_.try_emplace(path);
  if (fresh) {
    std::ifstream f(path);
    std::string l;
    while (f && std::getline(f, l)) it->second.push_back(l);
  }
  if (n == 0 || n > it->second.size()) return "";
  std::string s = it->second[n - 1];
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  s = s.substr(b);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

namespace {

constexpr const char* kBar = "========= ";

std::string pos(const sim::ThreadPos& p) {
  return "(" + std::to_string(p.x) + "," + std::to_string(p.y) + "," + std::to_string(p.z) + ")";
}

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// The kernel as compute-sanitizer names it: demangled (the JSON keeps the PTX name).
std::string where(const std::string& kernel, const check::Site& s) {
  std::string w =
      demangle(kernel) + " (PTX line " + std::to_string(s.ptxLine) + ", " + s.instruction + ")";
  if (!s.cudaFile.empty()) w += " in " + s.cudaFile + ":" + std::to_string(s.cudaLine);
  return w;
}

std::string base(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void sourceLine(std::string& out, const check::Site& s, SourceLines& src) {
  if (s.cudaFile.empty()) return;
  const std::string text = src.line(s.cudaFile, s.cudaLine);
  if (!text.empty())
    out += std::string(kBar) + "    " + base(s.cudaFile) + ":" + std::to_string(s.cudaLine) +
           " | " + text + "\n";
}

std::string upper(const char* s) {
  std::string u(s);
  for (char& c : u) c = char(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

std::string plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void formatFinding(std::string& out, const check::Finding& f, SourceLines& src) {
  const char* sev = f.severity == check::Severity::Error ? "Error" : "Warning";
  if (f.second) {
    out += std::string(kBar) + sev + ": " + f.title + "\n";
    out += std::string(kBar) + "    " + f.first.access + " access at " +
           where(f.kernel, f.first.site) + "\n";
    out += std::string(kBar) + "        by thread " + pos(f.first.thread) + " in block " +
           pos(f.first.cta) + "\n";
    out += std::string(kBar) + "    " + f.second->access + " access at " +
           where(f.kernel, f.second->site) + "\n";
    out += std::string(kBar) + "        by thread " + pos(f.second->thread) + " in block " +
           pos(f.second->cta) + "\n";
  } else {
    out += std::string(kBar) + (f.severity == check::Severity::Warning ? "Warning: " : "") +
           f.title + "\n";
    if (f.first.site.ptxLine)
      out += std::string(kBar) + "    at " + where(f.kernel, f.first.site) + "\n";
    out += std::string(kBar) + "    by thread " + pos(f.first.thread) + " in block " +
           pos(f.first.cta) + "\n";
  }
  if (!f.detail.empty()) out += std::string(kBar) + "    " + f.detail + "\n";
  size_t b = 0;
  while (b < f.extra.size()) {
    const size_t e = std::min(f.extra.find('\n', b), f.extra.size());
    out += std::string(kBar) + "  " + f.extra.substr(b, e - b) + "\n";
    b = e + 1;
  }
  sourceLine(out, f.first.site, src);
  if (f.second && (f.second->site.cudaFile != f.first.site.cudaFile ||
                   f.second->site.cudaLine != f.first.site.cudaLine))
    sourceLine(out, f.second->site, src);
  if (f.count > 1)
    out += std::string(kBar) + "    [" + std::to_string(f.count) +
           (f.second ? " hazards" : " occurrences") + " at this site]\n";
  out += std::string(kBar) + "\n";
}

void actorJson(Json& j, const check::Actor& a, SourceLines& src) {
  j.beginObject();
  if (!a.access.empty()) j.field("access", a.access);
  j.field("ptx_line", uint64_t(a.site.ptxLine)).field("instruction", a.site.instruction);
  if (!a.site.cudaFile.empty()) {
    j.field("cuda_file", a.site.cudaFile).field("cuda_line", uint64_t(a.site.cudaLine));
    j.field("source", src.line(a.site.cudaFile, a.site.cudaLine));
  }
  j.key("thread").beginArray().value(a.thread.x).value(a.thread.y).value(a.thread.z).endArray();
  j.key("block").beginArray().value(a.cta.x).value(a.cta.y).value(a.cta.z).endArray();
  j.endObject();
}

}  // namespace

uint64_t totalErrors(const check::CheckSession& s) {
  uint64_t n = 0;
  for (unsigned t = 0; t < check::kToolCount; ++t)
    if (s.tools().has(check::Tool(t))) n += s.errors(check::Tool(t));
  return n;
}

std::string formatFindings(const check::CheckSession& s, uint64_t printLimit, SourceLines& src,
                           const std::string& moreText, uint64_t moreErrors) {
  std::string out;
  for (unsigned t = 0; t < check::kToolCount; ++t) {
    const check::Tool tool = check::Tool(t);
    if (!s.tools().has(tool)) continue;
    const auto& list = s.findings(tool);
    const uint64_t shown = printLimit ? std::min<uint64_t>(printLimit, list.size()) : list.size();
    out += std::string(kBar) + upper(check::toolName(tool)) + "\n";
    for (uint64_t i = 0; i < shown; ++i) formatFinding(out, list[i], src);
    if (shown < list.size())
      out += std::string(kBar) + plural(list.size() - shown, "more finding", "more findings") +
             " not shown (--print-limit " + std::to_string(printLimit) + ")\n";
    const uint64_t errors = s.errors(tool), warnings = s.warnings(tool);
    if (tool == check::Tool::Racecheck)
      out += std::string(kBar) + "RACECHECK SUMMARY: " + plural(shown, "hazard", "hazards") +
             " displayed (" + plural(errors, "error", "errors") + ", " +
             plural(warnings, "warning", "warnings") + ")\n";
    else
      out += std::string(kBar) + upper(check::toolName(tool)) +
             " SUMMARY: " + plural(errors, "error", "errors") +
             (warnings ? ", " + plural(warnings, "warning", "warnings") : std::string()) + "\n";
  }
  out += moreText;
  out += std::string(kBar) +
         "ERROR SUMMARY: " + plural(totalErrors(s) + moreErrors, "error", "errors") + "\n";
  return out;
}

void findingsJson(Json& j, const check::CheckSession& s, uint64_t printLimit, SourceLines& src) {
  j.beginArray();
  for (unsigned t = 0; t < check::kToolCount; ++t) {
    const check::Tool tool = check::Tool(t);
    if (!s.tools().has(tool)) continue;
    const auto& list = s.findings(tool);
    j.beginObject().field("tool", check::toolName(tool));
    j.field("errors", s.errors(tool)).field("warnings", s.warnings(tool));
    j.key("findings").beginArray();
    const uint64_t shown = printLimit ? std::min<uint64_t>(printLimit, list.size()) : list.size();
    for (uint64_t i = 0; i < shown; ++i) {
      const check::Finding& f = list[i];
      j.beginObject();
      j.field("severity", f.severity == check::Severity::Error ? "error" : "warning");
      j.field("title", f.title).field("kernel", f.kernel);
      j.key("at");
      actorJson(j, f.first, src);
      if (f.second) {
        j.key("other");
        actorJson(j, *f.second, src);
      }
      if (f.address) j.field("address", hex(*f.address)).field("space", f.space);
      if (!f.detail.empty()) j.field("detail", f.detail);
      if (!f.extra.empty()) j.field("waits", f.extra);
      j.field("count", f.count);
      j.endObject();
    }
    j.endArray().endObject();
  }
  j.endArray();
}

}  // namespace warpsim::harness
