// A CTA's shared memory: its bytes (static shared of the entry, then the launch's dynamic
// shared) and the bounds test of the fast path.
#pragma once

#include <cstdint>
#include <vector>

namespace warpsim::sim {

class SharedMemory {
 public:
  // Makes `bytes` zeroed bytes (reusing the storage of a previous CTA).
  void reset(size_t bytes) { bytes_.assign(bytes, 0); }
  size_t size() const { return bytes_.size(); }
  uint8_t* data() { return bytes_.data(); }
  // [addr, addr + n) lies inside, without the wrap-around of addr + n near 2^64.
  bool fits(uint64_t addr, uint64_t n) const { return addr <= size() && n <= size() - addr; }
  // The host pointer of an in-bounds, n-aligned access of n bytes (n a power of two), else
  // nullptr (the caller then reports why).
  uint8_t* fast(uint64_t addr, unsigned n) {
    return (addr & (n - 1)) == 0 && fits(addr, n) ? bytes_.data() + addr : nullptr;
  }

 private:
  std::vector<uint8_t> bytes_;
};

}  // namespace warpsim::sim
