#include "harness/cli/command_line.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "harness/arg_spec.h"
#include "harness/cli/cli.h"
#include "harness/number_text.h"
#include "sim/func/memory.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace warpsim::cli {

namespace {

// The largest value of an unsigned option's type; 0 when the option is not an unsigned number.
// Boost reads "-1" into an unsigned option as 4294967295; these options are checked here,
// on the text, before Boost converts them.
uint64_t unsignedOptionMax(const po::value_semantic* s) {
  if (dynamic_cast<const po::typed_value<uint64_t>*>(s)) return UINT64_MAX;
  if (dynamic_cast<const po::typed_value<uint32_t>*>(s)) return UINT32_MAX;
  if (dynamic_cast<const po::typed_value<uint16_t>*>(s)) return UINT16_MAX;
  return 0;
}

// "" when every unsigned option's value is a decimal number that fits its type; else why not.
std::string checkUnsignedOptions(const po::parsed_options& parsed,
                                 const po::options_description& opts) {
  for (const po::option& o : parsed.options) {
    const po::option_description* d = opts.find_nothrow(o.string_key, false);
    if (!d) continue;
    const uint64_t max = unsignedOptionMax(d->semantic().get());
    if (!max) continue;
    for (const std::string& v : o.value) {
      const bool digits = !v.empty() && std::all_of(v.begin(), v.end(),
                                                    [](char c) { return c >= '0' && c <= '9'; });
      const auto n = digits ? harness::parseUnsignedText(v) : std::nullopt;
      if (!n || *n > max)
        return "the argument ('" + v + "') for option '--" + d->long_name() +
               "' is not a whole number in 0.." + std::to_string(max);
    }
  }
  return {};
}

// A command that compiles .cu files takes nvcc's flags as `--nvcc-flag F` or after `--`. Both
// become `--nvcc-flag=F` before Boost parses: Boost would read a flag that starts with '-'
// (`-arch=sm_90a`, `-I.`) as an option of its own, and ends option parsing at `--`.
std::vector<std::string> nvccFlagsJoined(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") {
      for (size_t j = i + 1; j < args.size(); ++j) out.push_back("--nvcc-flag=" + args[j]);
      break;
    }
    if (args[i] == "--nvcc-flag" && i + 1 < args.size())
      out.push_back("--nvcc-flag=" + args[++i]);
    else
      out.push_back(args[i]);
  }
  return out;
}

}  // namespace

bool parseOptions(const std::vector<std::string>& args, const po::options_description& opts,
                  const po::positional_options_description& pos, po::variables_map& vm,
                  const char* usage, const char* name) {
  try {
    const bool takesNvccFlags = opts.find_nothrow("nvcc-flag", false) != nullptr;
    const po::parsed_options parsed =
        po::command_line_parser(takesNvccFlags ? nvccFlagsJoined(args) : args)
            .options(opts)
            .positional(pos)
            .run();
    if (const std::string why = checkUnsignedOptions(parsed, opts); !why.empty()) {
      std::cerr << "warpsim " << name << ": " << why << "\n" << usage;
      return false;
    }
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "warpsim " << name << ": " << e.what() << "\n" << usage;
    return false;
  }
  return true;
}

unsigned hostThreads(const po::variables_map& vm) {
  const unsigned t = vm["threads"].as<unsigned>();
  if (t > kMaxHostThreads)
    throw harness::ArgError("--threads " + std::to_string(t) + ": expected 0 (every core) to " +
                            std::to_string(kMaxHostThreads));
  return t;
}

uint64_t deviceMemoryBytes(const po::variables_map& vm) {
  if (!vm.count("device-memory")) return sim::kDefaultDeviceMemoryBytes;
  const std::string text = vm["device-memory"].as<std::string>();
  static constexpr std::pair<const char*, unsigned> kUnits[] = {
      {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};
  std::string digits = text;
  unsigned shift = 0;
  for (const auto& [unit, s] : kUnits)
    if (digits.size() > 3 && digits.compare(digits.size() - 3, 3, unit) == 0) {
      digits.resize(digits.size() - 3);
      shift = s;
    }
  const bool plain = !digits.empty() && std::all_of(digits.begin(), digits.end(),
                                                    [](char c) { return c >= '0' && c <= '9'; });
  const auto n = plain ? harness::parseUnsignedText(digits) : std::nullopt;
  if (!n || *n == 0 || *n > (UINT64_MAX >> shift))
    throw harness::ArgError("--device-memory '" + text +
                            "': expected a positive number of bytes, optionally with KiB, MiB, "
                            "GiB or TiB (4GiB)");
  return *n << shift;
}

int replayCommandFor(const std::vector<std::string>& args, const ReplaySet& set) {
  po::options_description opts(std::string(set.name) + " options");
  opts.add_options()("help,h", "show this help")(
      "dir", po::value<std::vector<std::string>>(),
      (std::string("directories of ") + set.noun).c_str());
  po::positional_options_description pos;
  pos.add("dir", -1);
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, set.usage, set.name)) return kUsage;
  if (vm.count("help")) {
    std::cout << set.usage << "\n" << opts;
    return kOk;
  }
  const std::vector<std::string> dirs = vm.count("dir") ? vm["dir"].as<std::vector<std::string>>()
                                                        : std::vector<std::string>{set.defaultDir};
  unsigned total = 0, failed = 0;
  for (const auto& d : dirs) {
    if (!fs::is_directory(d)) {
      std::cerr << "warpsim " << set.name << ": '" << d << "' is not a directory\n";
      return kUsage;
    }
    std::vector<fs::path> cases;
    for (const auto& e : fs::recursive_directory_iterator(d))
      if (e.path().extension() == set.extension) cases.push_back(e.path());
    std::sort(cases.begin(), cases.end());
    for (const auto& p : cases) {
      ++total;
      std::string why;
      try {
        why = set.replayOne(p.string());
      } catch (const std::exception& e) {
        why = e.what();
      }
      if (!why.empty()) {
        ++failed;
        std::cout << p.string() << ": " << why << "\n";
      }
    }
  }
  std::cout << "replayed " << total << " " << set.noun << ": " << (total - failed) << " agree, "
            << failed << " differ\n";
  return failed ? kFailed : kOk;
}

}  // namespace warpsim::cli
