// Reading the recorded chunk hashes, and computing the model's.
#include "harness/approx/fastmath_hashes.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "isa/sfu/chunk_hash.h"

namespace warpsim::harness::approx {

RecordedHashes readRecordedHashes(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file.string() + ": cannot open");
  RecordedHashes r;
  std::string line;
  int lineNo = 0;
  auto fail = [&](const std::string& why) {
    throw std::runtime_error(file.string() + ":" + std::to_string(lineNo) + ": " + why);
  };
  size_t perForm = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty()) continue;
    std::istringstream s(line);
    std::string word;
    s >> word;
    if (lineNo == 1) {
      if (line != "warpsim-fastmath-hashes 1") fail("not a warpsim-fastmath-hashes 1 file");
    } else if (word == "device") {
      r.device = line.substr(7);
    } else if (word == "chunk_bits") {
      if (!(s >> r.chunkBits) || r.chunkBits < 8 || r.chunkBits > 32) fail("bad chunk_bits");
      perForm = size_t{1} << (32 - r.chunkBits);
    } else if (word == "form") {
      if (!perForm) fail("form before chunk_bits");
      if (!r.forms.empty() && r.forms.back().chunks.size() != perForm)
        fail("form " + r.forms.back().name + " has " +
             std::to_string(r.forms.back().chunks.size()) + " hashes, not " +
             std::to_string(perForm));
      r.forms.push_back({});
      if (!(s >> r.forms.back().name)) fail("form without a name");
    } else {
      if (r.forms.empty()) fail("hashes before a form");
      s.clear();
      s.str(line);
      std::string hex;
      while (s >> hex) {
        size_t used = 0;
        uint64_t v = 0;
        try {
          v = std::stoull(hex, &used, 16);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != hex.size() || hex.size() > 16) fail("bad hash '" + hex + "'");
        r.forms.back().chunks.push_back(v);
      }
    }
  }
  if (r.forms.empty()) fail("no forms");
  if (r.forms.back().chunks.size() != perForm)
    fail("form " + r.forms.back().name + " has " + std::to_string(r.forms.back().chunks.size()) +
         " hashes, not " + std::to_string(perForm));
  return r;
}

uint64_t modelChunkHash(const isa::sfu::Form& form, int chunkBits, uint32_t chunk) {
  const uint64_t count = uint64_t{1} << chunkBits;
  return isa::sfu::hashRange(form.fn, uint64_t{chunk} * count, count);
}

}  // namespace warpsim::harness::approx
