// The committed sample of a measured form (tests/recorded/approx/<form>.sample).
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "harness/approx/approx.h"

namespace warpsim::harness::approx {

namespace {

[[noreturn]] void malformed(const std::string& path, unsigned line, const std::string& why) {
  throw std::runtime_error(path + ":" + std::to_string(line) + ": malformed approx sample: " + why);
}

uint64_t parseHex(const std::string& s, const std::string& path, unsigned line) {
  size_t used = 0;
  uint64_t v = 0;
  try {
    v = std::stoull(s, &used, 16);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || s.empty()) malformed(path, line, "not a hex number: '" + s + "'");
  return v;
}

}  // namespace

void writeSample(const Sample& s, const std::string& path) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error(path + ": cannot write");
  f << "warpsim-approx-sample 1\nfunction " << s.function << "\ndevice " << s.device << "\n";
  for (const std::string& l : s.setLines) f << "set " << l << "\n";
  f << "sample_exact " << s.sampleExact << " of " << s.gpu.size() << "\n";
  f << "sample_maxulp " << s.sampleMaxUlp << "\n";
  char b[64];
  for (size_t i = 0; i < s.gpu.size(); ++i) {
    if (s.b.empty())
      std::snprintf(b, sizeof b, "%llx %llx\n", (unsigned long long)s.a[i],
                    (unsigned long long)s.gpu[i]);
    else
      std::snprintf(b, sizeof b, "%llx %llx %llx\n", (unsigned long long)s.a[i],
                    (unsigned long long)s.b[i], (unsigned long long)s.gpu[i]);
    f << b;
  }
}

Sample readSample(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error(path + ": cannot read");
  Sample s;
  std::string line;
  unsigned n = 0;
  if (!std::getline(f, line) || line != "warpsim-approx-sample 1")
    malformed(path, 1, "expected 'warpsim-approx-sample 1'");
  ++n;
  uint64_t declared = 0;
  bool haveCount = false;
  while (std::getline(f, line)) {
    ++n;
    if (line.empty()) continue;
    std::istringstream in(line);
    std::string key;
    in >> key;
    if (key == "function") {
      in >> s.function;
    } else if (key == "device") {
      std::getline(in >> std::ws, s.device);
    } else if (key == "set") {
      std::string rest;
      std::getline(in >> std::ws, rest);
      s.setLines.push_back(rest);
    } else if (key == "sample_exact") {
      std::string of;
      if (!(in >> s.sampleExact >> of >> declared) || of != "of")
        malformed(path, n, "expected 'sample_exact N of M'");
      haveCount = true;
    } else if (key == "sample_maxulp") {
      if (!(in >> s.sampleMaxUlp)) malformed(path, n, "expected 'sample_maxulp N'");
    } else {
      std::vector<std::string> words{key};
      for (std::string w; in >> w;) words.push_back(w);
      if (words.size() != 2 && words.size() != 3)
        malformed(path, n, "expected '<a> [<b>] <gpu>' in hex");
      s.a.push_back(parseHex(words[0], path, n));
      if (words.size() == 3) s.b.push_back(parseHex(words[1], path, n));
      s.gpu.push_back(parseHex(words.back(), path, n));
    }
  }
  if (s.function.empty()) malformed(path, n, "no 'function' line");
  if (!haveCount || declared != s.gpu.size())
    malformed(
        path, n,
        "'sample_exact' does not count the " + std::to_string(s.gpu.size()) + " sample lines");
  if (!s.b.empty() && s.b.size() != s.a.size())
    malformed(path, n, "mixed one- and two-operand lines");
  return s;
}

}  // namespace warpsim::harness::approx
