// Pieces every command shares: parsing its options, and replaying a tree of recorded cases.
#pragma once

#include <boost/program_options.hpp>

#include <functional>
#include <string>
#include <vector>

namespace warpsim::cli {

// Parses `args`; on a bad option prints "warpsim NAME: <why>" and the usage, returns false.
bool parseOptions(const std::vector<std::string>& args,
                  const boost::program_options::options_description& opts,
                  const boost::program_options::positional_options_description& pos,
                  boost::program_options::variables_map& vm, const char* usage, const char* name);

// What a replay command replays: files ending in `extension` under the directories it is given
// (`defaultDir` when none), each through `replayOne`, which returns "" when the simulator agrees
// with the recording and otherwise why not (an exception counts as a disagreement, its text the
// reason). Prints each disagreement and "replayed N <noun>: K agree, M differ".
struct ReplaySet {
  const char* name;  // the command, for messages: "replay"
  const char* usage;
  const char* defaultDir;  // "tests/recorded"
  const char* extension;   // ".case"
  const char* noun;        // "recorded cases"
  std::function<std::string(const std::string& path)> replayOne;
};

int replayCommandFor(const std::vector<std::string>& args, const ReplaySet& set);

}  // namespace warpsim::cli
