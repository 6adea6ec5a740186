#include "harness/cli/kernel_job.h"

#include <filesystem>
#include <fstream>

#include "harness/cli/command_line.h"
#include "harness/kernel_lookup.h"
#include "harness/nvcc.h"
#include "isa/insn_table.h"
#include "isa/parser.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace warpsim::cli {

const char* const kArgLanguageHelp = R"(Kernel arguments, one --arg per parameter, in order:
  scalar   TYPE:VALUE                  u32:1024  s32:-3  f32:0.5  u64:0x10
  buffer   [NAME=]TYPE[COUNT][:INIT]   x=f32[4096]:random(7,-1,1)  y=f32[4096]:const(2)
  INIT     zeros (default) | iota | iota(START,STEP) | const(V) | random(SEED[,LO,HI]) | file(PATH)
  TYPE     u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64
Buffers are passed as device pointers; every buffer is copied back after the run.
)";

void addKernelJobOptions(po::options_description& opts) {
  opts.add_options()("file", po::value<std::string>(), "the .cu or .ptx file")(
      "kernel,k", po::value<std::string>(), "the kernel (entry) name")(
      "grid,g", po::value<std::string>(), "grid dimensions X[,Y,Z]")(
      "block,b", po::value<std::string>(), "block dimensions X[,Y,Z]")(
      "shared", po::value<uint32_t>()->default_value(0), "bytes of dynamic shared memory")(
      "cluster", po::value<std::string>(),
      "thread-block cluster dimensions X[,Y,Z] (at most 8 CTAs; the grid a multiple)")(
      "cooperative", po::bool_switch(),
      "a cooperative launch (cg::this_grid().sync(); the grid must fit the chip at once)")(
      "arg,a", po::value<std::vector<std::string>>()->composing(), "a kernel argument")(
      "dump,d", po::value<std::vector<std::string>>()->composing(), "a buffer to show or write")(
      "device-memory", po::value<std::string>(),
      "device memory limit, BYTES or with KiB/MiB/GiB/TiB (default 4GiB)")(
      "nvcc-flag", po::value<std::vector<std::string>>()->composing(),
      "a flag for nvcc compiling a .cu file (-I, -D, -std=, -arch=sm_90a; repeatable; "
      "everything after -- too)")("keep-ptx", po::value<std::string>(),
                                  "write the .cu file's PTX into this directory");
}

const char* const kNvccFlagsHelp =
    R"(A .cu file is compiled with nvcc -ptx -lineinfo -arch=sm_90, then the flags given with
--nvcc-flag F or after --: `warpsim run k.cu --kernel k ... -- -I include -DN=4 -arch=sm_90a`.
--keep-ptx DIR keeps the PTX (DIR/k.ptx: the file whose lines fault reports give as PTX lines).
)";

namespace {

// The file's PTX: read, or compiled from CUDA with the job's nvcc flags (and kept on request).
std::string ptxOf(const std::string& path, const po::variables_map& vm) {
  const bool isCu = path.size() > 3 && path.substr(path.size() - 3) == ".cu";
  const auto flags = vm.count("nvcc-flag") ? vm["nvcc-flag"].as<std::vector<std::string>>()
                                           : std::vector<std::string>{};
  if (!isCu) {
    if (!flags.empty())
      throw harness::ArgError("--nvcc-flag '" + flags.front() + "': '" + path +
                              "' is PTX, not compiled (nvcc flags apply to a .cu file)");
    if (vm.count("keep-ptx")) throw harness::ArgError("--keep-ptx: '" + path + "' is PTX already");
    return harness::readTextFile(path);
  }
  std::string ptx = harness::compileCudaToPtx(path, flags);
  if (vm.count("keep-ptx")) {
    const fs::path dir = vm["keep-ptx"].as<std::string>();
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path out = dir / fs::path(path).filename().replace_extension(".ptx");
    std::ofstream f(out, std::ios::binary);
    if (ec || !(f << ptx) || !f.flush())
      throw harness::ArgError("--keep-ptx '" + dir.string() + "': cannot write '" + out.string() +
                              "'");
  }
  return ptx;
}

}  // namespace

KernelJob kernelJobFrom(const po::variables_map& vm, const std::string& command) {
  for (const char* required : {"file", "kernel", "grid", "block"})
    if (!vm.count(required))
      throw harness::ArgError("missing --" + std::string(required) + " (see warpsim " + command +
                              " --help)");
  KernelJob job;
  job.path = vm["file"].as<std::string>();
  job.kernel = vm["kernel"].as<std::string>();
  const auto grid = harness::parseDim3(vm["grid"].as<std::string>(), "--grid");
  const auto block = harness::parseDim3(vm["block"].as<std::string>(), "--block");
  const auto args =
      vm.count("arg") ? vm["arg"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (vm.count("dump"))
    for (const auto& d : vm["dump"].as<std::vector<std::string>>())
      job.dumps.push_back(harness::parseDump(d));
  job.deviceMemory = deviceMemoryBytes(vm);
  harness::ArgList list = harness::buildProblem(args, job.kernel, grid, block,
                                                vm["shared"].as<uint32_t>(), job.deviceMemory);
  job.problem = std::move(list.problem);
  for (const harness::GivenArg& g : list.given)
    if (g.makesBuffer) job.bufferInitialized.push_back(g.initialized);
  for (const auto& d : job.dumps) {
    bool found = false;
    for (const auto& b : job.problem.buffers) found = found || b.name == d.buffer;
    if (!found) throw harness::ArgError("--dump '" + d.buffer + "': no buffer has that name");
  }
  job.ptx = ptxOf(job.path, vm);
  // The kernel is found by its PTX or demangled name or a unique prefix (a wrong name lists
  // the module's kernels); types are checked against its declaration before anything runs.
  const ir::Module m = isa::parseModule(job.ptx, job.path, isa::validateInstruction);
  const ir::Function& kernel = harness::findKernel(m, job.kernel, job.path);
  job.kernel = kernel.name;
  for (kernels::Launch& l : job.problem.launches) {
    l.entry = kernel.name;
    if (vm.count("cluster")) {
      const auto c = harness::parseDim3(vm["cluster"].as<std::string>(), "--cluster");
      l.cluster = {c.x, c.y, c.z};
    }
    l.cooperative = vm.count("cooperative") && vm["cooperative"].as<bool>();
  }
  harness::checkArgTypes(kernel, list.given);
  return job;
}

}  // namespace warpsim::cli
