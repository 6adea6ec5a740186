#include "harness/cli/command_line.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "harness/cli/cli.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace warpsim::cli {

bool parseOptions(const std::vector<std::string>& args, const po::options_description& opts,
                  const po::positional_options_description& pos, po::variables_map& vm,
                  const char* usage, const char* name) {
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "warpsim " << name << ": " << e.what() << "\n" << usage;
    return false;
  }
  return true;
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
