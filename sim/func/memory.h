// Device memory: allocations in a 64-bit global address space, checked on every access, and
// the generic-address windows onto shared and local memory.
//
// Thread-safety: allocate/free only between launches; during a launch many CTAs read and
// write concurrently through find() (the table is then read-only).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "isa/mods.h"

namespace warpsim::sim {

// Generic addresses of the shared and local windows (each 4 GiB); global allocations live
// below them. cvta.shared / cvta.local add the window base, cvta.to.* subtract it.
inline constexpr uint64_t kSharedWindow = 0x00007F0000000000ull;
inline constexpr uint64_t kLocalWindow = 0x00007E0000000000ull;
inline constexpr uint64_t kWindowBytes = 1ull << 32;
// The kernel's parameters seen through a generic address (cvta.param, e.g. the address of a
// __grid_constant__ parameter), between the local and the shared windows.
inline constexpr uint64_t kParamWindow = kLocalWindow + (kSharedWindow - kLocalWindow) / 2;
static_assert(kParamWindow >= kLocalWindow + kWindowBytes &&
              kParamWindow + kWindowBytes <= kSharedWindow);
inline constexpr uint64_t kFirstGlobalAddress = 0x0000000500000000ull;

// The state space a generic address falls in (isspacep), and its address within that space.
isa::Space genericSpace(uint64_t genericAddress);
uint64_t fromGenericAddress(isa::Space space, uint64_t genericAddress);
uint64_t toGenericAddress(isa::Space space, uint64_t address);
// Device memory a Gpu may hold unless told otherwise. The H200's 141 GB is more than a
// simulating host has, and every device byte is a host byte (and `warpsim run` keeps two more
// host copies of each buffer: the inputs and the results), so the default is sized for a
// 24 GiB machine: 4 GiB of device memory, at most ~12 GiB of host memory for a run.
inline constexpr uint64_t kDefaultDeviceMemoryBytes = 4ull << 30;

// An allocation that does not fit the device memory limit (or the host): the message names
// the allocation, its size, the limit and what is in use.
class OutOfDeviceMemory : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Device bytes come from calloc: large blocks are fresh zero pages that take host memory only
// once touched, so a large, mostly unused .global variable costs what the kernel uses of it.
struct FreeBytes {
  void operator()(uint8_t* p) const;
};

struct Allocation {
  uint64_t base = 0;
  uint64_t size = 0;
  bool readOnly = false;  // .const data
  std::string label;      // "buffer a", ".global $str", ...
  std::unique_ptr<uint8_t[], FreeBytes> bytes;
};

// The last few allocations a CTA's global accesses landed in, so that a kernel streaming
// through several buffers (vector_add's a, b and c, one access each per warp) finds each without
// a search of the table: one remembered allocation made every access of such a kernel search.
// Valid while the allocations live: a CTA clears it when it starts another launch's CTA.
class RecentAllocations {
 public:
  // The remembered allocation whose bytes hold `address`, else null.
  const Allocation* find(uint64_t address) const {
    for (const Allocation* a : slots_)
      if (a && address - a->base < a->size) return a;
    return nullptr;
  }
  // Remembers `a` in place of the one remembered longest ago.
  void add(const Allocation* a) {
    slots_[next_] = a;
    next_ = (next_ + 1) % kSlots;
  }
  void clear() {
    slots_.fill(nullptr);
    next_ = 0;
  }

 private:
  static constexpr unsigned kSlots = 4;
  std::array<const Allocation*, kSlots> slots_{};
  unsigned next_ = 0;
};

class DeviceMemory {
 public:
  explicit DeviceMemory(uint64_t capacity = kDefaultDeviceMemoryBytes) : capacity_(capacity) {}
  // Returns the device address of `size` fresh bytes (zeroed), aligned to 256; allocations are
  // separated by unmapped gaps so that running off the end of one faults. Throws
  // OutOfDeviceMemory, checked before any host memory is taken, when the live allocations
  // would exceed the capacity (or the host refuses the memory).
  uint64_t allocate(uint64_t size, std::string label, bool readOnly = false);
  // Throws std::invalid_argument when `address` is not the base of a live allocation.
  void free(uint64_t address);
  void copyIn(uint64_t address, const void* src, uint64_t bytes);
  void copyOut(void* dst, uint64_t address, uint64_t bytes) const;
  // The host pointer for [address, address+bytes) inside one live allocation, else nullptr.
  uint8_t* find(uint64_t address, uint64_t bytes, const Allocation** hit = nullptr) const;
  const Allocation* allocationContaining(uint64_t address) const;
  // The live allocation that ends closest below `address` (for "N bytes past the end of ...").
  const Allocation* allocationBelow(uint64_t address) const;
  uint64_t bytesAllocated() const { return bytesAllocated_; }
  size_t allocationCount() const { return allocations_.size(); }
  uint64_t capacity() const { return capacity_; }

 private:
  uint64_t capacity_;
  std::map<uint64_t, Allocation> allocations_;
  uint64_t next_ = kFirstGlobalAddress;
  uint64_t bytesAllocated_ = 0;
};

}  // namespace warpsim::sim
