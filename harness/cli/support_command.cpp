// warpsim support FILE.ptx|FILE.cu...: which kernels of these modules warpsim can run, and the
// construct that stops each of the others (isa/support.h), without running anything. With many
// files (a project's PTX), the share that runs and the blockers ranked by how many kernels
// each stops: the measure of how much real code loads (docs/FIDELITY.md, "Real code").
#include <boost/program_options.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "harness/arg_spec.h"
#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "harness/json.h"
#include "harness/kernel_lookup.h"
#include "harness/nvcc.h"
#include "isa/diagnostic.h"
#include "isa/support.h"
#include "sim/gpu.h"

namespace po = boost::program_options;

namespace warpsim::cli {

namespace {

constexpr const char* kSupportUsage =
    R"(usage: warpsim support FILE.ptx|FILE.cu|@LIST... [--kernels] [--top N] [--json]
                       [--nvcc-flag F]...

Loads each module as `warpsim run` would (a .cu file is compiled with nvcc -ptx -lineinfo
-arch=sm_90 first) and says, for every kernel, whether it runs in warpsim and, if not, the one
construct that stops it: a module that does not parse, a kernel (or a function it calls) that
cannot be built, or an instruction it reaches that is parsed but not supported yet. Nothing is
run. @LIST reads file names from LIST, one per line. Prints the counts, the share of kernels
that run, and the blockers ranked by how many kernels each stops (--top, default 20);
--kernels prints every kernel too. Exit status 0 (a survey, not a test), 2 on bad usage.
)";

struct Blocker {
  unsigned kernels = 0;
  std::string example;  // one kernel it stops: "file.ptx:12:5 kernel"
};

struct Survey {
  unsigned files = 0, filesNotParsed = 0, kernels = 0, runs = 0, unsupported = 0, doesNotLoad = 0;
  std::map<std::string, Blocker> blockers;  // construct -> kernels it stops
  std::vector<std::string> lines;           // per kernel, for --kernels
};

const char* statusName(isa::KernelStatus s) {
  switch (s) {
    case isa::KernelStatus::Runs:
      return "runs";
    case isa::KernelStatus::Unsupported:
      return "not supported yet";
    case isa::KernelStatus::DoesNotLoad:
      return "does not load";
  }
  return "?";
}

// "k.cu:7" of "/home/user/k.cu:7": the line is what the user looks for in a long listing.
std::string baseName(const std::string& place) { return place.substr(place.find_last_of('/') + 1); }

void surveyFile(const std::string& path, const std::vector<std::string>& nvccFlags, Survey& s) {
  ++s.files;
  std::string ptx;
  try {
    if (path.size() > 3 && path.compare(path.size() - 3, 3, ".cu") == 0) {
      ptx = harness::compileCudaToPtx(path, nvccFlags);
    } else {
      std::ifstream in(path, std::ios::binary);
      if (!in) throw harness::ArgError("cannot read '" + path + "'");
      std::ostringstream text;
      text << in.rdbuf();
      ptx = text.str();
    }
  } catch (const std::exception& e) {
    ++s.filesNotParsed;
    Blocker& b = s.blockers["(the file cannot be read or compiled)"];
    ++b.kernels;
    if (b.example.empty()) b.example = path;
    s.lines.push_back(path + ": " + e.what());
    return;
  }
  sim::Gpu gpu;
  const sim::LoadedModule* m = nullptr;
  try {
    m = &gpu.loadPtx(ptx, path);
  } catch (const isa::PtxError& e) {
    // The whole module is lost: the parser stops at the first error. Count it once, under
    // its construct, since its kernels cannot even be counted.
    ++s.filesNotParsed;
    Blocker& b = s.blockers["module: " + isa::constructKey(e.message())];
    ++b.kernels;
    if (b.example.empty())
      b.example = e.file() + ":" + std::to_string(e.line()) + ":" + std::to_string(e.col());
    s.lines.push_back(std::string(e.what()));
    return;
  }
  for (size_t i = 0; i < m->program.functions.size(); ++i) {
    const isa::FunctionCode& f = m->program.functions[i];
    if (!f.isEntry || f.isExtern) continue;
    ++s.kernels;
    const isa::KernelSupport k = isa::kernelSupport(m->program, int(i));
    const std::string name = harness::demangle(f.name);
    std::string where = (k.file.empty() ? path : k.file);
    if (k.ptxLine) where += ":" + std::to_string(k.ptxLine) + ":" + std::to_string(k.ptxCol);
    const std::string cu = baseName(k.cudaPlace);
    switch (k.status) {
      case isa::KernelStatus::Runs:
        ++s.runs;
        s.lines.push_back(path + ": " + name + ": runs");
        continue;
      case isa::KernelStatus::Unsupported:
        ++s.unsupported;
        break;
      case isa::KernelStatus::DoesNotLoad:
        ++s.doesNotLoad;
        break;
    }
    Blocker& b = s.blockers[k.construct];
    ++b.kernels;
    if (b.example.empty()) b.example = where + " " + name;
    s.lines.push_back(where + ": " + name + ": " + statusName(k.status) + ": " + k.detail +
                      (cu.empty() ? "" : " (at " + cu + ")"));
  }
}

std::vector<std::string> expandLists(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const std::string& a : args) {
    if (a.empty() || a[0] != '@') {
      out.push_back(a);
      continue;
    }
    std::ifstream in(a.substr(1));
    if (!in) throw harness::ArgError("cannot read the file list '" + a.substr(1) + "'");
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) out.push_back(line);
  }
  return out;
}

double percent(unsigned part, unsigned whole) { return whole ? 100.0 * part / whole : 0.0; }

}  // namespace

int supportCommand(const std::vector<std::string>& args) {
  po::options_description opts("support options");
  opts.add_options()("help,h", "show this help")("files", po::value<std::vector<std::string>>(),
                                                 "the modules (.ptx or .cu), or @LIST")(
      "kernels", "print every kernel's status")("top", po::value<uint32_t>()->default_value(20),
                                                "blockers to list")(
      "json", "print the survey as JSON")("nvcc-flag", po::value<std::vector<std::string>>(),
                                          "a flag for nvcc (repeatable)");
  po::positional_options_description pos;
  pos.add("files", -1);
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kSupportUsage, "support")) return kUsage;
  if (vm.count("help")) {
    std::cout << kSupportUsage << "\n" << opts;
    return kOk;
  }
  Survey s;
  try {
    if (!vm.count("files")) throw harness::ArgError("no files given");
    const std::vector<std::string> nvccFlags = vm.count("nvcc-flag")
                                                   ? vm["nvcc-flag"].as<std::vector<std::string>>()
                                                   : std::vector<std::string>{};
    for (const std::string& f : expandLists(vm["files"].as<std::vector<std::string>>()))
      surveyFile(f, nvccFlags, s);
  } catch (const harness::ArgError& e) {
    std::cerr << "warpsim support: " << e.what() << "\n";
    return kUsage;
  }
  std::vector<std::pair<std::string, Blocker>> ranked(s.blockers.begin(), s.blockers.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second.kernels > b.second.kernels;
  });
  const size_t top = std::min<size_t>(vm["top"].as<uint32_t>(), ranked.size());
  if (vm.count("json")) {
    harness::Json j;
    j.beginObject()
        .field("files", s.files)
        .field("files_not_parsed", s.filesNotParsed)
        .field("kernels", s.kernels)
        .field("runs", s.runs)
        .field("not_supported_yet", s.unsupported)
        .field("does_not_load", s.doesNotLoad)
        .key("blockers")
        .beginArray();
    for (size_t i = 0; i < top; ++i)
      j.beginObject()
          .field("construct", ranked[i].first)
          .field("count", ranked[i].second.kernels)
          .field("example", ranked[i].second.example)
          .endObject();
    j.endArray();
    if (vm.count("kernels")) {
      j.key("lines").beginArray();
      for (const std::string& l : s.lines) j.value(l);
      j.endArray();
    }
    j.endObject();
    std::cout << j.str() << "\n";
    return kOk;
  }
  if (vm.count("kernels"))
    for (const std::string& l : s.lines) std::cout << l << "\n";
  char line[256];
  std::snprintf(line, sizeof line,
                "%u files (%u not parsed), %u kernels: %u run (%.1f%%), %u reach an instruction "
                "not supported yet, %u do not load\n",
                s.files, s.filesNotParsed, s.kernels, s.runs, percent(s.runs, s.kernels),
                s.unsupported, s.doesNotLoad);
  std::cout << line;
  if (top) std::cout << "blockers (kernels stopped, or files for a module that does not parse):\n";
  for (size_t i = 0; i < top; ++i)
    std::cout << "  " << ranked[i].second.kernels << "  " << ranked[i].first << "  (e.g. "
              << ranked[i].second.example << ")\n";
  return kOk;
}

}  // namespace warpsim::cli
