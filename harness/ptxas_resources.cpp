#include "harness/ptxas_resources.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "harness/nvcc.h"
#include "harness/sass_listing.h"

namespace warpsim::harness {

std::map<std::string, sim::timing::KernelResources> parsePtxasVerbose(const std::string& text) {
  // ptxas info    : Compiling entry function 'name' for 'sm_90'
  // ptxas info    : Used 32 registers, 4096 bytes smem, 380 bytes cmem[0]
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  // ptxas info    : Function properties for _Z12compositionsj
  //     40 bytes stack frame, 40 bytes spill stores, 40 bytes spill loads
  static const std::regex props(R"(Function properties for (\S+))");
  static const std::regex frame(R"((\d+) bytes stack frame)");
  std::map<std::string, sim::timing::KernelResources> out;
  std::map<std::string, uint32_t> frames;  // every function of the module
  std::istringstream in(text);
  std::string line, current, function;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, props)) {
      function = m[1];
      continue;
    }
    if (!function.empty() && std::regex_search(line, m, frame)) {
      frames[function] = uint32_t(std::stoul(m[1]));
      function.clear();
      continue;
    }
    if (std::regex_search(line, m, entry)) {
      current = m[1];
      continue;
    }
    if (current.empty() || !std::regex_search(line, m, used)) continue;
    sim::timing::KernelResources r;
    r.registers = uint32_t(std::stoul(m[1]));
    if (std::regex_search(line, m, smem)) r.staticShared = uint32_t(std::stoul(m[1]));
    r.source = "ptxas";
    out[current] = r;
    current.clear();
  }
  for (auto& [name, r] : out) r.stackFrames = frames;
  return out;
}

std::map<std::string, uint32_t> parsePtxasStackFrames(const std::string& text) {
  // ptxas info    : Function properties for _Z12compositionsj
  //     40 bytes stack frame, 40 bytes spill stores, 40 bytes spill loads
  static const std::regex props(R"(Function properties for (\S+))");
  static const std::regex frame(R"(^\s*(\d+) bytes stack frame)");
  std::map<std::string, uint32_t> out;
  std::istringstream in(text);
  std::string line, current;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, props)) {
      current = m[1];
    } else if (!current.empty() && std::regex_search(line, m, frame)) {
      if (m[1].length() <= 9) out[current] = uint32_t(std::stoul(m[1]));
      current.clear();
    }
  }
  return out;
}

namespace {

// Runs `cmd` (stderr into stdout): its output and whether it exited 0.
std::pair<std::string, bool> runTool(const std::string& cmd) {
  std::string text;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {"", false};
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
  const int status = pclose(p);
  return {text, WIFEXITED(status) && WEXITSTATUS(status) == 0};
}

// nvdisasm's listing of `cubin`, or why there is none.
void listSass(const std::string& ptxas, const std::filesystem::path& cubin, PtxasResources& r) {
  const std::string nvdisasm = findNvdisasm(ptxas);
  if (nvdisasm.empty()) {
    r.sassError = "nvdisasm not found (set WARPSIM_NVDISASM, or put it beside ptxas or on PATH)";
    return;
  }
  const auto [text, ok] = runTool("'" + nvdisasm + "' -c -g -hex '" + cubin.string() + "' 2>&1");
  if (!ok) {
    r.sassError = "nvdisasm failed: " + text.substr(0, 300);
    return;
  }
  auto listing = std::make_shared<sim::timing::SassListing>(parseNvdisasm(text));
  if (listing->empty()) {
    r.sassError = "nvdisasm listed no code";
    return;
  }
  r.sass = std::move(listing);
}

}  // namespace

PtxasResources ptxasResources(const std::string& ptx, bool sass) {
  PtxasResources r;
  std::string ptxas;
  try {
    ptxas = findPtxas();
  } catch (const ToolError& e) {
    r.error = e.what();
    return r;
  }
  if (!std::filesystem::exists(ptxas)) {
    r.error = "ptxas not found (" + ptxas + ")";
    return r;
  }
  char tmpl[] = "/tmp/warpsim-ptxas-XXXXXX";
  if (!mkdtemp(tmpl)) {
    r.error = "cannot create a temporary directory for ptxas";
    return r;
  }
  const std::filesystem::path dir = tmpl;
  {
    std::ofstream f(dir / "m.ptx");
    f << ptx;
  }
  const std::string cmd = "'" + ptxas + "' -arch=sm_90 -v " + (sass ? "-lineinfo '" : "'") +
                          (dir / "m.ptx").string() + "' -o '" + (dir / "m.cubin").string() +
                          "' 2>&1";
  const auto [text, ok] = runTool(cmd);
  if (!ok) r.error = text.empty() ? "cannot run ptxas" : "ptxas failed: " + text.substr(0, 300);
  if (sass && r.error.empty()) listSass(ptxas, dir / "m.cubin", r);
  if (sass && !r.error.empty()) r.sassError = "no SASS: " + r.error;
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (r.error.empty()) {
    r.kernels = parsePtxasVerbose(text);
    r.stackFrames = parsePtxasStackFrames(text);
    for (auto& [name, k] : r.kernels) {
      k.sass = r.sass;
      k.sassNote = r.sassError;
    }
  }
  return r;
}

}  // namespace warpsim::harness
