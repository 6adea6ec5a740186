// A 256-bin histogram of bytes privatised per block: each block counts its grid-stride share
// into a shared-memory histogram with shared atomics, then merges it into the global bins with
// one atomicAdd per non-empty bin. Global atomic traffic drops from one per element to at most
// 256 per block.
#define BINS 256

extern "C" __global__ void histogram_shared_u8(const unsigned char* __restrict__ in,
                                               unsigned* __restrict__ bins, unsigned n) {
  __shared__ unsigned local[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&local[in[i]], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}
