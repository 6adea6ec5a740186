// Warp-level matrix multiply-accumulate through opaque fragments (PTX ISA, "wmma"):
//   wmma.load.{a,b,c}.sync.aligned.{row,col}.SHAPE{.global,.shared}.TYPE  r, [p]{, stride}
//   wmma.store.d.sync.aligned.{row,col}.SHAPE{.global,.shared}.TYPE       [p], r{, stride}
//   wmma.mma.sync.aligned.{row,col}.{row,col}.SHAPE.DTYPE.ATYPE.BTYPE.CTYPE{.satfinite} d, a, b, c
//   wmma.mma{.xor.popc,.and.popc}.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32   d, a, b, c
// for the sm_90 shapes: m16n16k16, m32n8k16, m8n32k16 with f16 (C and D f16 or f32, mixed
// allowed), bf16 (f32), s8/u8 (s32); m16n16k8 tf32 (f32); m8n8k4 f64 (.rn/.rz/.rm/.rp);
// m8n8k32 s4/u4 (s32) and m8n8k128 b1 (s32), whose A is .row and B .col only.
//
// The fragment layout is opaque in PTX: only load, mma and store agree on it, and code that
// keeps to the API (element-wise work on fragments, fill, load, store) cannot tell layouts
// apart. warpsim's layout: element e of lane l holds element e * 32 + l, row-major, of the
// fragment's matrix (A: M x K, B: K x N, C/D: M x N). f16 A and B fragments hold 16 elements
// per lane (8 f16x2 registers) whatever the shape, as the PTX ISA declares them; elements past
// the matrix's M*K/32 repeat the first ones. The sub-byte A and B fragments (s4/u4, b1: one
// 32-bit register) are packed instead: lane l's register holds the l-th 32-bit word of the
// matrix in its only layout (A row-major, B column-major: 32 consecutive bits along K), which
// is also mma.sync's m8n8k32 / m8n8k128 fragment (mma.cpp), and a load reads it as one word.
//
// Numerics: on sm_90, ptxas lowers wmma to the same tensor-core instructions as mma.sync
// (HMMA.16816 / HMMA.1688 / IMMA / DMMA), so every element of D is computed as mma.sync does:
// mmaDot (mma_accumulate.h, fitted to the H200) over the full K for the narrow floating-point
// types, one DFMA per k in k order for f64, exact integer sums for s8/u8. That assumption is
// what scripts/device_wmma.sh checks on the chip. s4/u4 and b1 are exact integer sums (b1: the
// population count of A's row AND/XOR B's column), so any correct implementation is the chip's.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <iterator>
#include <optional>

#include "isa/insns/addresses.h"
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"
#include "isa/insns/matrix_elements.h"
#include "isa/insns/mma_accumulate.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace warpsim::isa::insns {
namespace {

enum class Elem : uint8_t { F16, BF16, TF32, F32, F64, S8, U8, S32, S4, U4, B1 };

unsigned elemBits(Elem e) {
  switch (e) {
    case Elem::F16:
    case Elem::BF16:
      return 16;
    case Elem::S8:
    case Elem::U8:
      return 8;
    case Elem::S4:
    case Elem::U4:
      return 4;
    case Elem::B1:
      return 1;
    case Elem::F64:
      return 64;
    default:
      return 32;
  }
}

// Whether the element is an integer of A and B (the s32 sums).
bool isIntElem(Elem e) {
  return e == Elem::S8 || e == Elem::U8 || e == Elem::S4 || e == Elem::U4 || e == Elem::B1;
}
bool isSubByte(Elem e) { return e == Elem::S4 || e == Elem::U4 || e == Elem::B1; }

bool elemOf(Type t, Elem& e) {
  switch (t) {
    case Type::F16:
      e = Elem::F16;
      return true;
    case Type::BF16:
      e = Elem::BF16;
      return true;
    case Type::TF32:
      e = Elem::TF32;
      return true;
    case Type::F32:
      e = Elem::F32;
      return true;
    case Type::F64:
      e = Elem::F64;
      return true;
    case Type::S8:
      e = Elem::S8;
      return true;
    case Type::U8:
      e = Elem::U8;
      return true;
    case Type::S32:
      e = Elem::S32;
      return true;
    default:
      return false;
  }
}

// An element type word (matrixTypeWords): a PTX type, or s4 / u4 / b1.
bool elemOfWord(const std::string& w, Elem& e) {
  if (w == "s4" || w == "u4" || w == "b1") {
    e = w == "s4" ? Elem::S4 : w == "u4" ? Elem::U4 : Elem::B1;
    return true;
  }
  const std::optional<Type> t = typeFromName(w);
  return t && elemOf(*t, e);
}

struct Shape {
  unsigned m, n, k;
};

// The shapes, in the order of their index in Inst::flags.
constexpr Shape kShapes[] = {{16, 16, 16}, {32, 8, 16}, {8, 32, 16}, {16, 16, 8},
                             {8, 8, 4},    {8, 8, 32},  {8, 8, 128}};
constexpr const char* kShapeNames[] = {"m16n16k16", "m32n8k16", "m8n32k16", "m16n16k8",
                                       "m8n8k4",    "m8n8k32",  "m8n8k128"};
constexpr int kShapeCount = int(std::size(kShapes));

// The shape's index, or -1 for a shape wmma does not have.
int shapeIndex(const Mods& mods) {
  for (int i = 0; i < kShapeCount; ++i)
    if (mods.has(kShapeNames[i])) return i;
  return -1;
}

// Which matrix of the product a fragment holds.
enum class Which : uint8_t { A, B, C };

// A fragment: its matrix's size, the distinct elements per lane, registers and packing.
struct Frag {
  Which which = Which::A;
  bool packed = false;  // sub-byte A/B: lane l holds the matrix's l-th word along K
  unsigned rows = 0, cols = 0;
  unsigned unique = 0;  // rows * cols / 32
  unsigned elems = 0;   // elements the registers hold (f16 A/B: 16)
  unsigned perReg = 1;  // elements per 32-bit register (1 for 64-bit ones)
  unsigned perRegLog2 = 0;
  unsigned bits = 32;
  // Element e's register, and its bit field there.
  unsigned regOfElem(unsigned e) const { return e >> perRegLog2; }
  unsigned shiftOf(unsigned e) const { return (e & (perReg - 1)) * bits; }
  uint64_t fieldMask() const { return bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }
  unsigned regs() const { return elems / perReg; }
  // The row-major index (row * cols + col) of element e of lane l: e * 32 + l, or for a packed
  // fragment the element l * perReg + e along K (A's rows, B's columns, one after another).
  unsigned matrixIndex(unsigned e, unsigned l) const {
    if (!packed) return e * kWarpSize + l;
    const unsigned linear = l * perReg + e;
    if (which == Which::B) return (linear % rows) * cols + linear / rows;
    return linear;
  }
};

Frag fragOf(Shape s, Which w, Elem e) {
  Frag f;
  f.which = w;
  f.packed = isSubByte(e) && w != Which::C;
  f.rows = w == Which::B ? s.k : s.m;
  f.cols = w == Which::A ? s.k : s.n;
  f.unique = f.rows * f.cols / kWarpSize;
  f.bits = elemBits(e);
  f.perReg = f.bits >= 32 ? 1 : 32 / f.bits;
  f.perRegLog2 = unsigned(std::countr_zero(f.perReg));
  f.elems = (e == Elem::F16 && w != Which::C) ? 16 : f.unique;
  return f;
}

// Inst::flags, bits 0..6
constexpr uint32_t kColMajor = 1;   // load/store: .col; mma: A .col
constexpr uint32_t kBColMajor = 2;  // mma: B .col
constexpr uint32_t kHasStride = 4;
constexpr uint32_t kSatFinite = 8;
constexpr uint32_t kRoundShift = 4;  // f64: fp::Round in bits 4..6

// Inst::flags, above bit 8: what the binder decoded for the handlers (shape, which fragment,
// element types), so that nothing compares modifier strings while a kernel runs.
constexpr uint32_t kShapeShift = 8, kWhichShift = 11, kElemShift = 13, kCShift = 17, kDShift = 21;
constexpr uint32_t kBitAnd = 128;  // mma, b1: .and.popc (else .xor.popc)

struct Decoded {
  Shape shape;
  Which which;        // load/store
  Elem elem;          // load/store: the element type; mma: A's and B's
  Elem cElem, dElem;  // mma
};

uint32_t encode(int shape, Which which, Elem elem, Elem c, Elem d) {
  return uint32_t(shape) << kShapeShift | uint32_t(which) << kWhichShift |
         uint32_t(elem) << kElemShift | uint32_t(c) << kCShift | uint32_t(d) << kDShift;
}

Decoded decode(const Inst& in) {
  const uint32_t f = in.flags;
  return {kShapes[(f >> kShapeShift) & 7], Which((f >> kWhichShift) & 3),
          Elem((f >> kElemShift) & 15), Elem((f >> kCShift) & 15), Elem((f >> kDShift) & 15)};
}

const uint64_t* regOf(const Exec& x, const Opnd& v, unsigned i) {
  return x.reg(v.kind == OpndKind::Vec ? v.elems[i] : v);
}
uint64_t* regOfMut(const Exec& x, const Opnd& v, unsigned i) {
  return x.reg(v.kind == OpndKind::Vec ? v.elems[i] : v);
}

// Element e of every lane at once (M[e * 32 + lane]: the field of element e's register that
// holds it, zero-extended), and back (the other fields of a 32-bit register kept).
void gatherElems(const Exec& x, const Opnd& v, const Frag& f, uint64_t* m) {
  for (unsigned e = 0; e < f.unique; ++e) {
    const uint64_t* r = regOf(x, v, f.regOfElem(e));
    const unsigned sh = f.shiftOf(e);
    const uint64_t mask = f.fieldMask();
    if (!f.packed) {  // element e of lane l is e * 32 + l: a loop that vectorizes
      uint64_t* row = m + e * kWarpSize;
#pragma GCC ivdep
      for (unsigned l = 0; l < kWarpSize; ++l) row[l] = (r[l] >> sh) & mask;
      continue;
    }
    for (unsigned l = 0; l < kWarpSize; ++l) m[f.matrixIndex(e, l)] = (r[l] >> sh) & mask;
  }
}
void scatterElems(const Exec& x, const Opnd& v, const Frag& f, const uint64_t* m) {
  for (unsigned e = 0; e < f.unique; ++e) {
    uint64_t* r = regOfMut(x, v, f.regOfElem(e));
    // Element e's row of m by a pointer: an index e * 32 + l in unsigned arithmetic could wrap,
    // which made the loops gather lane by lane.
    const uint64_t* row = m + size_t(e) * kWarpSize;
    if (f.bits == 64) {
      for (unsigned l = 0; l < kWarpSize; ++l) r[l] = row[l];
      continue;
    }
    if (f.bits == 32) {  // the whole register, its upper half clear
#pragma GCC ivdep
      for (unsigned l = 0; l < kWarpSize; ++l) r[l] = uint32_t(row[l]);
      continue;
    }
    const unsigned sh = f.shiftOf(e);
    const uint64_t mask = f.fieldMask() << sh;
#pragma GCC ivdep
    for (unsigned l = 0; l < kWarpSize; ++l)
      r[l] = (r[l] & ~mask & 0xFFFFFFFFull) | ((row[l] << sh) & mask);
  }
}

// The byte address of matrix element (row, col) for a lane's pointer.
uint64_t elemAddress(uint64_t base, unsigned row, unsigned col, bool colMajor, uint64_t stride,
                     unsigned bytes) {
  return base + (colMajor ? uint64_t(col) * stride + row : uint64_t(row) * stride + col) * bytes;
}

// A sub-byte A or B fragment's load: lane l reads the l-th 32-bit word of the matrix along K
// (A: of row l / w, B: of column l / w, w words per row or column), rows (columns) `stride`
// elements apart (a stride that puts a row off a 4-byte boundary faults as misaligned).
void loadPacked(Exec& x, const Inst& in, const Frag& f) {
  const unsigned along = f.which == Which::A ? f.cols : f.rows;  // K
  const unsigned words = along * f.bits / 32;
  uint64_t base[kWarpSize], addrs[kWarpSize], vals[kWarpSize];
  laneAddresses(x, in.ops[1], x.mask, base);
  forLanes(x.mask, [&](unsigned l) {
    const uint64_t stride = (in.flags & kHasStride) ? uint32_t(x.reg(in.ops[2])[l]) : along;
    addrs[l] = base[l] + (l / words) * (stride * f.bits / 8) + (l % words) * 4;
  });
  x.machine->load(in, addressedSpace(in), x.mask, addrs, 4, 1, vals);
  uint64_t* reg = regOfMut(x, in.ops[0], 0);
  forLanes(x.mask, [&](unsigned l) { reg[l] = uint32_t(vals[l]); });
}

// The most distinct elements a lane holds in a fragment that is not packed (m32n8k16's A and
// m8n32k16's B: 512 / 32).
constexpr unsigned kMaxUnique = 16;

// A fragment's load or store with its element type U (uint8_t .. uint64_t) a constant: element
// by element, each over the lanes, the registers packed or unpacked a register at a time.
// v[c] = the c-th of n elements of type U side by side at `at`, widened: with AVX2 four to
// an instruction (GCC's __builtin_convertvector took the elements apart one by one).
template <class U>
void widenRow(const uint8_t* at, unsigned n, uint64_t* v) {
  unsigned c = 0;
#if defined(__AVX2__)
  if constexpr (sizeof(U) <= 4)
    for (; c + 4 <= n; c += 4) {
      const uint8_t* from = at + c * sizeof(U);
      __m256i out;
      if constexpr (sizeof(U) == 1) {
        uint32_t w;
        std::memcpy(&w, from, sizeof w);
        out = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(int(w)));
      } else if constexpr (sizeof(U) == 2) {
        out = _mm256_cvtepu16_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(from)));
      } else {
        out = _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(from)));
      }
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(v + c), out);
    }
#endif
  for (; c < n; ++c) {
    U u;
    std::memcpy(&u, at + c * sizeof(U), sizeof u);
    v[c] = u;
  }
}

// n bytes (a row of a fragment: a multiple of 8, 8 to 128) copied in constant-size moves,
// where memcpy of a variable size is a library call per row.
inline void copyRow(uint8_t* to, const uint8_t* from, unsigned n) {
  unsigned b = 0;
  for (; b + 32 <= n; b += 32) std::memcpy(to + b, from + b, 32);
  for (; b < n; b += 8) std::memcpy(to + b, from + b, 8);
}

template <class U>
void loadStoreAs(Exec& x, const Inst& in, const Frag& f, bool store) {
  constexpr unsigned kBytes = sizeof(U), kPerReg = kBytes >= 4 ? 1 : 4 / kBytes;
  const Opnd& frag = in.ops[store ? 1 : 0];
  const Opnd& ptr = in.ops[store ? 0 : 1];
  const bool colMajor = in.flags & kColMajor;
  uint64_t base[kWarpSize], stride[kWarpSize];
  laneAddresses(x, ptr, x.mask, base);
  const uint64_t def = colMajor ? f.rows : f.cols;
  // The stride's register looked up once, not per lane.
  const uint64_t* strides = (in.flags & kHasStride) ? x.reg(in.ops[2]) : nullptr;
  forLanesElementwise(x.mask,
                      [&](unsigned l) { stride[l] = strides ? uint32_t(strides[l]) : def; });
  const Space space = addressedSpace(in);
  // The distinct elements by element and lane (at most 16: m32n8k16's A, m8n32k16's B).
  // vals[e * 32 + l]: element e of lane l, the matrix's row-major element e * 32 + l.
  uint64_t vals[kMaxUnique * kWarpSize];
  if (store)
    for (unsigned e = 0; e < f.unique; ++e) {  // getElem
      const uint64_t* reg = regOf(x, frag, f.regOfElem(e));
      const unsigned sh = f.shiftOf(e);
      forLanesElementwise(x.mask, [&](unsigned l) { vals[e * kWarpSize + l] = U(reg[l] >> sh); });
    }
  uint64_t addrs[kWarpSize];
  // Every shape's fragments have a power-of-two number of columns: row and column by shifts.
  const unsigned colShift = unsigned(std::countr_zero(f.cols));
  // Lanes that name one matrix (one pointer and one stride, as compiled code's do): every
  // element lies between its first and its last, so when those two fall inside one shared
  // region (global or shared, not a lane's own local memory) the whole fragment does, checked
  // once instead of once per element (an element's offset from the first is a multiple of its
  // size, so the first's alignment is every element's).
  bool uniform = x.mask == ~0u;
  if (uniform) {  // every lane compared, without an early exit: a loop that vectorizes
    uint64_t differ = 0;
    for (unsigned l = 1; l < kWarpSize; ++l)
      differ |= (base[l] ^ base[0]) | (stride[l] ^ stride[0]);
    uniform = differ == 0;
  }
  Machine::DirectRegion whole;
  bool wholeDirect = false;
  if (uniform) {
    const uint64_t ends[2] = {
        base[0], elemAddress(base[0], f.rows - 1, f.cols - 1, colMajor, stride[0], kBytes)};
    wholeDirect = x.machine->direct(space, 0b11, ends, kBytes, store, whole) && !whole.laneStride;
  }
  // Element e of lane l written to, or read from, host memory at `at`.
  const auto moveInPlace = [&](uint8_t* at, unsigned e, unsigned l) {
    U v;
    if (store) {
      v = U(vals[e * kWarpSize + l]);
      std::memcpy(at, &v, sizeof v);
    } else {
      std::memcpy(&v, at, sizeof v);
      vals[e * kWarpSize + l] = v;
    }
  };
  if (wholeDirect) {
    // One matrix inside one region, the whole warp: element e of lane l is the matrix's
    // row-major element e * 32 + l (row * cols + col), moved in place in that order (which
    // decides what overlapping stores leave), a row's elements `kBytes` apart and the rows
    // (.col: the columns) `stride` elements apart: the addresses by two additions, without the
    // lanes' address array.
    uint8_t* const first = whole.host + (base[0] - whole.origin);
    const uint64_t step = stride[0] * kBytes;
    const uint64_t rowStep = colMajor ? kBytes : step, colStep = colMajor ? step : kBytes;
    if constexpr (kBytes <= 4)
      if (!store && colStep == kBytes) {
        // A load of rows whose elements lie side by side (.row): the rows copied as they are
        // (h[e * 32 + l] is element e of lane l), each register then packed from them, without
        // widening every element to 64 bits and narrowing it again (setElem below).
        U h[kMaxUnique * kWarpSize];
        for (unsigned row = 0; row < f.rows; ++row)
          copyRow(reinterpret_cast<uint8_t*>(h + row * f.cols), first + row * rowStep,
                  f.cols * kBytes);
        for (unsigned j = 0; j < f.regs(); ++j) {
          uint64_t* reg = regOfMut(x, frag, j);
          const U* from = h + (j * kPerReg) % f.unique * kWarpSize;
#pragma GCC ivdep
          for (unsigned l = 0; l < kWarpSize; ++l) {
            uint64_t w = 0;
            for (unsigned i = 0; i < kPerReg; ++i)
              w |= uint64_t(from[i * kWarpSize + l]) << (i * 8 * kBytes % 64);
            reg[l] = w;
          }
        }
        return;
      }
    // The loops for loads and stores apart, each over a row's elements (vals[idx]); a load of
    // a row whose elements lie side by side (.row) four at a time in host vectors.
    const auto eachRow = [&](auto move) {
      for (unsigned row = 0; row < f.rows; ++row) {
        uint8_t* at = first + row * rowStep;
        uint64_t* v = vals + row * f.cols;
        if (!store && colStep == kBytes) {
          widenRow<U>(at, f.cols, v);
          continue;
        }
        for (unsigned col = 0; col < f.cols; ++col, at += colStep) move(at, v[col]);
      }
    };
    if (store)
      eachRow([](uint8_t* at, uint64_t& v) {
        const U u = U(v);
        std::memcpy(at, &u, sizeof u);
      });
    else
      eachRow([](uint8_t* at, uint64_t& v) {
        U u;
        std::memcpy(&u, at, sizeof u);
        v = u;
      });
  }
  for (unsigned e = 0; e < f.unique && !wholeDirect; ++e) {
    forLanesElementwise(x.mask, [&](unsigned l) {
      const unsigned idx = e * kWarpSize + l;
      addrs[l] =
          elemAddress(base[l], idx >> colShift, idx & (f.cols - 1), colMajor, stride[l], kBytes);
    });
    // Without an observer, a warp whose lanes all fall inside one region (checked once) reads
    // and writes it in place, lane by lane in lane order as the machine's path does; otherwise
    // the machine's path (observers, faults).
    Machine::DirectRegion r;
    if (x.machine->direct(space, x.mask, addrs, kBytes, store, r)) {
      forLanes(x.mask, [&](unsigned l) {
        moveInPlace(r.host + (l * r.laneStride + (addrs[l] - r.origin)), e, l);
      });
    } else if (store) {
      x.machine->store(in, space, x.mask, addrs, kBytes, 1, vals + e * kWarpSize);
    } else {
      x.machine->load(in, space, x.mask, addrs, kBytes, 1, vals + e * kWarpSize);
    }
  }
  if (store) return;
  // setElem for every element the registers hold (element i repeats distinct element
  // i % unique), a register at a time: the registers are whole runs of elements (unique is a
  // multiple of the elements per register), so each is written whole, its upper half clear.
  // (U's field cut by a mask, not a cast through U: the lanes' loop then vectorizes.)
  constexpr uint64_t kField = kBytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * kBytes)) - 1;
  for (unsigned j = 0; j < f.regs(); ++j) {
    uint64_t* reg = regOfMut(x, frag, j);
    const uint64_t* from = vals + (j * kPerReg) % f.unique * kWarpSize;
    forLanesElementwise(x.mask, [&](unsigned l) {
      uint64_t w = 0;
      for (unsigned i = 0; i < kPerReg; ++i)
        w |= (from[i * kWarpSize + l] & kField) << (i * 8 * kBytes % 64);
      reg[l] = w;
    });
  }
}

void runLoadStore(Exec& x, const Inst& in, bool store) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  const Decoded d = decode(in);
  const Frag f = fragOf(d.shape, d.which, d.elem);
  if (f.packed) return loadPacked(x, in, f);  // store.d is never sub-byte
  switch (f.bits) {
    case 8:
      return loadStoreAs<uint8_t>(x, in, f, store);
    case 16:
      return loadStoreAs<uint16_t>(x, in, f, store);
    case 32:
      return loadStoreAs<uint32_t>(x, in, f, store);
    default:
      return loadStoreAs<uint64_t>(x, in, f, store);
  }
}
void runLoad(Exec& x, const Inst& in) { runLoadStore(x, in, false); }
void runStore(Exec& x, const Inst& in) { runLoadStore(x, in, true); }

fp::Format formatOf(Elem e) {
  switch (e) {
    case Elem::BF16:
      return fp::kBF16;
    case Elem::TF32:
      return fp::kTF32;
    case Elem::F16:
      return fp::kF16;
    default:
      return fp::kF32;
  }
}

// The exact values of a narrow floating-point A or B fragment's distinct elements, in its
// matrix's row-major order (element e of lane l is e * 32 + l): a loop per element over the
// lanes with the decoder a constant (branch-free, vectorized for f16).
template <class T, class Decode>
void decodeFrag(const Exec& x, const Opnd& v, const Frag& f, T* out, Decode decode) {
  for (unsigned e = 0; e < f.unique; ++e) {
    const uint64_t* r = regOf(x, v, f.regOfElem(e));
    const unsigned sh = f.shiftOf(e);
    T* row = out + e * kWarpSize;
    for (unsigned l = 0; l < kWarpSize; ++l) row[l] = decode(uint32_t(r[l] >> sh));
  }
}
void decodeFrag(const Exec& x, const Opnd& v, const Frag& f, Elem e, double* out) {
  switch (e) {
    case Elem::TF32:
      return decodeFrag(x, v, f, out, [](uint32_t b) { return fp::f32(b & 0xFFFFE000u); });
    case Elem::BF16:
      return decodeFrag(x, v, f, out, [](uint32_t b) { return fp::bf16ToF32(uint16_t(b)); });
    default:
      return decodeFrag(x, v, f, out, [](uint32_t b) { return f16Exact(uint16_t(b)); });
  }
}

// The largest matrices of a wmma.mma: A (m x k) and B (k x n) of m8n8k128's bits, C and D of
// m16n16k16's 256 elements.
constexpr unsigned kMaxAB = 8 * 128, kMaxCD = 256;

void runMma(Exec& x, const Inst& in) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  const Decoded d = decode(in);
  const Shape s = d.shape;
  const Frag fa = fragOf(s, Which::A, d.elem), fb = fragOf(s, Which::B, d.elem);
  const Frag fc = fragOf(s, Which::C, d.cElem), fd = fragOf(s, Which::C, d.dElem);
  const Opnd &dOp = in.ops[0], &aOp = in.ops[1], &bOp = in.ops[2], &cOp = in.ops[3];
  // The matrices, gathered from the fragments (element e of lane l: row-major index e*32+l).
  std::array<uint64_t, kMaxCD> C, D;
  gatherElems(x, cOp, fc, C.data());
  const bool isInt = isIntElem(d.elem);
  if (!isInt && d.elem != Elem::F64) {
    const fp::Format cFormat = formatOf(d.cElem), dFormat = formatOf(d.dElem);
    if (d.elem == Elem::F16) {
      // f16: the elements' bits, A's rows and B's k x n as the fragments hold them
      // (mmaGridDotsF16 reads B's columns from its rows, without a transposition).
      std::array<uint16_t, kMaxCD * 2> ah, bh;
      const auto bits = [](uint32_t b) { return uint16_t(b); };
      decodeFrag(x, aOp, fa, ah.data(), bits);
      decodeFrag(x, bOp, fb, bh.data(), bits);
      mmaGridDotsF16(ah.data(), s.m, bh.data(), s.n, s.k, kMmaAdder, cFormat, dFormat, C.data(),
                     D.data());
      scatterElems(x, dOp, fd, D.data());
      return;
    }
    // The other narrow floating-point forms' values, decoded once (each is used by n columns
    // or m rows): A's rows and B's columns (transposed) as the contiguous k values mmaDot reads.
    std::array<double, kMaxCD * 2> av, bv, bt;
    std::array<int32_t, kMaxCD * 2> ae, be;
    std::array<float, kMaxCD * 2> an, bn;
    std::array<MmaVector, 32> rows, cols;
    decodeFrag(x, aOp, fa, d.elem, av.data());
    decodeFrag(x, bOp, fb, d.elem, bv.data());
    for (unsigned k = 0; k < s.k; ++k)
      for (unsigned c = 0; c < s.n; ++c) bt[c * s.k + k] = bv[k * s.n + c];
    const fp::Format f = formatOf(d.elem);
    mmaVectors(av.data(), s.k, s.m, s.k, f, ae.data(), an.data(), rows.data());
    mmaVectors(bt.data(), s.k, s.n, s.k, f, be.data(), bn.data(), cols.data());
    mmaGridDots(rows.data(), s.m, cols.data(), s.n, s.k, kMmaAdder, cFormat, dFormat, C.data(),
                D.data());
    scatterElems(x, dOp, fd, D.data());
    return;
  }
  std::array<uint64_t, kMaxAB> A, B;
  gatherElems(x, aOp, fa, A.data());
  gatherElems(x, bOp, fb, B.data());
  const bool bitAnd = in.flags & kBitAnd;
  const auto mode = fp::Round((in.flags >> kRoundShift) & 7);
  for (unsigned r = 0; r < s.m; ++r)
    for (unsigned c = 0; c < s.n; ++c) {
      uint64_t& out = D[r * s.n + c];
      const uint64_t acc = C[r * s.n + c];
      if (isInt) {
        // The fields are zero-extended: u8, u4 and b1 as they are, s8 and s4 sign-extended.
        auto val = [&](uint64_t v) {
          if (d.elem == Elem::S8) return signExtend(v, 8);
          if (d.elem == Elem::S4) return signExtend(v, 4);
          return int64_t(v);
        };
        int64_t sum = int64_t(int32_t(uint32_t(acc)));
        if (d.elem == Elem::B1)
          for (unsigned k = 0; k < s.k; ++k)
            sum += bitAnd ? A[r * s.k + k] & B[k * s.n + c] : A[r * s.k + k] ^ B[k * s.n + c];
        else
          for (unsigned k = 0; k < s.k; ++k) sum += val(A[r * s.k + k]) * val(B[k * s.n + c]);
        if (in.flags & kSatFinite) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
        out = uint32_t(sum);
      } else {
        // f64: one DFMA per k, B first (mma.cpp's f64 form: the NaN rule measured there).
        double v = fp::f64(acc);
        for (unsigned k = 0; k < s.k; ++k)
          v = fp::fma(fp::f64(B[k * s.n + c]), fp::f64(A[r * s.k + k]), v, mode);
        out = fp::bits(v);
      }
    }
  scatterElems(x, dOp, fd, D.data());
}

unsigned regsOf(const Opnd& o) {
  if (o.kind == OpndKind::Reg) return 1;
  if (o.kind != OpndKind::Vec) return 0;
  for (const Opnd& e : o.elems)
    if (e.kind != OpndKind::Reg) return 0;
  return unsigned(o.elems.size());
}

// The element types each shape takes for A/B, and for C/D.
bool validAB(Shape s, Elem e) {
  if (s.k == 128) return e == Elem::B1;
  if (s.k == 32) return e == Elem::S4 || e == Elem::U4;
  if (s.k == 8) return e == Elem::TF32;
  if (s.k == 4) return e == Elem::F64;
  return e == Elem::F16 || e == Elem::BF16 || e == Elem::S8 || e == Elem::U8;
}
bool validCD(Shape s, Elem e) {
  if (s.k == 128 || s.k == 32) return e == Elem::S32;
  if (s.k == 4) return e == Elem::F64;
  if (s.k == 8) return e == Elem::F32;
  return e == Elem::F16 || e == Elem::F32 || e == Elem::S32;
}

std::string bindWmma(Inst& in) {
  const Mods& m = in.mods;
  if (!m.has("sync") || !m.has("aligned")) return msg(in, "needs .sync.aligned");
  const int shape = shapeIndex(m);
  if (shape < 0) {
    in.run = notSupportedHandler;  // a shape of a later architecture
    return "";
  }
  const Shape s = kShapes[shape];
  const bool load = m.has("load"), store = m.has("store"), mma = m.has("mma");
  if (int(load) + int(store) + int(mma) != 1) return msg(in, "needs .load, .store or .mma");
  const bool shared = m.space == Space::Shared;
  in.cls = mma     ? InsnClass::Tensor
           : store ? (shared ? InsnClass::StoreShared : InsnClass::StoreGlobal)
                   : (shared ? InsnClass::LoadShared : InsnClass::LoadGlobal);
  if (mma) {
    const std::vector<std::string> tw = matrixTypeWords(m);
    if (tw.size() != 4 && tw.size() != 2)
      return msg(in, "takes .dtype.ctype (f16) or .dtype.atype.btype.ctype");
    Elem de, ae = Elem::F16, be = Elem::F16, ce;
    const bool four = tw.size() == 4;
    if (!elemOfWord(tw[0], de) || (four && !elemOfWord(tw[1], ae)) ||
        (four && !elemOfWord(tw[2], be)) || !elemOfWord(tw[four ? 3 : 1], ce) || !validAB(s, ae) ||
        !validCD(s, de) || !validCD(s, ce) || (!four && (de == Elem::S32 || ce == Elem::S32))) {
      in.run = notSupportedHandler;  // a type combination of a later architecture
      return "";
    }
    const bool isInt = isIntElem(ae);
    if (ae != be) return msg(in, "takes A and B of one type");
    if (isInt != (ce == Elem::S32) || isInt != (de == Elem::S32))
      return msg(in, "takes .s32 C and D exactly with integer A and B");
    if (ae == Elem::B1 && (!m.has("popc") || m.has("and") == m.has("xor")))
      return msg(in, "takes .b1 with .xor.popc or .and.popc");
    if (ae != Elem::B1 && m.has("popc")) return msg(in, "takes .xor/.and.popc only with .b1");
    if (ae == Elem::B1 && m.has("satfinite")) return msg(in, "takes no .satfinite with .b1");
    if (ae != Elem::F16 && (ce != de)) return msg(in, "takes C and D of one type for this type");
    if (m.has("satfinite") && !isInt) return msg(in, "takes .satfinite only for integer types");
    if (m.rounding.present && ae != Elem::F64) return msg(in, "takes a rounding only for .f64");
    const std::vector<std::string>& w = m.words;
    // The first two layout words are A's and B's.
    std::vector<std::string> layouts;
    for (const std::string& word : w)
      if (word == "row" || word == "col") layouts.push_back(word);
    if (layouts.size() != 2) return msg(in, "needs A's and B's layouts (.row/.col .row/.col)");
    if (isSubByte(ae) && (layouts[0] != "row" || layouts[1] != "col"))
      return msg(in, "takes .row A and .col B with .s4/.u4/.b1");
    in.flags = (layouts[0] == "col" ? kColMajor : 0) | (layouts[1] == "col" ? kBColMajor : 0) |
               (m.has("satfinite") ? kSatFinite : 0) | (m.has("and") ? kBitAnd : 0) |
               uint32_t(m.rounding.present ? m.rounding.mode : fp::Round::RN) << kRoundShift |
               encode(shape, Which::C, ae, ce, de);
    if (auto e = expectOperands(in, 4); !e.empty()) return e;
    const Frag fa = fragOf(s, Which::A, ae), fb = fragOf(s, Which::B, be);
    const Frag fc = fragOf(s, Which::C, ce), fd = fragOf(s, Which::C, de);
    if (regsOf(in.ops[0]) != fd.regs())
      return msg(in, "writes D as " + std::to_string(fd.regs()) + " registers");
    if (regsOf(in.ops[1]) != fa.regs())
      return msg(in, "takes A as " + std::to_string(fa.regs()) + " registers");
    if (regsOf(in.ops[2]) != fb.regs())
      return msg(in, "takes B as " + std::to_string(fb.regs()) + " registers");
    if (regsOf(in.ops[3]) != fc.regs())
      return msg(in, "takes C as " + std::to_string(fc.regs()) + " registers");
    in.run = runMma;
    return "";
  }
  const std::vector<std::string> tw = matrixTypeWords(m);
  if (tw.size() != 1) return msg(in, "takes one element type");
  Elem e;
  const Which which = store ? Which::C : m.has("a") ? Which::A : m.has("b") ? Which::B : Which::C;
  if (load && !m.has("a") && !m.has("b") && !m.has("c")) return msg(in, "needs .a, .b or .c");
  if (store && !m.has("d")) return msg(in, "needs .d");
  if (!elemOfWord(tw[0], e) || !(which == Which::C ? validCD(s, e) : validAB(s, e))) {
    in.run = notSupportedHandler;
    return "";
  }
  if (!m.has("row") && !m.has("col")) return msg(in, "needs a layout (.row or .col)");
  if (isSubByte(e) && m.has(which == Which::A ? "col" : "row"))
    return msg(in, "loads .s4/.u4/.b1 A as .row and B as .col only");
  if (in.ops.size() != 2 && in.ops.size() != 3) return msg(in, "takes 2 or 3 operands");
  const Frag f = fragOf(s, which, e);
  const unsigned fragOp = store ? 1 : 0, ptrOp = store ? 0 : 1;
  if (regsOf(in.ops[fragOp]) != f.regs())
    return msg(in, "takes the fragment as " + std::to_string(f.regs()) + " registers");
  if (in.ops[ptrOp].kind != OpndKind::Addr) return msg(in, "takes an address [p]");
  in.flags = (m.has("col") ? kColMajor : 0) | (in.ops.size() == 3 ? kHasStride : 0) |
             encode(shape, which, e, e, e);
  in.run = store ? runStore : runLoad;
  return "";
}

}  // namespace

std::vector<OpcodeSpec> wmmaFamily() {
  // Role::Compute: wmma.load and wmma.mma write their first operand; wmma.store's first
  // operand is an address, whose base facts.cpp counts as read.
  return {{"wmma",
           "wmma",
           InsnClass::Tensor,
           Role::Compute,
           Operation::Other,
           // Untyped: a sub-byte load names no PTX type (".s4", ".u4", ".b1" are words here),
           // so the spec must not ask for one; bindWmma checks the types of every form.
           {},
           {"*"},
           bindWmma}};
}

}  // namespace warpsim::isa::insns
