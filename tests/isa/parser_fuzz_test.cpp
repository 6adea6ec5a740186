// The parser on broken input: real nvcc modules mutated at random (byte flips, insertions,
// deletions, duplicated tokens, truncation) must parse or throw a PtxError that points
// inside the text, never crash, hang or throw anything else.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "isa/parser.h"
#include "tests/isa/nvcc_ptx_samples.h"

namespace warpsim::isa {
namespace {

const std::vector<std::string>& modules() {
  static const std::vector<std::string> m = {samples::kCallsPtx, samples::kSmemPtx,
                                             samples::kHalfPtx,  samples::kIndirectPtx,
                                             samples::kAtomPtx,  samples::kMiscPtx};
  return m;
}

// Aborts the test binary, printing the input, when a parse makes no progress for 20 s: a
// hang then fails loudly instead of stalling the suite until CI's timeout.
class HangGuard {
 public:
  HangGuard() : thread_([this] { watch(); }) {}
  ~HangGuard() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void starting(const std::string& text) {
    std::lock_guard<std::mutex> lock(mu_);
    ++ticks_;
    current_ = text;
    cv_.notify_all();
  }

 private:
  void watch() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!done_) {
      const uint64_t seen = ticks_;
      if (!cv_.wait_for(lock, std::chrono::seconds(20), [&] { return done_ || ticks_ != seen; })) {
        std::fprintf(stderr, "parser hang on a %zu-byte input:\n%s\n", current_.size(),
                     current_.c_str());
        std::abort();
      }
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  uint64_t ticks_ = 0;
  bool done_ = false;
  std::string current_;
  std::thread thread_;  // last: started once the members it uses exist
};

// Empty when `text` parses or fails with a PtxError that points inside it; else what is wrong.
std::string checkParse(const std::string& text) {
  try {
    parseModule(text, "fuzz.ptx");
    return {};
  } catch (const PtxError& e) {
    const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    const std::string where = " (" + std::string(e.what()) + ")";
    if (e.line() < 1 || e.line() > lines) return "line outside the file" + where;
    if (e.col() < 1) return "column 0" + where;
    if (e.col() > lineOf(text, e.line()).size() + 1) return "column past the line's end" + where;
    if (e.message().empty()) return "empty message";
    if (std::string(e.what()).rfind("fuzz.ptx:", 0) != 0) return "what() lacks the path" + where;
    return {};
  }
}

// Characters that matter to the grammar, so that mutations reach past the lexer.
constexpr char kSpecial[] = ";,:{}[]()<>+-!@|=.%_$\"/*\n\t 0123456789xfdU";
// clang-format off
const std::vector<std::string> kFragments = {
    ".reg", ".b32", "%r<", "<", ">", "{", "}", "[", "]", "(", ")", "/*", "*/", "//", "\"",
    "0f", "0d", "0x", "0b", "@%p1", "@!", "!", "::", ".loc 1 2", "function_name", "inlined_at",
    "_", ",", ";", "\n", ".entry", ".func", ".section", ".pragma \"x\";", "$L__BB0_1:", "1.5e",
    "=", "{{{{", "}}}}", "-", "+", "99999999999999999999", ".extern", ".param", ".v4", ".align",
    "generic(", "%tid.x", "call.uni", ".callprototype", "\r", std::string(1, '\0'), "\xff"};
// clang-format on

// One random mutation of `text`, each choice drawn through RapidCheck so failures shrink.
void mutate(std::string& text) {
  const size_t n = text.size();
  const size_t pos = *rc::gen::inRange<size_t>(0, n + 1);
  switch (*rc::gen::inRange(0, 6)) {
    case 0: {  // flip a byte, to a grammar character or any byte
      if (n == 0) return;
      const bool special = *rc::gen::arbitrary<bool>();
      const char c = special ? *rc::gen::elementOf(std::string(kSpecial))
                             : static_cast<char>(*rc::gen::arbitrary<uint8_t>());
      text[std::min(pos, n - 1)] = c;
      break;
    }
    case 1:  // insert a fragment
      text.insert(pos, *rc::gen::elementOf(kFragments));
      break;
    case 2: {  // delete a run
      const size_t len = *rc::gen::inRange<size_t>(1, 40);
      text.erase(std::min(pos, n), len);
      break;
    }
    case 3: {  // duplicate the whitespace-delimited token at pos, with what follows it
      if (n == 0) return;
      size_t a = std::min(pos, n - 1), b = a;
      while (a > 0 && !std::isspace(static_cast<unsigned char>(text[a - 1]))) --a;
      while (b < n && !std::isspace(static_cast<unsigned char>(text[b]))) ++b;
      const size_t extra = *rc::gen::inRange<size_t>(0, 3);
      if (b + extra <= n) b += extra;
      text.insert(a, text.substr(a, b - a));
      break;
    }
    case 4: {  // truncate just before or after a character of one class
      const char c = *rc::gen::elementOf(std::string(";{}[],\"/.%\n0a"));
      std::vector<size_t> at;
      for (size_t i = 0; i < n; ++i)
        if (text[i] == c || (c == '0' && std::isdigit(static_cast<unsigned char>(text[i]))) ||
            (c == 'a' && std::isalpha(static_cast<unsigned char>(text[i]))))
          at.push_back(i);
      if (at.empty()) return;
      const size_t i = *rc::gen::elementOf(at);
      text.resize(i + (*rc::gen::arbitrary<bool>() ? 1 : 0));
      break;
    }
    default:  // move a piece of text elsewhere: statements out of order
      if (n < 2) return;
      {
        const size_t b = *rc::gen::inRange<size_t>(0, n);
        const size_t len = *rc::gen::inRange<size_t>(1, 80);
        std::string piece = text.substr(b, len);
        text.erase(b, len);
        text.insert(std::min(pos, text.size()), piece);
      }
  }
}

RC_GTEST_PROP(ParserFuzz, MutatedModulesParseOrFailCleanly, ()) {
  HangGuard guard;
  // Several independently mutated copies per case: RapidCheck's default 100 cases then cover
  // thousands of inputs in well under a second, and a failure still shrinks.
  for (int variant = 0; variant < 8; ++variant) {
    std::string text = *rc::gen::elementOf(modules());
    const int rounds = *rc::gen::inRange(1, 12);
    for (int i = 0; i < rounds; ++i) {
      mutate(text);
      guard.starting(text);
      const std::string problem = checkParse(text);
      RC_ASSERT(problem == std::string());
    }
  }
}

RC_GTEST_PROP(ParserFuzz, TruncatedModulesParseOrFailCleanly, ()) {
  const std::string& text = *rc::gen::elementOf(modules());
  const size_t cut = *rc::gen::inRange<size_t>(0, text.size() + 1);
  const std::string problem = checkParse(text.substr(0, cut));
  RC_ASSERT(problem == std::string());
}

// Every truncation point of every sample, not only random ones. A module cut while a brace
// is open (inside a body, an initializer or a .section) can never parse.
TEST(ParserFuzz, EveryTruncationOfEverySample) {
  HangGuard guard;
  for (const std::string& text : modules()) {
    int depth = 0;
    bool inComment = false;
    for (size_t cut = 0; cut <= text.size(); ++cut) {
      const std::string t = text.substr(0, cut);
      guard.starting(t);
      ASSERT_EQ(checkParse(t), "") << "cut at " << cut;
      if (depth > 0) {
        EXPECT_THROW(parseModule(t, "fuzz.ptx"), PtxError) << "cut at " << cut;
      }
      if (cut == text.size()) break;
      // Track brace depth outside `//` comments (nvcc's samples have no braces in strings).
      const char c = text[cut];
      if (inComment) {
        inComment = c != '\n';
      } else if (c == '/' && cut + 1 < text.size() && text[cut + 1] == '/') {
        inComment = true;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        --depth;
      }
    }
    EXPECT_EQ(depth, 0);
  }
}

}  // namespace
}  // namespace warpsim::isa
