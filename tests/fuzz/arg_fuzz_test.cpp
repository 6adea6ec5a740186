// Fuzzing of the command line's argument language and options: mutated --arg specs, dimension
// lists and --dump specs must parse or throw ArgError (never wrap, crash or allocate beyond the
// limit); every unsigned option refuses what does not fit its type.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <boost/program_options.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "harness/arg_spec.h"
#include "harness/cli/command_line.h"
#include "tests/support/ptx_mutate.h"

namespace warpsim::harness {
namespace {

namespace po = boost::program_options;

// clang-format off
const std::vector<std::string> kValidArgs = {
    "u32:1024", "s32:-3", "f32:0.5", "f64:1e-3", "u64:0x10", "u8:255", "s8:-128", "f16:1.5",
    "bf16:2", "x=f32[4096]:random(7,-1,1)", "out=f32[4096]", "y=u32[16]:iota",
    "z=s16[8]:iota(-4,1)", "w=f64[3]:const(2.5)", "v=u8[10]:random(3)", "a=f32[]:file(/dev/null)",
    "b=u8[4]:file(/dev/zero)", "c=u64[2]:fill(7)"};
const std::vector<std::string> kArgFragments = {
    ":", "[", "]", "(", ")", ",", "=", "-", "0x", "1e400", "nan", "inf", "-1", "4294967296",
    "18446744073709551616", "99999999999999999999", "u8", "s64", "bf16", "f16", "iota",
    "random", "file", "const", "zeros", "/dev/zero", "/dev/urandom", "", " ", "\xff"};
// clang-format on

// The same text mutated: byte flips, fragments, deletions, extreme numbers (test::mutate knows
// PTX; these are the argument language's pieces).
std::string mutateArg(std::string s) {
  const int rounds = *rc::gen::inRange(1, 4);
  for (int r = 0; r < rounds; ++r) {
    const size_t pos = *rc::gen::inRange<size_t>(0, s.size() + 1);
    switch (*rc::gen::inRange(0, 4)) {
      case 0:
        if (!s.empty()) s[std::min(pos, s.size() - 1)] = char(*rc::gen::arbitrary<uint8_t>());
        break;
      case 1:
        s.insert(pos, *rc::gen::elementOf(kArgFragments));
        break;
      case 2:
        s.erase(std::min(pos, s.size()), *rc::gen::inRange<size_t>(1, 6));
        break;
      default:
        s.insert(pos, *rc::gen::elementOf(test::kExtremeNumbers));
    }
  }
  return s;
}

constexpr uint64_t kLimit = 1 << 20;  // bytes a fuzzed buffer may take

RC_GTEST_PROP(ArgFuzz, MutatedArgsParseOrFailWithArgError, ()) {
  const std::string text = mutateArg(*rc::gen::elementOf(kValidArgs));
  try {
    const ParsedArg a = parseArg(text, 1, 0, kLimit);
    RC_ASSERT(a.buffer.bytes.size() <= kLimit);
    if (!a.isBuffer) RC_ASSERT(a.arg.scalar.size() == kernels::elemBytes(a.type));
  } catch (const ArgError& e) {
    RC_ASSERT(std::string(e.what()).rfind("--arg 1 '", 0) == 0);
  }
}

RC_GTEST_PROP(ArgFuzz, IntegerScalarsAreAcceptedExactlyWhenTheyFit, (int64_t v, bool hi)) {
  // Values near the u32 and s32 edges: accepted iff inside the type's range, never wrapped.
  const int64_t x = hi ? int64_t(0xFFFFFFFFll) + v % 4 : v % (int64_t(1) << 33);
  for (const char* type : {"u32", "s32"}) {
    const bool isU = type[0] == 'u';
    const bool fits = isU ? x >= 0 && x <= 0xFFFFFFFFll : x >= INT32_MIN && x <= INT32_MAX;
    bool accepted = true;
    uint32_t bits = 0;
    try {
      const ParsedArg a = parseArg(std::string(type) + ":" + std::to_string(x), 1, 0, kLimit);
      std::memcpy(&bits, a.arg.scalar.data(), 4);
    } catch (const ArgError&) {
      accepted = false;
    }
    RC_ASSERT(accepted == fits);
    if (accepted) RC_ASSERT(bits == uint32_t(x));
  }
}

RC_GTEST_PROP(ArgFuzz, MutatedDimsAndDumpsParseOrFailWithArgError, ()) {
  const std::string dims =
      mutateArg(*rc::gen::elementOf(std::vector<std::string>{"1", "32,4", "2,2,2"}));
  try {
    const kernels::Dim3 d = parseDim3(dims, "--grid");
    RC_ASSERT(d.x > 0 && d.y > 0 && d.z > 0);
  } catch (const ArgError&) {
  }
  try {
    parseDump(mutateArg("out:/tmp/x.bin"));
  } catch (const ArgError&) {
  }
}

// The options every command declares: unsigned numbers must fit their type, --threads and
// --device-memory their range. parseOptions prints refusals; they go to a muted stream here.
RC_GTEST_PROP(ArgFuzz, UnsignedOptionsNeverWrap, ()) {
  const std::string v = mutateArg(*rc::gen::elementOf(std::vector<std::string>{"0", "8", "1024"}));
  po::options_description opts("o");
  opts.add_options()("threads", po::value<unsigned>()->default_value(0), "")(
      "budget", po::value<uint64_t>(), "")("device-memory", po::value<std::string>(), "");
  po::positional_options_description pos;
  for (const char* name : {"threads", "budget", "device-memory"}) {
    po::variables_map vm;
    std::streambuf* old = std::cerr.rdbuf();
    std::ostringstream muted;
    std::cerr.rdbuf(muted.rdbuf());
    const bool ok = cli::parseOptions({std::string("--") + name, v}, opts, pos, vm, "", "fuzz");
    std::cerr.rdbuf(old);
    if (!ok) continue;
    const bool digits = !v.empty() && v.find_first_not_of("0123456789") == std::string::npos;
    if (std::string(name) == "threads") {
      RC_ASSERT(digits);  // "-1" is never read as 4294967295
      try {
        RC_ASSERT(cli::hostThreads(vm) <= cli::kMaxHostThreads);
      } catch (const ArgError&) {
      }
    } else if (std::string(name) == "budget") {
      RC_ASSERT(digits);
    } else {
      try {
        RC_ASSERT(cli::deviceMemoryBytes(vm) > 0);
      } catch (const ArgError&) {
      }
    }
  }
}

}  // namespace
}  // namespace warpsim::harness
