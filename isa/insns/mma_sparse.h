// The tensor-core instructions with a 2:4 (tf32: 1:2) structured-sparse A: mma.sp and
// mma.sp::ordered_metadata (mma_sparse.cpp), and the dot model they share with wgmma.sp.
//
// A sparse A row of K elements is stored as its K/2 nonzero ones ("compressed" slots); the
// metadata names, for each chunk of the row, the positions the stored elements had. Each
// stored element meets the B element of its position: a product list of K/2 terms per D
// element, which the model sums with the dense dot (mma_accumulate.h). How the chip groups
// those terms into adder passes is not documented; SparseGrouping names the two candidates and
// kSparseGrouping picks one (docs/FIDELITY.md, "Sparse mma and wgmma", says why and which
// generated programs tell them apart on the H200).
#pragma once

#include <cstdint>
#include <string>

#include "isa/fp.h"
#include "isa/insns/mma_accumulate.h"
#include "isa/program.h"

namespace warpsim::isa::insns {

enum class SparseGrouping : uint8_t {
  // One adder pass over the K/2 selected products: the sparse instruction is the dense one of
  // K/2 whose B elements the metadata picks (HMMA.SP.16832 feeds the adder of HMMA.16816).
  Compressed,
  // The products in blocks of the dense shape's K along the expanded row (16 for f16/bf16 and
  // fp8's f16 steps, 8 for tf32, 32 for wgmma fp8), block after block, each pass starting from
  // the previous one's rounded result, as consecutive dense instructions with the pruned A
  // elements zero would.
  DenseBlocks,
};

// The grouping every sparse form uses (the one switch; see the top of the file).
inline constexpr SparseGrouping kSparseGrouping = SparseGrouping::Compressed;

// d = c + sum over i < n of a[i] * b[i]: a the stored elements of a row of A (in compressed
// order), b the B elements their metadata picked, exact values of formats aFormat and bFormat,
// c and d bits of cFormat and dFormat, grouped per `grouping` (blockSlots: the compressed slots
// of one dense block, DenseBlocks only; n a multiple of it).
uint64_t sparseDot(const double* a, const double* b, unsigned n, unsigned blockSlots,
                   fp::Format aFormat, fp::Format bFormat, const MmaAdder& adder, uint64_t c,
                   fp::Format cFormat, fp::Format dFormat, SparseGrouping grouping);

// The metadata of a warp's 16 rows of a sparse A whose elements are `elemBits` wide (16: f16 and
// bf16; 32: tf32; 8: s8/u8 and fp8; 4: s4/u4) and whose rows are k long (expanded): the
// sparsity selector values the shape takes, and the expanded column of each stored element of
// `row` (K/2 of them, in fragment order), from the 32 lanes' metadata registers. What mma.sp
// and wgmma.mma_async.sp share (the manual's wgmma.sp metadata figures are mma.sp's).
unsigned sparseSelectors(unsigned elemBits, unsigned k);
void sparseColumns(unsigned elemBits, unsigned k, const uint64_t* meta, unsigned sel, unsigned row,
                   uint8_t* columns);

// mma.sp{::ordered_metadata}.sync.aligned: bindMma (mma.cpp) hands the sparse forms over.
std::string bindMmaSparse(Inst& in);

// Whether D, A, B and C are vectors (or single registers) of the counts a form takes, among
// `operands` operands (mma.cpp; mma.sp has 6: the metadata and the sparsity selector follow C).
std::string checkMmaFragments(const Inst& in, unsigned dRegs, unsigned aRegs, unsigned bRegs,
                              unsigned cRegs, size_t operands = 4);

}  // namespace warpsim::isa::insns
