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
// the H200's (tests/recorded/heap/: summary.txt, capacity.txt; docs/FIDELITY.md "Device heap"):
//  - the heap is whole units of 4 MiB: ceil(limit / 4 MiB) of them (a limit of 0: none, every
//    malloc returns NULL). The chip gives the same 4 MiB at limits of 1, 2 and 4 MiB, and its
//    8 MiB default ran out of 16-byte blocks between about 87,000 and 91,000 (heap_list),
//    around two units' 90,668; limits above 8 MiB are not measured yet, so more units for
//    them is the same rule extrapolated;
//  - a unit is 1,889 pages, 2,208 bytes apart from its start; a page holds 24 slots of 80 bytes
//    (1,920 bytes), and the last page of a unit only 22 (its last 160 bytes are not handed out);
//  - a block of up to 1,904 bytes takes whole slots inside one page: 16 bytes before the block
//    and the block's bytes, rounded up to 80 (so consecutive blocks of up to 64 bytes are 80
//    apart and of 65 to 144 bytes 160 apart, as on the chip), first fit: the lowest page with
//    a free run of slots, the lowest run in it. A larger block takes whole empty pages from one
//    page's start, as many as its 16 + size bytes reach into (page gaps included);
//  - so a unit holds 1889 x (24 / slots) blocks of one size less the last page's shortfall:
//    45,334 of up to 64 bytes, 22,667 of 128, 11,333 of 256, 5,667 of 512, 1,889 of 1 KiB and
//    944 of 4 KiB (two pages each), every count the chip gave (capacity.txt); pointers are
//    16-byte aligned;
//  - malloc(0) returns a block (of no bytes: any access to it is an overflow), not NULL.
// What is not modelled: where the chip's pages lie beyond their count (the chip's are 2,220
// bytes apart on average, with gaps the 2,208 pitch leaves at the end of the unit instead), and
// that it puts blocks above some size (1000 bytes in the probe) in another part of the heap
// (20592 bytes below the small blocks). Sizes the chip was not measured at (2 KiB: two pages,
// like 4 KiB) and several sizes in one unit follow the same rule untested.
//
// Placement depends only on the order of the calls. The launch makes that order fixed: a kernel
// that calls malloc or free runs its CTAs one at a time in CTA order, warps in the functional
// schedule's round-robin, lanes in lane order (sim/func/grid.cpp), on any number of host
// threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/func/fault.h"
#include "sim/func/heap_page_runs.h"

namespace warpsim::sim {

inline constexpr uint64_t kDefaultMallocHeapBytes = 8ull << 20;  // cudaLimitMallocHeapSize
inline constexpr uint64_t kHeapAlign = 16;                       // every block's address
inline constexpr uint64_t kHeapUnitBytes = 4ull << 20;           // the heap is whole units
inline constexpr uint32_t kHeapPagesPerUnit = 1889;
inline constexpr uint64_t kHeapPagePitch = 2208;  // from one page's start to the next one's
inline constexpr uint64_t kHeapSlot = 80;         // a small block takes whole slots
inline constexpr uint32_t kHeapSlotsPerPage = 24;
inline constexpr uint32_t kHeapSlotsInLastPage = 22;  // of a unit
// The bytes of heap the chip grants for a cudaLimitMallocHeapSize of `limit`: whole units.
inline constexpr uint64_t grantedHeapBytes(uint64_t limit) {
  return (limit / kHeapUnitBytes + (limit % kHeapUnitBytes != 0)) * kHeapUnitBytes;
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
  // Blocks live in [base, base + size): the device memory the Gpu allocated for the heap, a
  // whole number of units (grantedHeapBytes; std::invalid_argument otherwise) at a 16-byte
  // aligned base.
  DeviceHeap(uint64_t base, uint64_t size);
  uint64_t base() const { return base_; }
  uint64_t size() const { return size_; }
  bool contains(uint64_t address) const { return address - base_ < size_; }

  // The address of a fresh block of `bytes` bytes (0 bytes: a block of none), or 0 (NULL) when
  // no free range holds it. Its contents are whatever the heap held there before.
  uint64_t allocate(uint64_t bytes, const std::shared_ptr<const HeapSite>& site,
                    const HeapThread& by);
  // The same with the site made from `site` (tests).
  uint64_t allocate(uint64_t bytes, const FaultInfo& site, uint32_t gridId,
                    const std::string& kernel);
  FreeOutcome free(uint64_t address);
  // free(addresses[lane]) for each lane set in `lanes`, in lane order, up to the first double
  // free: each lane's outcome in outcomes[lane], and the lane of that double free returned (32:
  // none; the lanes after it are not freed). The heap is then what those free()s one at a time
  // leave; a page's bookkeeping (its slots, longest run and emptiness) is done once for all the
  // lanes that free on it instead of once a lane (a warp's lanes free neighbouring slots).
  unsigned freeLanes(uint32_t lanes, const uint64_t* addresses, FreeOutcome* outcomes);

  // The live block holding `address`, else null.
  const HeapBlock* liveBlock(uint64_t address) const;
  // The freed block holding `address` whose bytes no later block has taken, else null.
  const HeapBlock* freedBlock(uint64_t address) const;
  // The live block that starts closest below `address`, else null.
  const HeapBlock* liveBlockBelow(uint64_t address) const;
  // The blocks not freed yet, by address (the leaks, at the end of a program).
  std::vector<HeapBlock> liveBlocks() const;
  uint64_t bytesInUse() const { return inUse_; }

 private:
  // The pages and slots a block takes: slots [firstSlot, firstSlot + slots) of page firstPage
  // (a small block), or pages [firstPage, lastPage] whole (a large one: slots == 0).
  struct Place {
    uint32_t firstPage = 0, lastPage = 0, firstSlot = 0, slots = 0;
  };
  // Inline: a malloc and its free ask them a dozen times.
  uint64_t pageStart(uint32_t page) const {
    return base_ + page / kHeapPagesPerUnit * kHeapUnitBytes +
           page % kHeapPagesPerUnit * kHeapPagePitch;
  }
  uint32_t usableSlots(uint32_t page) const {
    return page % kHeapPagesPerUnit == kHeapPagesPerUnit - 1 ? kHeapSlotsInLastPage
                                                             : kHeapSlotsPerPage;
  }
  uint32_t fullMask(uint32_t page) const { return (1u << usableSlots(page)) - 1; }
  uint32_t longestFreeRun(uint32_t page) const;  // of free slots
  // The bytes a place covers: [first, second).
  std::pair<uint64_t, uint64_t> extent(const Place& p) const;
  // Grows runs_ to the pages a search may reach once `used` pages are used.
  void reservePages(uint64_t used);
  bool findSmall(uint32_t slots, Place& out);
  // Bit s set: slots s .. s + slots - 1 of `page` are free (its taken slots `used`).
  uint32_t runStarts(uint32_t used, uint32_t page, uint32_t slots) const;
  // runs_ learns the last small malloc's page's run, if a malloc since took slots there.
  void settleLastPage();
  // The lowest page at or after `from` with no block in it (pages_ or more when none).
  uint64_t nextEmptyPage(uint64_t from) const;
  bool findLarge(uint64_t bytes, Place& out) const;
  void take(const Place& p, bool taken);
  // A page's taken slots become `used`: its longest run and emptiness follow.
  void setUsed(uint32_t page, uint32_t used);
  // free()'s answer for `address` without freeing: Freed, with the block's record in `ref`,
  // where it would free a block.
  FreeOutcome locate(uint64_t address, uint32_t& ref) const;
  // What freeing a block does besides giving back its slots: its record is a freed one.
  void retire(uint32_t ref);
  // Pages up to lastPage become known (empty), and the records' tables grow to them.
  [[gnu::noinline]] void knowPages(uint32_t lastPage);

  // A block, live or freed, where it lies; records_ holds them (and spare ones, reused).
  struct Record {
    HeapBlock block;
    Place place;
    bool live = false;
  };
  static constexpr uint32_t kNone = 0;  // in startsAt_ and largeOn_: a record's index + 1
  uint32_t startIndex(uint32_t page, uint32_t slot) const {
    return page * kHeapSlotsPerPage + slot;
  }
  const Record* record(uint32_t ref) const { return ref ? &records_[ref - 1] : nullptr; }
  // Records in chunks that never move, so that a HeapBlock pointer handed out stays valid
  // while its record lives (as a map node's did); a deque's chunks of five records cost a
  // host allocation every fifth malloc.
  class Records {
   public:
    Record& operator[](uint32_t i) { return chunks_[i / kChunk][i % kChunk]; }
    const Record& operator[](uint32_t i) const { return chunks_[i / kChunk][i % kChunk]; }
    uint32_t size() const { return size_; }
    uint32_t add() {
      if (size_ % kChunk == 0) chunks_.push_back(std::make_unique<Record[]>(kChunk));
      return size_++;
    }

   private:
    static constexpr uint32_t kChunk = 1024;
    std::vector<std::unique_ptr<Record[]>> chunks_;
    uint32_t size_ = 0;
  };
  // The page and slot of an address inside the heap, a page's gap and a unit's tail counted as
  // its last slot (false outside the heap).
  bool slotOf(uint64_t address, uint32_t& page, uint32_t& slot) const;
  // The record that starts closest at or below (page, slot) and may reach it: the large block
  // over the page, else the block starting last at or before the slot in the page.
  const Record* nearest(uint32_t page, uint32_t slot) const;
  const HeapBlock* holding(uint64_t address, bool live) const;
  // A live record of a block at `p`, its block to fill in.
  HeapBlock& addRecord(const Place& p);
  void eraseRecord(uint32_t ref);
  // Forgets the freed blocks whose bytes `p` takes (an access there now reaches the new block).
  void eraseFreedUnder(const Place& p);

  uint64_t base_, size_, pages_ = 0;
  // Per page used so far (the pages after them are empty, so a large heap costs nothing until
  // it is used): bit i set = slot i taken; every usable bit set = full, or a large block's.
  std::vector<uint32_t> used_;
  PageRuns runs_;  // each page's longest run of free slots (0: full), pages never used too
  std::vector<uint64_t> empty_;  // bit p % 64 of word p / 64: page p has no slot taken
  // Blocks by where they start, so that no malloc or free allocates host memory once the
  // pages are known. Blocks never overlap (a malloc forgets the freed ones under it), so the
  // block holding an address is the one starting closest below it.
  Records records_;
  std::vector<uint32_t> spare_;     // records_ indices not in use
  std::vector<uint32_t> startsAt_;  // per slot of the pages used (startIndex): the block there
  std::vector<uint32_t> largeOn_;   // per page used: the large block over it
  // Per page used: bit s set = a freed block's record starts at slot s (what a malloc there
  // may have to forget; a page with none and no large block skips the search).
  std::vector<uint32_t> freedStarts_;
  uint64_t inUse_ = 0;
  // The page of the last small malloc and its slot count (0: none, or a free since): mallocs of
  // that many slots that follow take that page's lowest run while it has one (a warp's lanes
  // malloc one after another), and runs_ holds its run from before them while lastRunStale_.
  uint32_t lastPage_ = 0, lastSlots_ = 0;
  bool lastRunStale_ = false;
};

}  // namespace warpsim::sim
