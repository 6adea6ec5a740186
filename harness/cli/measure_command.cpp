// warpsim measure: suite cards on the GPU, every launch once, at a ladder of sizes, with a
// manifest that says which launch is which. It is made to run under Nsight Compute
// (scripts/device_timing.sh): ncu profiles the launches in the order the manifest lists them,
// and scripts/ncu_join.py joins the two into tests/recorded/timing/, the measurements that
// `warpsim correlate` compares the performance model with.
#include <boost/program_options.hpp>

#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "harness/cuda_backend.h"
#include "harness/suite.h"

namespace po = boost::program_options;

namespace warpsim::cli {

namespace {

constexpr const char* kMeasureUsage =
    R"(usage: warpsim measure [PATTERN] --manifest FILE [--ladder N | --sizes S1,S2,...]
                       [--repeat R] [--max-threads T] [--seed S]

Runs every suite card matching PATTERN on the GPU at a ladder of problem sizes, each launch of
each problem once, checks each result against the card's CPU reference, and writes FILE: one
tab-separated line per launch in launch order (card, size, seed, launch index, kernel, grid,
block, dynamic shared bytes, threads of the problem). The sizes are the card's default and
sizes with about 4x, 16x, ... (--ladder rungs in all) as many threads, up to --max-threads and --max-bytes (a
card with a fixed grid: 4x, 16x, ... the size), larger ones only for problems of at most
--max-launches launches. --sizes replaces the ladder with the sizes given (taken as they are,
beyond the card's own range too: a measurement may need a problem larger than the tests make;
never beyond what its kernel handles, as no rung of the ladder is).
--repeat runs each problem R times in a row (the chip's run-to-run noise); the manifest lists
every run. --dry-run writes the manifest without a GPU.
Made to run under Nsight Compute (scripts/device_timing.sh). Needs a CUDA device.
)";

uint64_t problemThreads(const kernels::Problem& p) {
  uint64_t n = 0;
  for (const auto& l : p.launches) n += l.grid.count() * l.block.count();
  return n;
}

uint64_t problemBytes(const kernels::Problem& p) {
  uint64_t n = 0;
  for (const auto& b : p.buffers) n += b.bytes.size();
  return n;
}

// Whether doubling (or quadrupling) the size of a problem of `bytes` may stay under the bound
// (a 2-D card's buffers grow 4x per doubling, a 3-D one's 8x), checked before making it.
bool mayGrow(uint64_t bytes, unsigned factor, uint64_t maxBytes) {
  return bytes * factor * factor * factor <= maxBytes;
}

// The card's default size, then for each further rung the size (a power-of-two multiple of the
// default) whose thread count is nearest 4^rung times the default's, up to maxThreads. A card
// whose grid does not grow with the size (a fixed grid that strides) gets 4^rung times the
// default size instead. Problems of more than maxLaunches launches are left out, and so are sizes
// beyond the card's largestSize.
std::vector<uint64_t> sizeLadder(const kernels::Card& c, unsigned rungs, uint64_t maxThreads,
                                 size_t maxLaunches, uint64_t maxBytes) {
  std::vector<uint64_t> sizes{c.defaultSize};
  const kernels::Problem first = c.make(c.defaultSize, 1);
  const double base = double(problemThreads(first));
  uint64_t bytes = problemBytes(first);
  if (!mayGrow(bytes, 4, maxBytes)) return sizes;
  const bool fixedGrid = problemThreads(c.make(c.defaultSize * 4, 1)) == uint64_t(base);
  std::set<uint64_t> seen{c.defaultSize};
  uint64_t size = c.defaultSize;
  double threads = base;
  for (unsigned rung = 1; rung < rungs; ++rung) {
    if (fixedGrid) {
      if (!mayGrow(bytes, 4, maxBytes) || !c.handles(size * 4)) break;
      size *= 4;
      bytes = problemBytes(c.make(size, 1));
    } else {
      const double target = base * std::pow(4.0, rung);
      if (target > double(maxThreads)) break;
      // Grow the size by doubling while that brings the thread count nearer the target.
      for (int step = 0; step < 24 && mayGrow(bytes, 2, maxBytes); ++step) {
        const uint64_t next = size * 2;
        if (!c.handles(next)) break;
        const kernels::Problem p = c.make(next, 1);
        const double t = double(problemThreads(p));
        if (t > double(maxThreads) ||
            std::fabs(std::log(t / target)) >= std::fabs(std::log(threads / target)))
          break;
        size = next;
        threads = t;
        bytes = problemBytes(p);
      }
    }
    if (c.make(size, 1).launches.size() > maxLaunches) break;
    if (seen.insert(size).second) sizes.push_back(size);
  }
  return sizes;
}

// "4096,65536" -> {4096, 65536}; nullopt if any item is not a positive integer.
std::optional<std::vector<uint64_t>> parseSizes(const std::string& text) {
  std::vector<uint64_t> sizes;
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (ec != std::errc() || end != item.data() + item.size() || v == 0) return std::nullopt;
    sizes.push_back(v);
  }
  if (sizes.empty()) return std::nullopt;
  return sizes;
}

}  // namespace

int measureCommand(const std::vector<std::string>& args) {
  po::options_description opts("measure options");
  opts.add_options()("help,h", "show this help")(
      "pattern", po::value<std::string>()->default_value(""),
      "select cards by name (substrings, comma-separated)")(
      "manifest", po::value<std::string>(), "the file to write the launch list into")(
      "ladder", po::value<unsigned>()->default_value(3), "sizes per card")(
      "max-threads", po::value<uint64_t>()->default_value(uint64_t(1) << 22),
      "largest problem, in threads")("seed", po::value<uint64_t>()->default_value(1),
                                     "input generator seed")(
      "max-bytes", po::value<uint64_t>()->default_value(uint64_t(1) << 30),
      "largest problem, in bytes of buffers")(
      "max-launches", po::value<size_t>()->default_value(16),
      "larger sizes only for problems of at most this many launches")(
      "sizes", po::value<std::string>(), "these sizes (comma-separated) instead of the ladder")(
      "repeat", po::value<unsigned>()->default_value(1), "runs of each problem")(
      "dry-run", "write the manifest without running anything (no GPU needed)");
  po::positional_options_description pos;
  pos.add("pattern", 1);
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kMeasureUsage, "measure")) return kUsage;
  if (vm.count("help")) {
    std::cout << kMeasureUsage << "\n" << opts;
    return kOk;
  }
  if (!vm.count("manifest")) {
    std::cerr << "warpsim measure: missing --manifest\n" << kMeasureUsage;
    return kUsage;
  }
  const unsigned rungs = vm["ladder"].as<unsigned>();
  if (rungs < 1 || rungs > 8) {
    std::cerr << "warpsim measure: --ladder must be 1 to 8\n";
    return kUsage;
  }
  const unsigned repeat = vm["repeat"].as<unsigned>();
  if (repeat < 1 || repeat > 100) {
    std::cerr << "warpsim measure: --repeat must be 1 to 100\n";
    return kUsage;
  }
  std::optional<std::vector<uint64_t>> givenSizes;
  if (vm.count("sizes")) {
    givenSizes = parseSizes(vm["sizes"].as<std::string>());
    if (!givenSizes) {
      std::cerr << "warpsim measure: --sizes: expected positive integers separated by commas, got '"
                << vm["sizes"].as<std::string>() << "'\n";
      return kUsage;
    }
  }
  const auto cards = harness::selectCards(vm["pattern"].as<std::string>());
  if (cards.empty()) {
    std::cerr << "warpsim measure: no card matches\n";
    return kUsage;
  }
  // Given sizes may pass a card's tested range and the memory estimate, not what its kernel
  // handles.
  if (givenSizes)
    for (const kernels::Card* c : cards)
      for (uint64_t size : *givenSizes)
        if (const std::string why = harness::cardSizeError(*c, size, UINT64_MAX); !why.empty()) {
          std::cerr << "warpsim measure: --sizes: " << why << "\n";
          return kUsage;
        }
  const bool dryRun = vm.count("dry-run") > 0;
  std::unique_ptr<harness::Backend> gpu;
  if (!dryRun) try {
      gpu = harness::makeCudaBackend();
    } catch (const harness::NoDevice& e) {
      std::cerr << "warpsim measure: " << e.what() << "\n";
      return kUsage;
    }
  std::ofstream manifest(vm["manifest"].as<std::string>());
  if (!manifest) {
    std::cerr << "warpsim measure: --manifest: cannot write " << vm["manifest"].as<std::string>()
              << "\n";
    return kUsage;
  }
  manifest << "card\tsize\tseed\tlaunch\tkernel\tgrid\tblock\tshared\tthreads\n";
  const uint64_t seed = vm["seed"].as<uint64_t>();
  unsigned failed = 0, launches = 0;
  for (const kernels::Card* c : cards) {
    const std::vector<uint64_t> sizes =
        givenSizes ? *givenSizes
                   : sizeLadder(*c, rungs, vm["max-threads"].as<uint64_t>(),
                                vm["max-launches"].as<size_t>(), vm["max-bytes"].as<uint64_t>());
    for (uint64_t size : sizes)
      for (unsigned run = 0; run < repeat; ++run) {
        const kernels::Problem problem = c->make(size, seed);
        harness::CardResult r;
        if (dryRun)
          r.threads = problemThreads(problem);
        else
          r = harness::runCard(*gpu, *c, size, seed);
        for (size_t i = 0; i < problem.launches.size(); ++i) {
          const kernels::Launch& l = problem.launches[i];
          manifest << c->name << '\t' << size << '\t' << seed << '\t' << i << '\t' << l.entry
                   << '\t' << l.grid.x << ',' << l.grid.y << ',' << l.grid.z << '\t' << l.block.x
                   << ',' << l.block.y << ',' << l.block.z << '\t' << l.dynamicShared << '\t'
                   << r.threads << '\n';
          ++launches;
        }
        std::cout << c->name << " size " << size << ": " << problem.launches.size() << " launches, "
                  << r.threads << " threads"
                  << (dryRun       ? ""
                      : r.passed() ? ", passed"
                                   : ", FAILED")
                  << "\n"
                  << std::flush;
        if (!dryRun && !r.passed()) ++failed;
        // A faulting launch ends the problem early: the manifest would not match ncu's list.
        if (r.run.fault) {
          std::cerr << "warpsim measure: " << c->name << " size " << size
                    << " faulted on the GPU: " << r.run.fault->message << "\n";
          return kFailed;
        }
      }
  }
  if (dryRun)
    std::cout << launches << " launches listed (dry run: nothing ran)\n";
  else
    std::cout << launches << " launches measured; " << failed << " results differ from the CPU\n";
  return failed ? kFailed : kOk;
}

}  // namespace warpsim::cli
