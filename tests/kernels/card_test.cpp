// Checks every card of the suite without running a kernel: the card's fields, its source and
// PTX entries, the shape of the Problems it makes (buffers, launches, arguments against the PTX
// parameter lists), determinism in the seed, and that its reference writes the outputs alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "isa/insns/tensor_map.h"
#include "kernels/card.h"
#include "kernels/ptx_registry.h"

#ifndef WARPSIM_SOURCE_DIR
#error "WARPSIM_SOURCE_DIR must name the source tree (the build defines it)"
#endif

namespace warpsim::kernels {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> cardNames() {
  std::vector<std::string> names;
  for (const auto& c : allCards()) names.push_back(c.name);
  return names;
}

// Sizes a card is checked at: its bounds, its default, and a few drawn between the bounds.
std::vector<uint64_t> sizesFor(const Card& c) {
  std::vector<uint64_t> sizes{c.minSize, c.defaultSize, c.maxSize};
  std::mt19937_64 rng(std::hash<std::string>{}(c.name));
  for (int i = 0; i < 3; ++i) sizes.push_back(c.minSize + rng() % (c.maxSize - c.minSize + 1));
  return sizes;
}

// The parameter sizes in bytes of `.entry name(...)` in a PTX module, or nullopt if absent.
std::optional<std::vector<uint32_t>> entryParams(std::string_view ptx, const std::string& entry) {
  const std::string head = ".entry " + entry + "(";
  const size_t at = ptx.find(head);
  if (at == std::string_view::npos) return std::nullopt;
  const size_t end = ptx.find(')', at);
  std::istringstream lines(std::string(ptx.substr(at + head.size(), end - at - head.size())));
  std::vector<uint32_t> sizes;
  for (std::string line; std::getline(lines, line);) {
    if (line.find(".param") == std::string::npos) continue;
    if (const size_t b = line.find(".b8 "); b != std::string::npos) {  // .align A .b8 name[N]
      const size_t open = line.find('[', b);
      sizes.push_back(uint32_t(std::stoul(line.substr(open + 1))));
    } else if (line.find("64 ") != std::string::npos) {
      sizes.push_back(8);
    } else if (line.find("32 ") != std::string::npos) {
      sizes.push_back(4);
    } else if (line.find("16 ") != std::string::npos) {
      sizes.push_back(2);
    } else {
      sizes.push_back(1);
    }
  }
  return sizes;
}

bool allZero(const std::vector<uint8_t>& bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; });
}

bool sameProblem(const Problem& a, const Problem& b) {
  if (a.size != b.size || a.buffers.size() != b.buffers.size() ||
      a.launches.size() != b.launches.size())
    return false;
  for (size_t i = 0; i < a.buffers.size(); ++i)
    if (a.buffers[i].bytes != b.buffers[i].bytes || a.buffers[i].type != b.buffers[i].type)
      return false;
  for (size_t i = 0; i < a.launches.size(); ++i)
    for (size_t k = 0; k < a.launches[i].args.size(); ++k)
      if (a.launches[i].args[k].scalar != b.launches[i].args[k].scalar) return false;
  return true;
}

// ---- the suite as a whole ----------------------------------------------------------------

TEST(KernelSuite, HasTheCardsItPromises) { EXPECT_GE(allCards().size(), 26u); }

TEST(KernelSuite, NamesAreUniqueAndFindable) {
  std::set<std::string> seen;
  for (const auto& c : allCards()) {
    EXPECT_TRUE(seen.insert(c.name).second) << "duplicate card name " << c.name;
    EXPECT_EQ(findCard(c.name), &c);
  }
  EXPECT_EQ(findCard("no such card"), nullptr);
}

TEST(KernelSuite, CuStemsAreUniqueAndEachIsUsedAndEmbedded) {
  std::map<std::string, fs::path> stems;
  const fs::path programs = fs::path(WARPSIM_SOURCE_DIR) / "kernels" / "programs";
  for (const auto& e : fs::recursive_directory_iterator(fs::path(WARPSIM_SOURCE_DIR) / "kernels"))
    // kernels/programs/ (and its units/) holds whole programs for warpsim exec, not suite
    // kernels (CMakeLists.txt leaves the tree out of the suite's PTX).
    if (e.is_regular_file() && e.path().extension() == ".cu" &&
        e.path().string().rfind(programs.string() + "/", 0) != 0) {
      const auto [it, fresh] = stems.emplace(e.path().stem().string(), e.path());
      EXPECT_TRUE(fresh) << "stem " << it->first << " in " << it->second << " and " << e.path();
    }
  std::set<std::string> used;
  for (const auto& c : allCards()) used.insert(c.source);
  // kernels/bugs/ holds the checkers' planted bugs (tests/check/), run by spec, not by card.
  const fs::path bugs = fs::path(WARPSIM_SOURCE_DIR) / "kernels" / "bugs";
  for (const auto& [stem, path] : stems) {
    if (path.parent_path() != bugs) {
      EXPECT_TRUE(used.count(stem)) << path << " has no card";
    }
    EXPECT_NO_THROW(ptxFor(stem)) << stem << " is not embedded";
  }
}

// ---- each card ---------------------------------------------------------------------------

class CardTest : public ::testing::TestWithParam<std::string> {
 protected:
  const Card& card() const { return *findCard(GetParam()); }
};

TEST_P(CardTest, FieldsAreFilledIn) {
  const Card& c = card();
  EXPECT_FALSE(c.family.empty());
  EXPECT_FALSE(c.source.empty());
  EXPECT_FALSE(c.demonstrates.empty());
  EXPECT_EQ(c.demonstrates.find('\n'), std::string::npos) << "demonstrates is one line";
  EXPECT_NE(c.make, nullptr);
  EXPECT_NE(c.reference, nullptr);
  EXPECT_GE(c.minSize, 1u);
  EXPECT_LE(c.minSize, c.defaultSize);
  EXPECT_LE(c.defaultSize, c.maxSize);
  EXPECT_EQ(c.tolerance.maxUlp == 0, c.tolerance.why.empty())
      << "a ULP tolerance says why, and only a ULP tolerance";
}

TEST_P(CardTest, SourceFileExistsInItsFamily) {
  const Card& c = card();
  EXPECT_TRUE(fs::exists(fs::path(WARPSIM_SOURCE_DIR) / "kernels" / c.family / (c.source + ".cu")))
      << "kernels/" << c.family << "/" << c.source << ".cu";
}

TEST_P(CardTest, ArgumentsMatchThePtxParameters) {
  const Card& c = card();
  const std::string_view ptx = ptxFor(c.source);
  for (uint64_t size : {c.minSize, c.defaultSize}) {
    const Problem p = c.make(size, 1);
    for (const Launch& l : p.launches) {
      const auto params = entryParams(ptx, l.entry);
      ASSERT_TRUE(params) << ".entry " << l.entry << " not in " << c.source << ".ptx";
      ASSERT_EQ(params->size(), l.args.size()) << l.entry;
      for (size_t k = 0; k < l.args.size(); ++k) {
        const KernelArg& a = l.args[k];
        const uint32_t bytes = a.kind == KernelArg::Kind::Buffer ? 8u : uint32_t(a.scalar.size());
        EXPECT_EQ((*params)[k], bytes) << l.entry << " parameter " << k;
      }
    }
  }
}

TEST_P(CardTest, ProblemsAreWellFormed) {
  const Card& c = card();
  for (uint64_t size : sizesFor(c)) {
    SCOPED_TRACE("size " + std::to_string(size));
    const Problem p = c.make(size, 7);
    EXPECT_EQ(p.size, size);
    ASSERT_FALSE(p.buffers.empty());
    ASSERT_FALSE(p.launches.empty());
    std::set<std::string> names;
    std::vector<bool> referenced(p.buffers.size(), false);
    bool anyOutput = false;
    for (const HostBuffer& b : p.buffers) {
      EXPECT_TRUE(names.insert(b.name).second) << "duplicate buffer name " << b.name;
      EXPECT_FALSE(b.bytes.empty()) << b.name;
      EXPECT_EQ(b.bytes.size() % elemBytes(b.type), 0u) << b.name;
      EXPECT_FALSE(allZero(b.bytes)) << b.name << " starts all zero";
      anyOutput = anyOutput || b.isOutput;
    }
    EXPECT_TRUE(anyOutput);
    for (const Launch& l : p.launches) {
      EXPECT_FALSE(l.entry.empty());
      EXPECT_GE(l.grid.count(), 1u);
      EXPECT_LE(l.grid.y, 65535u);
      EXPECT_LE(l.grid.z, 65535u);
      EXPECT_GE(l.block.count(), 1u);
      EXPECT_LE(l.block.count(), 1024u);
      EXPECT_LE(l.block.z, 64u);
      EXPECT_LE(l.dynamicShared, 227u * 1024);
      for (const KernelArg& a : l.args) {
        if (a.kind == KernelArg::Kind::Buffer) {
          ASSERT_LT(a.buffer, p.buffers.size()) << l.entry;
          referenced[a.buffer] = true;
        } else if (a.kind == KernelArg::Kind::TensorMap) {
          ASSERT_LT(a.buffer, p.buffers.size()) << l.entry;
          referenced[a.buffer] = true;
          isa::insns::tmap::TensorMap m;
          ASSERT_EQ(a.scalar.size(), sizeof m) << l.entry;
          EXPECT_TRUE(isa::insns::tmap::load(a.scalar.data(), m)) << l.entry;
        } else {
          EXPECT_TRUE(a.scalar.size() == 4 || a.scalar.size() == 8) << l.entry;
        }
      }
    }
    for (size_t b = 0; b < p.buffers.size(); ++b)
      EXPECT_TRUE(referenced[b]) << p.buffers[b].name << " is passed to no launch";
  }
}

TEST_P(CardTest, InputsAreDeterministicInTheSeed) {
  const Card& c = card();
  for (uint64_t size : {c.minSize, c.defaultSize}) {
    EXPECT_TRUE(sameProblem(c.make(size, 11), c.make(size, 11))) << "size " << size;
  }
  EXPECT_FALSE(sameProblem(c.make(c.defaultSize, 11), c.make(c.defaultSize, 12)))
      << "another seed gives the same inputs";
}

TEST_P(CardTest, ReferenceWritesOutputsOnly) {
  const Card& c = card();
  for (uint64_t size : sizesFor(c)) {
    SCOPED_TRACE("size " + std::to_string(size));
    const Problem before = c.make(size, 3);
    Problem after = before;
    c.reference(after);
    ASSERT_EQ(after.buffers.size(), before.buffers.size());
    for (size_t b = 0; b < before.buffers.size(); ++b) {
      const bool changed = after.buffers[b].bytes != before.buffers[b].bytes;
      EXPECT_EQ(after.buffers[b].bytes.size(), before.buffers[b].bytes.size());
      if (!before.buffers[b].isOutput) {
        EXPECT_FALSE(changed) << before.buffers[b].name;
      }
      // At the default size every output must differ from its initial contents; at tiny sizes
      // an output may legitimately keep them (no survivor in a compaction, two keys already
      // in order).
      if (before.buffers[b].isOutput && size == c.defaultSize) {
        EXPECT_TRUE(changed) << before.buffers[b].name << " unchanged by the reference";
      }
    }
    Problem again = before;
    c.reference(again);
    EXPECT_TRUE(sameProblem(after, again)) << "the reference is not deterministic";
  }
}

// How much work the first launch must cover: threads * itemsPerThread >= items(size) *
// threadsPerItem. Written out per card, independently of the cards, so that a card whose grid
// falls short of its problem fails here; a new card must add its line.
struct Coverage {
  uint64_t (*items)(uint64_t size);
  uint64_t itemsPerThread = 1, threadsPerItem = 1;
};
uint64_t same(uint64_t n) { return n; }
uint64_t pow2(uint64_t n) { return std::bit_ceil(std::max<uint64_t>(n, 2)); }
uint64_t grid2d(uint64_t n) { return n * (n * 3 / 4 + 1); }
uint64_t gemmC(uint64_t n) {
  const uint64_t s = (std::max<uint64_t>(n, 64) + 63) / 64 * 64;
  return s * s;
}
uint64_t gemmC32(uint64_t n) {  // the tensor family's C: s x s, s a multiple of 32
  const uint64_t s = (std::max<uint64_t>(n, 32) + 31) / 32 * 32;
  return s * s;
}
uint64_t gemmC128(uint64_t n) {  // hgemm_wgmma's C: s x s, s a multiple of 128
  const uint64_t s = (std::max<uint64_t>(n, 128) + 127) / 128 * 128;
  return s * s;
}
uint64_t rows128(uint64_t) { return 128; }
uint64_t tmaMatrix(uint64_t n) {  // tma_tiles: W = max(n, 4) rounded up to 4, H = max(n, 4)/2 + 3
  const uint64_t s = std::max<uint64_t>(n, 4);
  return (s + 3) / 4 * 4 * (s / 2 + 3);
}

uint64_t square4(uint64_t n) {  // resize_bilinear: a max(n, 4)-square output image
  const uint64_t s = std::max<uint64_t>(n, 4);
  return s * s;
}
uint64_t belowPivot(uint64_t n) { return n - 1; }  // gauss_elim's first Fan1: rows below row 0
uint64_t capped(uint64_t n) { return std::min<uint64_t>(n, 32 * 256); }    // grid-stride, 32 blocks
uint64_t capped64(uint64_t n) { return std::min<uint64_t>(n, 64 * 256); }  // grid-stride, 64 blocks
uint64_t capped264(uint64_t n) {
  return std::min<uint64_t>(n, 264 * 256);
}  // grid-stride, 2 per SM
// The micro family: one warp, one thread, one CTA, or a grid-stride copy of at most 1056 CTAs.
uint64_t warp32(uint64_t) { return 32; }
uint64_t one(uint64_t) { return 1; }
uint64_t cta256(uint64_t) { return 256; }
uint64_t capped1056(uint64_t n) { return std::min<uint64_t>(n, 1056 * 256); }
// micro_dram_streams: 8,192 warps, a lane per float of a line, cover any size's lines by a loop.
uint64_t lines8192(uint64_t) { return 8192 * 32; }
// micro_dram_inflight's first launch: one CTA of 256 an SM (1,056 warps), likewise.
uint64_t lines1056(uint64_t) { return 1056 * 32; }

const std::map<std::string, Coverage>& coverageTable() {
  static const std::map<std::string, Coverage> table = {
      {"vector_add", {same}},
      {"saxpy", {same}},
      {"reduce_interleaved", {same}},
      {"reduce_sequential", {same}},
      {"reduce_shuffle", {same, 2}},
      {"reduce_atomic", {same}},
      {"scan_blelloch", {same, 2}},
      {"scan_blelloch_padded", {same, 2}},
      {"scan_shfl_up", {same}},
      {"transpose_naive", {grid2d, 4}},
      {"transpose_tiled", {grid2d, 4}},
      {"transpose_padded", {grid2d, 4}},
      {"sgemm_naive", {gemmC}},
      {"sgemm_tiled", {gemmC}},
      {"sgemm_regblock", {gemmC, 16}},
      {"sgemm_cp_async", {gemmC32}},
      {"hgemm_mma", {gemmC32, 8}},
      {"softmax_row", {rows128, 1, 32}},
      {"layernorm_row", {rows128, 1, 32}},
      {"histogram_global", {same}},
      {"histogram_shared", {capped}},
      {"bitonic_shared", {same, 2}},
      {"bitonic_global", {pow2, 2}},
      {"stencil5_shared", {grid2d}},
      {"stencil5_naive", {grid2d}},
      {"attention_fwd", {same, 1, 32}},
      {"haxpy_half2", {same, 2}},
      {"bf16_fma_relu", {same, 2}},
      {"daxpy", {same}},
      {"ddot", {capped64}},
      {"calls_noinline", {same}},
      {"calls_recursive", {same}},
      {"printf_lanes", {same}},
      {"compact_ballot", {same}},
      {"gemv_warp", {same, 1, 32}},
      {"reduce_warpsize", {same}},
      {"micro_ffma_chain", {warp32}},
      {"micro_iadd_chain", {warp32}},
      {"micro_dfma_chain", {warp32}},
      {"micro_mufu_chain", {warp32}},
      {"micro_chase_l1", {one}},
      {"micro_chase_l2", {one}},
      {"micro_chase_async", {one}},
      {"micro_chase_dram", {one}},
      {"micro_chase_shared", {cta256}},
      {"micro_bank_stride", {warp32}},
      {"micro_copy", {capped1056}},
      {"micro_dram_streams", {lines8192}},
      {"micro_dram_inflight", {lines1056}},
      {"micro_shfl_chain", {warp32}},
      {"micro_call_chain", {warp32}},
      {"micro_heap_calls", {one}},  // one thread first; the larger shapes follow
      {"micro_heap_lanes", {same}},
      {"micro_heap_shrink", {same}},
      {"micro_branch_chain", {warp32}},
      {"micro_bar_chain", {cta256}},
      {"micro_skip_conflict", {warp32}},  // its first launch: one warp alone
      {"micro_pred_conflict", {warp32}},
      {"micro_store_burst", {warp32}},
      {"micro_lds_chain", {warp32}},
      {"micro_l1_lines", {warp32}},
      {"micro_store_pitch", {capped1056}},
      {"micro_mma_chain", {warp32}},
      {"micro_wgmma_chain", {warp32}},
      {"micro_tma_chain", {warp32}},
      {"micro_lds_fma", {warp32}},
      {"micro_bar_store", {cta256}},
      {"micro_store_stride", {capped1056}},
      {"micro_cluster_bar", {cta256}},  // its first launch: a cluster of two CTAs of 128
      {"micro_dsmem_chase", {cta256}},
      {"micro_fence", {warp32}},
      {"hgemm_wmma", {gemmC32, 8}},     // one warp per 16x16 tile
      {"hgemm_wgmma", {gemmC128, 32}},  // one warpgroup per 64x64 tile
      {"resize_bilinear", {square4}},
      {"tma_tiles", {tmaMatrix, 24}},  // up to three 32x32 tiles per block of 128 threads
      {"gauss_elim", {belowPivot}},
      {"heap_list", {same}},
      {"cdp_quicksort", {one}},         // one thread; the child grids it launches cover the rest
      {"cluster_reduce", {same, 8}},    // 8 elements per thread
      {"grid_sync_reduce", {same, 4}},  // grid-strided over at most 264 CTAs: 2^18 / 67584
      {"softmax_fast", {rows128, 1, 32}},
      {"gelu_fast", {capped264}},
      {"layernorm_rsqrt", {rows128, 1, 32}},
      {"black_scholes_fast", {capped264}},
  };
  return table;
}

TEST_P(CardTest, FirstLaunchCoversTheProblem) {
  const Card& c = card();
  const auto it = coverageTable().find(c.name);
  ASSERT_NE(it, coverageTable().end()) << "add " << c.name << " to coverageTable()";
  const Coverage& cov = it->second;
  for (uint64_t size : sizesFor(c)) {
    // The problem is kept alive: a reference into a temporary's launches dangles (ASan).
    const Problem p = c.make(size, 5);
    const Launch& l = p.launches.front();
    const uint64_t threads = l.grid.count() * l.block.count();
    EXPECT_GE(threads * cov.itemsPerThread, cov.items(size) * cov.threadsPerItem)
        << "size " << size;
  }
}

INSTANTIATE_TEST_SUITE_P(AllCards, CardTest, ::testing::ValuesIn(cardNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace warpsim::kernels
