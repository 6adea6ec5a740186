// warpsim measure's launch list (--dry-run needs no GPU): the ladder, explicit --sizes and
// --repeat, whose manifest ncu_join.py joins with ncu's rows line for line.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/shell.h"

namespace {

using warpsim::test::Outcome;

Outcome warpsim(const std::string& args) {
  return warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                              " " + args + " 2>&1");
}

std::vector<std::string> lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(MeasureCommand, SizesAndRepeatListEveryRunInLaunchOrder) {
  const std::string manifest = ::testing::TempDir() + "measure_sizes.tsv";
  const Outcome o = warpsim(
      "measure micro_store_stride --dry-run --sizes 4096,65536 --repeat 3 --manifest " + manifest);
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("12 launches listed (dry run: nothing ran)"), std::string::npos)
      << o.output;
  const auto rows = lines(manifest);
  ASSERT_EQ(rows.size(), 13u);  // the header, then 2 sizes x 3 runs x 2 launches
  EXPECT_EQ(rows[0], "card\tsize\tseed\tlaunch\tkernel\tgrid\tblock\tshared\tthreads");
  // 4096 words: 16 CTAs of 256 threads; 65536: 256 CTAs; both launches of a run, run by run.
  EXPECT_EQ(rows[1],
            "micro_store_stride\t4096\t1\t0\tmicro_store_stride\t16,1,1\t256,1,1\t0\t8192");
  EXPECT_EQ(rows[2],
            "micro_store_stride\t4096\t1\t1\tmicro_store_stride\t16,1,1\t256,1,1\t0\t8192");
  EXPECT_EQ(rows[3], rows[1]);
  EXPECT_EQ(rows[7],
            "micro_store_stride\t65536\t1\t0\tmicro_store_stride\t256,1,1\t256,1,1\t0\t131072");
}

TEST(MeasureCommand, TheLadderGrowsTheThreadsFourfoldPerRung) {
  const std::string manifest = ::testing::TempDir() + "measure_ladder.tsv";
  const Outcome o = warpsim("measure vector_add --dry-run --ladder 3 --manifest " + manifest);
  ASSERT_EQ(o.status, 0) << o.output;
  const auto rows = lines(manifest);
  ASSERT_EQ(rows.size(), 4u) << o.output;
  std::vector<uint64_t> threads;
  for (size_t i = 1; i < rows.size(); ++i)
    threads.push_back(std::stoull(rows[i].substr(rows[i].rfind('\t') + 1)));
  EXPECT_EQ(threads[1], 4 * threads[0]);
  EXPECT_EQ(threads[2], 16 * threads[0]);
}

TEST(MeasureCommand, TheLadderStopsWhereTheKernelDoes) {
  // attention_fwd keeps a warp's scores row in shared memory (256 keys): the H100 faulted at 512
  // and 2048 (CUDA_ERROR_ILLEGAL_ADDRESS, compute-sanitizer: an out-of-bounds shared write),
  // which the ladder asked for before the card named its largest size.
  const std::string manifest = ::testing::TempDir() + "measure_largest.tsv";
  const Outcome o = warpsim("measure attention_fwd --dry-run --ladder 4 --manifest " + manifest);
  ASSERT_EQ(o.status, 0) << o.output;
  const auto rows = lines(manifest);
  ASSERT_EQ(rows.size(), 3u) << o.output;
  EXPECT_EQ(rows[1].substr(0, rows[1].find('\t', 14)), "attention_fwd\t128");
  EXPECT_EQ(rows[2].substr(0, rows[2].find('\t', 14)), "attention_fwd\t256");
}

}  // namespace
