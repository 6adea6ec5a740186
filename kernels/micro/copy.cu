// Device-memory bandwidth: a grid-stride float4 copy of n4 vectors (TIMING.md section 6, #7).
extern "C" __global__ void micro_copy(float4* dst, const float4* src, unsigned n4) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x)
    dst[i] = src[i];
}

// Store streams: a grid-stride loop in which thread i writes base + i to word i * stride of dst.
// Stride 1 writes whole sectors; stride 8 one 4-byte word per 32-byte sector, a partial-sector
// write that the L2 must merge with the sector's other bytes.
extern "C" __global__ void micro_store_stride(unsigned* dst, unsigned n, unsigned stride,
                                              unsigned base) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    dst[size_t(i) * stride] = base + i;
}
