// Warp-level matrix multiply-accumulate (PTX ISA, "mma"): D = A * B + C over the 32 threads of a
// warp, every matrix spread over the threads' registers in the fragment layouts of the PTX ISA
// ("Matrix Fragments for mma.m16n8k16 / m16n8k8 / m8n8k4 / m16n8k32"; groupID = laneid >> 2,
// threadID_in_group = laneid % 4):
//   mma.sync.aligned.m16n8k16.row.col.{f32,f16}.f16.f16.{f32,f16}   (D and C of one type),
//                                     .f32.bf16.bf16.f32
//   mma.sync.aligned.m16n8k8.row.col.{f32,f16}.f16.f16.{f32,f16}    (likewise),
//                                    .f32.bf16.bf16.f32, .f32.tf32.tf32.f32
//   mma.sync.aligned.m8n8k4.row.col{.rn,.rz,.rm,.rp}.f64.f64.f64.f64
//   mma.sync.aligned.m16n8k32 / m16n8k16 .row.col{.satfinite}.s32.{s8,u8}.{s8,u8}.s32
// Integer forms are exact (the sum wraps modulo 2^32, or clamps with .satfinite); the f64 form is
// a chain of fused multiply-adds in k order from C, each rounded in the instruction's mode; the
// narrow floating-point forms go through mmaDot (mma_accumulate.h), the model of the tensor
// core's undocumented summation fitted to the H200. .aligned: every thread of the warp executes it.
#include <algorithm>
#include <array>
#include <utility>

#include "isa/insns/families.h"
#include "isa/insns/lanes.h"
#include "isa/insns/mma_accumulate.h"

namespace warpsim::isa::insns {
namespace {

enum class Form : uint8_t { F16K16, Bf16K16, F16K8, Bf16K8, Tf32K8, F64K4, IntK32, IntK16 };

// Inst::flags
enum : uint32_t {
  kCF16 = 1,       // C is f16 (f16x2 registers)
  kDF16 = 2,       // D is f16
  kAUnsigned = 4,  // .u8 A
  kBUnsigned = 8,  // .u8 B
  kSatFinite = 16,
  kRoundShift = 8,  // f64: fp::Round in bits 8..10
};

struct Geometry {
  unsigned m, n, k;
  unsigned aElems, aPerReg, bElems, bPerReg;  // elements, elements per 32/64-bit register
};

constexpr Geometry geometry(Form f) {
  switch (f) {
    case Form::F16K16:
    case Form::Bf16K16:
      return {16, 8, 16, 8, 2, 4, 2};
    case Form::F16K8:
    case Form::Bf16K8:
      return {16, 8, 8, 4, 2, 2, 2};
    case Form::Tf32K8:
      return {16, 8, 8, 4, 1, 2, 1};
    case Form::F64K4:
      return {8, 8, 4, 1, 1, 1, 1};
    case Form::IntK32:
      return {16, 8, 32, 16, 4, 8, 4};
    case Form::IntK16:
      return {16, 8, 16, 8, 4, 4, 4};
  }
  return {};
}

struct RowCol {
  unsigned row, col;
};

// Where element i of a thread's A fragment sits (g = groupID, t = threadID_in_group).
constexpr RowCol aAt(Form f, unsigned i, unsigned g, unsigned t) {
  switch (f) {
    case Form::F16K16:
    case Form::Bf16K16:
      return {g + ((i >> 1) & 1) * 8, t * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
    case Form::F16K8:
    case Form::Bf16K8:
      return {g + (i >= 2 ? 8 : 0), t * 2 + (i & 1)};
    case Form::Tf32K8:
      return {g + (i & 1) * 8, t + (i >= 2 ? 4 : 0)};
    case Form::F64K4:
      return {g, t};
    case Form::IntK32:
      return {g + ((i >> 2) & 1) * 8, t * 4 + (i & 3) + (i >= 8 ? 16 : 0)};
    case Form::IntK16:
      return {g + (i >= 4 ? 8 : 0), t * 4 + (i & 3)};
  }
  return {};
}

constexpr RowCol bAt(Form f, unsigned i, unsigned g, unsigned t) {
  switch (f) {
    case Form::F16K16:
    case Form::Bf16K16:
      return {t * 2 + (i & 1) + (i >= 2 ? 8 : 0), g};
    case Form::F16K8:
    case Form::Bf16K8:
      return {t * 2 + i, g};
    case Form::Tf32K8:
      return {t + i * 4, g};
    case Form::F64K4:
      return {t, g};
    case Form::IntK32:
      return {t * 4 + (i & 3) + (i >= 4 ? 16 : 0), g};
    case Form::IntK16:
      return {t * 4 + i, g};
  }
  return {};
}

// C and D: four elements per thread for the 16x8 shapes, two for m8n8k4.
constexpr RowCol cAt(Form f, unsigned i, unsigned g, unsigned t) {
  if (f == Form::F64K4) return {g, t * 2 + i};
  return {g + (i >= 2 ? 8 : 0), t * 2 + (i & 1)};
}

// The register holding element i of a fragment operand (a vector, or one register).
inline const uint64_t* fragReg(const Exec& x, const Opnd& o, unsigned reg) {
  return x.reg(o.kind == OpndKind::Vec ? o.elems[reg] : o);
}

double narrowValue(Form f, uint64_t bits) {
  switch (f) {
    case Form::Tf32K8:  // tf32: the f32 encoding's upper 19 bits
      return fp::f32(uint32_t(bits) & 0xFFFFE000u);
    case Form::Bf16K16:
    case Form::Bf16K8:
      return fp::bf16ToF32(uint16_t(bits));
    default:
      return fp::f16ToF32(uint16_t(bits));
  }
}

// The format of A's and B's elements, for the alignment exponents of mmaDot.
constexpr fp::Format inputFormat(Form f) {
  switch (f) {
    case Form::Bf16K16:
    case Form::Bf16K8:
      return fp::kBF16;
    case Form::Tf32K8:
      return fp::kTF32;
    default:
      return fp::kF16;
  }
}

template <Form F>
void mmaH(Exec& x, const Inst& in) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  constexpr Geometry G = geometry(F);
  constexpr bool kInt = F == Form::IntK32 || F == Form::IntK16;
  constexpr unsigned aBits = F == Form::F64K4 ? 64 : 32 / G.aPerReg;
  constexpr unsigned bBits = F == Form::F64K4 ? 64 : 32 / G.bPerReg;
  const Opnd &dOp = in.ops[0], &aOp = in.ops[1], &bOp = in.ops[2], &cOp = in.ops[3];
  // Every element of A, B and C is written below. B is kept transposed (Bt[col][k]) so that the
  // narrow forms' dots read a row of A and a column of B as contiguous k values.
  std::array<std::array<double, 32>, 16> A;
  std::array<std::array<double, 32>, 8> Bt;
  std::array<std::array<int64_t, 32>, 16> Ai;
  std::array<std::array<int64_t, 32>, 8> Bi;
  std::array<std::array<uint64_t, 8>, 16> C, D;
  auto field = [](uint64_t r, unsigned idx, unsigned bits) {
    return bits == 64 ? r : (r >> (idx * bits)) & ((1ull << bits) - 1);
  };
  // The fragments' registers, looked up once (not per lane and element).
  constexpr unsigned cRegs = F == Form::F64K4 ? 2 : 4;
  const uint64_t *aRegs[G.aElems / G.aPerReg], *bRegs[G.bElems / G.bPerReg], *cRegsOf[cRegs];
  for (unsigned j = 0; j < G.aElems / G.aPerReg; ++j) aRegs[j] = fragReg(x, aOp, j);
  for (unsigned j = 0; j < G.bElems / G.bPerReg; ++j) bRegs[j] = fragReg(x, bOp, j);
  for (unsigned j = 0; j < cRegs; ++j)
    cRegsOf[j] = (in.flags & kCF16) && j >= 2 ? nullptr : fragReg(x, cOp, j);
  if constexpr (!kInt && F != Form::F64K4) {
    // The narrow forms element by element, each over the 32 lanes: with the element index a
    // constant, its row and column are affine in (g, t) and its register and field fixed.
    auto unpackA = [&]<unsigned I>(std::integral_constant<unsigned, I>) {
      const uint64_t* reg = aRegs[I / G.aPerReg];
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        const RowCol rc = aAt(F, I, lane >> 2, lane & 3);
        A[rc.row][rc.col] = narrowValue(F, field(reg[lane], I % G.aPerReg, aBits));
      }
    };
    auto unpackB = [&]<unsigned I>(std::integral_constant<unsigned, I>) {
      const uint64_t* reg = bRegs[I / G.bPerReg];
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        const RowCol rc = bAt(F, I, lane >> 2, lane & 3);
        Bt[rc.col][rc.row] = narrowValue(F, field(reg[lane], I % G.bPerReg, bBits));
      }
    };
    [&]<unsigned... I>(std::integer_sequence<unsigned, I...>) {
      (unpackA(std::integral_constant<unsigned, I>{}), ...);
    }
    (std::make_integer_sequence<unsigned, G.aElems>{});
    [&]<unsigned... I>(std::integer_sequence<unsigned, I...>) {
      (unpackB(std::integral_constant<unsigned, I>{}), ...);
    }
    (std::make_integer_sequence<unsigned, G.bElems>{});
  }
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    const unsigned g = lane >> 2, t = lane & 3;
    for (unsigned i = 0; i < G.aElems; ++i) {
      if constexpr (!kInt && F != Form::F64K4) break;  // unpacked above
      const uint64_t v = field(aRegs[i / G.aPerReg][lane], i % G.aPerReg, aBits);
      const RowCol rc = aAt(F, i, g, t);
      if constexpr (kInt)
        Ai[rc.row][rc.col] = (in.flags & kAUnsigned) ? int64_t(v) : int64_t(int8_t(v));
      else if constexpr (F == Form::F64K4)
        A[rc.row][rc.col] = fp::f64(v);
      else
        A[rc.row][rc.col] = narrowValue(F, v);
    }
    for (unsigned i = 0; i < G.bElems; ++i) {
      if constexpr (!kInt && F != Form::F64K4) break;  // unpacked above
      const uint64_t v = field(bRegs[i / G.bPerReg][lane], i % G.bPerReg, bBits);
      const RowCol rc = bAt(F, i, g, t);
      if constexpr (kInt)
        Bi[rc.col][rc.row] = (in.flags & kBUnsigned) ? int64_t(v) : int64_t(int8_t(v));
      else if constexpr (F == Form::F64K4)
        Bt[rc.col][rc.row] = fp::f64(v);
      else
        Bt[rc.col][rc.row] = narrowValue(F, v);
    }
    const unsigned cElems = F == Form::F64K4 ? 2 : 4;
    for (unsigned i = 0; i < cElems; ++i) {
      const RowCol rc = cAt(F, i, g, t);
      C[rc.row][rc.col] =
          (in.flags & kCF16) ? field(cRegsOf[i / 2][lane], i % 2, 16) : cRegsOf[i][lane];
    }
  }
  // The narrow forms' rows and columns prepared once for mmaDot (each meets G.n or G.m others).
  std::array<std::array<int32_t, 32>, 16> aExp;
  std::array<std::array<int32_t, 32>, 8> bExp;
  std::array<MmaVector, 16> rows;
  std::array<MmaVector, 8> cols;
  if constexpr (!kInt && F != Form::F64K4) {
    for (unsigned r = 0; r < G.m; ++r)
      rows[r] = {A[r].data(), aExp[r].data(),
                 mmaExponents(A[r].data(), G.k, inputFormat(F), aExp[r].data())};
    for (unsigned c = 0; c < G.n; ++c)
      cols[c] = {Bt[c].data(), bExp[c].data(),
                 mmaExponents(Bt[c].data(), G.k, inputFormat(F), bExp[c].data())};
  }
  for (unsigned r = 0; r < G.m; ++r)
    for (unsigned c = 0; c < G.n; ++c) {
      if constexpr (kInt) {
        int64_t s = int64_t(int32_t(uint32_t(C[r][c])));
        for (unsigned k = 0; k < G.k; ++k) s += Ai[r][k] * Bi[c][k];
        if (in.flags & kSatFinite) s = std::clamp<int64_t>(s, INT32_MIN, INT32_MAX);
        D[r][c] = uint32_t(s);
      } else if constexpr (F == Form::F64K4) {
        const auto mode = fp::Round((in.flags >> kRoundShift) & 7);
        // One DFMA per k, B as its first operand: with NaN operands the result is B's, then
        // the running sum's (C's), then A's NaN, quieted with its payload (fp::fma's NaN rule,
        // nanResultFma64; measured: the mma.f64 random-input cases of scripts/device_mma.sh,
        // where A first gives 0 of 20 and B first 20 of 20).
        double d = fp::f64(C[r][c]);
        for (unsigned k = 0; k < G.k; ++k) d = fp::fma(Bt[c][k], A[r][k], d, mode);
        D[r][c] = fp::bits(d);
      } else {
        // C enters the sum exactly in its own format, D is rounded once (mma_accumulate.h).
        D[r][c] = mmaDot(rows[r], cols[c], G.k, kMmaAdder, C[r][c],
                         (in.flags & kCF16) ? fp::kF16 : fp::kF32,
                         (in.flags & kDF16) ? fp::kF16 : fp::kF32);
      }
    }
  const unsigned dElems = F == Form::F64K4 ? 2 : 4;
  const bool dHalf = !kInt && F != Form::F64K4 && (in.flags & kDF16);
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    const unsigned g = lane >> 2, t = lane & 3;
    if (dHalf) {
      for (unsigned reg = 0; reg < 2; ++reg) {
        const RowCol lo = cAt(F, 2 * reg, g, t), hi = cAt(F, 2 * reg + 1, g, t);
        x.reg(dOp.elems[reg])[lane] = D[lo.row][lo.col] | D[hi.row][hi.col] << 16;
      }
    } else {
      for (unsigned i = 0; i < dElems; ++i) {
        const RowCol rc = cAt(F, i, g, t);
        x.reg(dOp.elems[i])[lane] = D[rc.row][rc.col];
      }
    }
  }
}

std::string bindMma(Inst& in) {
  const Mods& m = in.mods;
  if (!m.has("sync") || !m.has("aligned")) return msg(in, "needs .sync.aligned");
  if (m.types.size() != 4 || !m.has("row") || !m.has("col") || m.has("sp")) {
    in.run = notSupportedHandler;  // other layouts (m8n8k4 f16), sparse forms: not yet
    return "";
  }
  const Type d = m.types[0], a = m.types[1], b = m.types[2], c = m.types[3];
  auto isInt8 = [](Type t) { return t == Type::S8 || t == Type::U8; };
  auto isHalfAcc = [](Type t) { return t == Type::F16 || t == Type::F32; };
  auto bit = [](bool on, uint32_t f) { return on ? f : 0u; };
  in.flags = bit(c == Type::F16, kCF16) | bit(d == Type::F16, kDF16) |
             bit(a == Type::U8, kAUnsigned) | bit(b == Type::U8, kBUnsigned) |
             bit(m.has("satfinite"), kSatFinite);
  unsigned dRegs = 4, cRegs = 4;
  Form form;
  const bool k16 = m.has("m16n8k16"), k8 = m.has("m16n8k8");
  if ((k16 || k8) && a == Type::F16 && b == Type::F16 && isHalfAcc(c) && isHalfAcc(d)) {
    // ptxas (sm_90): ".dtype must be '.f16' when .ctype is '.f16'" for these shapes, and f32
    // likewise: mixed accumulators exist only for m8n8k4.
    if (c != d) return msg(in, "takes C and D of one type (.f16 or .f32) in this shape");
    form = k16 ? Form::F16K16 : Form::F16K8;
    dRegs = d == Type::F16 ? 2 : 4;
    cRegs = c == Type::F16 ? 2 : 4;
  } else if ((k16 || k8) && a == Type::BF16 && b == Type::BF16 && c == Type::F32 &&
             d == Type::F32) {
    form = k16 ? Form::Bf16K16 : Form::Bf16K8;
  } else if (k8 && a == Type::TF32 && b == Type::TF32 && c == Type::F32 && d == Type::F32) {
    form = Form::Tf32K8;
  } else if (m.has("m8n8k4") && a == Type::F64 && b == Type::F64 && c == Type::F64 &&
             d == Type::F64) {
    form = Form::F64K4;
    dRegs = cRegs = 2;
    in.flags |= uint32_t(m.rounding.present ? m.rounding.mode : fp::Round::RN) << kRoundShift;
  } else if ((m.has("m16n8k32") || k16) && isInt8(a) && isInt8(b) && c == Type::S32 &&
             d == Type::S32) {
    form = k16 ? Form::IntK16 : Form::IntK32;
  } else {
    in.run = notSupportedHandler;  // parsed, not executed yet (mma.sp, s4, b1, fp8, m8n8k4 f16)
    return "";
  }
  if (m.has("satfinite") && form != Form::IntK32 && form != Form::IntK16)
    return msg(in, "takes .satfinite only for integer types");
  if (m.rounding.present && form != Form::F64K4) return msg(in, "takes a rounding only for .f64");
  const Geometry G = geometry(form);
  auto regs = [](const Opnd& o) -> unsigned {
    if (o.kind == OpndKind::Reg) return 1;
    if (o.kind != OpndKind::Vec) return 0;
    for (const Opnd& e : o.elems)
      if (e.kind != OpndKind::Reg) return 0;
    return unsigned(o.elems.size());
  };
  if (auto e = expectOperands(in, 4); !e.empty()) return e;
  if (in.ops[0].kind != OpndKind::Vec || regs(in.ops[0]) != dRegs)
    return msg(in, "writes a vector of " + std::to_string(dRegs) + " registers");
  if (regs(in.ops[1]) != G.aElems / G.aPerReg)
    return msg(in, "takes A as " + std::to_string(G.aElems / G.aPerReg) + " registers");
  if (regs(in.ops[2]) != G.bElems / G.bPerReg)
    return msg(in, "takes B as " + std::to_string(G.bElems / G.bPerReg) + " registers");
  if (regs(in.ops[3]) != cRegs)
    return msg(in, "takes C as " + std::to_string(cRegs) + " registers");
  in.cls = InsnClass::Tensor;
  switch (form) {
    case Form::F16K16:
      in.run = mmaH<Form::F16K16>;
      break;
    case Form::Bf16K16:
      in.run = mmaH<Form::Bf16K16>;
      break;
    case Form::F16K8:
      in.run = mmaH<Form::F16K8>;
      break;
    case Form::Bf16K8:
      in.run = mmaH<Form::Bf16K8>;
      break;
    case Form::Tf32K8:
      in.run = mmaH<Form::Tf32K8>;
      break;
    case Form::F64K4:
      in.run = mmaH<Form::F64K4>;
      break;
    case Form::IntK32:
      in.run = mmaH<Form::IntK32>;
      break;
    case Form::IntK16:
      in.run = mmaH<Form::IntK16>;
      break;
  }
  return "";
}

}  // namespace

std::vector<OpcodeSpec> matrixMultiply() {
  return {{"mma",
           "mma",
           InsnClass::Tensor,
           Role::Compute,
           {Type::F32, Type::F16, Type::F64, Type::S32, Type::BF16, Type::TF32, Type::S8, Type::U8,
            Type::E4M3, Type::E5M2},
           // Every form parses (s4, b1, sparse, block-scaled, ...); the binder executes those
           // listed above and leaves the rest faulting "not supported yet" when executed.
           {"*"},
           bindMma}};
}

}  // namespace warpsim::isa::insns
