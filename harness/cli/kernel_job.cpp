#include "harness/cli/kernel_job.h"

#include "harness/cli/command_line.h"
#include "harness/kernel_lookup.h"
#include "harness/nvcc.h"
#include "isa/insn_table.h"
#include "isa/parser.h"

namespace po = boost::program_options;

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
      "arg,a", po::value<std::vector<std::string>>()->composing(), "a kernel argument")(
      "dump,d", po::value<std::vector<std::string>>()->composing(), "a buffer to show or write")(
      "device-memory", po::value<std::string>(),
      "device memory limit, BYTES or with KiB/MiB/GiB/TiB (default 4GiB)");
}

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
    if (g.isBuffer) {
      const size_t close = g.text.find(']');
      job.bufferInitialized.push_back(close != std::string::npos && close + 1 < g.text.size() &&
                                      g.text[close + 1] == ':');
    }
  for (const auto& d : job.dumps) {
    bool found = false;
    for (const auto& b : job.problem.buffers) found = found || b.name == d.buffer;
    if (!found) throw harness::ArgError("--dump '" + d.buffer + "': no buffer has that name");
  }
  const bool isCu = job.path.size() > 3 && job.path.substr(job.path.size() - 3) == ".cu";
  job.ptx = isCu ? harness::compileCudaToPtx(job.path) : harness::readTextFile(job.path);
  // The kernel is found by its PTX or demangled name or a unique prefix (a wrong name lists
  // the module's kernels); types are checked against its declaration before anything runs.
  const ir::Module m = isa::parseModule(job.ptx, job.path, isa::validateInstruction);
  const ir::Function& kernel = harness::findKernel(m, job.kernel, job.path);
  job.kernel = kernel.name;
  for (kernels::Launch& l : job.problem.launches) l.entry = kernel.name;
  harness::checkArgTypes(kernel, list.given);
  return job;
}

}  // namespace warpsim::cli
