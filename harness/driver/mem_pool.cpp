// Stream-ordered memory pools (cuMemPool*, cuMemAllocFromPoolAsync) and the graph memory
// attributes. Work runs when it is enqueued, so a pool allocation is made and freed at once; a
// pool is the bookkeeping CUDA reports (its attributes, used and reserved bytes, high-water
// marks). cuMemAllocAsync outside a capture draws from the device's current pool; in a capture
// it makes a graph allocation (graph.h). cuMemFreeAsync is in memory.cpp, beside cuMemFree.
#include <algorithm>
#include <cstring>

#include "harness/driver/device_attributes.h"
#include "harness/driver/internal.h"

using namespace warpsim::driver;

namespace {

MemPool* poolOf(Driver& d, CUmemoryPool p) {
  auto it = d.memPools.find(reinterpret_cast<MemPool*>(p));
  if (it == d.memPools.end()) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  return it->second.get();
}

void checkDevice(CUdevice dev) {
  if (dev != 0) throw ApiError{CUDA_ERROR_INVALID_DEVICE, ""};
}

// Pools on the device, without IPC handles (the device reports none it could export).
void checkProps(const CUmemPoolProps& p) {
  if (p.allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
      p.location.type != CU_MEM_LOCATION_TYPE_DEVICE || p.location.id != 0 ||
      p.handleTypes != CU_MEM_HANDLE_TYPE_NONE)
    throw ApiError{CUDA_ERROR_NOT_SUPPORTED,
                   "memory pools are pinned device memory of device 0 without IPC handles"};
}

MemPool* ensureDefaultPool(Driver& d) {
  if (!d.defaultPool) {
    auto p = std::make_unique<MemPool>();
    p->props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    p->props.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    d.defaultPool = d.currentPool = p.get();
    d.memPools[p.get()] = std::move(p);
  }
  return d.defaultPool;
}

uint64_t graphMemoryInUse(const Driver& d) {
  uint64_t total = 0;
  for (const auto& [address, bytes] : d.graphAllocations) total += bytes;
  return total;
}

}  // namespace

namespace warpsim::driver {

uint64_t allocateFromPool(Driver& d, MemPool* pool, size_t bytes) {
  if (!pool) pool = d.currentPool ? d.currentPool : ensureDefaultPool(d);
  if (bytes == 0) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  if (bytes > kDeviceTotalMemory - d.gpu.memory().bytesAllocated())
    throw ApiError{CUDA_ERROR_OUT_OF_MEMORY, ""};
  const uint64_t p =
      d.gpu.memory().allocate(bytes, "cudaMallocAsync buffer #" + std::to_string(++d.allocations));
  if (d.checks) d.checks->trackUninitialized(p, bytes);
  d.poolAllocations[p] = {pool, bytes};
  pool->used += bytes;
  pool->usedHigh = std::max(pool->usedHigh, pool->used);
  pool->reservedHigh = std::max(pool->reservedHigh, pool->used);
  return p;
}

// Stream-ordered allocation on s: a memory node of its capture (graph.h), else from the pool.
uint64_t allocateOn(Driver& d, MemPool* pool, size_t bytes, CUstream s) {
  GraphNode* n = captureNode(d, s, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
  if (!n) return allocateFromPool(d, pool, bytes);
  n->allocation = allocateForGraph(d, bytes);
  n->allocationBytes = bytes;
  return n->allocation;
}

bool freeToPool(Driver& d, uint64_t address) {
  auto it = d.poolAllocations.find(address);
  if (it == d.poolAllocations.end()) return false;
  it->second.first->used -= it->second.second;
  d.poolAllocations.erase(it);
  d.gpu.memory().free(address);
  if (d.checks) d.checks->forget(address);
  return true;
}

}  // namespace warpsim::driver

extern "C" {

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool* pool, CUdevice dev) {
  return api([&](Driver& d) {
    checkDevice(dev);
    *need(pool) = reinterpret_cast<CUmemoryPool>(ensureDefaultPool(d));
    return CUDA_SUCCESS;
  });
}

CUresult cuDeviceGetMemPool(CUmemoryPool* pool, CUdevice dev) {
  return api([&](Driver& d) {
    checkDevice(dev);
    ensureDefaultPool(d);
    *need(pool) = reinterpret_cast<CUmemoryPool>(d.currentPool);
    return CUDA_SUCCESS;
  });
}

CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool) {
  return api([&](Driver& d) {
    checkDevice(dev);
    d.currentPool = poolOf(d, pool);
    return CUDA_SUCCESS;
  });
}

CUresult cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* props) {
  return api([&](Driver& d) {
    requireContext(d);
    checkProps(*need(props));
    auto p = std::make_unique<MemPool>();
    p->props = *props;
    *need(pool) = reinterpret_cast<CUmemoryPool>(p.get());
    d.memPools[p.get()] = std::move(p);
    return CUDA_SUCCESS;
  });
}

// Allocations still in the pool are freed with it (CUDA frees them once they are freed).
CUresult cuMemPoolDestroy(CUmemoryPool pool) {
  return api([&](Driver& d) {
    MemPool* p = poolOf(d, pool);
    if (p == d.defaultPool) throw ApiError{CUDA_ERROR_INVALID_VALUE, "the default pool stays"};
    if (d.currentPool == p) d.currentPool = d.defaultPool;
    std::vector<uint64_t> live;
    for (const auto& [address, owner] : d.poolAllocations)
      if (owner.first == p) live.push_back(address);
    for (uint64_t a : live) freeToPool(d, a);
    d.memPools.erase(p);
    return CUDA_SUCCESS;
  });
}

CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t) {
  return api([&](Driver& d) {
    poolOf(d, pool);  // the pool holds no memory beyond what is in use
    return CUDA_SUCCESS;
  });
}

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  return api([&](Driver& d) {
    MemPool* p = poolOf(d, pool);
    need(value);
    const auto asInt = [&] { return *static_cast<int*>(value); };
    const auto asU64 = [&] { return *static_cast<cuuint64_t*>(value); };
    switch (attr) {
      case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
        p->followEventDependencies = asInt();
        break;
      case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
        p->allowOpportunistic = asInt();
        break;
      case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
        p->allowInternalDependencies = asInt();
        break;
      case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
        p->releaseThreshold = asU64();
        break;
      case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:  // only a reset to 0 (to the current value)
        if (asU64() != 0) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
        p->reservedHigh = p->used;
        break;
      case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
        if (asU64() != 0) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
        p->usedHigh = p->used;
        break;
      default:
        throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    }
    return CUDA_SUCCESS;
  });
}

CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  return api([&](Driver& d) {
    const MemPool* p = poolOf(d, pool);
    need(value);
    const auto setInt = [&](int v) { *static_cast<int*>(value) = v; };
    const auto setU64 = [&](cuuint64_t v) { *static_cast<cuuint64_t*>(value) = v; };
    switch (attr) {
      case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
        setInt(p->followEventDependencies);
        break;
      case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
        setInt(p->allowOpportunistic);
        break;
      case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
        setInt(p->allowInternalDependencies);
        break;
      case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
        setU64(p->releaseThreshold);
        break;
      case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
      case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
        setU64(p->used);
        break;
      case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
        setU64(p->reservedHigh);
        break;
      case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
        setU64(p->usedHigh);
        break;
      default:
        throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    }
    return CUDA_SUCCESS;
  });
}

// The one device reads and writes every pool; other locations do not exist.
CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc* map, size_t count) {
  return api([&](Driver& d) {
    poolOf(d, pool);
    for (size_t i = 0; i < count; ++i)
      if (need(map)[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE || map[i].location.id != 0)
        throw ApiError{CUDA_ERROR_INVALID_DEVICE, ""};
    return CUDA_SUCCESS;
  });
}

CUresult cuMemPoolGetAccess(CUmemAccess_flags* flags, CUmemoryPool pool, CUmemLocation* location) {
  return api([&](Driver& d) {
    poolOf(d, pool);
    const bool device = need(location)->type == CU_MEM_LOCATION_TYPE_DEVICE && location->id == 0;
    *need(flags) = device ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE : CU_MEM_ACCESS_FLAGS_PROT_NONE;
    return CUDA_SUCCESS;
  });
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr* dptr, size_t bytes, CUmemoryPool pool, CUstream s) {
  return api([&](Driver& d) {
    requireContext(d);
    *need(dptr) = allocateOn(d, poolOf(d, pool), bytes, s);
    return CUDA_SUCCESS;
  });
}

CUresult cuMemAllocAsync(CUdeviceptr* dptr, size_t bytes, CUstream s) {
  return api([&](Driver& d) {
    requireContext(d);
    *need(dptr) = allocateOn(d, nullptr, bytes, s);
    return CUDA_SUCCESS;
  });
}

// Graph allocations keep their memory for the driver's life (graph.h): used and reserved
// memory are the same, their high-water mark resettable to the current value.
CUresult cuDeviceGetGraphMemAttribute(CUdevice dev, CUgraphMem_attribute attr, void* value) {
  return api([&](Driver& d) {
    checkDevice(dev);
    const bool high =
        attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH || attr == CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH;
    if (!high && attr != CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT &&
        attr != CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT)
      throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    *static_cast<cuuint64_t*>(need(value)) = high ? d.graphMemoryHigh : graphMemoryInUse(d);
    return CUDA_SUCCESS;
  });
}

CUresult cuDeviceSetGraphMemAttribute(CUdevice dev, CUgraphMem_attribute attr, void* value) {
  return api([&](Driver& d) {
    checkDevice(dev);
    if ((attr != CU_GRAPH_MEM_ATTR_USED_MEM_HIGH && attr != CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH) ||
        *static_cast<cuuint64_t*>(need(value)) != 0)
      throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    d.graphMemoryHigh = graphMemoryInUse(d);
    return CUDA_SUCCESS;
  });
}

}  // extern "C"
