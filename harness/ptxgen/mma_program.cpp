// ptxgen --mma: programs of one warp-level matrix instruction (mma.sync in the shapes and types
// warpsim executes, ldmatrix, movmatrix), in the frame of every generated program (input words
// loaded into registers, every register stored), so isa-record, isa-replay and the simulator
// comparison take them unchanged. Four warps (2 CTAs of 64 threads) run the instruction on
// independent data.
//
// Seeds cycle through the forms; for each form, the seed also picks how A, B and C are drawn:
//   random     the input generator's words (special values included: NaN, inf, subnormals);
//   narrow     the elements' exponents forced into a few binades around 1 with random signs and
//              significands: sums that cancel, whose rounding depends on the order of the
//              additions and on how many bits survive alignment;
//   large-c    as narrow, with C forced about 2^12 times larger than the products: what is
//              kept of the products below C's last bit (the alignment width, the rounding);
//   spread     A's binades spread over 2^-8..2^8, B narrow: terms of very different sizes
//              (which terms are truncated, whether the sum is one step or several);
//   tiny       A and B in low binades, C subnormal (or zero): products the size of C, so
//              whether a subnormal C aligns at its format's emin or at its own exponent (the
//              bf16/tf32 forms tell; for an f16 C the difference lies far below D's last bit);
//              for f64, products near the subnormal range.
// Masks are AND/OR immediates applied in the program to the loaded words, so the inputs stay
// the generator's (and the recorded hashes describe them).
//
// Three cycles of forms (kCycles), each keeping the programs of the seeds recorded in it when a
// later one was added. Seeds below 100000 cycle through the first 12 mma forms and the two
// matrix moves, as when tests/recorded/mma/ was recorded (seeds 1..560, 1121..1820). Seeds
// from 100000 cycle through those and the sub-byte integer (s4/u4, b1 .and/.xor.popc) and fp8
// forms (recorded: 100000..101079, `bash scripts/device_mma.sh 1080 100000`). Seeds from
// 200000 cycle through the 12 m8n8k4 f16 forms alone (every layout, f16/f32 accumulators: ptxas's
// CUDA-core routines, mma_m8n8k4_f16.h), not recorded on the chip yet
// (`bash scripts/device_mma.sh 600 200000`). Seeds from 300000 cycle through the 15 sparse forms
// (mma.sp and mma.sp::ordered_metadata, every sm_90 shape and type; isa/insns/mma_sparse.cpp) in
// seven modes, the five above and:
//   split      A's and B's registers of the first half of K (the first dense block) in high
//              binades and those of the second half in low ones, or the reverse: whether the
//              chip sums the selected products in one pass or block by block (SparseGrouping)
//              shows in the last bits;
//   meta-odd   metadata nibbles of any value, an index twice or out of order included (the
//              manual: undefined), where the other modes draw valid ordered ones (tf32: its two).
// A sparse program's metadata is an input word turned into valid nibbles in the program (prmt
// picks four bytes of eight that the seed draws), so each thread's differs; the sparsity
// selector is an immediate the seed draws. Not recorded on the chip yet
// (`bash scripts/device_mma.sh 525 300000`: five cycles of 105).
#include <array>

#include "harness/ptxgen/builder.h"
#include "harness/ptxgen/ptxgen.h"

namespace warpsim::ptxgen {
namespace {

enum class Elem : uint8_t { F16, BF16, TF32, F32, F64, Int8, Int32, Int4, Bit, E4M3, E5M2 };

struct MmaForm {
  const char* text;  // the instruction without operands
  const char* family;
  unsigned aRegs, bRegs, cRegs, dRegs;
  Elem a, c;   // element kinds of A (and B) and of C (and D)
  Elem b = a;  // B's, where it differs (fp8: e4m3 x e5m2)
  Elem d = c;  // D's, where it differs (m8n8k4: f32 D from an f16 C)
  // Sparse forms: how many sparsity selector values the form takes (0: a dense form).
  unsigned selectors = 0;
};

// A cycle of seeds from firstSeed on: kForms[firstForm, firstForm + forms) and, with `moves`,
// ldmatrix and movmatrix, each in every input mode.
struct Cycle {
  uint64_t firstSeed;
  unsigned firstForm, forms;
  bool moves;
  unsigned modes = 5;  // the first `modes` of Mode
};
constexpr std::array<Cycle, 4> kCycles = {
    {{0, 0, 12, true}, {100000, 0, 22, true}, {200000, 22, 12, false}, {300000, 34, 15, false, 7}}};

constexpr std::array<MmaForm, 49> kForms = {{
    {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "mma.f16.m16n8k16.f32", 4, 2, 4, 4,
     Elem::F16, Elem::F32},
    {"mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", "mma.f16.m16n8k16.f16", 4, 2, 2, 2,
     Elem::F16, Elem::F16},
    {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "mma.bf16.m16n8k16", 4, 2, 4, 4,
     Elem::BF16, Elem::F32},
    {"mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", "mma.f16.m16n8k8.f32", 2, 1, 4, 4,
     Elem::F16, Elem::F32},
    {"mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", "mma.bf16.m16n8k8", 2, 1, 4, 4,
     Elem::BF16, Elem::F32},
    {"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "mma.tf32.m16n8k8", 4, 2, 4, 4,
     Elem::TF32, Elem::F32},
    {"mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", "mma.f64.m8n8k4", 1, 1, 2, 2, Elem::F64,
     Elem::F64},
    {"mma.sync.aligned.m8n8k4.row.col.rz.f64.f64.f64.f64", "mma.f64.m8n8k4.rz", 1, 1, 2, 2,
     Elem::F64, Elem::F64},
    {"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "mma.s8.m16n8k32", 4, 2, 4, 4, Elem::Int8,
     Elem::Int32},
    {"mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32", "mma.u8s8.m16n8k32.satfinite", 4,
     2, 4, 4, Elem::Int8, Elem::Int32},
    {"mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32", "mma.s8u8.m16n8k16", 2, 1, 4, 4, Elem::Int8,
     Elem::Int32},
    {"mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16", "mma.f16.m16n8k8.f16", 2, 1, 2, 2,
     Elem::F16, Elem::F16},
    // The second cycle's own forms.
    {"mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32", "mma.s4.m8n8k32", 1, 1, 2, 2, Elem::Int4,
     Elem::Int32},
    {"mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.s4.s32", "mma.u4s4.m16n8k32.satfinite", 2,
     1, 4, 4, Elem::Int4, Elem::Int32},
    {"mma.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32", "mma.s4u4.m16n8k64", 4, 2, 4, 4, Elem::Int4,
     Elem::Int32},
    {"mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc", "mma.b1.m8n8k128.xor", 1, 1, 2, 2,
     Elem::Bit, Elem::Int32},
    {"mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc", "mma.b1.m16n8k128.and", 2, 1, 4,
     4, Elem::Bit, Elem::Int32},
    {"mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", "mma.b1.m16n8k256.and", 4, 2, 4,
     4, Elem::Bit, Elem::Int32},
    {"mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc", "mma.b1.m16n8k256.xor", 4, 2, 4,
     4, Elem::Bit, Elem::Int32},
    {"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", "mma.e4m3.m16n8k32.f32", 4, 2, 4, 4,
     Elem::E4M3, Elem::F32},
    {"mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32", "mma.e5m2e4m3.m16n8k32.f32", 4, 2, 4, 4,
     Elem::E5M2, Elem::F32, Elem::E4M3},
    {"mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16", "mma.e4m3e5m2.m16n8k32.f16", 4, 2, 2, 2,
     Elem::E4M3, Elem::F16, Elem::E5M2},
    // The third cycle's: m8n8k4 f16 in every layout (A, B) and accumulator pair (D, C).
    {"mma.sync.aligned.m8n8k4.row.row.f32.f16.f16.f32", "mma.f16.m8n8k4.row.row.f32", 2, 2, 8, 8,
     Elem::F16, Elem::F32, Elem::F16, Elem::F32},
    {"mma.sync.aligned.m8n8k4.row.row.f16.f16.f16.f16", "mma.f16.m8n8k4.row.row.f16", 2, 2, 4, 4,
     Elem::F16, Elem::F16, Elem::F16, Elem::F16},
    {"mma.sync.aligned.m8n8k4.row.row.f32.f16.f16.f16", "mma.f16.m8n8k4.row.row.f32.c16", 2, 2, 4,
     8, Elem::F16, Elem::F16, Elem::F16, Elem::F32},
    {"mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32", "mma.f16.m8n8k4.row.col.f32", 2, 2, 8, 8,
     Elem::F16, Elem::F32, Elem::F16, Elem::F32},
    {"mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16", "mma.f16.m8n8k4.row.col.f16", 2, 2, 4, 4,
     Elem::F16, Elem::F16, Elem::F16, Elem::F16},
    {"mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f16", "mma.f16.m8n8k4.row.col.f32.c16", 2, 2, 4,
     8, Elem::F16, Elem::F16, Elem::F16, Elem::F32},
    {"mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32", "mma.f16.m8n8k4.col.row.f32", 2, 2, 8, 8,
     Elem::F16, Elem::F32, Elem::F16, Elem::F32},
    {"mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16", "mma.f16.m8n8k4.col.row.f16", 2, 2, 4, 4,
     Elem::F16, Elem::F16, Elem::F16, Elem::F16},
    {"mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f16", "mma.f16.m8n8k4.col.row.f32.c16", 2, 2, 4,
     8, Elem::F16, Elem::F16, Elem::F16, Elem::F32},
    {"mma.sync.aligned.m8n8k4.col.col.f32.f16.f16.f32", "mma.f16.m8n8k4.col.col.f32", 2, 2, 8, 8,
     Elem::F16, Elem::F32, Elem::F16, Elem::F32},
    {"mma.sync.aligned.m8n8k4.col.col.f16.f16.f16.f16", "mma.f16.m8n8k4.col.col.f16", 2, 2, 4, 4,
     Elem::F16, Elem::F16, Elem::F16, Elem::F16},
    {"mma.sync.aligned.m8n8k4.col.col.f32.f16.f16.f16", "mma.f16.m8n8k4.col.col.f32.c16", 2, 2, 4,
     8, Elem::F16, Elem::F16, Elem::F16, Elem::F32},
    // The fourth cycle's: the sparse forms (A's registers hold K/2 stored elements).
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
     "mma.sp.f16.m16n8k16.f32", 2, 2, 4, 4, Elem::F16, Elem::F32, Elem::F16, Elem::F32, 4},
    {"mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", "mma.sp.f16.m16n8k16.f16", 2, 2, 2, 2,
     Elem::F16, Elem::F16, Elem::F16, Elem::F16, 4},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
     "mma.sp.bf16.m16n8k16", 2, 2, 4, 4, Elem::BF16, Elem::F32, Elem::BF16, Elem::F32, 4},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32",
     "mma.sp.f16.m16n8k32.f32", 4, 4, 4, 4, Elem::F16, Elem::F32, Elem::F16, Elem::F32, 2},
    {"mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16", "mma.sp.f16.m16n8k32.f16", 4, 4, 2, 2,
     Elem::F16, Elem::F16, Elem::F16, Elem::F16, 2},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32",
     "mma.sp.bf16.m16n8k32", 4, 4, 4, 4, Elem::BF16, Elem::F32, Elem::BF16, Elem::F32, 2},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
     "mma.sp.tf32.m16n8k8", 2, 2, 4, 4, Elem::TF32, Elem::F32, Elem::TF32, Elem::F32, 4},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32",
     "mma.sp.tf32.m16n8k16", 4, 4, 4, 4, Elem::TF32, Elem::F32, Elem::TF32, Elem::F32, 2},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "mma.sp.s8.m16n8k32",
     2, 2, 4, 4, Elem::Int8, Elem::Int32, Elem::Int8, Elem::Int32, 2},
    {"mma.sp.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32",
     "mma.sp.u8s8.m16n8k32.satfinite", 2, 2, 4, 4, Elem::Int8, Elem::Int32, Elem::Int8, Elem::Int32,
     2},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.u8.s32", "mma.sp.s8u8.m16n8k64",
     4, 4, 4, 4, Elem::Int8, Elem::Int32, Elem::Int8, Elem::Int32, 1},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32",
     "mma.sp.e4m3.m16n8k64", 4, 4, 4, 4, Elem::E4M3, Elem::F32, Elem::E4M3, Elem::F32, 1},
    {"mma.sp.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32", "mma.sp.e5m2e4m3.m16n8k64", 4, 4, 4,
     4, Elem::E5M2, Elem::F32, Elem::E4M3, Elem::F32, 1},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32", "mma.sp.s4u4.m16n8k64",
     2, 2, 4, 4, Elem::Int4, Elem::Int32, Elem::Int4, Elem::Int32, 2},
    {"mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.satfinite.s32.u4.s4.s32",
     "mma.sp.u4s4.m16n8k128.satfinite", 4, 4, 4, 4, Elem::Int4, Elem::Int32, Elem::Int4,
     Elem::Int32, 1},
}};

constexpr bool isIntElem(Elem k) { return k == Elem::Int8 || k == Elem::Int4 || k == Elem::Bit; }

enum class Mode : uint8_t { Random, Narrow, LargeC, Spread, Tiny, Split, MetaOdd };
const char* modeName(Mode m) {
  switch (m) {
    case Mode::Random:
      return "random";
    case Mode::Narrow:
      return "narrow";
    case Mode::LargeC:
      return "large-c";
    case Mode::Spread:
      return "spread";
    case Mode::Tiny:
      return "tiny";
    case Mode::Split:
      return "split";
    case Mode::MetaOdd:
      return "meta-odd";
  }
  return "";
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// The AND and OR masks that put a register's elements into binade 2^e (e relative to 1), with
// random sign and significand kept; for 32-bit registers of two 16-bit elements, both halves.
std::pair<uint64_t, uint64_t> binadeMasks(Elem k, int e) {
  switch (k) {
    case Elem::F16: {
      const uint64_t ex = uint64_t(15 + e) << 10;
      return {0x83FF83FFull, ex | ex << 16};
    }
    case Elem::BF16: {
      const uint64_t ex = uint64_t(127 + e) << 7;
      return {0x807F807Full, ex | ex << 16};
    }
    case Elem::TF32:
    case Elem::F32:
      return {0x807FFFFFull, uint64_t(127 + e) << 23};
    case Elem::F64:
      return {0x800FFFFFFFFFFFFFull, uint64_t(1023 + e) << 52};
    case Elem::E4M3: {  // four bytes: S.EEEE.MMM, bias 7
      const uint64_t ex = uint64_t(7 + e) << 3;
      return {0x87878787ull, ex * 0x01010101ull};
    }
    case Elem::E5M2: {  // four bytes: S.EEEEE.MM, bias 15
      const uint64_t ex = uint64_t(15 + e) << 2;
      return {0x83838383ull, ex * 0x01010101ull};
    }
    default:
      return {~0ull, 0};
  }
}

// The tiny mode's binades: A and B low enough that their products are the size of a subnormal
// C (f16 products near 2^-28 for an f16 C; bf16/tf32 ones near 2^-140 for an f32 C; f64 ones
// near 2^-1040); and the binade whose mask clears the exponent field (C subnormal, or zero).
int tinyBinade(Elem k) {
  switch (k) {
    case Elem::F16:
    case Elem::E5M2:
      return -14;
    case Elem::E4M3:
      return -6;
    case Elem::F64:
      return -520;
    default:
      return -70;
  }
}
int subnormalBinade(Elem k) {
  switch (k) {
    case Elem::F16:
      return -15;
    case Elem::F64:
      return -1023;
    default:
      return -127;
  }
}

InputKind inputKindOf(Elem k) {
  switch (k) {
    case Elem::F16:
      return InputKind::F16x2;
    case Elem::BF16:
      return InputKind::BF16x2;
    case Elem::TF32:
    case Elem::F32:
      return InputKind::F32;
    case Elem::F64:
      return InputKind::F64;
    default:
      return InputKind::Int32;
  }
}

}  // namespace

GeneratedProgram generateMmaProgram(uint64_t seed) {
  kernels::Rng rng(seed * 0x9E3779B97F4A7C15ull + 0x6D6D61);
  auto below = [&](uint32_t n) { return n <= 1 ? 0u : rng.u32(0, n - 1); };
  GeneratedProgram g;
  g.seed = seed;
  g.blockSize = 64;
  g.gridSize = 2;
  // Seeds cycle through their cycle's mma forms and matrix moves (see the top of the file).
  const Cycle* cycle = &kCycles[0];
  for (const Cycle& c : kCycles)
    if (seed >= c.firstSeed) cycle = &c;
  const uint64_t position = seed - cycle->firstSeed;
  const unsigned nForms = cycle->forms + (cycle->moves ? 2 : 0);
  const unsigned slot = unsigned(position % nForms);
  const Mode mode = Mode(unsigned(position / nForms) % cycle->modes);
  const bool isMma = slot < cycle->forms;
  const unsigned formIndex = cycle->firstForm + slot;  // into kForms, for an mma
  std::vector<std::string> body;
  std::vector<std::string> regs;  // register i holds word i
  std::vector<size_t> writerOf;   // body line that writes register i last (npos: none)
  std::string decl;
  std::string formText, family;
  const bool wide = isMma && kForms[formIndex].a == Elem::F64;
  auto addReg = [&](const std::string& name, InputKind kind) {
    regs.push_back(name);
    g.inputs.push_back(kind);
    writerOf.push_back(std::string::npos);
  };
  auto vec = [](const std::vector<std::string>& r, size_t from, size_t n) {
    std::string s = "{";
    for (size_t i = 0; i < n; ++i) s += (i ? "," : "") + r[from + i];
    return s + "}";
  };
  unsigned sharedBytes = 0;
  if (isMma) {
    const MmaForm& f = kForms[formIndex];
    formText = f.text;
    family = std::string(f.family) + "." + modeName(mode);
    const bool sparse = f.selectors != 0;
    const unsigned n = f.aRegs + f.bRegs + f.cRegs + f.dRegs + (sparse ? 1 : 0);
    const char* type = wide ? ".b64" : ".b32";
    const char* prefix = wide ? "%d" : "%r";
    decl = ".reg " + std::string(type) + " " + prefix + "<" + std::to_string(n) + ">;\n";
    if (sparse) decl += ".reg .b32 %m<2>;\n";
    for (unsigned i = 0; i < f.aRegs + f.bRegs + f.cRegs + f.dRegs; ++i) {
      const bool isAB = i < f.aRegs + f.bRegs;
      const bool isD = i >= f.aRegs + f.bRegs + f.cRegs;
      const Elem k = isAB ? (i < f.aRegs ? f.a : f.b) : isD ? f.d : f.c;
      addReg(prefix + std::to_string(i), inputKindOf(k));
    }
    const unsigned metaReg = n - 1;  // sparse: the metadata word, after D
    if (sparse) addReg(prefix + std::to_string(metaReg), InputKind::Int32);
    // Targeted masks on A, B and C.
    auto mask = [&](unsigned i, Elem k, int e) {
      const auto [andMask, orMask] = binadeMasks(k, e);
      if (andMask == ~0ull) return;
      body.push_back("and" + std::string(type) + " " + regs[i] + "," + regs[i] + "," +
                     hex(andMask) + ";");
      body.push_back("or" + std::string(type) + " " + regs[i] + "," + regs[i] + "," + hex(orMask) +
                     ";");
      writerOf[i] = body.size() - 1;
    };
    const unsigned cFirst = f.aRegs + f.bRegs;
    if (mode != Mode::Random) {
      for (unsigned i = 0; i < cFirst; ++i) {
        const Elem k = i < f.aRegs ? f.a : f.b;
        int e = int(below(3)) - 1;
        // e4m3's binades reach from 2^-6 to 2^8 only.
        if (mode == Mode::Spread && i < f.aRegs)
          e = k == Elem::E4M3 ? int(below(15)) - 6 : int(below(17)) - 8;
        if (mode == Mode::Tiny) e = tinyBinade(k) + int(below(3));
        mask(i, k, e);
      }
      // split: A's and B's registers of the first half of K (the first half of each operand's
      // registers in every sparse layout) and of the second half in binades far apart (which
      // half is large: the seed's pick), so that products of one half fall below the other's
      // alignment cut: fp8's few significant bits need e4m3's whole range for that.
      if (mode == Mode::Split) {
        const bool firstLarge = below(2);
        const bool fp8 = f.a == Elem::E4M3 || f.a == Elem::E5M2;
        const int hi = fp8 ? 7 : 5, lo = fp8 ? -6 : -5;
        for (unsigned i = 0; i < f.aRegs + f.bRegs; ++i) {
          const bool isA = i < f.aRegs;
          const bool first = isA ? i < f.aRegs / 2 : i - f.aRegs < f.bRegs / 2;
          mask(i, isA ? f.a : f.b, (first == firstLarge ? hi : lo) + int(below(2)));
        }
      }
      for (unsigned i = cFirst; i < cFirst + f.cRegs; ++i)
        mask(i, f.c,
             mode == Mode::Tiny     ? subnormalBinade(f.c)
             : mode == Mode::LargeC ? 12 + int(below(3))
                                    : int(below(4)));
      if (isIntElem(f.a) && mode == Mode::LargeC)  // near the s32 limits: wrap / saturation
        for (unsigned i = cFirst; i < cFirst + f.cRegs; ++i) {
          body.push_back("or.b32 " + regs[i] + "," + regs[i] + ",0x7FFF0000;");
          writerOf[i] = body.size() - 1;
        }
    }
    std::string sparseOperands;
    if (sparse) {
      // Eight metadata bytes (two nibbles each) drawn by the seed; prmt picks four of them by
      // the input word's low three bits of each of its four low nibbles.
      const bool tf32 = f.a == Elem::TF32;
      auto nibble = [&]() -> uint32_t {
        static constexpr std::array<uint32_t, 6> kOrdered = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
        if (tf32) return below(2) ? 0xE : 0x4;
        if (mode == Mode::MetaOdd) return below(16);
        return kOrdered[below(6)];
      };
      uint32_t table[2] = {0, 0};
      for (unsigned byte = 0; byte < 8; ++byte)
        table[byte / 4] |= (nibble() | nibble() << 4) << (byte % 4 * 8);
      body.push_back("mov.b32 %m0," + hex(table[0]) + ";");
      body.push_back("mov.b32 %m1," + hex(table[1]) + ";");
      body.push_back("and.b32 " + regs[metaReg] + "," + regs[metaReg] + ",0x7777;");
      body.push_back("prmt.b32 " + regs[metaReg] + ",%m0,%m1," + regs[metaReg] + ";");
      writerOf[metaReg] = body.size() - 1;
      sparseOperands = "," + regs[metaReg] + "," + std::to_string(below(f.selectors));
    }
    const std::string line = formText + " " + vec(regs, cFirst + f.cRegs, f.dRegs) + "," +
                             vec(regs, 0, f.aRegs) + "," + vec(regs, f.aRegs, f.bRegs) + "," +
                             vec(regs, cFirst, f.cRegs) + sparseOperands + ";";
    body.push_back(line);
    for (unsigned i = cFirst + f.cRegs; i < cFirst + f.cRegs + f.dRegs; ++i)
      writerOf[i] = body.size() - 1;
  } else if (slot == cycle->forms) {
    // ldmatrix: each thread stores its 4 words (a 16-byte row) to shared memory; after bar.sync
    // the warp loads 1, 2 or 4 matrices (transposed or not) from its 32 rows, lane l addressing
    // row l. The seed picks the count and .trans.
    const unsigned count = std::array<unsigned, 3>{1, 2, 4}[below(3)];
    const bool trans = below(2);
    formText = "ldmatrix.sync.aligned.m8n8.x" + std::to_string(count) + (trans ? ".trans" : "") +
               ".shared.b16";
    family = "ldmatrix.x" + std::to_string(count) + (trans ? ".trans" : "");
    decl = ".reg .b32 %r<8>;\n.shared .align 16 .b8 rows[1024];\n";
    for (unsigned i = 0; i < 8; ++i) addReg("%r" + std::to_string(i), InputKind::Int32);
    sharedBytes = 1024;
    body.push_back("mov.u32 %t1,rows;");
    body.push_back("shl.b32 %t2,%tx,4;");
    body.push_back("add.s32 %t1,%t1,%t2;");
    body.push_back("st.shared.v4.b32 [%t1],{%r0,%r1,%r2,%r3};");
    body.push_back("bar.sync 0;");
    body.push_back(formText + " " + vec(regs, 4, count) + ",[%t1];");
    for (unsigned i = 4; i < 4 + count; ++i) writerOf[i] = body.size() - 1;
  } else {
    formText = "movmatrix.sync.aligned.m8n8.trans.b16";
    family = "movmatrix";
    decl = ".reg .b32 %r<2>;\n";
    for (unsigned i = 0; i < 2; ++i) addReg("%r" + std::to_string(i), InputKind::Int32);
    body.push_back(formText + " %r1,%r0;");
    writerOf[1] = 0;
  }
  g.words = unsigned(regs.size());
  std::string s = "// ptxgen " + std::to_string(kGeneratorVersion) + " --mma seed " +
                  std::to_string(seed) + " (" + family + ")\n";
  s += ".version 9.0\n.target sm_90\n.address_size 64\n";
  s += ".visible .entry isa_prog(.param .u64 in, .param .u64 out)\n{\n" + decl;
  s += ".reg .b64 %a<3>;\n.reg .b32 %t<3>,%tx;\n";
  s += "ld.param.u64 %a0,[in];\nld.param.u64 %a1,[out];\n";
  s += "cvta.to.global.u64 %a0,%a0;\ncvta.to.global.u64 %a1,%a1;\n";
  s += "mov.u32 %tx,%tid.x;\n";
  s += "mov.u32 %t0,%ctaid.x;\nmov.u32 %t1,%ntid.x;\nmad.lo.s32 %t0,%t0,%t1,%tx;\n";
  s += "mul.wide.u32 %a2,%t0," + std::to_string(8 * g.words) + ";\n";
  s += "add.s64 %a0,%a0,%a2;\nadd.s64 %a1,%a1,%a2;\n";
  const char* width = wide ? ".b64" : ".b32";
  for (unsigned i = 0; i < g.words; ++i)
    s += "ld.global" + std::string(width) + " " + regs[i] + ",[%a0+" + std::to_string(8 * i) +
         "];\n";
  for (const std::string& line : body) s += line + "\n";
  for (unsigned i = 0; i < g.words; ++i) {
    s += "st.global" + std::string(width) + " [%a1+" + std::to_string(8 * i) + "]," + regs[i] +
         ";\n";
    OutputWord w;
    w.reg = regs[i];
    if (writerOf[i] != std::string::npos) w.writers.push_back(body[writerOf[i]]);
    g.outputs.push_back(w);
  }
  s += "ret;\n}\n";
  (void)sharedBytes;
  g.ptx = std::move(s);
  g.forms = {formText};
  g.families = {family};
  return g;
}

}  // namespace warpsim::ptxgen
