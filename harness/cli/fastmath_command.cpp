// warpsim fastmath-verify:     the simulator's fast-math models against the H200's chunk
//                              hashes over every input (tests/recorded/fastmath).
// warpsim fastmath-exceptions: the exception list of a 16-bit form from the chip's table.
#include <boost/program_options.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>

#include "harness/approx/fastmath_hashes.h"
#include "harness/arg_spec.h"
#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "isa/sfu/approx.h"

namespace po = boost::program_options;

namespace warpsim::cli {

namespace {

namespace ax = harness::approx;

constexpr const char* kVerifyUsage =
    R"(usage: warpsim fastmath-verify [--hashes FILE] [--form NAME]... [--chunks all|I,J,...]
                               [--threads N] [--require-exact]

Computes the simulator's fast-math models over every input of each 32-bit form (the f32 forms,
the f16x2/bf16x2 forms, the upper word of the .ftz.f64 forms, 2^32 pseudo-random pairs of the
div forms) in chunks and compares each chunk's hash with the one the H200 gave
(tests/recorded/fastmath/chunk_hashes.txt, from scripts/device_fastmath.sh). Prints per form how
many chunks agree and the first that does not. --chunks picks chunk indices (default all: 2^32
inputs per form). --require-exact: exit status 1 if any chunk compared disagrees.
)";

constexpr const char* kExceptionsUsage = R"(usage: warpsim fastmath-exceptions FORM TABLE

FORM is ex2.approx.f16, ex2.approx.ftz.bf16, tanh.approx.f16 or tanh.approx.bf16; TABLE the
chip's 65,536 results (little-endian u16, input order: scripts/device_fastmath_pack.py --unpack
tests/recorded/fastmath/<form>.d2.xz). Prints, as C++ initializers for isa/sfu/tables/*.inc,
every input where the chip differs from the computed approximation.
)";

std::vector<uint32_t> parseChunks(const std::string& text, uint32_t count) {
  std::vector<uint32_t> out;
  if (text == "all") {
    for (uint32_t i = 0; i < count; ++i) out.push_back(i);
    return out;
  }
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t end = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, end - pos);
    size_t used = 0;
    unsigned long v = 0;
    try {
      v = std::stoul(item, &used, 10);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || v >= count)
      throw harness::ArgError("--chunks '" + text + "': expected 'all' or indices below " +
                              std::to_string(count) + " separated by commas");
    out.push_back(uint32_t(v));
    pos = end + 1;
  }
  return out;
}

}  // namespace

int fastmathVerifyCommand(const std::vector<std::string>& args) {
  po::options_description opts("fastmath-verify options");
  opts.add_options()("help,h", "this help")(
      "hashes", po::value<std::string>()->default_value("tests/recorded/fastmath/chunk_hashes.txt"),
      "the recorded hashes")("form", po::value<std::vector<std::string>>(), "forms to check")(
      "chunks", po::value<std::string>()->default_value("all"), "chunk indices or all")(
      "threads", po::value<unsigned>()->default_value(0), "host threads (0: every core)")(
      "require-exact", "exit 1 on any disagreement");
  po::variables_map vm;
  if (!parseOptions(args, opts, {}, vm, kVerifyUsage, "fastmath-verify")) return kUsage;
  if (vm.count("help")) {
    std::cout << kVerifyUsage;
    return kOk;
  }
  const ax::RecordedHashes rec = ax::readRecordedHashes(vm["hashes"].as<std::string>());
  const uint32_t perForm = uint32_t(rec.forms.front().chunks.size());
  const std::vector<uint32_t> chunks = parseChunks(vm["chunks"].as<std::string>(), perForm);
  std::vector<std::string> wanted;
  if (vm.count("form")) wanted = vm["form"].as<std::vector<std::string>>();
  for (const std::string& w : wanted)
    if (std::none_of(rec.forms.begin(), rec.forms.end(),
                     [&](const ax::RecordedForm& f) { return f.name == w; }))
      throw harness::ArgError("--form " + w + ": not in the recorded hashes");
  unsigned threads = hostThreads(vm);
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());

  std::cout << "device: " << rec.device << "\n";
  bool allExact = true;
  for (const ax::RecordedForm& f : rec.forms) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), f.name) == wanted.end())
      continue;
    const isa::sfu::Form* form = isa::sfu::findForm(f.name);
    if (!form) {
      std::cout << f.name << ": no model\n";
      allExact = false;
      continue;
    }
    std::vector<char> agree(chunks.size());
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i; (i = next++) < chunks.size();)
        agree[i] = ax::modelChunkHash(*form, rec.chunkBits, chunks[i]) == f.chunks[chunks[i]];
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    const size_t good = size_t(std::count(agree.begin(), agree.end(), 1));
    std::cout << f.name << ": " << good << " of " << chunks.size() << " chunks agree";
    if (good != chunks.size()) {
      allExact = false;
      const uint32_t first =
          chunks[size_t(std::find(agree.begin(), agree.end(), 0) - agree.begin())];
      char b[96];
      std::snprintf(b, sizeof b, " (first that differs: %u, inputs 0x%08llx..0x%08llx)", first,
                    (unsigned long long)first << rec.chunkBits,
                    (((unsigned long long)first + 1) << rec.chunkBits) - 1);
      std::cout << b;
    }
    std::cout << "\n";
  }
  return vm.count("require-exact") && !allExact ? kFailed : kOk;
}

int fastmathExceptionsCommand(const std::vector<std::string>& args) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << kExceptionsUsage;
    return kOk;
  }
  if (args.size() != 2) {
    std::cerr << "warpsim fastmath-exceptions: expected FORM and TABLE\n" << kExceptionsUsage;
    return kUsage;
  }
  uint16_t (*computed)(uint16_t) = nullptr;
  if (args[0] == "ex2.approx.f16") computed = isa::sfu::ex2ApproxF16Computed;
  if (args[0] == "ex2.approx.ftz.bf16") computed = isa::sfu::ex2ApproxFtzBF16Computed;
  if (args[0] == "tanh.approx.f16") computed = isa::sfu::tanhApproxF16Computed;
  if (args[0] == "tanh.approx.bf16") computed = isa::sfu::tanhApproxBF16Computed;
  if (!computed) throw harness::ArgError("FORM '" + args[0] + "': not a 16-bit form");
  std::ifstream in(args[1], std::ios::binary);
  std::vector<unsigned char> raw((std::istreambuf_iterator<char>(in)), {});
  if (!in || raw.size() != 2 * 65536)
    throw harness::ArgError("TABLE '" + args[1] + "': expected 131072 bytes (65,536 u16)");
  size_t n = 0;
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint16_t chip = uint16_t(raw[2 * h] | raw[2 * h + 1] << 8);
    if (chip == computed(uint16_t(h))) continue;
    std::printf("{0x%04x, 0x%04x},%s", h, chip, ++n % 6 ? " " : "\n");
  }
  if (n % 6) std::printf("\n");
  std::fprintf(stderr, "%s: %zu exceptions\n", args[0].c_str(), n);
  return kOk;
}

}  // namespace warpsim::cli
