// Warp-level matrix moves of 8x8 matrices of 16-bit elements (PTX ISA, "ldmatrix", "stmatrix",
// "movmatrix"):
//   ldmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}{.shared{::cta}}.b16 r, [p];
//   stmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}{.shared{::cta}}.b16 [p], r;
//   movmatrix.sync.aligned.m8n8.trans.b16 d, a;
// Threads 8j..8j+7 give the addresses of the 8 rows (16 bytes each) of matrix j. In the
// registers, thread t holds of matrix j (its register j) the elements (t/4, 2(t%4)) and
// (t/4, 2(t%4)+1), the first in the low half; with .trans, those of the transposed matrix,
// i.e. (2(t%4), t/4) and (2(t%4)+1, t/4). Row accesses are one warp-wide shared access of 16
// bytes per addressing lane (observers see which banks they touch). .aligned: every thread of
// the warp executes them.
#include <array>
#include <cstring>

#include "isa/insns/addresses.h"
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

using Matrix = std::array<std::array<uint16_t, 8>, 8>;  // [row][col]

// The register slot of matrix j in a fragment operand (one register, or a vector).
inline uint64_t* fragment(const Exec& x, const Opnd& o, unsigned j) {
  return x.reg(o.kind == OpndKind::Vec ? o.elems[j] : o);
}

// Thread t's 32-bit fragment of m (transposed with `trans`).
inline uint32_t fragmentOf(const Matrix& m, unsigned t, bool trans) {
  const unsigned r = t / 4, c = 2 * (t % 4);
  return trans ? uint32_t(m[c][r]) | uint32_t(m[c + 1][r]) << 16
               : uint32_t(m[r][c]) | uint32_t(m[r][c + 1]) << 16;
}

inline void placeFragment(Matrix& m, unsigned t, bool trans, uint32_t v) {
  const unsigned r = t / 4, c = 2 * (t % 4);
  if (trans) {
    m[c][r] = uint16_t(v);
    m[c + 1][r] = uint16_t(v >> 16);
  } else {
    m[r][c] = uint16_t(v);
    m[r][c + 1] = uint16_t(v >> 16);
  }
}

// ldmatrix .trans's fragments of one matrix from its rows (row i's elements 2w and 2w + 1 the
// halves of words[4i + w]): thread t's is element t / 4 of rows 2 (t % 4) and 2 (t % 4) + 1, so
// rows 2p and 2p + 1 interleaved by element give threads p, p + 4, ... p + 28 in order, and a
// transpose of those four vectors of eight words gives the threads' order. In host vectors
// where a loop per thread took two loads, shifts and masks (a twentieth of hgemm_mma's time).
inline void transposedFragments(const uint64_t* words, uint64_t* out) {
  using Q4 = uint64_t __attribute__((vector_size(32)));
  using W4 = uint32_t __attribute__((vector_size(16)));
  using H8 = uint16_t __attribute__((vector_size(16)));
  using W8 = uint32_t __attribute__((vector_size(32)));
  W8 pairs[4];  // pairs[p][c]: element c of rows 2p (low half) and 2p + 1 (high)
  for (unsigned p = 0; p < 4; ++p) {
    Q4 lo, hi;
    std::memcpy(&lo, words + 8 * p, sizeof lo);
    std::memcpy(&hi, words + 8 * p + 4, sizeof hi);
    const H8 a = (H8) __builtin_convertvector(lo, W4), b = (H8) __builtin_convertvector(hi, W4);
    pairs[p] =
        (W8)__builtin_shufflevector(a, b, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
  }
  // out[4c + p] = pairs[p][c].
  const W8 x01 = __builtin_shufflevector(pairs[0], pairs[1], 0, 8, 1, 9, 2, 10, 3, 11),
           y01 = __builtin_shufflevector(pairs[0], pairs[1], 4, 12, 5, 13, 6, 14, 7, 15),
           x23 = __builtin_shufflevector(pairs[2], pairs[3], 0, 8, 1, 9, 2, 10, 3, 11),
           y23 = __builtin_shufflevector(pairs[2], pairs[3], 4, 12, 5, 13, 6, 14, 7, 15);
  const W8 t[4] = {__builtin_shufflevector(x01, x23, 0, 1, 8, 9, 2, 3, 10, 11),
                   __builtin_shufflevector(x01, x23, 4, 5, 12, 13, 6, 7, 14, 15),
                   __builtin_shufflevector(y01, y23, 0, 1, 8, 9, 2, 3, 10, 11),
                   __builtin_shufflevector(y01, y23, 4, 5, 12, 13, 6, 7, 14, 15)};
  for (unsigned i = 0; i < 4; ++i) {
    const Q4 a = __builtin_convertvector(__builtin_shufflevector(t[i], t[i], 0, 1, 2, 3), Q4),
             b = __builtin_convertvector(__builtin_shufflevector(t[i], t[i], 4, 5, 6, 7), Q4);
    std::memcpy(out + 8 * i, &a, sizeof a);
    std::memcpy(out + 8 * i + 4, &b, sizeof b);
  }
}

// Flags: bits 0..2 = number of matrices, bit 3 = .trans.
template <bool Store>
void matrixH(Exec& x, const Inst& in) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  const unsigned count = in.flags & 7;
  const bool trans = in.flags & 8;
  const LaneMask rowLanes = count == 4 ? ~0u : (1u << (8 * count)) - 1;
  const Opnd& addr = in.ops[Store ? 0 : 1];
  const Opnd& regs = in.ops[Store ? 1 : 0];
  uint64_t addrs[kWarpSize];
  uint64_t rows[kWarpSize * 4];  // lane l's row as 4 words of 32 bits
  laneAddresses(x, addr, rowLanes, addrs);
  if constexpr (Store) {
    std::array<Matrix, 4> m{};
    for (unsigned j = 0; j < count; ++j) {
      const uint64_t* r = fragment(x, regs, j);
      for (unsigned t = 0; t < kWarpSize; ++t) placeFragment(m[j], t, trans, uint32_t(r[t]));
    }
    forLanes(rowLanes, [&](unsigned l) {
      const auto& row = m[l / 8][l % 8];
      for (unsigned w = 0; w < 4; ++w)
        rows[l * 4 + w] = row[2 * w] | uint32_t(row[2 * w + 1]) << 16;
    });
    x.machine->store(in, addressedSpace(in), rowLanes, addrs, 4, 4, rows);
  } else {
    // Without an observer, rows all inside one region (16-byte aligned: the check's unit) are
    // read in place; otherwise the machine's path (observers, faults).
    Machine::DirectRegion r;
    if (x.machine->direct(addressedSpace(in), rowLanes, addrs, 16, false, r))
      forLanes(rowLanes, [&](unsigned l) {
        uint32_t w[4];
        std::memcpy(w, r.host + (l * r.laneStride + (addrs[l] - r.origin)), sizeof w);
        for (unsigned i = 0; i < 4; ++i) rows[l * 4 + i] = w[i];
      });
    else
      x.machine->load(in, addressedSpace(in), rowLanes, addrs, 4, 4, rows);
    // fragmentOf straight from the rows (matrix j's row i is lane 8j + i's, its elements 2w and
    // 2w + 1 the halves of word w): untransposed, thread t's fragment is word t % 4 of row t / 4,
    // rows[32j + t]; transposed, element t / 4 of rows 2 (t % 4) and 2 (t % 4) + 1.
    for (unsigned j = 0; j < count; ++j) {
      uint64_t* r = fragment(x, regs, j);
      const uint64_t* words = rows + 32 * j;
      if (!trans) {
        for (unsigned t = 0; t < kWarpSize; ++t) r[t] = uint32_t(words[t]);
        continue;
      }
      transposedFragments(words, r);
    }
  }
}

void movmatrixH(Exec& x, const Inst& in) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  Matrix m{};
  const uint64_t* a = x.reg(in.ops[1]);
  for (unsigned t = 0; t < kWarpSize; ++t) placeFragment(m, t, false, uint32_t(a[t]));
  uint64_t* d = x.reg(in.ops[0]);
  for (unsigned t = 0; t < kWarpSize; ++t) d[t] = fragmentOf(m, t, true);
}

template <bool Store>
std::string bindMatrix(Inst& in) {
  const Mods& m = in.mods;
  if (!m.has("sync") || !m.has("aligned") || !m.has("m8n8"))
    return msg(in, "needs .sync.aligned.m8n8 (the other shapes are not supported yet)");
  if (m.type() != Type::B16) return msg(in, "takes .b16");
  if (m.space != Space::None && m.space != Space::Shared) return msg(in, "accesses .shared");
  const unsigned count = m.has("x1") ? 1 : m.has("x2") ? 2 : m.has("x4") ? 4 : 0;
  if (!count) return msg(in, "needs .x1, .x2 or .x4");
  in.flags = count | (m.has("trans") ? 8 : 0);
  if (auto e = expectOperands(in, 2); !e.empty()) return e;
  const Opnd& addr = in.ops[Store ? 0 : 1];
  const Opnd& regs = in.ops[Store ? 1 : 0];
  if (addr.kind != OpndKind::Addr) return msg(in, "needs an address");
  const bool one = regs.kind == OpndKind::Reg && count == 1;
  bool vec = regs.kind == OpndKind::Vec && regs.elems.size() == count;
  if (vec)
    for (const Opnd& e : regs.elems) vec = vec && e.kind == OpndKind::Reg;
  if (!one && !vec) return msg(in, "needs " + std::to_string(count) + " registers");
  in.cls = Store ? InsnClass::StoreShared : InsnClass::LoadShared;
  in.run = matrixH<Store>;
  return "";
}

std::string bindMovmatrix(Inst& in) {
  const Mods& m = in.mods;
  if (!m.has("sync") || !m.has("aligned") || !m.has("m8n8") || !m.has("trans") ||
      m.type() != Type::B16)
    return msg(in, "is movmatrix.sync.aligned.m8n8.trans.b16");
  if (auto e = bindRegs(in, movmatrixH, 2); !e.empty()) return e;
  in.cls = InsnClass::Warp;
  return "";
}

const std::vector<std::string_view> kMatrixWords = {
    "sync", "aligned", "m8n8",   "m16n16",      "m8n16", "x1",        "x2",
    "x4",   "trans",   "shared", "shared::cta", "b8x16", "b6x16_p32", "b4x16_p64"};

}  // namespace

std::vector<OpcodeSpec> matrixMove() {
  return {
      {"ldmatrix",
       "matrix_move",
       InsnClass::LoadShared,
       Role::Compute,
       Operation::Other,
       {Type::B16, Type::B8},
       kMatrixWords,
       bindMatrix<false>},
      {"stmatrix",
       "matrix_move",
       InsnClass::StoreShared,
       Role::Effect,
       Operation::Other,
       {Type::B16, Type::B8},
       kMatrixWords,
       bindMatrix<true>},
      {"movmatrix",
       "matrix_move",
       InsnClass::Warp,
       Role::Compute,
       Operation::Other,
       {Type::B16},
       {"sync", "aligned", "m8n8", "trans"},
       bindMovmatrix},
  };
}

}  // namespace warpsim::isa::insns
