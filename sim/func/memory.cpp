#include "sim/func/memory.h"

#include <cstring>
#include <stdexcept>

namespace warpsim::sim {
namespace {
constexpr uint64_t kAlign = 256;
constexpr uint64_t kGap = 4096;  // unmapped bytes after every allocation
}  // namespace

uint64_t DeviceMemory::allocate(uint64_t size, std::string label, bool readOnly) {
  const uint64_t base = (next_ + kAlign - 1) / kAlign * kAlign;
  if (size > kSharedWindow - kLocalWindow || base + size >= kLocalWindow)
    throw std::length_error("device memory exhausted allocating " + std::to_string(size) +
                            " bytes for " + label);
  Allocation a;
  a.base = base;
  a.size = size;
  a.readOnly = readOnly;
  a.label = std::move(label);
  a.bytes = std::make_unique<uint8_t[]>(size ? size : 1);  // value-initialized: zeros
  next_ = base + size + kGap;
  bytesAllocated_ += size;
  allocations_.emplace(base, std::move(a));
  return base;
}

void DeviceMemory::free(uint64_t address) {
  auto it = allocations_.find(address);
  if (it == allocations_.end())
    throw std::invalid_argument("free of 0x" + std::to_string(address) +
                                ", which is not a live allocation");
  bytesAllocated_ -= it->second.size;
  allocations_.erase(it);
}

const Allocation* DeviceMemory::allocationContaining(uint64_t address) const {
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return nullptr;
  --it;
  const Allocation& a = it->second;
  return address - a.base < std::max<uint64_t>(a.size, 1) ? &a : nullptr;
}

const Allocation* DeviceMemory::allocationBelow(uint64_t address) const {
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return nullptr;
  return &std::prev(it)->second;
}

uint8_t* DeviceMemory::find(uint64_t address, uint64_t bytes, const Allocation** hit) const {
  const Allocation* a = allocationContaining(address);
  if (!a || address + bytes > a->base + a->size || address + bytes < address) return nullptr;
  if (hit) *hit = a;
  return a->bytes.get() + (address - a->base);
}

void DeviceMemory::copyIn(uint64_t address, const void* src, uint64_t bytes) {
  if (bytes == 0) return;
  uint8_t* p = find(address, bytes);
  if (!p) throw std::out_of_range("copy to device: range is not inside one allocation");
  std::memcpy(p, src, bytes);
}

void DeviceMemory::copyOut(void* dst, uint64_t address, uint64_t bytes) const {
  if (bytes == 0) return;
  const uint8_t* p = find(address, bytes);
  if (!p) throw std::out_of_range("copy from device: range is not inside one allocation");
  std::memcpy(dst, p, bytes);
}

isa::Space genericSpace(uint64_t a) {
  if (a - kSharedWindow < kWindowBytes) return isa::Space::Shared;
  if (a - kLocalWindow < kWindowBytes) return isa::Space::Local;
  if (a - kParamWindow < kWindowBytes) return isa::Space::Param;
  return isa::Space::Global;
}

uint64_t fromGenericAddress(isa::Space space, uint64_t a) {
  switch (space) {
    case isa::Space::Shared:
    case isa::Space::SharedCluster:
      return a - kSharedWindow;
    case isa::Space::Local:
      return a - kLocalWindow;
    case isa::Space::Param:
      return a - kParamWindow;
    default:
      return a;
  }
}

uint64_t toGenericAddress(isa::Space space, uint64_t a) {
  switch (space) {
    case isa::Space::Shared:
    case isa::Space::SharedCluster:
      return kSharedWindow + uint32_t(a);
    case isa::Space::Local:
      return kLocalWindow + uint32_t(a);
    case isa::Space::Param:
      return kParamWindow + uint32_t(a);
    default:
      return a;  // global and const addresses are generic addresses
  }
}

}  // namespace warpsim::sim
