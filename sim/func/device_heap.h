// The device heap: what device-side malloc and free (the extern functions nvcc calls) hand out
// and take back. One heap per Gpu (a CUDA context), made at the first launch of a kernel that
// calls malloc or free and sized then from cudaLimitMallocHeapSize (LaunchOptions::
// mallocHeapSize, 8 MiB by default as on the chip), as CUDA fixes the heap's size at that
// moment. Blocks outlive the launch that allocated them: a later launch of the same program
// can read, write and free them, as in CUDA.
//
// The heap is one allocation of device memory (so loads and stores reach it like any global
// memory, and the core's bounds check covers only the heap as a whole, as the chip's does);
// this class keeps the blocks inside it. Its layout is fitted to what a program can observe of
// the H200's (tests/recorded/heap/summary.txt, docs/FIDELITY.md "Device heap"):
//  - a block takes a slot of a multiple of 80 bytes: 16 bytes before the block and the block's
//    bytes rounded up, so consecutive blocks of up to 64 bytes are 80 bytes apart and of 65 to
//    144 bytes 160 apart (the chip: 80 for 1..100-byte requests after blocks of 1..48 bytes,
//    160 after blocks of 100 and 128 bytes); pointers are 16-byte aligned;
//  - malloc(0) returns a block (of no bytes: any access to it is an overflow), not NULL;
//  - the heap granted for a limit of L bytes is larger than L, as the Programming Guide allows
//    ("at least"): 1889 blocks of 1 KiB fit at L = 1 MiB on the chip, so the heap holds
//    L * 1889 * 1040 / 2^20 bytes (1889 slots of 1040 at 1 MiB). One recorded point: the rule
//    for other limits is a guess until the chip is measured at several.
// What is not modelled: the chip puts blocks above some size (1000 bytes in the probe) in
// another region (20592 bytes below the small blocks, and 1952 bytes apart there).
//
// Placement is first fit (the lowest-addressed free range that holds the block), so an address
// depends only on the order of the calls. The launch makes that order fixed: a kernel that
// calls malloc or free runs its CTAs one at a time in CTA order, warps in the functional
// schedule's round-robin, lanes in lane order (sim/func/grid.cpp), on any number of host
// threads.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/func/fault.h"

namespace warpsim::sim {

inline constexpr uint64_t kDefaultMallocHeapBytes = 8ull << 20;  // cudaLimitMallocHeapSize
inline constexpr uint64_t kHeapAlign = 16;                       // every block's address
inline constexpr uint64_t kHeapSlot = 80;  // every block's slot is a multiple of this
// The bytes of heap the chip grants for a cudaLimitMallocHeapSize of `limit` (fitted above).
inline constexpr uint64_t grantedHeapBytes(uint64_t limit) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(limit) * 1889 * 1040) >> 20);
}

// A malloc call site of one launch: the instruction's PTX and CUDA line (a FaultInfo as the place
// of an event, not a fault: kind, message and thread unused), the launch and its entry. Shared
// by every block that the site allocates, so that a malloc copies no strings.
struct HeapSite {
  FaultInfo at;
  uint32_t gridId = 0;
  std::string kernel;  // the entry whose thread called malloc
};

// The thread that called malloc, and its CTA.
struct HeapThread {
  ThreadPos thread, cta;
  unsigned lane = 0, warp = 0;
};

struct HeapBlock {
  uint64_t address = 0;
  uint64_t size = 0;  // as asked
  std::shared_ptr<const HeapSite> site;
  ThreadPos thread, cta;  // the thread that called malloc, and its CTA
  unsigned lane = 0, warp = 0;

  // Where the malloc was called: thread, CTA, PTX and CUDA line.
  FaultInfo allocatedBy() const;
  uint32_t gridId() const { return site->gridId; }
  const std::string& kernel() const { return site->kernel; }
};

enum class FreeOutcome : uint8_t {
  Freed,
  Null,            // free(NULL): nothing happens, as C says
  DoubleFree,      // the address was a block that is already freed
  NotHeapPointer,  // not the address of any block
};

class DeviceHeap {
 public:
  // Blocks live in [base, base + size): the device memory the Gpu allocated for the heap.
  DeviceHeap(uint64_t base, uint64_t size);
  uint64_t base() const { return base_; }
  uint64_t size() const { return size_; }
  bool contains(uint64_t address) const { return address - base_ < size_; }

  // The address of a fresh block of `bytes` bytes (0 bytes: a block of none), or 0 (NULL) when
  // no free range holds it. Its contents are whatever the heap held there before.
  uint64_t allocate(uint64_t bytes, std::shared_ptr<const HeapSite> site, const HeapThread& by);
  // The same with the site made from `site` (tests).
  uint64_t allocate(uint64_t bytes, const FaultInfo& site, uint32_t gridId,
                    const std::string& kernel);
  FreeOutcome free(uint64_t address);

  // The live block holding `address`, else null. (The pointers these return are valid until the
  // next allocate or free.)
  const HeapBlock* liveBlock(uint64_t address) const;
  // The freed block holding `address` whose bytes no later block has taken, else null.
  const HeapBlock* freedBlock(uint64_t address) const;
  // The live block that starts closest below `address`, else null.
  const HeapBlock* liveBlockBelow(uint64_t address) const;
  // The blocks not freed yet, by address (the leaks, at the end of a program).
  std::vector<HeapBlock> liveBlocks() const;
  uint64_t bytesInUse() const { return inUse_; }

 private:
  // A block's record: the block, and whether it was freed (its bytes not yet taken again).
  struct Record {
    HeapBlock block;
    bool freed = false;
  };
  // Every block's range starts on a slot (first_ + a multiple of kHeapSlot), and the records'
  // ranges never overlap (a new block erases the freed records whose bytes it takes), so each
  // slot names the one record whose range covers it: lookups by address without a search.
  static constexpr uint32_t kNoRecord = ~0u;
  uint32_t recordAt(uint64_t address) const;  // the record whose range covers it, or kNoRecord
  const HeapBlock* holding(uint64_t address, bool freed) const;
  void setOwner(uint64_t rangeStart, uint64_t rangeBytes, uint32_t record);
  uint64_t base_, size_, first_;  // first_: the first slot's address
  std::vector<uint32_t> owner_;   // per slot, up to the highest used so far: a record or none
  std::vector<Record> records_;
  std::vector<uint32_t> spareRecords_;  // indices of records no longer used
  // Free ranges, coalesced, by their end: end -> start. Keyed by the end, a block taken from a
  // range's start changes no key (no rebalancing in the common malloc).
  std::map<uint64_t, uint64_t> holes_;
  uint64_t inUse_ = 0;
};

}  // namespace warpsim::sim
