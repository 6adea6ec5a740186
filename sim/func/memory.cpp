#include "sim/func/memory.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace warpsim::sim {
namespace {
constexpr uint64_t kAlign = 256;
constexpr uint64_t kGap = 4096;  // unmapped bytes after every allocation
}  // namespace

void FreeBytes::operator()(uint8_t* p) const { std::free(p); }

uint64_t DeviceMemory::allocate(uint64_t size, std::string label, bool readOnly) {
  const uint64_t base = (next_ + kAlign - 1) / kAlign * kAlign;
  auto outOfMemory = [&](const std::string& why) {
    return OutOfDeviceMemory("out of device memory: " + label + " needs " + std::to_string(size) +
                             " bytes; " + why);
  };
  if (size > capacity_ - std::min(capacity_, bytesAllocated_))
    throw outOfMemory(std::to_string(bytesAllocated_) + " of the limit of " +
                      std::to_string(capacity_) +
                      " bytes are in use (the limit is set by --device-memory)");
  if (size > kSharedWindow - kLocalWindow || base + size >= kLocalWindow)
    throw outOfMemory("the global address space is exhausted");
  Allocation a;
  a.bytes.reset(static_cast<uint8_t*>(std::calloc(size ? size : 1, 1)));  // zeros
  if (!a.bytes) throw outOfMemory("the host could not provide them");
  a.base = base;
  a.size = size;
  a.readOnly = readOnly;
  a.label = std::move(label);
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
