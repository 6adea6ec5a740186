// Device-side malloc and free for tests/sim/device_heap_test.cpp (its PTX, by nvcc 13:
// tests/data/heap_ops.ptx): one block per thread, written, read back by a later launch, freed.
extern "C" __global__ void heap_alloc(unsigned long long* out, unsigned long long bytes) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned* p = static_cast<unsigned*>(malloc(bytes));
  if (p) *p = i * 7u + 1u;
  out[i] = reinterpret_cast<unsigned long long>(p);
}

extern "C" __global__ void heap_read_free(const unsigned long long* ptrs, unsigned* values) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned* p = reinterpret_cast<unsigned*>(ptrs[i]);
  values[i] = p ? *p : 0xFFFFFFFFu;
  free(p);
}

extern "C" __global__ void heap_free_twice(const unsigned long long* ptrs) {
  unsigned* p = reinterpret_cast<unsigned*>(ptrs[threadIdx.x]);
  free(p);
  free(p);
}
