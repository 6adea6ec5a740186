// Pieces every command shares: parsing its options, and replaying a tree of recorded cases.
#pragma once

#include <boost/program_options.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace warpsim::cli {

// Parses `args`; on a bad option prints "warpsim NAME: <why>" and the usage, returns false.
// Unsigned options (uint16/32/64) must be decimal numbers that fit their type: "-1" and
// "4294967296" are refused rather than wrapped.
bool parseOptions(const std::vector<std::string>& args,
                  const boost::program_options::options_description& opts,
                  const boost::program_options::positional_options_description& pos,
                  boost::program_options::variables_map& vm, const char* usage, const char* name);

// More host threads than this give nothing on any machine warpsim runs on; the task arena
// is built from the value (65537 crashed TBB).
inline constexpr unsigned kMaxHostThreads = 1024;

// --threads, checked: 0 (every core) to kMaxHostThreads; throws harness::ArgError.
unsigned hostThreads(const boost::program_options::variables_map& vm);

// --device-memory BYTES[KiB|MiB|GiB|TiB] (a string option), or the default limit; throws
// harness::ArgError.
uint64_t deviceMemoryBytes(const boost::program_options::variables_map& vm);

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
