// ptxgen --wgmma: programs of one wgmma.mma_async (sm_90a) in the frame of every generated
// program (input words loaded into registers, every register stored), so isa-record,
// isa-replay and the simulator comparison take them unchanged. One warpgroup (128 threads).
//
// The threads store their image words into one shared array, word i of thread t at word
// i * 128 + t; A's and B's descriptors read regions of it in the seed's layouts (swizzle none,
// 32B, 64B, 128B; K-major or, for f16/bf16, MN-major; for swizzled K-major A sometimes a start
// moved by 32 bytes inside the atom, as a K loop does), so the chip and the simulator read the
// same bytes through the layout each implements. A comes from the descriptor or from four
// registers; C is D's registers (wgmma accumulates in place), stored after wait_group 0.
//
// Seeds cycle through 8 forms (f16 -> f32, f16 -> f16, bf16, tf32, e4m3 x e4m3 -> f32, e5m2 x
// e4m3 -> f16, s8 x s8, u8 x s8 .satfinite) and 4 input modes as in --mma: random, narrow
// (A and B in binades around 1: cancelling sums), large-c (C about 2^12 above the products: the
// width kept after alignment; for s32 near INT32_MAX), spread (A's binades over 2^-8..2^8). N,
// the layouts, scale-d, imm-scale-a/b and the A source are drawn from the seed.
//
// Seeds from 400000 (kSparseSeeds) are wgmma.mma_async.sp in the same 8 forms (K twice the
// dense one: A's 64 x K/2 stored elements in the dense A's layouts, B K deep) and 5 modes, the
// four above and split (A from registers, the registers of the first half of K in binades
// 2^10 above or below the second's: mma_sparse.h's two groupings differ there). The metadata
// is an input word turned into valid nibbles in the program (prmt, as --mma's sparse forms),
// the selector an immediate the seed draws; B's K-major layouts are the ones 64 bytes of K fit
// (no swizzle, 64B, 128B). Earlier seeds generate what they did. Not recorded on the chip yet:
// `bash scripts/device_wgmma.sh 400 400000`.
#include <algorithm>
#include <array>
#include <cstdio>

#include "harness/ptxgen/builder.h"
#include "harness/ptxgen/ptxgen.h"

namespace warpsim::ptxgen {
namespace {

enum class Elem : uint8_t { F16, BF16, TF32, E4M3, E5M2, S8, U8 };

struct WgForm {
  Elem a, b;
  const char* d;  // f32, f16, s32
  bool satfinite;
};

constexpr std::array<WgForm, 8> kWgForms = {{
    {Elem::F16, Elem::F16, "f32", false},
    {Elem::F16, Elem::F16, "f16", false},
    {Elem::BF16, Elem::BF16, "f32", false},
    {Elem::TF32, Elem::TF32, "f32", false},
    {Elem::E4M3, Elem::E4M3, "f32", false},
    {Elem::E5M2, Elem::E4M3, "f16", false},
    {Elem::S8, Elem::S8, "s32", false},
    {Elem::U8, Elem::S8, "s32", true},
}};

const char* name(Elem e) {
  static const char* n[] = {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8"};
  return n[unsigned(e)];
}
unsigned bytesOf(Elem e) {
  return e == Elem::TF32 ? 4 : (e == Elem::F16 || e == Elem::BF16) ? 2 : 1;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// AND/OR masks putting every element of a 32-bit word into binade 2^e (relative to 1), sign
// and significand kept.
std::pair<uint32_t, uint32_t> binade(Elem k, int e) {
  switch (k) {
    case Elem::F16: {
      const uint32_t x = uint32_t(15 + e) << 10;
      return {0x83FF83FFu, x | x << 16};
    }
    case Elem::BF16: {
      const uint32_t x = uint32_t(127 + e) << 7;
      return {0x807F807Fu, x | x << 16};
    }
    case Elem::TF32:
      return {0x807FFFFFu, uint32_t(127 + e) << 23};
    case Elem::E4M3: {  // exponent field 7 + e in bits 3..6 of each byte
      const uint32_t x = uint32_t(7 + e) << 3;
      return {0x87878787u, x * 0x01010101u};
    }
    case Elem::E5M2: {
      const uint32_t x = uint32_t(15 + e) << 2;
      return {0x83838383u, x * 0x01010101u};
    }
    default:
      return {~0u, 0};
  }
}

// Descriptor fields for an operand of `rows` rows along M/N (K is always 32 bytes), placed at
// byte `base` of the image; the bytes it spans.
struct Placed {
  uint64_t desc;  // without the shared array's address (added in the program)
  unsigned bytes;
};
// kBytes: the operand's depth in bytes, 32 (64 for a sparse wgmma's B).
Placed place(unsigned swizzle, bool mnMajor, unsigned rows, unsigned e, unsigned base,
             unsigned kStep, unsigned kBytes = 32) {
  const unsigned w = swizzle == 1 ? 128 : swizzle == 2 ? 64 : swizzle == 3 ? 32 : 16;
  const unsigned groups = kBytes / e / 8;  // groups of 8 k (MN-major)
  unsigned lbo = 0, sbo = 0, bytes = 0, start = base;
  if (!mnMajor) {
    if (swizzle == 0) {
      lbo = 128, sbo = 128 * (kBytes / 16), bytes = (rows + 7) / 8 * sbo;
    } else {
      sbo = 8 * w, bytes = (rows + 7) / 8 * 8 * w;
      start += 32 * kStep;
    }
  } else {
    if (swizzle == 0) {
      lbo = 128, sbo = 128 * groups, bytes = (rows * e + 15) / 16 * sbo;
    } else {
      sbo = 8 * w, lbo = 8 * w * groups, bytes = (rows * e + w - 1) / w * lbo;
    }
  }
  const uint64_t d = uint64_t(start >> 4) | uint64_t(lbo >> 4) << 16 | uint64_t(sbo >> 4) << 32 |
                     uint64_t(swizzle) << 62;
  return {d, bytes};
}

}  // namespace

GeneratedProgram generateWgmmaProgram(uint64_t seed) {
  kernels::Rng rng(seed * 0x9E3779B97F4A7C15ull + 0x7767);
  auto below = [&](uint32_t n) { return n <= 1 ? 0u : rng.u32(0, n - 1); };
  GeneratedProgram g;
  g.seed = seed;
  g.blockSize = 128;
  g.gridSize = 1;
  constexpr uint64_t kSparseSeeds = 400000;
  const bool sparse = seed >= kSparseSeeds;
  const uint64_t position = sparse ? seed - kSparseSeeds : seed;
  const WgForm& f = kWgForms[position % kWgForms.size()];
  const unsigned mode = unsigned(position / kWgForms.size()) % (sparse ? 5 : 4);
  static const char* kModes[] = {"random", "narrow", "large-c", "spread", "split"};
  const bool isInt = f.a == Elem::S8 || f.a == Elem::U8;
  const bool trans = f.a == Elem::F16 || f.a == Elem::BF16;
  const unsigned e = bytesOf(f.a), K = 32 / e;
  // N: small ones often (cheap), the extremes sometimes.
  unsigned n;
  if (isInt) {
    static const unsigned kIntN[] = {8, 16, 24, 32, 48, 64, 96, 128, 256};
    n = kIntN[below(9)];
  } else {
    n = std::array<unsigned, 8>{8, 16, 24, 40, 64, 128, 200, 256}[below(8)];
  }
  const bool aRegs = below(3) == 0 || mode == 4;
  const unsigned swA = below(4);
  // A sparse B's 64 bytes of K fit the K-major layouts without swizzle, 64B and 128B.
  const unsigned swB = sparse ? std::array<unsigned, 3>{0, 1, 2}[below(3)] : below(4);
  const bool tA = trans && !aRegs && below(2), tB = trans && below(2);
  const unsigned kStep = (!tA && swA != 0) ? below(swA == 1 ? 4 : swA == 2 ? 2 : 1) : 0;
  const bool scaleD = below(4) != 0;
  const int scaleA = below(4) == 0 ? -1 : 1, scaleB = below(4) == 0 ? -1 : 1;
  const Placed pa = place(swA, tA, 64, e, 0, kStep);
  const unsigned bBase = (pa.bytes + 32 * 3 + 1023) / 1024 * 1024;
  const Placed pb = place(swB, tB, n, e, bBase, 0, sparse ? 64 : 32);
  const unsigned imageBytes = (bBase + pb.bytes + 511) / 512 * 512;
  const unsigned imageWords = imageBytes / 512;  // per thread: word i at i * 128 + t
  const unsigned aWords = aRegs ? 0 : (pa.bytes + 32 * kStep + 511) / 512;
  const bool dHalf = std::string(f.d) == "f16";
  const unsigned dRegs = dHalf ? n / 4 : n / 2;

  std::vector<std::string> regs, body;
  std::vector<size_t> writerOf;
  auto addReg = [&](const std::string& r, InputKind k) {
    regs.push_back(r);
    g.inputs.push_back(k);
    writerOf.push_back(std::string::npos);
  };
  const InputKind abKind = f.a == Elem::F16    ? InputKind::F16x2
                           : f.a == Elem::BF16 ? InputKind::BF16x2
                           : f.a == Elem::TF32 ? InputKind::F32
                                               : InputKind::Int32;
  for (unsigned i = 0; i < imageWords; ++i) addReg("%r" + std::to_string(i), abKind);
  const unsigned aFirst = imageWords;
  if (aRegs)
    for (unsigned i = 0; i < 4; ++i) addReg("%r" + std::to_string(aFirst + i), abKind);
  const unsigned metaReg = imageWords + (aRegs ? 4 : 0);  // sparse: the metadata word
  if (sparse) addReg("%r" + std::to_string(metaReg), InputKind::Int32);
  const unsigned nR = metaReg + (sparse ? 1 : 0);
  const InputKind dKind = dHalf ? InputKind::F16x2 : isInt ? InputKind::Int32 : InputKind::F32;
  const char* dPrefix = (dHalf || isInt) ? "%s" : "%f";
  for (unsigned i = 0; i < dRegs; ++i) addReg(dPrefix + std::to_string(i), dKind);

  // Targeted masks: image words of A's region (or A's registers) and of B's, and C.
  auto mask = [&](unsigned r, Elem k, int ex) {
    const auto [andMask, orMask] = binade(k, ex);
    if (andMask == ~0u) return;
    body.push_back("and.b32 " + regs[r] + "," + regs[r] + "," + hex(andMask) + ";");
    body.push_back("or.b32 " + regs[r] + "," + regs[r] + "," + hex(orMask) + ";");
    writerOf[r] = body.size() - 1;
  };
  if (mode != 0 && !isInt) {
    for (unsigned i = 0; i < imageWords; ++i) {
      const bool inA = !aRegs && i < aWords;
      int ex = int(below(3)) - 1;
      if (mode == 3 && inA) ex = int(below(17)) - 8;
      if (f.a == Elem::E4M3 || f.b == Elem::E4M3) ex = std::clamp(ex, -6, 7);
      mask(i, inA ? f.a : f.b, ex);
    }
    const bool firstLarge = mode == 4 && below(2);
    for (unsigned i = 0; i < (aRegs ? 4u : 0u); ++i)
      mask(aFirst + i, f.a,
           mode == 3   ? int(below(17)) - 8
           : mode == 4 ? ((i < 2) == firstLarge ? 4 : -4) + int(below(2))
                       : int(below(3)) - 1);
    for (unsigned i = 0; i < dRegs; ++i) {
      const Elem ce = dHalf ? Elem::F16 : Elem::TF32;  // TF32's masks are f32's
      mask(nR + i, ce, mode == 2 ? 12 + int(below(3)) : int(below(4)));
    }
  }
  if (isInt && mode == 2)
    for (unsigned i = 0; i < dRegs; ++i) {
      body.push_back("or.b32 " + regs[nR + i] + "," + regs[nR + i] + ",0x7FFF0000;");
      writerOf[nR + i] = body.size() - 1;
    }
  // The image into shared memory, the descriptors, the wgmma.
  body.push_back("mov.u32 %t1,img;");
  body.push_back("shl.b32 %t2,%tx,2;");
  body.push_back("add.u32 %t2,%t1,%t2;");
  for (unsigned i = 0; i < imageWords; ++i)
    body.push_back("st.shared.b32 [%t2+" + std::to_string(512 * i) + "]," + regs[i] + ";");
  body.push_back("bar.sync 0;");
  body.push_back("fence.proxy.async.shared::cta;");
  body.push_back("cvt.u64.u32 %q0,%t1;");
  body.push_back("shr.u64 %q0,%q0,4;");
  body.push_back("add.s64 %q1,%q0," + hex(pa.desc) + ";");
  body.push_back("add.s64 %q2,%q0," + hex(pb.desc) + ";");
  body.push_back(std::string("setp.") + (scaleD ? "ne" : "eq") + ".u32 %sd,%tx,1000;");
  std::string sparseOperands;
  if (sparse) {
    // Eight bytes of two valid nibbles each (tf32: 0b0100 / 0b1110), four picked per thread.
    static constexpr std::array<uint32_t, 6> kOrdered = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
    auto nibble = [&]() -> uint32_t {
      return f.a == Elem::TF32 ? (below(2) ? 0xE : 0x4) : kOrdered[below(6)];
    };
    uint32_t table[2] = {0, 0};
    for (unsigned byte = 0; byte < 8; ++byte)
      table[byte / 4] |= (nibble() | nibble() << 4) << (byte % 4 * 8);
    const std::string& m = regs[metaReg];
    body.push_back("mov.b32 %t0," + hex(table[0]) + ";");
    body.push_back("mov.b32 %t1," + hex(table[1]) + ";");
    body.push_back("and.b32 " + m + "," + m + ",0x7777;");
    body.push_back("prmt.b32 " + m + ",%t0,%t1," + m + ";");
    writerOf[metaReg] = body.size() - 1;
    const unsigned selectors = f.a == Elem::F16 || f.a == Elem::BF16 || f.a == Elem::TF32 ? 2 : 1;
    sparseOperands = "," + m + "," + std::to_string(below(selectors));
  }
  body.push_back("wgmma.fence.sync.aligned;");
  std::string shape = "m64n" + std::to_string(n) + "k" + std::to_string(sparse ? 2 * K : K);
  std::string formText = std::string("wgmma.mma_async") + (sparse ? ".sp" : "") + ".sync.aligned." +
                         shape + (f.satfinite ? ".satfinite" : "") + "." + f.d + "." + name(f.a) +
                         "." + name(f.b);
  std::string line = formText + " {";
  for (unsigned i = 0; i < dRegs; ++i) line += (i ? "," : "") + regs[nR + i];
  line += "},";
  if (aRegs) {
    line += "{" + regs[aFirst] + "," + regs[aFirst + 1] + "," + regs[aFirst + 2] + "," +
            regs[aFirst + 3] + "}";
  } else {
    line += "%q1";
  }
  line += ",%q2" + sparseOperands + ",%sd";
  if (!isInt) {
    line += "," + std::to_string(scaleA) + "," + std::to_string(scaleB);
    if (trans) {
      if (!aRegs) line += std::string(",") + (tA ? "1" : "0");
      line += std::string(",") + (tB ? "1" : "0");
    }
  }
  body.push_back(line + ";");
  for (unsigned i = 0; i < dRegs; ++i) writerOf[nR + i] = body.size() - 1;
  body.push_back("wgmma.commit_group.sync.aligned;");
  body.push_back("wgmma.wait_group.sync.aligned 0;");

  g.words = unsigned(regs.size());
  const std::string family = std::string(sparse ? "wgmma.sp." : "wgmma.") + name(f.a) + "." +
                             name(f.b) + "." + f.d + "." + kModes[mode] + (aRegs ? ".areg" : "") +
                             ".sw" + std::to_string(swA) + std::to_string(swB) + (tA ? ".tA" : "") +
                             (tB ? ".tB" : "") + (kStep ? ".kstep" : "");
  std::string s = "// ptxgen " + std::to_string(kGeneratorVersion) + " --wgmma seed " +
                  std::to_string(seed) + " (" + family + ")\n";
  s += ".version 9.0\n.target sm_90a\n.address_size 64\n";
  s += ".visible .entry isa_prog(.param .u64 in, .param .u64 out)\n{\n";
  s += ".reg .b32 %r<" + std::to_string(nR) + ">;\n";
  s += std::string(".reg ") + ((dHalf || isInt) ? ".b32 %s<" : ".f32 %f<") + std::to_string(dRegs) +
       ">;\n";
  s += ".reg .b64 %a<3>,%q<3>;\n.reg .b32 %t<3>,%tx;\n.reg .pred %sd;\n";
  s += ".shared .align 1024 .b8 img[" + std::to_string(imageBytes) + "];\n";
  s += "ld.param.u64 %a0,[in];\nld.param.u64 %a1,[out];\n";
  s += "cvta.to.global.u64 %a0,%a0;\ncvta.to.global.u64 %a1,%a1;\n";
  s += "mov.u32 %tx,%tid.x;\n";
  s += "mov.u32 %t0,%ctaid.x;\nmov.u32 %t1,%ntid.x;\nmad.lo.s32 %t0,%t0,%t1,%tx;\n";
  s += "mul.wide.u32 %a2,%t0," + std::to_string(8 * g.words) + ";\n";
  s += "add.s64 %a0,%a0,%a2;\nadd.s64 %a1,%a1,%a2;\n";
  for (unsigned i = 0; i < g.words; ++i)
    s += "ld.global.b32 " + regs[i] + ",[%a0+" + std::to_string(8 * i) + "];\n";
  for (const std::string& l : body) s += l + "\n";
  for (unsigned i = 0; i < g.words; ++i) {
    s += "st.global.b32 [%a1+" + std::to_string(8 * i) + "]," + regs[i] + ";\n";
    OutputWord w;
    w.reg = regs[i];
    if (writerOf[i] != std::string::npos) w.writers.push_back(body[writerOf[i]]);
    g.outputs.push_back(w);
  }
  s += "ret;\n}\n";
  g.ptx = std::move(s);
  g.forms = {formText};
  g.families = {family};
  return g;
}

}  // namespace warpsim::ptxgen
