// The traced variant of a generated program (harness/ptxgen/trace.h): it computes what the
// program computes, its trace words are the registers it names, and a difference planted in
// one backend's trace is reported at its instruction with the operand values.
#include <gtest/gtest.h>

#include <cstring>

#include "harness/ptxgen/isa_case.h"
#include "harness/ptxgen/isolate.h"
#include "harness/ptxgen/ptx_lines.h"
#include "harness/ptxgen/trace.h"

namespace warpsim::ptxgen {
namespace {

uint64_t wordAt(const std::vector<uint8_t>& v, size_t i) {
  uint64_t w;
  std::memcpy(&w, v.data() + 8 * i, 8);
  return w;
}

TEST(PtxLines, SourcesAndDestinations) {
  EXPECT_EQ(lines::sources("@!%p2 add.rn.f64 %fd1,%fd2,%fd1;"),
            (std::vector<std::string>{"%fd2", "%fd1", "%p2"}));
  EXPECT_EQ(lines::destinations("@!%p2 add.rn.f64 %fd1,%fd2,%fd1;"),
            (std::vector<std::string>{"%fd1"}));
  EXPECT_EQ(lines::sources("mov.b32 {%h1,%h0},%r4;"), (std::vector<std::string>{"%r4"}));
  EXPECT_EQ(lines::destinations("mov.b32 {%h1,%h0},%r4;"),
            (std::vector<std::string>{"%h1", "%h0"}));
  EXPECT_EQ(lines::sources("shfl.sync.down.b32 %f1|%p0,%r1,13,0xECC1,0x00010000;"),
            (std::vector<std::string>{"%r1"}));
  EXPECT_EQ(lines::sources("st.shared.b32 [%sa+4],%r3;"), (std::vector<std::string>{"%r3"}));
  EXPECT_EQ(lines::sources("vote.sync.any.pred %p1,!%p1,0xFFFFFFFF;"),
            (std::vector<std::string>{"%p1"}));
  EXPECT_TRUE(lines::sources("and.b32 %t0,%lm,0xB6EBB8F7;").empty());
}

// The traced program writes the same output words, and each result entry holds its register.
TEST(PtxGenTrace, TheTracedProgramComputesWhatTheProgramComputes) {
  for (uint64_t seed : {3ull, 15ull, 41ull, 59ull}) {
    const GeneratedProgram g = generateProgram(seed);
    const TracedProgram t = traceProgram(g.ptx, g.words);
    ASSERT_GT(t.entries.size(), 30u) << seed;
    ASSERT_EQ(t.stride, g.words + t.entries.size());
    const IsaCase c = caseFor(g, "p.ptx");
    const std::vector<uint8_t> in = makeInputs(seed, g.inputs, g.threads());
    const IsaRun plain = runIsaInSimulator(g.ptx, "p.ptx", c, in);
    auto simulator = harness::makeSimBackend();
    const IsaRun traced = runTraced(*simulator, t, c, in);
    ASSERT_FALSE(plain.fault);
    ASSERT_FALSE(traced.fault) << traced.fault->message;
    for (unsigned th = 0; th < g.threads(); ++th)
      for (unsigned w = 0; w < g.words; ++w)
        ASSERT_EQ(wordAt(plain.out, size_t(th) * g.words + w),
                  wordAt(traced.out, size_t(th) * t.stride + w))
            << "seed " << seed << " thread " << th << " word " << w;
  }
}

// The simulator as a "GPU" with one planted behaviour: rewrite() changes the PTX it loads,
// reading() the bytes it copies back.
class SimulatorWith : public harness::Backend {
 public:
  SimulatorWith() : sim_(harness::makeSimBackend()) {}
  std::string name() const override { return "simulator with a planted behaviour"; }
  void loadModule(const std::string& p, const std::string& path) override {
    sim_->loadModule(rewrite(p), path);
  }
  uint64_t allocate(uint64_t b, const std::string& l) override { return sim_->allocate(b, l); }
  void free(uint64_t a) override { sim_->free(a); }
  void copyIn(uint64_t d, const void* s, uint64_t b) override { sim_->copyIn(d, s, b); }
  void copyOut(void* d, uint64_t s, uint64_t b) override {
    sim_->copyOut(d, s, b);
    reading(static_cast<uint8_t*>(d), b);
  }
  harness::LaunchOutcome launch(const harness::LaunchSpec& s) override { return sim_->launch(s); }

 protected:
  virtual std::string rewrite(const std::string& ptx) { return ptx; }
  virtual void reading(uint8_t*, uint64_t) {}

 private:
  std::unique_ptr<harness::Backend> sim_;
};

// One trace word of one thread reads back flipped.
class Planted : public SimulatorWith {
 public:
  explicit Planted(size_t word) : word_(word) {}

 protected:
  void reading(uint8_t* d, uint64_t b) override {
    if (b > 8 * word_) d[8 * word_] ^= 1;
  }

 private:
  size_t word_;
};

TEST(PtxGenTrace, APlantedDifferenceIsReportedAtItsInstruction) {
  const GeneratedProgram g = generateProgram(15);
  const TracedProgram t = traceProgram(g.ptx, g.words);
  size_t k = 0;  // the tenth result entry
  for (unsigned seen = 0; k < t.entries.size(); ++k)
    if (t.entries[k].result && ++seen == 10) break;
  ASSERT_LT(k, t.entries.size());
  const unsigned thread = 1;  // thread 1: its words start at stride
  Planted gpu(size_t(thread) * t.stride + g.words + k);
  auto simulator = harness::makeSimBackend();
  const IsaCase c = caseFor(g, "p.ptx");
  const std::string d =
      firstDivergence(gpu, *simulator, g.ptx, c, makeInputs(15, g.inputs, g.threads())).text;
  EXPECT_NE(d.find("thread 1 of block 0: `" + t.entries[k].insn + "`"), std::string::npos) << d;
  EXPECT_NE(d.find(": " + t.entries[k].reg + " GPU "), std::string::npos) << d;
  if (!lines::sources(t.entries[k].insn).empty()) {
    EXPECT_NE(d.find(" with "), std::string::npos) << d;
  }
  // Both backends the simulator: nothing to report.
  auto a = harness::makeSimBackend(), b = harness::makeSimBackend();
  EXPECT_EQ(firstDivergence(*a, *b, g.ptx, c, makeInputs(15, g.inputs, g.threads())).text, "");
}

// The categories, on first divergences the H200 campaign found (values as it printed them).
TEST(PtxGenTrace, DivergencesAreClassifiedOnlyWhenTheRuleHolds) {
  // Two NaNs that differ in payload: nan-bits; a NaN against a number: unexplained.
  EXPECT_EQ(classifyDivergence("mul.rn.f64 %fd1,%fd2,%fd1;", "%fd1",
                               {{"%fd2", 0xfff19ac015428661}, {"%fd1", 0xfff8000000000000}},
                               0xfff99ac015428661, 0xfff8000000000000),
            "nan-bits");
  EXPECT_EQ(classifyDivergence("add.rn.f64 %fd1,%fd2,%fd1;", "%fd1", {}, 0x7ff8000000000000,
                               0x3ff0000000000000),
            "");
  EXPECT_EQ(classifyDivergence("cvt.f16.f16 %h0,%h0;", "%h0", {{"%h0", 0x7fef}}, 0x7fff, 0x7fef),
            "nan-bits");
  // A guarded testp whose guard is false, written anyway on the GPU.
  EXPECT_EQ(classifyDivergence("@%p2 testp.infinite.f32 %p0,%f0;", "%p0",
                               {{"%f0", 0x7f800000}, {"%p2", 0}}, 1, 0),
            "guard-ignored");
  EXPECT_EQ(classifyDivergence("@!%p2 testp.infinite.f32 %p0,%f0;", "%p0",
                               {{"%f0", 0x7f800000}, {"%p2", 0}}, 1, 0),
            "");  // the guard was true: the simulator got it wrong
  // bfi with an immediate length >= 32: length mod 32 bits inserted, checked on the value.
  EXPECT_EQ(classifyDivergence("bfi.b32 %r0,%r1,%r1,18,42;", "%r0", {{"%r1", 0x9e5dd82}}, 0x609dd82,
                               0x7609dd82),
            "immediate-field");
  EXPECT_EQ(classifyDivergence("bfi.b32 %r0,%r1,%r1,18,42;", "%r0", {{"%r1", 0x9e5dd82}}, 0x1234,
                               0x7609dd82),
            "");
  EXPECT_EQ(classifyDivergence("bfi.b32 %r0,%r2,%r1,10,45;", "%r0",
                               {{"%r2", 0xd59867a5}, {"%r1", 0x688d70e6}}, 0x689e94e6, 0x619e94e6),
            "immediate-field");
  EXPECT_EQ(
      classifyDivergence("bfe.s32 %r0,%r1,32,21;", "%r0", {{"%r1", 0x4ed182cb}}, 0xffffffff, 0),
      "immediate-field");
  EXPECT_EQ(classifyDivergence("mul.hi.u16 %h0,%h1,%h0;", "%h0", {{"%h1", 0x3c00}, {"%h0", 1}},
                               0x3c00, 0),
            "");
}

TEST(PtxGenTrace, AnInstructionRunsAloneWithItsOperandValues) {
  auto sim = harness::makeSimBackend();
  EXPECT_EQ(runIsolated(*sim, "add.s32 %r0,%r1,%r2;", {{"%r1", 2}, {"%r2", 3}}, "%r0"), 5u);
  EXPECT_EQ(runIsolated(*sim, "shr.s16 %h0,%h0,4;", {{"%h0", 0x8000}}, "%h0"), 0xf800u);
  EXPECT_EQ(runIsolated(*sim, "setp.lt.s32 %p1,%r0,%r1;", {{"%r0", 1}, {"%r1", 2}}, "%p1"), 1u);
  EXPECT_EQ(runIsolated(*sim, "@%p0 mov.b32 %r0,%r1;", {{"%r1", 7}, {"%p0", 0}}, "%r0"), 0u);
  EXPECT_EQ(runIsolated(*sim, "fma.rn.f64 %fd0,%fd1,%fd2,%fd0;",
                        {{"%fd1", 0x4000000000000000},
                         {"%fd2", 0x4008000000000000},
                         {"%fd0", 0x3ff0000000000000}},
                        "%fd0"),
            0x401c000000000000u);  // 2 * 3 + 1
  // What cannot run alone: memory, warp primitives, registers outside the pool.
  EXPECT_FALSE(runIsolated(*sim, "ld.shared.u8 %r1,[%t1+0];", {}, "%r1"));
  EXPECT_FALSE(runIsolated(*sim, "shfl.sync.bfly.b32 %r1,%r2,1,31,0xFFFFFFFF;", {}, "%r1"));
  EXPECT_FALSE(runIsolated(*sim, "fns.b32 %r0,%r0,%t0,14;", {{"%r0", 1}}, "%r0"));
}

// The planted difference of the test above is in the program only: alone, the instruction
// agrees, so the divergence is classified context-dependent.
TEST(PtxGenTrace, ADifferenceTheInstructionAloneDoesNotShowIsContextDependent) {
  const GeneratedProgram g = generateProgram(15);
  const TracedProgram t = traceProgram(g.ptx, g.words);
  size_t k = 0;
  for (unsigned seen = 0; k < t.entries.size(); ++k)
    if (t.entries[k].result && ++seen == 10) break;
  Planted gpu(size_t(1) * t.stride + g.words + k);
  auto simulator = harness::makeSimBackend();
  const Divergence d = firstDivergence(gpu, *simulator, g.ptx, caseFor(g, "p.ptx"),
                                       makeInputs(15, g.inputs, g.threads()));
  if (runIsolated(*simulator, t.entries[k].insn, {}, t.entries[k].reg))
    EXPECT_EQ(d.category, "context-dependent") << d.text;
  else
    EXPECT_EQ(d.category, "") << d.text;
}

// A "GPU" that has the JIT's byte-store bug: st.shared.b8 of a b16 register stores the
// register's f16 value converted to an 8-bit integer (cvt.rzi.sat.u8.f16) instead of its low
// byte. The divergence it causes is recognized by value.
class ByteStoreBug : public SimulatorWith {
 protected:
  std::string rewrite(const std::string& p) override {
    std::string out;
    bool declared = false;
    for (const std::string& l : lines::split(p)) {
      if (!declared && l.rfind(".reg", 0) == 0) {
        out += ".reg .b16 %hq;\n";
        declared = true;
      }
      if (l.rfind("st.shared.b8 [%sa+", 0) == 0) {
        const size_t comma = l.find("],");
        const std::string reg = l.substr(comma + 2, l.find(';') - comma - 2);
        out += "cvt.rzi.sat.u8.f16 %hq," + reg + ";\n" + l.substr(0, comma + 2) + "%hq;\n";
        continue;
      }
      out += l + "\n";
    }
    return out;
  }
};

TEST(PtxGenTrace, AByteStoredFromAHalfValueIsRecognized) {
  const GeneratedProgram g = generateProgram(11);  // st.shared.b8 [%sa+0],%h1; ... ld.shared.u8
  ASSERT_NE(g.ptx.find("st.shared.b8 [%sa+0],%h1;"), std::string::npos);
  ByteStoreBug gpu;
  auto simulator = harness::makeSimBackend();
  const Divergence d = firstDivergence(gpu, *simulator, g.ptx, caseFor(g, "p.ptx"),
                                       makeInputs(11, g.inputs, g.threads()));
  EXPECT_EQ(d.category, "byte-store-of-half") << d.text;
  EXPECT_NE(d.text.find("ld.shared.u8"), std::string::npos) << d.text;
}

// A "GPU" that ignores one branch (`@%p1 bra $L2;` of seed 2831 runs as if never taken), as
// the H200 did in that program: the divergence is an operand read inside the skipped region.
class BranchIgnored : public SimulatorWith {
 protected:
  std::string rewrite(const std::string& p) override {
    std::string out;
    for (const std::string& l : lines::split(p))
      if (lines::trim(l) != "@%p1 bra $L2;") out += l + "\n";
    return out;
  }
};

TEST(PtxGenTrace, AnInstructionRunAlthoughItsBranchSkipsItIsRecognized) {
  const GeneratedProgram g = generateProgram(2831);
  ASSERT_NE(g.ptx.find("@%p1 bra $L2;"), std::string::npos);
  BranchIgnored gpu;
  auto simulator = harness::makeSimBackend();
  const Divergence d = firstDivergence(gpu, *simulator, g.ptx, caseFor(g, "p.ptx"),
                                       makeInputs(2831, g.inputs, g.threads()));
  EXPECT_EQ(d.category, "branch-ignored") << d.text;
  EXPECT_NE(d.text.find("bfi.b32 %r2,%r0,%r1,33,%r3;` reads"), std::string::npos) << d.text;
}

}  // namespace
}  // namespace warpsim::ptxgen
