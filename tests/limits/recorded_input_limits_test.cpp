// Recorded cases are input too (warpsim replay, isa-replay): a size, a geometry or a sample index
// read from the file is checked before it sizes or indexes anything, and a bad hexadecimal value
// is a malformed-file error naming the line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "harness/ptxgen/isa_case.h"
#include "harness/recording.h"
#include "harness/suite.h"
#include "kernels/card.h"

namespace warpsim {
namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A copy of a recorded vector_add case (and its PTX) in a temporary directory, edited by `edit`.
struct CaseCopy {
  fs::path dir;
  fs::path file;
  explicit CaseCopy(const std::function<std::string(std::string)>& edit) {
    const fs::path src = fs::path(WARPSIM_SOURCE_DIR) / "tests/recorded/suite";
    char tmpl[] = "/tmp/warpsim-case-XXXXXX";
    dir = mkdtemp(tmpl);
    fs::create_directories(dir / "vector_add");
    fs::create_directories(dir / "ptx");
    std::string text = readFile(src / "vector_add/vector_add-0.case");
    const size_t p = text.find("ptx ../ptx/");
    const std::string ptx = text.substr(p + 11, text.find('\n', p) - p - 11);
    fs::copy_file(src / "ptx" / ptx, dir / "ptx" / ptx);
    file = dir / "vector_add/case.case";
    std::ofstream(file) << edit(text);
  }
  ~CaseCopy() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const size_t p = s.find(from);
  if (p != std::string::npos) s.replace(p, from.size(), to);
  return s;
}

TEST(RecordedInputLimits, TheUneditedCaseReplays) {
  CaseCopy c([](std::string t) { return t; });
  EXPECT_EQ(harness::replayCase(harness::readCase(c.file.string())).message, "");
}

TEST(RecordedInputLimits, AHugeSizeIsRefusedBeforeTheProblemIsMade) {
  // 10^12 elements of three f32 buffers: 12 TB, once a bad_alloc or an OOM kill.
  CaseCopy c([](std::string t) { return replace(t, "size 65536", "size 1000000000000"); });
  const harness::ReplayResult r = harness::replayCase(harness::readCase(c.file.string()));
  EXPECT_EQ(r.message,
            "size 1000000000000 of 'vector_add' would need about 1.2e+13 bytes of buffers (they "
            "grow as size), more than the 4294967296 bytes of device memory");
}

TEST(RecordedInputLimits, ASampleIndexPastTheBufferIsNotRead) {
  // The output differs (hash 0), and the first sample names element 10^11 of 65536.
  CaseCopy c([](std::string t) {
    t = replace(t, "output c f32 65536 fnv1a64 ec836681112d3aa", "output c f32 65536 fnv1a64 0");
    return replace(t, "sample c 0 ", "sample c 100000000000 0\nsample c 0 ");
  });
  const harness::ReplayResult r = harness::replayCase(harness::readCase(c.file.string()));
  EXPECT_EQ(r.message,
            "buffer 'c' differs from the GPU's: sample index 100000000000 is outside its 65536 "
            "elements");
}

TEST(RecordedInputLimits, BadHexadecimalIsAMalformedLine) {
  CaseCopy c([](std::string t) { return replace(t, "dc4dad15f62d87f8", "zz"); });
  try {
    harness::readCase(c.file.string());
    FAIL() << "read";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(
        std::string(e.what()),
        c.file.string() + ":6: malformed recorded case: 'zz' is not a 64-bit hexadecimal value");
  }
}

TEST(RecordedInputLimits, CardSizesThatDoNotFitAreRefused) {
  const kernels::Card* add = kernels::findCard("vector_add");
  ASSERT_TRUE(add);
  EXPECT_EQ(harness::cardSizeError(*add, 0), "");
  EXPECT_EQ(harness::cardSizeError(*add, 1 << 20), "");
  EXPECT_NE(harness::cardSizeError(*add, uint64_t(1) << 40), "");
  // Matrices grow as the square of the size.
  const kernels::Card* gemm = kernels::findCard("sgemm_tiled");
  ASSERT_TRUE(gemm);
  EXPECT_EQ(harness::cardSizeError(*gemm, 1024), "");
  const std::string why = harness::cardSizeError(*gemm, 100000);
  EXPECT_NE(why.find("(they grow as size^2)"), std::string::npos) << why;
  EXPECT_NE(harness::cardSizeError(*gemm, 100000, uint64_t(1) << 50), why);
}

TEST(RecordedInputLimits, AnIsaCaseGeometryIsBounded) {
  const fs::path src = fs::path(WARPSIM_SOURCE_DIR) / "tests/recorded/isa/prog-1.isacase";
  std::string text = readFile(src);
  char tmpl[] = "/tmp/warpsim-isacase-XXXXXX";
  const fs::path dir = mkdtemp(tmpl);
  const size_t g = text.find("\ngrid ");
  text.replace(g + 6, text.find('\n', g + 1) - g - 6, "2147483647");
  std::ofstream(dir / "p.isacase") << text;
  try {
    ptxgen::readIsaCase((dir / "p.isacase").string());
    FAIL() << "read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("an ISA case has at most 1024 threads per block, 1048576 "
                                         "threads and 4096 words"),
              std::string::npos)
        << e.what();
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace
}  // namespace warpsim
