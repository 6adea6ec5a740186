// Fuzzing of the whole command line: real command lines (from the README, the CLI tests and the
// golden error files) mutated token by token and run as the warpsim binary. Each run must end
// with exit status 0, 1 or 2 (never a signal: no crash, no uncaught exception, no sanitizer
// report in the ASan build), within its time, under a memory bound.
//
// Each case runs in a fresh process (fork + exec of WARPSIM_BINARY) in an empty temporary
// directory, so a crash is a result rather than the end of the test, and whatever a mutated
// --dump writes lands there. Two guards keep a valid but huge run bounded, appended after the
// mutation: `run` gets --time-limit 3 and --device-memory 64MiB (a mutated duplicate of either
// is a clean "multiple occurrences" error), and `suite` gets --list (it parses and checks every
// option, --size included, and lists instead of running the whole suite).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/ptx_mutate.h"

namespace warpsim {
namespace {

// clang-format off
// Command lines as a user types them (paths relative to the source tree).
const std::vector<std::string> kSeedLines = {
    "run tests/data/off_by_one.ptx --kernel off_by_one --grid 1 --block 64 --arg out=u32[32] --arg u32:32",
    "run tests/data/off_by_one.ptx --kernel off_by_one --grid 1 --block 32 --arg out=f32[32]:random(7,-1,1) --arg u32:31 --dump out",
    "run tests/data/typed_params.ptx --kernel typed --grid 1 --block 1 --arg p=u8[4] --arg u32:1 --arg f32:1 --arg u32:2 --arg f64:1 --arg u8:1 --arg f16:1",
    "run tests/data/typed_params.ptx -k typed -g 1 -b 1 -a p=u8[4]:iota -a u32:1 -a f32:1e38 -a u32:2 -a f64:1 -a u8:255 -a f16:1 --threads 2 --json",
    "run tests/golden/load_errors/local_recursion_in_kernel.ptx --kernel good --grid 1 --block 1 --arg out=u32[1] --dump out",
    "run tests/golden/load_errors/local_recursion_in_kernel.ptx --kernel bad --grid 1 --block 1",
    "run tests/data/triton/add_kernel.ptx --kernel add_kernel --grid 3 --block 128 --arg x=f32[2500]:iota --arg y=f32[2500]:const(1) --arg out=f32[2500] --arg u32:2500 --arg u64:0 --arg u64:0 --dump out",
    "run tests/data/recursive_depth.ptx --kernel rec_depth --grid 2 --block 32 --arg u32:100 --arg out=u32[32] --stack-size 4096 --budget 100000 --serial",
    "run tests/data/huge_global.ptx --kernel k --grid 1 --block 1 --shared 0",
    "suite vector_add --size 1000 --seed 3",
    "suite sgemm --timing --threads 1 --json",
    "suite transpose --size 4096 --check --tool racecheck",
    "suite vector_add --threads 100000",
    "suite vector_add --timing-config tests/data/timing/missing.json",
};
// Option names the commands know (and a few they do not), to insert with a value.
const std::vector<std::string> kOptions = {
    "--grid", "--block", "--shared", "--arg", "--dump", "--kernel", "--threads", "--budget",
    "--stack-size", "--size", "--seed", "--json", "--serial", "--timing", "--check", "--tool",
    "--timing-config", "--print-timing-config", "-g", "-b", "-a", "-k", "-d", "--", "-",
    "--help", "--nonexistent", "--size=", "--grid=", "--arg="};
const std::vector<std::string> kValues = {
    "1", "32", "1,1,1", "0,0,0", "1,2,3,4", "x=u32[4]", "u32:1", "out", "out:f.bin", "p=u8[]",
    "1KiB", "64MiB", "8GiB", "-1", "", " ", "all", "racecheck", "1.5", "nan", "inf", "1e400",
    "tests/data/typed_params.ptx", "/dev/zero", "f32[4]:file(/dev/zero)", "\xff\xfe"};
// clang-format on

std::vector<std::string> tokens(const std::string& line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < line.size()) {
    const size_t j = line.find(' ', i);
    out.push_back(line.substr(i, j == std::string::npos ? std::string::npos : j - i));
    if (j == std::string::npos) break;
    i = j + 1;
  }
  return out;
}

// One token mutated in place: a byte, a fragment of the argument language, a deletion.
std::string mutateToken(std::string s) {
  const size_t pos = *rc::gen::inRange<size_t>(0, s.size() + 1);
  switch (*rc::gen::inRange(0, 4)) {
    case 0:
      if (!s.empty()) s[std::min(pos, s.size() - 1)] = char(*rc::gen::arbitrary<uint8_t>());
      break;
    case 1:
      s.insert(pos, *rc::gen::elementOf(std::vector<std::string>{
                        ":", "[", "]", "(", ")", ",", "=", "-", "0x", "--", "1e400", "-1",
                        "4294967296", "18446744073709551616", "\\", "'", "\"", "%s", "\n"}));
      break;
    case 2:
      s.erase(std::min(pos, s.size()), *rc::gen::inRange<size_t>(1, 6));
      break;
    default:
      s.insert(pos, *rc::gen::elementOf(test::kExtremeNumbers));
  }
  return s;
}

// The command's arguments after 1-4 mutations of the token list.
std::vector<std::string> mutateLine(std::vector<std::string> t) {
  const int rounds = *rc::gen::inRange(1, 5);
  for (int r = 0; r < rounds; ++r) {
    // The command word (t[0]) stays: the guards below depend on it.
    const size_t n = t.size();
    const size_t i = n > 1 ? *rc::gen::inRange<size_t>(1, n) : 1;
    switch (*rc::gen::inRange(0, 7)) {
      case 0:  // delete a token
        if (n > 1) t.erase(t.begin() + long(i));
        break;
      case 1:  // duplicate one
        if (n > 1) t.insert(t.begin() + long(i), t[i]);
        break;
      case 2:  // swap two
        if (n > 2) std::swap(t[i], t[*rc::gen::inRange<size_t>(1, n)]);
        break;
      case 3:  // an extreme number in place of a token, or of a value after '=' or ':'
        if (n > 1) {
          const size_t cut = t[i].find_last_of("=:");
          t[i] = (cut == std::string::npos ? "" : t[i].substr(0, cut + 1)) +
                 *rc::gen::elementOf(test::kExtremeNumbers);
        }
        break;
      case 4: {  // an option, with a value
        const std::string value = *rc::gen::inRange(0, 2)
                                      ? *rc::gen::elementOf(kValues)
                                      : *rc::gen::elementOf(test::kExtremeNumbers);
        t.insert(t.begin() + long(std::min(i, n)), {*rc::gen::elementOf(kOptions), value});
        break;
      }
      case 5:  // a token's text
        if (n > 1) t[i] = mutateToken(t[i]);
        break;
      default:  // the line cut short
        if (n > 1) t.resize(*rc::gen::inRange<size_t>(1, n));
    }
  }
  return t;
}

// The guards that bound a run (see the top of the file): exact forms of the guarded options
// are removed, then the guards appended.
std::vector<std::string> guarded(const std::vector<std::string>& t) {
  const bool suite = t[0] == "suite";
  const std::vector<std::string> valued =
      suite ? std::vector<std::string>{}
            : std::vector<std::string>{"--time-limit", "--device-memory"};
  std::vector<std::string> out;
  for (size_t i = 0; i < t.size(); ++i) {
    bool drop = suite && t[i] == "--list";
    for (const std::string& o : valued) {
      if (t[i].rfind(o + "=", 0) == 0) drop = true;
      if (t[i] == o) {
        drop = true;
        ++i;  // and its value
      }
    }
    if (!drop && i < t.size()) out.push_back(t[i]);
  }
  if (suite) {
    out.push_back("--list");
  } else {
    out.insert(out.end(), {"--time-limit", "3", "--device-memory", "64MiB"});
  }
  return out;
}

struct RunResult {
  bool exited = false;
  int status = 0;       // exit status, or the signal
  bool killed = false;  // ran past the time allowed
  long peakKib = 0;
};

// Runs the binary with `args` (paths "tests/..." made absolute) in `dir`, stdout and stderr to
// /dev/null, for at most `seconds`.
RunResult runBinary(const std::vector<std::string>& args, const std::string& dir, int seconds) {
  std::vector<std::string> full{WARPSIM_BINARY};
  for (const std::string& a : args) {
    std::string s = a;
    if (const size_t p = s.find("tests/"); p != std::string::npos && s.rfind("tests/", 0) != 0 &&
                                           p > 0 && (s[p - 1] == '=' || s[p - 1] == '('))
      s.insert(p, std::string(WARPSIM_SOURCE_DIR) + "/");
    else if (s.rfind("tests/", 0) == 0)
      s = std::string(WARPSIM_SOURCE_DIR) + "/" + s;
    full.push_back(s);
  }
  std::vector<char*> argv;
  for (std::string& s : full) argv.push_back(s.data());
  argv.push_back(nullptr);
  RunResult r;
  const pid_t pid = fork();
  if (pid == 0) {  // only async-signal-safe calls until exec
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, 1);
      dup2(null, 2);
    }
    if (chdir(dir.c_str()) != 0) _exit(125);
    execv(argv[0], argv.data());
    _exit(126);
  }
  if (pid < 0) return r;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int status = 0;
  struct rusage use {};
  for (;;) {
    const pid_t done = wait4(pid, &status, WNOHANG, &use);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() > deadline && !r.killed) {
      kill(pid, SIGKILL);
      r.killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  r.exited = WIFEXITED(status);
  r.status = r.exited ? WEXITSTATUS(status) : WTERMSIG(status);
  r.peakKib = use.ru_maxrss;
  return r;
}

std::string joined(const std::vector<std::string>& t) {
  std::string s = "warpsim";
  for (const std::string& x : t) s += " '" + x + "'";
  return s;
}

// What is wrong with a run of `args` ("" when it ended cleanly).
std::string problemOf(const std::vector<std::string>& args, const std::string& dir) {
  const RunResult r = runBinary(args, dir, 60);
  if (r.killed) return "still running after 60 s: " + joined(args);
  if (!r.exited) return "killed by signal " + std::to_string(r.status) + ": " + joined(args);
  if (r.status == 126) return "the binary could not be started (exec failed): " + joined(args);
  if (r.status > 2) return "exit status " + std::to_string(r.status) + ": " + joined(args);
  if (r.peakKib > 1024 * 1024)
    return "peak memory " + std::to_string(r.peakKib) + " KiB: " + joined(args);
  return {};
}

// A fresh empty directory for the runs, removed at the end.
struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/warpsim-clifuzz-XXXXXX";
    path = mkdtemp(tmpl) ? tmpl : "/tmp";
  }
  ~TempDir() {
    std::error_code ec;
    if (path != "/tmp") std::filesystem::remove_all(path, ec);
  }
};

TEST(CliFuzz, SeedLinesRunAsTheyShould) {
  // The unmutated lines under the guards: each runs (0), faults (1) or is refused (2) as it
  // does when typed, so the mutations start from real runs.
  const std::vector<int> expected = {1, 0, 0, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0, 0};
  ASSERT_EQ(kSeedLines.size(), expected.size());
  TempDir dir;
  for (size_t i = 0; i < kSeedLines.size(); ++i) {
    const RunResult r = runBinary(guarded(tokens(kSeedLines[i])), dir.path, 60);
    EXPECT_TRUE(r.exited && !r.killed) << kSeedLines[i];
    EXPECT_EQ(r.status, expected[i]) << kSeedLines[i];
  }
}

// Command lines the fuzzer found a problem with, kept as regressions (guards included).
const std::vector<std::string> kRegressionLines = {
    // A grid of short CTAs ignored --time-limit (checked only after a CTA's first round of warp
    // slices): it ran for over ten minutes. Now stopped after 3 s.
    "run tests/data/recursive_depth.ptx --kernel rec_depth --grid 2324482 --block 32 --arg u32:100 "
    "--arg out=u32[32] --stack-size 4096 --budget 100000 --serial",
};

TEST(CliFuzz, RegressionLinesExitCleanly) {
  TempDir dir;
  for (const std::string& line : kRegressionLines)
    EXPECT_EQ(problemOf(guarded(tokens(line)), dir.path), "");
}

RC_GTEST_PROP(CliFuzz, MutatedCommandLinesExitCleanly, ()) {
  TempDir dir;
  const std::vector<std::string> t = mutateLine(tokens(*rc::gen::elementOf(kSeedLines)));
  const std::string why = problemOf(guarded(t), dir.path);
  if (!why.empty()) RC_FAIL(why);
}

}  // namespace
}  // namespace warpsim
