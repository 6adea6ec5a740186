#include "harness/nvcc.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace warpsim::harness {

namespace fs = std::filesystem;

namespace {

std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

bool isExecutableFile(const std::string& path) {
  std::error_code ec;
  return !path.empty() && access(path.c_str(), X_OK) == 0 && fs::is_regular_file(path, ec);
}

std::string findOnPath(const std::string& name) {
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    for (std::string dir; std::getline(ss, dir, ':');)
      if (const std::string p = (fs::path(dir) / name).string(); isExecutableFile(p)) return p;
  }
  return "";
}

std::string findNvcc() {
  if (const char* e = std::getenv("WARPSIM_NVCC"); e && isExecutableFile(e)) return e;
  if (const char* h = std::getenv("CUDA_HOME"); h && isExecutableFile(fs::path(h) / "bin/nvcc"))
    return (fs::path(h) / "bin/nvcc").string();
  if (isExecutableFile("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  if (std::string p = findOnPath("nvcc"); !p.empty()) return p;
  throw ToolError(
      "nvcc not found: install the CUDA Toolkit (13.x) in /usr/local/cuda, put nvcc on PATH, "
      "or set WARPSIM_NVCC; or pass a .ptx file instead of a .cu");
}

std::string readTextFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw ToolError("cannot read '" + path + "'");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string compileCudaToPtx(const std::string& cuPath) { return compileCudaToPtx(cuPath, {}); }

std::string compileCudaToPtx(const std::string& cuPath, const std::vector<std::string>& flags) {
  if (!fs::exists(cuPath)) throw ToolError("cannot read '" + cuPath + "': no such file");
  const std::string nvcc = findNvcc();
  char tmpl[] = "/tmp/warpsim-nvcc-XXXXXX";
  if (!mkdtemp(tmpl)) throw ToolError("cannot create a temporary directory for nvcc");
  const fs::path dir = tmpl;
  const fs::path ptx = dir / "out.ptx", log = dir / "nvcc.log";
  std::string cmd = shellQuote(nvcc) + " -ptx -lineinfo -arch=sm_90";
  for (const std::string& f : flags) cmd += " " + shellQuote(f);
  cmd += " -o " + shellQuote(ptx.string()) + " " + shellQuote(cuPath) + " > " +
         shellQuote(log.string()) + " 2>&1";
  const int rc = std::system(cmd.c_str());
  std::string text, diag;
  if (fs::exists(log)) diag = readTextFile(log.string());
  if (rc == 0 && fs::exists(ptx)) text = readTextFile(ptx.string());
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (rc != 0 || text.empty())
    throw ToolError("nvcc failed on '" + cuPath + "' (exit " +
                    std::to_string(WIFEXITED(rc) ? WEXITSTATUS(rc) : rc) + "):\n" + diag);
  return text;
}

std::string compileCudaSourceToPtx(const std::string& source, const std::string& name,
                                   const std::vector<std::string>& flags) {
  if (name.empty() || name.find_first_of("\"\n\\") != std::string::npos)
    throw ToolError("the source's name '" + name +
                    "' must be a non-empty file name without quotes, backslashes or newlines");
  char tmpl[] = "/tmp/warpsim-source-XXXXXX";
  if (!mkdtemp(tmpl)) throw ToolError("cannot create a temporary directory for nvcc");
  const fs::path dir = tmpl;
  std::string file = fs::path(name).filename().string();
  if (file.size() < 3 || file.substr(file.size() - 3) != ".cu") file += ".cu";
  const fs::path cu = dir / file;
  std::string ptx;
  try {
    {
      std::ofstream f(cu, std::ios::binary);
      f << source;
      if (!f.flush()) throw ToolError("cannot write '" + cu.string() + "' for nvcc");
    }
    ptx = compileCudaToPtx(cu.string(), flags);
  } catch (const ToolError& e) {
    std::error_code ec;
    fs::remove_all(dir, ec);
    // nvcc's diagnostics name the temporary file: name the source as the caller knows it.
    std::string what = e.what();
    for (size_t at; (at = what.find(cu.string())) != std::string::npos;)
      what.replace(at, cu.string().size(), name);
    throw ToolError(what);
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  const std::string quoted = "\"" + cu.string() + "\"";
  for (size_t at; (at = ptx.find(quoted)) != std::string::npos;)
    ptx.replace(at, quoted.size(), "\"" + name + "\"");
  return ptx;
}

std::string findPtxas() {
  return (std::filesystem::path(findNvcc()).parent_path() / "ptxas").string();
}

std::string ptxasVerdict(const std::string& ptxas, const std::string& file) {
  // sm_90a code (wgmma, setmaxnreg) assembles only for the architecture-specific target.
  std::string arch = "sm_90";
  {
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find(".target sm_90a") != std::string::npos) arch = "sm_90a";
  }
  const std::string cmd =
      "'" + ptxas + "' -arch=" + arch + " '" + file + "' -o /dev/null >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  if (status == 0) return "";
  if (WIFSIGNALED(status)) return "crashed (signal " + std::to_string(WTERMSIG(status)) + ")";
  if (WIFEXITED(status) && WEXITSTATUS(status) > 128)  // the shell reports a signal as 128 + n
    return "crashed (signal " + std::to_string(WEXITSTATUS(status) - 128) + ")";
  return "refused it";
}

}  // namespace warpsim::harness
