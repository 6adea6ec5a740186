// The fast-math models against the H200 (isa/sfu, harness/approx/fastmath_hashes): the
// recorded chunk hashes of every input, replayed for a sample of chunks; the 16-bit exception
// lists; the hash itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "harness/approx/fastmath_hashes.h"
#include "isa/sfu/approx.h"
#include "isa/sfu/chunk_hash.h"
#include "isa/sfu/forms.h"
#include "isa/sfu/half_tables.h"
#include "tests/support/temp_path.h"

namespace warpsim::harness::approx {
namespace {

namespace fs = std::filesystem;
namespace sfu = isa::sfu;

const RecordedHashes& recorded() {
  static const RecordedHashes r = readRecordedHashes(fs::path(WARPSIM_SOURCE_DIR) / "tests" /
                                                     "recorded" / "fastmath" / "chunk_hashes.txt");
  return r;
}

const RecordedForm& recordedForm(std::string_view name) {
  for (const RecordedForm& f : recorded().forms)
    if (f.name == name) return f;
  throw std::runtime_error("no recorded form " + std::string(name));
}

TEST(FastmathHashes, RecordedFileCoversEveryFormInTheProbesOrder) {
  const RecordedHashes& r = recorded();
  EXPECT_EQ(r.chunkBits, 24);
  ASSERT_EQ(r.forms.size(), sfu::fastmathForms().size());
  for (size_t i = 0; i < r.forms.size(); ++i) {
    EXPECT_EQ(r.forms[i].name, sfu::fastmathForms()[i].name);
    EXPECT_EQ(r.forms[i].chunks.size(), 256u);
  }
  // sin/cos.approx.f32 compile to the same SASS with and without .ftz: the chip agrees.
  EXPECT_EQ(recordedForm("sin.approx.f32").chunks, recordedForm("sin.approx.ftz.f32").chunks);
  EXPECT_EQ(recordedForm("cos.approx.f32").chunks, recordedForm("cos.approx.ftz.f32").chunks);
}

TEST(FastmathHashes, HashIsTheSumOverInputsOfTheMixedPair) {
  auto square = [](uint32_t x) { return x * x; };
  uint64_t sum = 0;
  for (uint64_t i = 100; i < 110; ++i) sum += sfu::mix64((i << 32) | uint32_t(i * i));
  EXPECT_EQ(sfu::hashRange(square, 100, 10), sum);
  // Additive over parts: a coarse chunk is the sum of its fine ones.
  EXPECT_EQ(sfu::hashRange(square, 0, 64),
            sfu::hashRange(square, 0, 16) + sfu::hashRange(square, 16, 48));
  EXPECT_EQ(sfu::mix64(0), 0xE220A8397B1DCDAFull);  // splitmix64's first output from seed 0
}

// The 16-bit x2 forms are exact on every input: a sample of 2^24-input chunks (both halves
// vary), the whole 2^32 by `warpsim fastmath-verify --form ex2.approx.f16x2 ...`.
TEST(FastmathHashes, HalfFormsMatchTheChipOnSampledChunks) {
  for (std::string_view name :
       {"ex2.approx.f16x2", "ex2.approx.ftz.bf16x2", "tanh.approx.f16x2", "tanh.approx.bf16x2"}) {
    const sfu::Form& form = *sfu::findForm(name);
    for (uint32_t chunk : {0x3Cu, 0xC1u}) {
      EXPECT_EQ(modelChunkHash(form, 24, chunk), recordedForm(name).chunks[chunk])
          << name << " chunk " << chunk;
    }
  }
}

TEST(FastmathTables, ExceptionListsAreSortedAndDifferFromTheComputedValue) {
  struct List {
    std::span<const sfu::HalfException> list;
    uint16_t (*computed)(uint16_t);
    uint16_t (*exact)(uint16_t);
  };
  for (const List& l :
       {List{sfu::ex2F16Exceptions(), sfu::ex2ApproxF16Computed, sfu::ex2ApproxF16},
        List{sfu::ex2FtzBF16Exceptions(), sfu::ex2ApproxFtzBF16Computed, sfu::ex2ApproxFtzBF16},
        List{sfu::tanhF16Exceptions(), sfu::tanhApproxF16Computed, sfu::tanhApproxF16},
        List{sfu::tanhBF16Exceptions(), sfu::tanhApproxBF16Computed, sfu::tanhApproxBF16}}) {
    EXPECT_TRUE(
        std::is_sorted(l.list.begin(), l.list.end(), [](auto a, auto b) { return a.in < b.in; }));
    for (const sfu::HalfException& e : l.list) {
      EXPECT_NE(l.computed(e.in), e.out) << e.in;
      EXPECT_EQ(l.exact(e.in), e.out) << e.in;
    }
  }
  // tanh is the exact MUFU.TANH (every binade of [2^-8, 8) tabled) toward zero: no exception
  // left (7,610 f16 and 948 bf16 inputs without the SFU's limits, 48 and 4 with the [1, 2)
  // table alone).
  EXPECT_EQ(sfu::tanhApproxF16(0x1C07), 0x1C07);  // 2^-8 (1 + 7/1024): x itself
  EXPECT_EQ(sfu::tanhApproxF16(0x4800), 0x3C00);  // tanh(8) = 1 exactly, not 1 - 2^-11
  EXPECT_EQ(sfu::tanhApproxF16(0xC7FF), 0xBBFF);  // -7.996: just above -1
  EXPECT_EQ(sfu::tanhApproxBF16(0x4100), 0x3F80);
  EXPECT_TRUE(sfu::tanhF16Exceptions().empty());
  EXPECT_EQ(sfu::tanhApproxF16(0x3C8E), 0x3A82);  // 1.139: the table's value, once an exception
  EXPECT_TRUE(sfu::tanhBF16Exceptions().empty());
  // ex2 is the exact MUFU.EX2 toward zero: no exception left (2^(-2^-24) = 1 on the chip, from
  // EX2's fixed-point argument, was the one ex2.approx.f16 listed).
  EXPECT_TRUE(sfu::ex2F16Exceptions().empty());
  EXPECT_TRUE(sfu::ex2FtzBF16Exceptions().empty());
  EXPECT_EQ(sfu::ex2ApproxF16(0x8001), 0x3C00);
}

TEST(FastmathHashes, MalformedFileNamesFileAndLine) {
  const fs::path p = test::processTempPath("warpsim_bad_hashes.txt");
  std::ofstream(p) << "warpsim-fastmath-hashes 1\nchunk_bits 31\nform a\n0 1\nform b\n0 zz\n";
  try {
    readRecordedHashes(p);
    FAIL() << "accepted a malformed file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(p.string() + ":6: bad hash 'zz'"), std::string::npos)
        << e.what();
  }
  fs::remove(p);
}

}  // namespace
}  // namespace warpsim::harness::approx
