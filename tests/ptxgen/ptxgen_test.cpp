// The ISA-level differential test generator (harness/ptxgen): determinism, coverage of every
// instruction family it promises, programs that the simulator loads and runs without a fault,
// the metadata that maps output words to registers and writers, the case format; and the
// replay of every ISA case recorded on the H200 (tests/recorded/isa/ and
// tests/recorded/mma/, when present).
#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "harness/cuda_backend.h"
#include "harness/nvcc.h"
#include "harness/ptxgen/isa_case.h"
#include "harness/ptxgen/ptxgen.h"
#include "harness/recording.h"
#include "tests/support/shell.h"
#include "tests/support/temp_path.h"

namespace warpsim::ptxgen {
namespace {

namespace fs = std::filesystem;

constexpr unsigned kCoverageSeeds = 500;

// Forms and families over the coverage seeds, generated once for the tests that look at them.
struct Corpus {
  std::set<std::string> forms, families;
  std::vector<GeneratedProgram> programs;
};
const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus c;
    for (uint64_t s = 1; s <= kCoverageSeeds; ++s) {
      c.programs.push_back(generateProgram(s));
      const GeneratedProgram& g = c.programs.back();
      c.forms.insert(g.forms.begin(), g.forms.end());
      c.families.insert(g.families.begin(), g.families.end());
    }
    return c;
  }();
  return c;
}

bool anyForm(const std::string& pattern) {
  const std::regex re(pattern);
  for (const std::string& f : corpus().forms)
    if (std::regex_match(f, re)) return true;
  return false;
}

// ---- determinism --------------------------------------------------------------------------

TEST(PtxGen, TheSameSeedGivesTheSameProgram) {
  for (uint64_t s : {1ull, 2ull, 77ull, 123456789ull}) {
    const GeneratedProgram a = generateProgram(s), b = generateProgram(s);
    EXPECT_EQ(a.ptx, b.ptx) << s;
    EXPECT_EQ(a.forms, b.forms);
    EXPECT_EQ(a.inputs, b.inputs);
    EXPECT_EQ(makeInputs(s, a.inputs, a.threads()), makeInputs(s, b.inputs, b.threads()));
  }
  EXPECT_NE(generateProgram(1).ptx, generateProgram(2).ptx);
}

// Recorded cases keep their PTX, but regenerate their inputs: what makeInputs draws for a
// given seed must never change silently (bump kInputVersion and re-record if it must).
TEST(PtxGen, TheInputGeneratorIsFrozen) {
  const std::vector<InputKind> kinds = {
      InputKind::Int16,  InputKind::F16,   InputKind::BF16, InputKind::Int32, InputKind::F16x2,
      InputKind::BF16x2, InputKind::Int64, InputKind::F32,  InputKind::F64,   InputKind::Pred};
  EXPECT_EQ(harness::fnv1a64(makeInputs(42, kinds, 64)), 13300399186492807368ull)
      << "makeInputs changed: bump kInputVersion, re-record tests/recorded/isa, update this hash";
}

TEST(PtxGen, TheGeneratorVersionNamesItsOutput) {
  EXPECT_EQ(hashText(generateProgram(1).ptx), 8183820888879835794ull)
      << "generateProgram(1) changed: bump kGeneratorVersion and update this hash";
}

// ---- shape --------------------------------------------------------------------------------

TEST(PtxGen, ProgramsHaveTheDocumentedFrame) {
  for (const GeneratedProgram& g : corpus().programs) {
    ASSERT_EQ(g.ptx.find(".version 9.0\n.target sm_90\n.address_size 64\n"),
              g.ptx.find(".version"));
    ASSERT_NE(g.ptx.find(".visible .entry isa_prog(.param .u64 in, .param .u64 out)"),
              std::string::npos);
    EXPECT_EQ(g.inputs.size(), g.words);
    EXPECT_EQ(g.outputs.size(), g.words);
    EXPECT_TRUE(g.blockSize % 32 == 0 && g.blockSize >= 32 && g.blockSize <= 128) << g.blockSize;
    EXPECT_TRUE(g.gridSize == 1 || g.gridSize == 2);
    EXPECT_EQ(g.ptx.find(".approx"), std::string::npos) << "seed " << g.seed;
    EXPECT_EQ(g.ptx.find("div.full"), std::string::npos) << "seed " << g.seed;
  }
}

TEST(PtxGen, ProgramsStaySmall) {
  size_t total = 0;
  for (const GeneratedProgram& g : corpus().programs) total += g.ptx.size();
  EXPECT_LT(total / corpus().programs.size(), 4096u);
}

TEST(PtxGen, InstructionCountFollowsTheOptions) {
  GenOptions o;
  o.minInstructions = o.maxInstructions = 5;
  o.branches = false;
  const GeneratedProgram g = generateProgram(9, o);
  unsigned ops = 0;
  for (const std::string& f : g.families) ops += f.rfind("struct.", 0) != 0;
  EXPECT_LE(ops, 5u);
  EXPECT_GE(ops, 1u);
}

// ---- coverage -----------------------------------------------------------------------------

TEST(PtxGenCoverage, EveryFamilyAppears) {
  for (const std::string& f : allFamilies())
    EXPECT_TRUE(corpus().families.count(f))
        << f << " never drawn in " << kCoverageSeeds << " seeds";
}

TEST(PtxGenCoverage, IntegerArithmetic) {
  for (const char* p : {"add\\.(u|s)(16|32|64)",
                        "sub\\.(u|s)(16|32|64)",
                        "add\\.sat\\.s32",
                        "sub\\.sat\\.s32",
                        "mul\\.lo\\.\\w+",
                        "mul\\.hi\\.\\w+",
                        "mul\\.wide\\.(u|s)16",
                        "mul\\.wide\\.(u|s)32",
                        "mad\\.lo\\.\\w+",
                        "mad\\.hi\\.\\w+",
                        "mad\\.wide\\.\\w+",
                        "mad\\.hi\\.sat\\.s32",
                        "mul24\\.lo\\.\\w+",
                        "mul24\\.hi\\.\\w+",
                        "mad24\\.lo\\.\\w+",
                        "mad24\\.hi\\.\\w+",
                        "sad\\.\\w+",
                        "div\\.(u|s)64",
                        "div\\.s16",
                        "rem\\.\\w+",
                        "abs\\.s\\d+",
                        "neg\\.s\\d+",
                        "min\\.u\\d+",
                        "max\\.s\\d+",
                        "min\\.relu\\.s32",
                        "max\\.relu\\.s32",
                        "add\\.cc\\.\\w+",
                        "addc\\.cc\\.\\w+",
                        "addc\\.\\w+",
                        "sub\\.cc\\.\\w+",
                        "subc\\.\\w+",
                        "subc\\.cc\\.\\w+",
                        "mad\\.(lo|hi)\\.cc\\.\\w+",
                        "madc\\.(lo|hi)\\.cc\\.\\w+",
                        "madc\\.(lo|hi)\\.\\w+"})
    EXPECT_TRUE(anyForm(p)) << p;
}

TEST(PtxGenCoverage, LogicAndBits) {
  for (const char* p : {"and\\.b\\d+",
                        "or\\.b\\d+",
                        "xor\\.b\\d+",
                        "and\\.pred",
                        "xor\\.pred",
                        "not\\.b\\d+",
                        "not\\.pred",
                        "cnot\\.b\\d+",
                        "lop3\\.b32",
                        "lop3\\.(and|or)\\.b32",
                        "shl\\.b16",
                        "shl\\.b64",
                        "shr\\.s32",
                        "shr\\.u64",
                        "shr\\.b16",
                        "shf\\.l\\.clamp\\.b32",
                        "shf\\.r\\.wrap\\.b32",
                        "prmt\\.b32",
                        "prmt\\.b32\\.f4e",
                        "prmt\\.b32\\.b4e",
                        "prmt\\.b32\\.rc8",
                        "prmt\\.b32\\.ecl",
                        "prmt\\.b32\\.ecr",
                        "prmt\\.b32\\.rc16",
                        "bfe\\.s64",
                        "bfe\\.u32",
                        "bfi\\.b32",
                        "bfi\\.b64",
                        "brev\\.b\\d+",
                        "bfind\\.\\w+",
                        "bfind\\.shiftamt\\.\\w+",
                        "clz\\.b\\d+",
                        "popc\\.b\\d+",
                        "fns\\.b32",
                        "bmsk\\.clamp\\.b32",
                        "bmsk\\.wrap\\.b32",
                        "szext\\.(clamp|wrap)\\.s32",
                        "dp4a\\.s32\\.u32",
                        "dp4a\\.u32\\.u32",
                        "dp2a\\.lo\\..*",
                        "dp2a\\.hi\\..*"})
    EXPECT_TRUE(anyForm(p)) << p;
}

// The video instructions, drawn only with GenOptions::video (off by default, so that a seed
// keeps its program): every opcode, the selector, merge, secondary-operation and SIMD forms.
TEST(PtxGenCoverage, VideoInstructionsWithTheVideoOption) {
  GenOptions o;
  o.video = true;
  std::set<std::string> forms;
  std::string text;
  for (uint64_t s = 1; s <= 400; ++s) {
    const GeneratedProgram g = generateProgram(s, o);
    forms.insert(g.forms.begin(), g.forms.end());
    text += g.ptx;
  }
  const auto any = [&](const std::string& pattern) {
    const std::regex re(pattern);
    for (const std::string& f : forms)
      if (std::regex_match(f, re)) return true;
    return false;
  };
  for (const char* op : {"vadd", "vsub", "vabsdiff", "vmin", "vmax"})
    for (const char* tail :
         {"(\\.[us]32){3}", "(\\.[us]32){3}\\.sat", "(\\.[us]32){3}(\\.sat)?\\.(add|min|max)"})
      EXPECT_TRUE(any(std::string(op) + tail)) << op << tail;
  for (const char* p : {"vshl\\..*\\.clamp", "vshr\\..*\\.wrap", "vmad\\..*\\.po.*",
                        "vmad\\..*\\.shr(7|15)", "vset\\.[us]32\\.[us]32\\.(eq|ne|lt|le|gt|ge).*"})
    EXPECT_TRUE(any(p)) << p;
  for (const char* op : {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset"})
    for (const char* n : {"2", "4"}) {
      EXPECT_TRUE(any(std::string(op) + n + "\\..*")) << op << n;
      EXPECT_TRUE(any(std::string(op) + n + "\\..*\\.add")) << op << n << ".add";
    }
  for (const char* s : {"%r\\d+\\.b[0-3],", "%r\\d+\\.h1,", "%r\\d+\\.h[0-3]{2}[,;]",
                        "%r\\d+\\.b[0-7]{4}[,;]", "-%r\\d+"})
    EXPECT_TRUE(std::regex_search(text, std::regex(s))) << s;
  const std::regex video("v(add|sub|avrg|absdiff|min|max|set|shl|shr|mad)[24]?\\..*");
  for (const std::string& f : corpus().forms)
    EXPECT_FALSE(std::regex_match(f, video)) << f << " drawn without the video option";
}

TEST(PtxGenCoverage, EveryComparisonOfEveryTypeClass) {
  for (const char* c : {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"})
    EXPECT_TRUE(anyForm(std::string("setp\\.") + c + "\\.u\\d+")) << c;
  for (const char* c : {"eq", "ne", "lt", "le", "gt", "ge"})
    EXPECT_TRUE(anyForm(std::string("setp\\.") + c + "\\.s\\d+")) << c;
  for (const char* c : {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu",
                        "geu", "num", "nan"}) {
    EXPECT_TRUE(anyForm(std::string("setp\\.") + c + "(\\.ftz)?\\.f32")) << c;
    EXPECT_TRUE(anyForm(std::string("setp\\.") + c + "\\.f64")) << c;
  }
  for (const char* b : {"and", "or", "xor"}) {
    EXPECT_TRUE(anyForm(std::string("setp\\.\\w+\\.") + b + "\\.\\w+")) << b;
    EXPECT_TRUE(anyForm(std::string("set\\.\\w+\\.") + b + "\\..*")) << b;
  }
  for (const char* t : {"f16", "f16x2", "bf16", "bf16x2"})
    EXPECT_TRUE(anyForm("setp\\..*\\." + std::string(t))) << t;
  for (const char* p :
       {"setp\\.\\w+\\.ftz\\.f32", "setp\\.eq\\.b\\d+", "selp\\.\\w+", "set\\.\\w+\\.u32\\.\\w+",
        "set\\.\\w+\\.f32\\.\\w+", "set\\.\\w+\\.f16\\.\\w+", "set\\.\\w+\\.bf16x2\\.bf16x2",
        "slct\\.\\w+\\.s32", "slct\\.ftz\\.\\w+\\.f32"})
    EXPECT_TRUE(anyForm(p)) << p;
}

TEST(PtxGenCoverage, FloatArithmeticInEveryRoundingMode) {
  for (const char* op : {"add", "sub", "mul", "fma", "mad", "div", "sqrt", "rcp"})
    for (const char* r : {"rn", "rz", "rm", "rp"})
      for (const char* t : {"f32", "f64"})
        EXPECT_TRUE(anyForm(std::string(op) + "\\." + r + "(\\.ftz)?(\\.sat)?\\." + t))
            << op << "." << r << "." << t;
  for (const char* p :
       {"add\\.\\w+\\.ftz\\.f32", "mul\\.\\w+(\\.ftz)?\\.sat\\.f32", "fma\\.\\w+\\.ftz\\.sat\\.f32",
        "div\\.\\w+\\.ftz\\.f32", "sqrt\\.\\w+\\.ftz\\.f32", "rcp\\.\\w+\\.ftz\\.f32",
        "abs\\.ftz\\.f32", "abs\\.f64", "neg\\.f32", "neg\\.f64", "min\\.f64", "max\\.f32",
        "min(\\.ftz)?\\.NaN\\.f32", "max.*\\.xorsign\\.abs\\.f32", "copysign\\.f32",
        "copysign\\.f64"})
    EXPECT_TRUE(anyForm(p)) << p;
  for (const char* t : {"finite", "infinite", "number", "notanumber", "normal", "subnormal"})
    EXPECT_TRUE(anyForm(std::string("testp\\.") + t + "\\.f(32|64)")) << t;
}

TEST(PtxGenCoverage, HalfPrecision) {
  for (const char* op : {"add", "sub", "mul", "fma"})
    for (const char* t : {"f16", "f16x2", "bf16", "bf16x2"})
      EXPECT_TRUE(anyForm(std::string(op) + "\\.rn.*\\." + t)) << op << "." << t;
  for (const char* op : {"neg", "abs", "min", "max"})
    for (const char* t : {"f16", "f16x2", "bf16", "bf16x2"})
      EXPECT_TRUE(anyForm(std::string(op) + ".*\\." + t)) << op << "." << t;
  for (const char* p :
       {"add\\.rn\\.ftz(\\.sat)?\\.f16", "mul\\.rn(\\.ftz)?\\.sat\\.f16x2",
        "fma\\.rn(\\.ftz)?\\.relu\\.f16", "fma\\.rn\\.relu\\.bf16x2", "fma\\.rn\\.oob.*",
        "fma\\.rn(\\.ftz)?\\.sat\\.f16x2", "min(\\.ftz)?\\.NaN.*\\.bf16",
        "max.*\\.xorsign\\.abs\\.f16x2", "neg\\.ftz\\.f16"})
    EXPECT_TRUE(anyForm(p)) << p;
}

TEST(PtxGenCoverage, ConversionsBetweenEveryTypePair) {
  const std::vector<std::string> ints = {"u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"};
  const std::vector<std::string> floats = {"f16", "bf16", "f32", "f64"};
  auto cvt = [](const std::string& d, const std::string& a) {
    return "cvt(\\.\\w+)*\\." + d + "\\." + a;
  };
  for (const auto& d : ints)
    for (const auto& a : ints) EXPECT_TRUE(anyForm(cvt(d, a))) << d << "." << a;
  for (const auto& f : floats)
    for (const auto& i : ints) {
      if (f == "bf16" && i.size() == 2) continue;  // no 8-bit bf16 conversions in PTX
      EXPECT_TRUE(anyForm(cvt(f, i))) << f << "." << i;
      EXPECT_TRUE(anyForm(cvt(i, f))) << i << "." << f;
    }
  for (const auto& d : floats)
    for (const auto& a : floats) EXPECT_TRUE(anyForm(cvt(d, a))) << d << "." << a;
  for (const char* m : {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna"})
    EXPECT_TRUE(anyForm(std::string("cvt\\.") + m + "\\..*")) << m;
  for (const char* p :
       {"cvt\\.sat\\.\\w+\\.\\w+", "cvt\\.\\w+\\.ftz\\.f32\\.f64",
        "cvt\\.\\w+(\\.ftz)?\\.sat\\.f16\\.f32", "cvt\\.r[nzmp]i(\\.ftz)?\\.sat\\.s32\\.f32",
        "cvt\\.\\w+\\.relu.*\\.bf16\\.f32", "cvt\\.\\w+.*\\.satfinite\\.f16\\.f32",
        "cvt\\.rn(\\.relu)?(\\.satfinite)?\\.f16x2\\.f32", "cvt\\.r[nz].*\\.bf16x2\\.f32",
        "cvt\\.rna(\\.satfinite)?\\.tf32\\.f32", "cvt\\.r[nz].*\\.tf32\\.f32",
        "cvt\\.rn\\.satfinite.*\\.e4m3x2\\.f32", "cvt\\.rn\\.satfinite.*\\.e5m2x2\\.f16x2",
        "cvt\\.rn.*\\.f16x2\\.e4m3x2", "mov\\.b32", "mov\\.b64", "mov\\.u32", "mov\\.f32"})
    EXPECT_TRUE(anyForm(p)) << p;
}

TEST(PtxGenCoverage, WarpPrimitivesSharedMemoryAndStructure) {
  for (const char* p : {"shfl\\.sync\\.up\\.b32",
                        "shfl\\.sync\\.down\\.b32",
                        "shfl\\.sync\\.bfly\\.b32",
                        "shfl\\.sync\\.idx\\.b32",
                        "vote\\.sync\\.all\\.pred",
                        "vote\\.sync\\.any\\.pred",
                        "vote\\.sync\\.uni\\.pred",
                        "vote\\.sync\\.ballot\\.b32",
                        "match\\.any\\.sync\\.b32",
                        "match\\.any\\.sync\\.b64",
                        "match\\.all\\.sync\\.b32",
                        "match\\.all\\.sync\\.b64",
                        "redux\\.sync\\.add\\.(u|s)32",
                        "redux\\.sync\\.min\\.\\w+",
                        "redux\\.sync\\.max\\.\\w+",
                        "redux\\.sync\\.and\\.b32",
                        "redux\\.sync\\.or\\.b32",
                        "redux\\.sync\\.xor\\.b32",
                        "activemask\\.b32",
                        "elect\\.sync",
                        "bar\\.warp\\.sync",
                        "st\\.shared\\.\\w+",
                        "st\\.shared\\.v2\\.b32",
                        "ld\\.shared\\.s8",
                        "ld\\.shared\\.\\w+",
                        "bar\\.sync"})
    EXPECT_TRUE(anyForm(p)) << p;
  // Subset member masks (entered by exactly their lanes), guards and divergent regions.
  unsigned subsetShfl = 0, subsetOther = 0, guarded = 0, branches = 0;
  const std::regex mask(R"((shfl|vote|match|redux)\.sync[^;]*,(0x[0-9A-F]{8});)");
  for (const GeneratedProgram& g : corpus().programs) {
    for (std::sregex_iterator it(g.ptx.begin(), g.ptx.end(), mask), end; it != end; ++it)
      if ((*it)[2] != "0xFFFFFFFF") ((*it)[1] == "shfl" ? subsetShfl : subsetOther)++;
    guarded += g.ptx.find("\n@%p") != std::string::npos;
    branches += g.ptx.find(" bra $L") != std::string::npos;
  }
  EXPECT_GT(subsetShfl, 20u);
  EXPECT_GT(subsetOther, 50u);
  EXPECT_GT(guarded, kCoverageSeeds / 2);
  EXPECT_GT(branches, kCoverageSeeds / 2);
}

TEST(PtxGen, ApproxFormsOnlyOnRequest) {
  GenOptions o;
  o.approx = true;
  std::set<std::string> forms;
  for (uint64_t s = 1; s <= 200; ++s) {
    const GeneratedProgram g = generateProgram(s, o);
    forms.insert(g.forms.begin(), g.forms.end());
  }
  for (const char* f : {"ex2.approx.f32", "lg2.approx.f32", "sin.approx.f32", "cos.approx.ftz.f32",
                        "tanh.approx.f32", "rsqrt.approx.f32", "rcp.approx.f32", "sqrt.approx.f32",
                        "div.approx.f32", "div.full.f32", "rcp.approx.ftz.f64", "ex2.approx.f16x2"})
    EXPECT_TRUE(forms.count(f)) << f;
}

// ---- the input generator ------------------------------------------------------------------

TEST(PtxGenInputs, SpecialValuesAreWeightedIn) {
  const unsigned n = 4000;
  const std::vector<uint8_t> f32 = makeInputs(3, {InputKind::F32}, n);
  const std::vector<uint8_t> i32 = makeInputs(3, {InputKind::Int32}, n);
  std::map<std::string, unsigned> seen;
  for (unsigned i = 0; i < n; ++i) {
    uint32_t f, v;
    std::memcpy(&f, f32.data() + 8 * i, 4);
    std::memcpy(&v, i32.data() + 8 * i, 4);
    const uint32_t e = f >> 23 & 0xFF, m = f & 0x7FFFFF;
    if (e == 0xFF && m && !(m >> 22)) ++seen["signaling NaN"];
    if (e == 0xFF && (m >> 22) && (f >> 31)) ++seen["negative quiet NaN"];
    if (e == 0xFF && !m) ++seen["infinity"];
    if (f == 0x80000000u) ++seen["-0"];
    if (e == 0 && m) ++seen["subnormal"];
    if ((f & 0x7FFFFFFF) == 0x7F7FFFFF) ++seen["FLT_MAX"];
    if ((f & 0x7FFFFFFF) == 0x00800000) ++seen["FLT_MIN"];
    if (v == 0x80000000u) ++seen["INT_MIN"];
    if (v == 0x7FFFFFFFu) ++seen["INT_MAX"];
    if (v == 0xFFFFFFFFu) ++seen["all ones"];
    if (v == 32 || v == 33) ++seen["shift past the width"];
    if (v < 8) ++seen["small"];
  }
  for (const char* k :
       {"signaling NaN", "negative quiet NaN", "infinity", "-0", "subnormal", "FLT_MAX", "FLT_MIN",
        "INT_MIN", "INT_MAX", "all ones", "shift past the width", "small"})
    EXPECT_GE(seen[k], 5u) << k;
  for (const auto& [k, c] : seen) EXPECT_LT(c, n / 3) << k << " crowds out random values";
}

TEST(PtxGenInputs, KindsRoundTripByName) {
  for (InputKind k :
       {InputKind::Int16, InputKind::F16, InputKind::BF16, InputKind::Int32, InputKind::F16x2,
        InputKind::BF16x2, InputKind::Int64, InputKind::F32, InputKind::F64, InputKind::Pred})
    EXPECT_EQ(inputKindFromName(inputKindName(k)), k);
  EXPECT_THROW(inputKindFromName("f128"), std::invalid_argument);
}

// ---- the simulator runs them --------------------------------------------------------------

TEST(PtxGenSimulator, TwoHundredProgramsLoadAndRunWithoutAFault) {
  for (unsigned i = 0; i < 200; ++i) {
    const GeneratedProgram& g = corpus().programs[i];
    const IsaCase c = caseFor(g, "prog.ptx");
    IsaRun r;
    ASSERT_NO_THROW(r = runIsaInSimulator(g.ptx, "prog-" + std::to_string(g.seed) + ".ptx", c,
                                          makeInputs(g.seed, g.inputs, g.threads())))
        << "seed " << g.seed;
    EXPECT_FALSE(r.fault) << "seed " << g.seed << ": " << r.fault->describe("prog.ptx");
    EXPECT_EQ(r.out.size(), size_t(g.threads()) * g.words * 8);
  }
}

TEST(PtxGenSimulator, ApproxAndSimulatorGapOptionsStillRun) {
  GenOptions o;
  o.approx = true;
  for (uint64_t s = 1; s <= 40; ++s) {
    const GeneratedProgram g = generateProgram(s, o);
    const IsaRun r = runIsaInSimulator(g.ptx, "prog.ptx", caseFor(g, "prog.ptx"),
                                       makeInputs(s, g.inputs, g.threads()));
    EXPECT_FALSE(r.fault) << "seed " << s;
  }
}

unsigned registerBits(const std::string& reg) {
  auto is = [&](const char* prefix) { return reg.rfind(prefix, 0) == 0; };
  if (is("%h")) return 16;
  if (is("%p")) return 1;
  if (is("%rd") || is("%fd")) return 64;
  return 32;  // %r, %f
}

// Every output word's value in thread 0 of the simulator matches its register's width: the
// bytes above the register stay zero (predicates are 0 or 1).
TEST(PtxGenSimulator, OutputWordsHoldTheirRegistersOnly) {
  for (unsigned i = 0; i < 50; ++i) {
    const GeneratedProgram& g = corpus().programs[i];
    const IsaRun r = runIsaInSimulator(g.ptx, "prog.ptx", caseFor(g, "prog.ptx"),
                                       makeInputs(g.seed, g.inputs, g.threads()));
    for (unsigned t = 0; t < g.threads(); t += 17)
      for (unsigned w = 0; w < g.words; ++w) {
        uint64_t v;
        std::memcpy(&v, r.out.data() + 8 * (size_t(t) * g.words + w), 8);
        const unsigned bits = registerBits(g.outputs[w].reg);
        if (bits < 64) {
          EXPECT_EQ(v >> bits, 0u) << "seed " << g.seed << " word " << w << " " << g.outputs[w].reg;
        }
      }
  }
}

// ---- metadata -----------------------------------------------------------------------------

TEST(PtxGenMetadata, OutputWordsNameTheirRegisterAndWriters) {
  for (const GeneratedProgram& g : corpus().programs) {
    for (unsigned w = 0; w < g.words; ++w) {
      const OutputWord fromText = explainOutputWord(g.ptx, w);
      ASSERT_EQ(fromText.reg, g.outputs[w].reg) << "seed " << g.seed << " word " << w;
      if (g.outputs[w].writers.empty()) continue;
      ASSERT_FALSE(fromText.writers.empty()) << "seed " << g.seed << " word " << w;
      EXPECT_EQ(fromText.writers[0], g.outputs[w].writers[0]) << "seed " << g.seed << " word " << w;
    }
    EXPECT_TRUE(explainOutputWord(g.ptx, g.words).reg.empty());
  }
}

// ---- the case format and replay -----------------------------------------------------------

// A case "recorded" from the simulator itself replays identically; one whose outputs were
// tampered with names the word, its register and its writers.
TEST(PtxGenCases, RoundTripAndReplay) {
  const fs::path dir =
      fs::temp_directory_path() / ("warpsim_isa_cases_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const GeneratedProgram g = generateProgram(31);
  std::ofstream(dir / "prog-31.ptx") << g.ptx;
  IsaCase c = caseFor(g, "prog-31.ptx");
  c.device = "simulator (self-test)";
  const IsaRun r =
      runIsaInSimulator(g.ptx, "prog-31.ptx", c, makeInputs(31, g.inputs, g.threads()));
  recordOutputs(c, r.out);
  const std::string path = (dir / "prog-31.isacase").string();
  writeIsaCase(c, path);
  const IsaCase back = readIsaCase(path);
  EXPECT_EQ(back.seed, c.seed);
  EXPECT_EQ(back.ptxHash, c.ptxHash);
  EXPECT_EQ(back.inputs, c.inputs);
  EXPECT_EQ(back.regs, c.regs);
  EXPECT_EQ(back.wordHashes, c.wordHashes);
  EXPECT_EQ(back.thread0, c.thread0);
  EXPECT_EQ(back.forms, c.forms);
  EXPECT_EQ(back.device, c.device);
  EXPECT_EQ(back.grid, c.grid);
  EXPECT_EQ(back.block, c.block);
  const IsaReplay ok = replayIsaCase(back);
  EXPECT_TRUE(ok.ok) << ok.message;

  IsaCase bad = back;
  bad.outputHash ^= 1;
  bad.wordHashes[3] ^= 1;
  bad.thread0[3] ^= 1;
  const IsaReplay differs = replayIsaCase(bad);
  EXPECT_FALSE(differs.ok);
  EXPECT_NE(differs.message.find("word 3 (" + c.regs[3] + ")"), std::string::npos)
      << differs.message;
  EXPECT_NE(differs.message.find("thread 0: GPU"), std::string::npos) << differs.message;

  // The full comparison at record time names thread, word, register and writer.
  std::vector<uint8_t> other = r.out;
  other[8 * (size_t(5) * g.words + 2)] ^= 1;
  const std::string d = describeDifference(c, g.ptx, other, r.out);
  EXPECT_NE(d.find("thread 5 of block 0, word 2 (" + c.regs[2] + ")"), std::string::npos) << d;
  EXPECT_NE(d.find("1 of " + std::to_string(g.threads()) + " threads differ"), std::string::npos)
      << d;
  EXPECT_TRUE(describeDifference(c, g.ptx, r.out, r.out).empty());

  { std::ofstream(dir / "prog-31.ptx", std::ios::app) << "// edited\n"; }
  EXPECT_NE(replayIsaCase(back).message.find("does not hash as recorded"), std::string::npos);
  { std::ofstream(dir / "bad.isacase") << "warpsim-isa-case 1\nseed 1\ngrid x\n"; }
  try {
    readIsaCase((dir / "bad.isacase").string());
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.isacase:3: malformed ISA case"), std::string::npos)
        << e.what();
  }
  fs::remove_all(dir);
}

// Every ISA case recorded on the H200, replayed in the simulator: the campaign's programs
// (tests/recorded/isa), the tensor-core probe's (tests/recorded/mma, scripts/device_mma.sh) and
// the contraction probe's (tests/recorded/contract, scripts/device_contract.sh) and the wgmma
// probe's (tests/recorded/wgmma, scripts/device_wgmma.sh: the forms that agree)
TEST(PtxGenCases, RecordedOnTheH200ReplayIdentically) {
  std::vector<fs::path> cases;
  for (const char* sub : {"isa", "mma", "contract", "wgmma"}) {
    const fs::path dir = fs::path(WARPSIM_SOURCE_DIR) / "tests" / "recorded" / sub;
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.path().extension() == ".isacase") cases.push_back(e.path());
  }
  std::sort(cases.begin(), cases.end());
  if (cases.empty())
    GTEST_SKIP() << "no *.isacase under tests/recorded/{isa,mma,contract}: none recorded yet";
  unsigned failed = 0;
  for (const fs::path& p : cases) {
    IsaReplay r;
    try {
      r = replayIsaCase(readIsaCase(p.string()));
    } catch (const std::exception& e) {
      r.message = e.what();
    }
    if (!r.ok && ++failed <= 50)
      ADD_FAILURE() << p.parent_path().filename().string() << "/" << p.filename().string() << ": "
                    << r.message;
  }
  EXPECT_EQ(failed, 0u) << failed << " of " << cases.size() << " recorded ISA cases differ";
}

// Runs the --mma programs of seeds first .. first + count - 1 in the simulator: each one's form
// begins with `formPrefix` and runs without a fault. Their families (form and input mode).
std::set<std::string> mmaCycleRuns(uint64_t first, unsigned count, const std::string& formPrefix) {
  std::set<std::string> families;
  for (uint64_t seed = first; seed < first + count; ++seed) {
    const GeneratedProgram g = generateMmaProgram(seed);
    EXPECT_EQ(g.forms[0].rfind(formPrefix, 0), 0u) << seed << " " << g.forms[0];
    families.insert(g.families[0]);
    IsaRun r;
    EXPECT_NO_THROW(r = runIsaInSimulator(g.ptx, "prog.ptx", caseFor(g, "prog.ptx"),
                                          makeInputs(seed, g.inputs, g.threads())))
        << seed << " " << g.families[0];
    EXPECT_FALSE(r.fault) << seed << " " << g.families[0] << ": " << r.fault->describe("prog.ptx");
  }
  return families;
}

// The --mma generator still makes the recorded programs' forms from their seeds (its second
// cycle of forms starts at seed 100000, beyond every recorded one), and since the fifth input
// mode (seeds 1121..1820, recorded with it) the very programs; and the second cycle runs every
// form in the simulator without a fault, the sub-byte and fp8 forms among them.
TEST(PtxGenMma, RecordedSeedsGenerateTheRecordedProgramsAndTheNewFormsRun) {
  const fs::path dir = fs::path(WARPSIM_SOURCE_DIR) / "tests" / "recorded" / "mma";
  unsigned forms = 0, programs = 0;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() != ".isacase") continue;
      const IsaCase c = readIsaCase(e.path().string());
      const GeneratedProgram g = generateMmaProgram(c.seed);
      EXPECT_EQ(g.forms, c.forms) << e.path();
      ++forms;
      if (c.seed < 1121) continue;  // recorded when the generator had four input modes
      std::ifstream f(dir / c.ptxFile);
      const std::string recorded((std::istreambuf_iterator<char>(f)), {});
      EXPECT_EQ(g.ptx, recorded) << e.path();
      ++programs;
    }
  EXPECT_EQ(forms, 3465u) << "tests/recorded/mma holds 3465 cases";
  EXPECT_EQ(programs, 2905u);
  std::set<std::string> families;
  for (const std::string& family : mmaCycleRuns(100000, 24 * 5, ""))  // ldmatrix too
    families.insert(family.substr(0, family.rfind('.')));             // without the input mode
  for (const char* f :
       {"mma.s4.m8n8k32", "mma.u4s4.m16n8k32.satfinite", "mma.s4u4.m16n8k64", "mma.b1.m8n8k128.xor",
        "mma.b1.m16n8k128.and", "mma.b1.m16n8k256.and", "mma.b1.m16n8k256.xor",
        "mma.e4m3.m16n8k32.f32", "mma.e5m2e4m3.m16n8k32.f32", "mma.e4m3e5m2.m16n8k32.f16"})
    EXPECT_TRUE(families.count(f)) << f;
}

// The third cycle (seeds from 200000: the m8n8k4 f16 forms alone, recorded 2026-12-05) makes
// each of the 12 forms in each input mode within 60 seeds, and each runs without a fault.
TEST(PtxGenMma, TheThirdCycleRunsEveryM8n8k4Form) {
  const std::set<std::string> families = mmaCycleRuns(200000, 12 * 5, "mma.sync.aligned.m8n8k4.");
  EXPECT_EQ(families.size(), 60u);
  for (const char* f : {"mma.f16.m8n8k4.row.row.f32.narrow", "mma.f16.m8n8k4.col.row.f16.large-c",
                        "mma.f16.m8n8k4.col.col.f32.c16.tiny"})
    EXPECT_TRUE(families.count(f)) << f;
}

// The fourth cycle (seeds from 300000: the 15 sparse forms, mma.sp and
// mma.sp::ordered_metadata, in 7 input modes, recorded 2026-12-05) makes each form in each mode
// within 105 seeds, each with its metadata (built by prmt) and selector, and each runs without a
// fault.
TEST(PtxGenMma, TheFourthCycleRunsEverySparseFormInEveryMode) {
  for (uint64_t seed = 300000; seed < 300000 + 15 * 7; ++seed)
    EXPECT_NE(generateMmaProgram(seed).ptx.find("prmt.b32"), std::string::npos) << seed;
  const std::set<std::string> families = mmaCycleRuns(300000, 15 * 7, "mma.sp");
  EXPECT_EQ(families.size(), 105u);
  for (const char* f : {"mma.sp.f16.m16n8k32.f32.split", "mma.sp.tf32.m16n8k8.meta-odd",
                        "mma.sp.e5m2e4m3.m16n8k64.tiny", "mma.sp.u4s4.m16n8k128.satfinite.random"})
    EXPECT_TRUE(families.count(f)) << f;
}

// The --wgmma generator still makes the recorded programs from their seeds (its sparse seeds
// start at 400000: 400 of them recorded on the chip, 2026-12-05); and those make the 8 sparse forms
// in each of their 5 input modes within 40 seeds, each running without a fault.
TEST(PtxGenWgmma, RecordedSeedsGenerateTheRecordedProgramsAndTheSparseFormsRun) {
  const fs::path dir = fs::path(WARPSIM_SOURCE_DIR) / "tests" / "recorded" / "wgmma";
  unsigned programs = 0;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() != ".isacase") continue;
      const IsaCase c = readIsaCase(e.path().string());
      std::ifstream f(dir / c.ptxFile);
      const std::string recorded((std::istreambuf_iterator<char>(f)), {});
      EXPECT_EQ(generateWgmmaProgram(c.seed).ptx, recorded) << e.path();
      ++programs;
    }
  EXPECT_EQ(programs, 903u) << "tests/recorded/wgmma holds 903 cases";
  std::set<std::string> families;
  for (uint64_t seed = 400000; seed < 400000 + 8 * 5; ++seed) {
    const GeneratedProgram g = generateWgmmaProgram(seed);
    ASSERT_EQ(g.forms[0].rfind("wgmma.mma_async.sp.", 0), 0u) << seed << " " << g.forms[0];
    const std::string& fam = g.families[0];  // wgmma.sp.A.B.D.mode.<layout words>
    size_t at = 0;
    for (int dots = 0; dots < 6 && at != std::string::npos; ++dots) at = fam.find('.', at + 1);
    families.insert(fam.substr(0, at));
    IsaRun r;
    ASSERT_NO_THROW(r = runIsaInSimulator(g.ptx, "prog.ptx", caseFor(g, "prog.ptx"),
                                          makeInputs(seed, g.inputs, g.threads())))
        << seed << " " << fam;
    EXPECT_FALSE(r.fault) << seed << " " << fam << ": " << r.fault->describe("prog.ptx");
  }
  EXPECT_EQ(families.size(), 40u);
  EXPECT_TRUE(families.count("wgmma.sp.e5m2.e4m3.f16.split"));
}

// ---- the commands -------------------------------------------------------------------------

using test::Outcome;
using test::shell;

Outcome warpsim(const std::string& args) { return shell(std::string(WARPSIM_BINARY) + " " + args); }

// Seed 8049 crashes ptxas 13.0 (and the driver's JIT with it): --ptxas-check reports it and
// goes on instead of letting the process die.
TEST(PtxGenCommands, PtxasCheckSkipsAProgramThatCrashesPtxas) {
  const Outcome alone =
      shell("d=$(mktemp -d) && " + std::string(WARPSIM_BINARY) +
            " isa-check --count 1 --seed 8049 --ptx-dir $d >/dev/null && "
            "/usr/local/cuda/bin/ptxas -arch=sm_90 $d/prog-8049.ptx -o /dev/null");
  if (alone.status == 0) GTEST_SKIP() << "this ptxas assembles prog-8049 (no longer crashes)";
  if (alone.status == 127) GTEST_SKIP() << "no ptxas in /usr/local/cuda/bin";
  const Outcome o = warpsim(
      "isa-record --simulator-as-gpu --ptxas-check --count 3 --seed 8048 "
      "--out " +
      test::processTempPath("warpsim_ptxas_check").string());
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("prog-8049.ptx: ptxas crashed (signal 11)"), std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("2 programs, 2 agree, 0 differ: 0 unexplained (1 not run: ptxas "
                          "crashed on them)"),
            std::string::npos)
      << o.output;
}

// The trace of seed 2831's thread 48 shows the branch the H200 ignored: taken, so the bfi
// after it never ran (its trace words stay 0) - docs/FIDELITY.md.
TEST(PtxGenCommands, TraceShowsOperandsAndResultsOfOneThread) {
  const Outcome o = warpsim("isa-trace --seed 2831 --thread 48");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("program 2831, thread 16 of block 1\n"), std::string::npos);
  EXPECT_NE(o.output.find("sub.cc.s32 %r0,-1,%r1;  after %r0 = 0xfffffcf5\n"), std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("@%p1 bra $L2;  before %p1 = 0x1\n"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("bfi.b32 %r2,%r0,%r1,33,%r3;  before %r0 = 0x0\n"), std::string::npos)
      << o.output;
  EXPECT_EQ(warpsim("isa-trace --seed 2831 --thread 100000").status, 2);
  EXPECT_NE(warpsim("isa-trace --thread 1").output.find("missing --seed"), std::string::npos);
}

TEST(PtxGenCommands, CheckRecordAndReplay) {
  const Outcome check = warpsim("isa-check --count 20 --seed 900");
  EXPECT_EQ(check.status, 0) << check.output;
  EXPECT_NE(check.output.find("20 ran without a fault"), std::string::npos) << check.output;
  if (!harness::cudaUnavailableReason().empty()) {
    const Outcome rec = warpsim("isa-record --count 1 --out " +
                                test::processTempPath("warpsim_isa_nogpu").string());
    EXPECT_EQ(rec.status, 2) << rec.output;
    EXPECT_NE(rec.output.find("no CUDA device: "), std::string::npos) << rec.output;
  }
  EXPECT_EQ(warpsim("isa-record --count 1").status, 2);  // no --out
  const Outcome none = warpsim("isa-replay /nonexistent-dir");
  EXPECT_EQ(none.status, 2) << none.output;
  for (const char* c : {"isa-record", "isa-replay", "isa-check"}) {
    const Outcome h = warpsim(std::string(c) + " --help");
    EXPECT_EQ(h.status, 0) << c;
    EXPECT_NE(h.output.find("usage: warpsim " + std::string(c)), std::string::npos) << h.output;
  }
}

// ptxas itself, where the CUDA toolkit is installed: a sample of programs must assemble for
// sm_90 (the generator's forms were read off ptxas 13; this keeps them honest).
TEST(PtxGenPtxas, ASampleAssemblesForSm90) {
  std::string ptxas;
  try {
    ptxas = harness::findPtxas();
  } catch (const harness::ToolError& e) {
    GTEST_SKIP() << e.what();
  }
  const fs::path dir = fs::temp_directory_path() / ("warpsim_ptxas_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (unsigned i = 0; i < 12; ++i) {
    const GeneratedProgram& g = corpus().programs[i * 37 % kCoverageSeeds];
    const fs::path p = dir / ("prog-" + std::to_string(g.seed) + ".ptx");
    std::ofstream(p) << g.ptx;
    const Outcome o = shell("'" + ptxas + "' -arch=sm_90 -o /dev/null " + p.string());
    EXPECT_EQ(o.status, 0) << p.string() << ": " << o.output;
  }
  // With the video instructions (their selectors, merges and SIMD forms were read off ptxas 13
  // too: 200 programs of seeds 1-200 assemble).
  GenOptions video;
  video.video = true;
  for (uint64_t seed : {3ull, 41ull, 97ull, 150ull}) {
    const GeneratedProgram g = generateProgram(seed, video);
    const fs::path p = dir / ("video-" + std::to_string(seed) + ".ptx");
    std::ofstream(p) << g.ptx;
    const Outcome o = shell("'" + ptxas + "' -arch=sm_90 -o /dev/null " + p.string());
    EXPECT_EQ(o.status, 0) << p.string() << ": " << o.output;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace warpsim::ptxgen
