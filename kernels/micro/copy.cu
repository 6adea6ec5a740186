// Device-memory bandwidth: a grid-stride float4 copy of n4 vectors (TIMING.md section 6, #7).
extern "C" __global__ void micro_copy(float4* dst, const float4* src, unsigned n4) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x)
    dst[i] = src[i];
}
