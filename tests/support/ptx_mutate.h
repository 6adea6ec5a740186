// Mutation fuzzing of PTX text, shared by the parser's and the launch path's fuzz tests and the
// libFuzzer target's seeds: random mutations drawn through RapidCheck (so that failures
// shrink), a check that a PtxError points inside its input, and a guard that turns a hang into
// a loud failure.
#pragma once

#include <rapidcheck.h>

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

#include "isa/diagnostic.h"

namespace warpsim::test {

// Aborts the test binary, printing the input, when an input makes no progress for 20 s: a
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
        std::fprintf(stderr, "hang (no progress for 20 s) on a %zu-byte input:\n%s\n",
                     current_.size(), current_.c_str());
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

// Empty when `e`, thrown for `text` (parsed as "fuzz.ptx"), points inside it; else what is
// wrong.
inline std::string ptxErrorProblem(const std::string& text, const isa::PtxError& e) {
  {
    const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    const std::string where = " (" + std::string(e.what()) + ")";
    if (e.line() < 1 || e.line() > lines) return "line outside the file" + where;
    if (e.col() < 1) return "column 0" + where;
    if (e.col() > isa::lineOf(text, e.line()).size() + 1)
      return "column past the line's end" + where;
    if (e.message().empty()) return "empty message";
    if (std::string(e.what()).rfind("fuzz.ptx:", 0) != 0) return "what() lacks the path" + where;
    return {};
  }
}

// Characters that matter to the grammar, so that mutations reach past the lexer.
inline constexpr char kSpecial[] = ";,:{}[]()<>+-!@|=.%_$\"/*\n\t 0123456789xfdU";
// clang-format off
inline const std::vector<std::string> kFragments = {
    ".reg", ".b32", "%r<", "<", ">", "{", "}", "[", "]", "(", ")", "/*", "*/", "//", "\"",
    "0f", "0d", "0x", "0b", "@%p1", "@!", "!", "::", ".loc 1 2", "function_name", "inlined_at",
    "_", ",", ";", "\n", ".entry", ".func", ".section", ".pragma \"x\";", "$L__BB0_1:", "1.5e",
    "=", "{{{{", "}}}}", "-", "+", "99999999999999999999", ".extern", ".param", ".v4", ".align",
    "generic(", "%tid.x", "call.uni", ".callprototype", "\r", std::string(1, '\0'), "\xff"};
// clang-format on

// Numbers at and past the edges of every limit: register counts, array sizes, alignments,
// vector widths, immediates.
inline const std::vector<std::string> kExtremeNumbers = {"0",
                                                         "1",
                                                         "3",
                                                         "7",
                                                         "31",
                                                         "32",
                                                         "33",
                                                         "255",
                                                         "256",
                                                         "1023",
                                                         "1024",
                                                         "1025",
                                                         "32764",
                                                         "49152",
                                                         "65535",
                                                         "65536",
                                                         "65537",
                                                         "232448",
                                                         "524289",
                                                         "2147483647",
                                                         "2147483648",
                                                         "4294967295",
                                                         "4294967296",
                                                         "9223372036854775807",
                                                         "18446744073709551615",
                                                         "99999999999999999999",
                                                         "0x7FFFFFFF",
                                                         "0xFFFFFFFFFFFFFFFF",
                                                         "0f7F800000",
                                                         "0d7FF8000000000000",
                                                         "1e308"};

inline std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

inline std::string joinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

// One random mutation of `text`, each choice drawn through RapidCheck so failures shrink.
inline void mutate(std::string& text) {
  const size_t n = text.size();
  const size_t pos = *rc::gen::inRange<size_t>(0, n + 1);
  switch (*rc::gen::inRange(0, 9)) {
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
    case 6: {  // swap two whole lines
      std::vector<std::string> lines = splitLines(text);
      if (lines.size() < 2) return;
      const size_t a = *rc::gen::inRange<size_t>(0, lines.size());
      const size_t b = *rc::gen::inRange<size_t>(0, lines.size());
      std::swap(lines[a], lines[b]);
      text = joinLines(lines);
      break;
    }
    case 7: {  // delete a whole line
      std::vector<std::string> lines = splitLines(text);
      if (lines.empty()) return;
      lines.erase(lines.begin() + std::ptrdiff_t(*rc::gen::inRange<size_t>(0, lines.size())));
      text = joinLines(lines);
      break;
    }
    case 8: {  // replace a number with an extreme one: sizes, counts, dimensions, immediates
      std::vector<size_t> starts;
      for (size_t i = 0; i < n; ++i)
        if (std::isdigit(static_cast<unsigned char>(text[i])) &&
            (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1]))))
          starts.push_back(i);
      if (starts.empty()) return;
      const size_t a = *rc::gen::elementOf(starts);
      size_t b = a;
      while (b < n && std::isalnum(static_cast<unsigned char>(text[b]))) ++b;
      text.replace(a, b - a, *rc::gen::elementOf(kExtremeNumbers));
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

}  // namespace warpsim::test
