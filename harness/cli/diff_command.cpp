// warpsim diff CARD | FILE ...: the same PTX and inputs on the simulator and on the GPU, every
// output buffer compared bit for bit (or within the card's ULP tolerance for .approx).
#include <boost/program_options.hpp>

#include <cstdio>
#include <iostream>
#include <map>

#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "harness/cli/kernel_job.h"
#include "harness/cli/lowering_options.h"
#include "harness/compare.h"
#include "harness/cuda_backend.h"
#include "harness/json.h"
#include "harness/nvcc.h"
#include "harness/report.h"
#include "harness/run_problem.h"
#include "harness/suite.h"
#include "isa/diagnostic.h"
#include "kernels/ptx_registry.h"
#include "sim/gpu.h"

namespace po = boost::program_options;

namespace warpsim::cli {

namespace {

constexpr const char* kDiffUsage = R"(usage: warpsim diff CARD [--size N] [--seed S] [--json]
       warpsim diff FILE.cu|FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] --arg ... [--json]
                    [--nvcc-flag F]... [--keep-ptx DIR] [-- NVCC_FLAGS...]

Runs a suite kernel (by card name) or any kernel (with warpsim run's arguments) on the simulator
and on the GPU with identical inputs, and compares every output buffer: bit for bit, or within
the card's ULP tolerance where a PTX .approx operation leaves the result to the hardware.
Lists the first mismatches (buffer, index, both values, ULP distance, the thread and CTA that
wrote the element in the simulator) and a summary. Needs a CUDA device.

Exit status: 0 identical, 1 mismatch or fault, 2 usage or no CUDA device.
)";

std::string pos3(const sim::ThreadPos& p) {
  return "(" + std::to_string(p.x) + "," + std::to_string(p.y) + "," + std::to_string(p.z) + ")";
}

}  // namespace

int diffCommand(const std::vector<std::string>& args) {
  po::options_description opts("diff options");
  addKernelJobOptions(opts);
  addLoweringOptions(opts);
  opts.add_options()("help,h", "show this help")("size", po::value<uint64_t>()->default_value(0),
                                                 "card problem size (0 = its default)")(
      "seed", po::value<uint64_t>()->default_value(1), "card input seed")(
      "show", po::value<unsigned>()->default_value(10), "mismatches to list")(
      "json", "machine-readable output");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kDiffUsage, "diff")) return kUsage;
  if (vm.count("help") || !vm.count("file")) {
    (vm.count("help") ? std::cout : std::cerr) << kDiffUsage << "\n"
                                               << kArgLanguageHelp << "\n"
                                               << kNvccFlagsHelp << "\n"
                                               << opts;
    return vm.count("help") ? kOk : kUsage;
  }
  const bool json = vm.count("json") > 0;
  const std::string target = vm["file"].as<std::string>();
  try {
    KernelJob job;
    uint32_t maxUlp = 0;
    const kernels::Card* card = kernels::findCard(target);
    if (card) {
      if (const std::string why = harness::cardSizeError(*card, vm["size"].as<uint64_t>());
          !why.empty()) {
        std::cerr << "warpsim diff: --size: " << why << "\n";
        return kUsage;
      }
      job.path = card->source + ".ptx";
      job.ptx = std::string(kernels::ptxFor(card->source));
      job.problem =
          card->make(vm["size"].as<uint64_t>() ? vm["size"].as<uint64_t>() : card->defaultSize,
                     vm["seed"].as<uint64_t>());
      maxUlp = card->tolerance.maxUlp;
    } else {
      job = kernelJobFrom(vm, "diff");
    }
    std::unique_ptr<harness::Backend> gpu;
    try {
      gpu = harness::makeCudaBackend();
    } catch (const harness::NoDevice& e) {
      std::cerr << "warpsim diff: " << e.what() << "\n";
      return kUsage;
    }
    gpu->loadModule(job.ptx, job.path);
    const harness::ProblemRun onGpu = harness::runProblem(*gpu, job.problem);
    sim::LaunchOptions simOptions;
    applyLoweringOptions(vm, simOptions);
    auto simBackend = harness::makeSimBackend(simOptions, job.deviceMemory);
    simBackend->loadModule(job.ptx, job.path);
    const harness::ProblemRun onSim = harness::runProblem(*simBackend, job.problem);
    const unsigned show = vm["show"].as<unsigned>();
    const harness::Comparison cmp =
        harness::compareOutputs(onGpu.buffers, onSim.buffers, maxUlp, show);
    // Who wrote the differing elements: a second simulator run watching just their addresses.
    std::map<uint64_t, sim::WriteRecord> writer;
    if (!cmp.first.empty()) {
      sim::LaunchOptions lo = simOptions;
      for (const auto& m : cmp.first)
        lo.watch.push_back(onSim.addresses[m.buffer] +
                           m.index * kernels::elemBytes(onSim.buffers[m.buffer].type));
      std::sort(lo.watch.begin(), lo.watch.end());
      auto watcher = harness::makeSimBackend(lo);
      watcher->loadModule(job.ptx, job.path);
      for (const auto& w : harness::runProblem(*watcher, job.problem).writes) writer[w.address] = w;
    }
    const bool ok = cmp.ok() && !onGpu.fault && !onSim.fault;
    if (json) {
      harness::Json j;
      j.beginObject().field("target", target).field("identical", ok);
      j.field("compared", cmp.compared)
          .field("mismatches", cmp.mismatches)
          .field("max_ulp", cmp.maxUlp);
      j.field("tolerance_ulp", uint64_t(maxUlp));
      j.field("gpu_seconds", onGpu.seconds);
      if (onGpu.fault) j.field("gpu_fault", onGpu.fault->message);
      if (onSim.fault) j.key("sim_fault"), harness::faultJson(j, *onSim.fault, job.path);
      j.key("first").beginArray();
      for (const auto& m : cmp.first) {
        const auto& b = onSim.buffers[m.buffer];
        j.beginObject().field("buffer", b.name).field("index", m.index);
        j.field("gpu", harness::formatElement(b.type, m.expected));
        j.field("sim", harness::formatElement(b.type, m.actual)).field("distance", m.ulp);
        const uint64_t a = onSim.addresses[m.buffer] + m.index * kernels::elemBytes(b.type);
        if (auto it = writer.find(a); it != writer.end()) {
          j.field("thread", pos3(it->second.thread)).field("cta", pos3(it->second.cta));
          j.field("ptx_line", uint64_t(it->second.ptxLine));
        }
        j.endObject();
      }
      j.endArray().endObject();
      std::cout << j.str() << "\n";
    } else {
      if (onGpu.fault) std::cout << "GPU: " << onGpu.fault->message << "\n";
      if (onSim.fault) std::cout << "simulator: " << onSim.fault->describe(job.path) << "\n";
      for (const auto& m : cmp.first) {
        const auto& b = onSim.buffers[m.buffer];
        std::string line = b.name + "[" + std::to_string(m.index) + "]: GPU " +
                           harness::formatElement(b.type, m.expected) + ", simulator " +
                           harness::formatElement(b.type, m.actual);
        if (m.ulp != UINT64_MAX) line += ", " + std::to_string(m.ulp) + " ulp";
        const uint64_t a = onSim.addresses[m.buffer] + m.index * kernels::elemBytes(b.type);
        if (auto it = writer.find(a); it != writer.end())
          line += "; written by thread " + pos3(it->second.thread) + " block " +
                  pos3(it->second.cta) + " at PTX line " + std::to_string(it->second.ptxLine);
        std::cout << line << "\n";
      }
      std::printf("%s: %llu of %llu output elements differ (max %llu ulp, tolerance %u ulp)%s\n",
                  target.c_str(), (unsigned long long)cmp.mismatches,
                  (unsigned long long)cmp.compared, (unsigned long long)cmp.maxUlp, maxUlp,
                  ok ? ": identical" : "");
    }
    return ok ? kOk : kFailed;
  } catch (const harness::ArgError& e) {
    std::cerr << "warpsim diff: " << e.what() << "\n";
  } catch (const isa::PtxError& e) {
    std::cerr << e.what() << "\n";
  } catch (const sim::LaunchError& e) {
    std::cerr << "warpsim diff: launch error: " << e.what() << "\n";
  } catch (const harness::ToolError& e) {
    std::cerr << "warpsim diff: " << e.what() << "\n";
  } catch (const harness::CudaError& e) {
    std::cerr << "warpsim diff: " << e.what() << "\n";
  } catch (const sim::OutOfDeviceMemory& e) {
    std::cerr << "warpsim diff: " << e.what() << "\n";
  }
  return kUsage;
}

}  // namespace warpsim::cli
