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
#include "tests/support/ptx_mutate.h"

namespace warpsim::isa {
namespace {

const std::vector<std::string>& modules() {
  static const std::vector<std::string> m = {samples::kCallsPtx, samples::kSmemPtx,
                                             samples::kHalfPtx,  samples::kIndirectPtx,
                                             samples::kAtomPtx,  samples::kMiscPtx};
  return m;
}

// Empty when `text` parses or fails with a PtxError that points inside it; else what is wrong.
std::string checkParse(const std::string& text) {
  try {
    parseModule(text, "fuzz.ptx");
    return {};
  } catch (const PtxError& e) {
    return test::ptxErrorProblem(text, e);
  }
}

using test::HangGuard;
using test::mutate;

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
