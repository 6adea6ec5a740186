// Cards of the scan family: exclusive prefix sums of unsigned ints in three launches (block
// scans with block totals, a one-block scan of the totals, adding the offsets back).
#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

enum Buf : size_t { kIn, kOut, kBlockSums, kBlockOffsets, kTotal };

struct ScanShape {
  const char* blockEntry;
  const char* addEntry;
  uint32_t threads;   // per block
  uint32_t elements;  // scanned per block; the totals' scan is one block, so blocks <= this
};

constexpr ScanShape kBlelloch{"scan_blelloch_block_u32", "scan_add_offsets_u32", 256, 512};
constexpr ScanShape kBlellochPadded{"scan_blelloch_padded_block_u32", "scan_add_offsets_u32", 256,
                                    512};
constexpr ScanShape kShflUp{"scan_shfl_up_block_u32", "scan_shfl_up_add_offsets_u32", 256, 256};

Launch gridLaunch(const char* entry, uint32_t blocks, uint32_t threads,
                  std::vector<KernelArg> args) {
  Launch l;
  l.entry = entry;
  l.grid = {blocks, 1, 1};
  l.block = {threads, 1, 1};
  l.args = std::move(args);
  return l;
}

Problem makeScan(const ScanShape& s, uint64_t n, uint64_t seed) {
  Rng rng(seed);
  const uint32_t blocks = ceilDiv(n, s.elements);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("in", ElemType::U32, randomU32(rng, n, 0, 1u << 16), false));
  p.buffers.push_back(poisonBuffer("out", ElemType::U32, n));
  p.buffers.push_back(poisonBuffer("blockSums", ElemType::U32, blocks));
  p.buffers.push_back(poisonBuffer("blockOffsets", ElemType::U32, blocks));
  p.buffers.push_back(poisonBuffer("total", ElemType::U32, 1));
  using A = KernelArg;
  p.launches.push_back(gridLaunch(s.blockEntry, blocks, s.threads,
                                  {A::buf(kIn), A::buf(kOut), A::buf(kBlockSums), A::u32(n)}));
  p.launches.push_back(
      gridLaunch(s.blockEntry, 1, s.threads,
                 {A::buf(kBlockSums), A::buf(kBlockOffsets), A::buf(kTotal), A::u32(blocks)}));
  p.launches.push_back(
      gridLaunch(s.addEntry, blocks, s.threads, {A::buf(kOut), A::buf(kBlockOffsets), A::u32(n)}));
  return p;
}

// Unsigned sums wrap identically in any order, so sequential scans are the reference.
void referenceScan(const ScanShape& s, Problem& p) {
  const auto in = readBuffer<uint32_t>(p.buffers[kIn]);
  std::vector<uint32_t> out(in.size()), sums(p.buffers[kBlockSums].count(), 0);
  uint32_t running = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = running;
    running += in[i];
    sums[i / s.elements] += in[i];
  }
  std::vector<uint32_t> offsets(sums.size());
  uint32_t total = 0;
  for (size_t b = 0; b < sums.size(); ++b) {
    offsets[b] = total;
    total += sums[b];
  }
  writeBuffer(p.buffers[kOut], out);
  writeBuffer(p.buffers[kBlockSums], sums);
  writeBuffer(p.buffers[kBlockOffsets], offsets);
  writeBuffer(p.buffers[kTotal], std::vector<uint32_t>{total});
}

template <const ScanShape& S>
Problem make(uint64_t n, uint64_t seed) {
  return makeScan(S, n, seed);
}
template <const ScanShape& S>
void reference(Problem& p) {
  referenceScan(S, p);
}

Card scanCard(std::string name, std::string source, std::string demonstrates, uint64_t maxSize,
              Problem (*mk)(uint64_t, uint64_t), void (*ref)(Problem&)) {
  return {.name = std::move(name),
          .family = "scan",
          .source = std::move(source),
          .demonstrates = std::move(demonstrates),
          .defaultSize = 1 << 16,
          .minSize = 1,
          .maxSize = maxSize,
          .tolerance = bitExact(),
          .make = mk,
          .reference = ref};
}

}  // namespace

std::vector<Card> scanCards() {
  return {
      scanCard("scan_blelloch", "scan_blelloch",
               "work-efficient up/down-sweep tree in shared memory (power-of-two bank strides)",
               1 << 16, make<kBlelloch>, reference<kBlelloch>),
      scanCard("scan_blelloch_padded", "scan_blelloch",
               "the same tree with index + index/32 padding against shared-memory bank conflicts",
               1 << 16, make<kBlellochPadded>, reference<kBlellochPadded>),
      scanCard("scan_shfl_up", "scan_shfl_up",
               "warp-level Hillis-Steele scan with __shfl_up_sync and per-warp offsets", 1 << 16,
               make<kShflUp>, reference<kShflUp>),
  };
}

}  // namespace warpsim::kernels
