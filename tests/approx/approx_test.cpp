// The .approx measurement (harness/approx): the input sets, the comparison, the sample format,
// and the replay of every sample recorded on the H200 (tests/recorded/approx).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/approx/approx.h"
#include "tests/support/temp_path.h"

namespace warpsim::harness::approx {
namespace {

namespace fs = std::filesystem;

TEST(Approx, EveryFormOfTheIssueIsMeasured) {
  for (const char* name : {"ex2.approx.f32", "ex2.approx.ftz.f32", "lg2.approx.f32",
                           "rcp.approx.f32", "rsqrt.approx.f32", "sin.approx.f32", "cos.approx.f32",
                           "tanh.approx.f32", "div.approx.f32", "div.full.f32", "ex2.approx.f16",
                           "tanh.approx.bf16", "rcp.approx.ftz.f64", "rsqrt.approx.f64"})
    EXPECT_NE(findFunction(name), nullptr) << name;
  EXPECT_EQ(findFunction("exp.approx.f32"), nullptr);
}

TEST(Approx, InputSetsAreExhaustiveWhereTheyClaimToBe) {
  const std::vector<InputSet> ex2 = inputSets(*findFunction("ex2.approx.f32"));
  ASSERT_EQ(ex2.size(), 2u);
  EXPECT_EQ(ex2[0].name, "binade [1,2)");
  ASSERT_EQ(ex2[0].a.size(), size_t{1} << 23);  // every f32 in [1, 2)
  EXPECT_EQ(ex2[0].a.front(), 0x3F800000u);
  EXPECT_EQ(ex2[0].a.back(), 0x3FFFFFFFu);
  EXPECT_EQ(ex2[1].a.size(), size_t{1} << 20);
  EXPECT_EQ(inputSets(*findFunction("rsqrt.approx.f32"))[0].a.size(), size_t{1} << 24);
  const std::vector<InputSet> h = inputSets(*findFunction("tanh.approx.f16"));
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].a.size(), 65536u);
  // Deterministic, and capped evenly by `limit`.
  EXPECT_EQ(inputSets(*findFunction("div.full.f32"), 1000)[1].b,
            inputSets(*findFunction("div.full.f32"), 1000)[1].b);
  EXPECT_LE(inputSets(*findFunction("div.full.f32"), 1000)[0].a.size(), 1000u);
}

TEST(Approx, CompareCountsExactUlpAndNaNSeparately) {
  const Function& f = *findFunction("rcp.approx.f32");
  InputSet s{"t", {1, 2, 3, 4, 5}, {}};
  const std::vector<uint64_t> gpu = {0x3F800000, 0x3F800001, 0x7FFFFFFF, 0x7FC00000, 0x40000000};
  const std::vector<uint64_t> sim = {0x3F800000, 0x3F800003, 0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF};
  const Agreement a = compare(f, s, gpu, sim);
  EXPECT_EQ(a.inputs, 5u);
  EXPECT_EQ(a.exact, 2u);
  EXPECT_EQ(a.bothNaN, 1u);
  EXPECT_EQ(a.nanVsNumber, 1u);
  EXPECT_EQ(a.maxUlp, 2u);
  EXPECT_EQ(a.worstInput, 2u);
  EXPECT_EQ(a.ulpHistogram[1], 1u);
}

TEST(Approx, TheSimulatorAgreesWithItselfAndMeasuresItsError) {
  const Function& f = *findFunction("rcp.approx.f32");
  auto a = makeSimulator(), b = makeSimulator();
  const InputSet set = inputSets(f, 4096)[0];
  const std::vector<uint64_t> x = evaluate(*a, f, set), y = evaluate(*b, f, set);
  EXPECT_EQ(compare(f, set, x, y).exact, set.a.size());
  // The model is the H200's MUFU.RCP (isa/sfu/mufu.h): below one ulp (0.975 measured on the
  // chip, FIDELITY), more than the half ulp of a correctly rounded reciprocal.
  EXPECT_LE(errorOf(f, set, x).maxUlp, 1.0);
  EXPECT_GT(errorOf(f, set, x).maxUlp, 0.5);
}

TEST(Approx, MalformedSamplesAreRejectedWithTheirLine) {
  const fs::path p = test::processTempPath("warpsim_bad.sample");
  std::ofstream(p) << "warpsim-approx-sample 1\nfunction rcp.approx.f32\nsample_exact 1 of 2\n"
                      "3f800000 3f800000\nzz 1\n";
  try {
    readSample(p.string());
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(p.string() + ":5: malformed approx sample"),
              std::string::npos)
        << e.what();
  }
  fs::remove(p);
}

// Every sample recorded on the H200: the simulator agrees at least as often as it did then.
TEST(Approx, RecordedOnTheH200AgreeAtLeastAsWellAsRecorded) {
  const fs::path dir = fs::path(WARPSIM_SOURCE_DIR) / "tests" / "recorded" / "approx";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no approx samples recorded";
  unsigned n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".sample") continue;
    ++n;
    const Sample s = readSample(e.path().string());
    const Function* f = findFunction(s.function);
    ASSERT_NE(f, nullptr) << s.function;
    EXPECT_EQ(s.device, "cuda (NVIDIA H200)") << e.path();
    auto sim = makeSimulator();
    const InputSet in{"sample", s.a, s.b};
    const Agreement a = compare(*f, in, s.gpu, evaluate(*sim, *f, in));
    EXPECT_GE(a.exact, s.sampleExact) << s.function;
    EXPECT_LE(a.maxUlp, s.sampleMaxUlp) << s.function;
  }
  EXPECT_EQ(n, functions().size());
}

}  // namespace
}  // namespace warpsim::harness::approx
