// The fatbinary reader: entries, compressed PTX (zstd and LZ4, as nvcc 13 writes them), the
// choice of PTX for compute capability 9.0, malformed images, and a real program's fatbinary.
#include "harness/driver/fatbinary.h"

#include "harness/driver/cubin.h"

#include <gtest/gtest.h>
#include <lz4.h>
#include <zstd.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace warpsim::driver;

struct Image {
  std::vector<uint8_t> bytes;
  template <class T>
  void put(size_t at, T v) {
    std::memcpy(bytes.data() + at, &v, sizeof v);
  }
};

// One entry as nvcc lays it out: a 64-byte header, then the payload padded to 8 bytes.
std::vector<uint8_t> entry(uint16_t kind, uint32_t arch, uint64_t flags, const std::string& stored,
                           uint64_t uncompressed = 0) {
  Image e;
  const uint64_t padded = (stored.size() + 7) / 8 * 8;
  e.bytes.assign(64 + padded, 0);
  e.put<uint16_t>(0, kind);
  e.put<uint16_t>(2, 0x0101);
  e.put<uint32_t>(4, 64);
  e.put<uint64_t>(8, padded);
  e.put<uint32_t>(16, uncompressed ? uint32_t(stored.size()) : 0);
  e.put<uint32_t>(28, arch);
  e.put<uint64_t>(40, flags);
  e.put<uint64_t>(56, uncompressed);
  std::memcpy(e.bytes.data() + 64, stored.data(), stored.size());
  return e.bytes;
}

std::vector<uint8_t> fatbin(const std::vector<std::vector<uint8_t>>& entries) {
  Image f;
  f.bytes.assign(16, 0);
  for (const auto& e : entries) f.bytes.insert(f.bytes.end(), e.begin(), e.end());
  f.put<uint32_t>(0, kFatbinMagic);
  f.put<uint16_t>(4, 1);
  f.put<uint16_t>(6, 16);
  f.put<uint64_t>(8, f.bytes.size() - 16);
  return f.bytes;
}

const std::string kPtx = "\n.version 9.0\n.target sm_90\n.address_size 64\n";

TEST(Fatbinary, ReadsPlainEntries) {
  const auto image = fatbin({entry(2, 90, 0x11,
                                   "\x7f"
                                   "ELF...."),
                             entry(1, 90, 0x11, kPtx)});
  const auto entries = parseFatbinary(image.data(), image.size());
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].kind, uint16_t(EntryKind::Elf));
  EXPECT_EQ(entries[1].arch, 90u);
  EXPECT_EQ(fatbinaryBytes(image.data()), image.size());
  const FatbinEntry* ptx = selectPtx(entries);
  ASSERT_NE(ptx, nullptr);
  EXPECT_EQ(entryText(*ptx), kPtx);  // the padding's NULs are dropped
  EXPECT_EQ(describeEntries(entries), "sm_90 SASS, compute_90 PTX");
}

TEST(Fatbinary, DecodesZstdAndLz4) {
  std::string z(ZSTD_compressBound(kPtx.size()), '\0');
  z.resize(ZSTD_compress(z.data(), z.size(), kPtx.data(), kPtx.size(), 3));
  std::string l(LZ4_compressBound(int(kPtx.size())), '\0');
  l.resize(size_t(LZ4_compress_default(kPtx.data(), l.data(), int(kPtx.size()), int(l.size()))));
  const auto image =
      fatbin({entry(1, 90, 0x8011, z, kPtx.size()), entry(1, 80, 0x2011, l, kPtx.size())});
  const auto entries = parseFatbinary(image.data(), image.size());
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_TRUE(entries[0].zstd());
  EXPECT_TRUE(entries[1].lz4());
  EXPECT_EQ(entryText(entries[0]), kPtx);
  EXPECT_EQ(entryText(entries[1]), kPtx);
}

TEST(Fatbinary, ChoosesTheHighestPtxNotAboveTheDevice) {
  const auto image = fatbin({entry(1, 75, 0, kPtx), entry(1, 100, 0, kPtx), entry(1, 86, 0, kPtx),
                             entry(2, 90, 0, "elf")});
  const auto entries = parseFatbinary(image.data(), image.size());
  ASSERT_NE(selectPtx(entries), nullptr);
  EXPECT_EQ(selectPtx(entries)->arch, 86u);
  const auto sassOnly = fatbin({entry(2, 90, 0, "elf"), entry(1, 100, 0, kPtx)});
  EXPECT_EQ(selectPtx(parseFatbinary(sassOnly.data(), sassOnly.size())), nullptr);
}

TEST(Fatbinary, MalformedImagesAreErrors) {
  auto image = fatbin({entry(1, 90, 0, kPtx)});
  EXPECT_THROW(parseFatbinary(image.data(), 8), FatbinError);
  EXPECT_THROW(parseFatbinary(image.data(), image.size() - 1), FatbinError);
  auto badMagic = image;
  badMagic[0] ^= 1;
  EXPECT_THROW(parseFatbinary(badMagic.data(), badMagic.size()), FatbinError);
  auto overlong = image;
  const uint64_t huge = 1 << 20;
  std::memcpy(overlong.data() + 16 + 8, &huge, 8);  // the entry claims a megabyte
  EXPECT_THROW(parseFatbinary(overlong.data(), overlong.size()), FatbinError);
  const auto corrupt = fatbin({entry(1, 90, 0x8011, "not zstd at all", 100)});
  const auto entries = parseFatbinary(corrupt.data(), corrupt.size());
  EXPECT_THROW(entryText(entries[0]), FatbinError);
}

// The fatbinary nvcc 13 embedded in the vector_add example (default compression: zstd).
TEST(Fatbinary, ReadsARealProgram) {
  std::ifstream in(std::string(WARPSIM_PROGRAMS_DIR) + "/vector_add", std::ios::binary);
  ASSERT_TRUE(in) << "build the warpsim_programs target";
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  bool found = false, sawRegisters = false;
  for (size_t at = 0; at + 16 < bytes.size() && !found; at += 8) {
    uint32_t magic;
    std::memcpy(&magic, bytes.data() + at, 4);
    if (magic != kFatbinMagic) continue;
    const auto entries = parseFatbinary(bytes.data() + at, bytes.size() - at);
    for (const FatbinEntry& e : entries)
      if (e.kind == uint16_t(EntryKind::Elf) && e.arch == 90) {
        const std::string elf = entryText(e);
        const auto regs =
            cubinRegisterCounts(reinterpret_cast<const uint8_t*>(elf.data()), elf.size());
        if (regs.count("_Z9vectorAddPKfS0_Pfi")) {
          EXPECT_GT(regs.at("_Z9vectorAddPKfS0_Pfi"), 0);
          EXPECT_LE(regs.at("_Z9vectorAddPKfS0_Pfi"), 255);
          // Any prefix of the image is read safely (no counts, or the same ones).
          for (size_t cut : {size_t(0), size_t(63), elf.size() / 2, elf.size() - 1}) {
            const auto part =
                cubinRegisterCounts(reinterpret_cast<const uint8_t*>(elf.data()), cut);
            EXPECT_TRUE(part.empty() || part == regs);
          }
          sawRegisters = true;
        }
      }
    if (const FatbinEntry* ptx = selectPtx(entries)) {
      EXPECT_TRUE(ptx->zstd());
      EXPECT_NE(entryText(*ptx).find(".entry _Z9vectorAddPKfS0_Pfi("), std::string::npos);
      found = true;
    }
  }
  EXPECT_TRUE(found);
  EXPECT_TRUE(sawRegisters);
}

}  // namespace
