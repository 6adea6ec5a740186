// Exclusive prefix sums of unsigned ints, Blelloch's work-efficient scan (GPU Gems 3, ch. 39):
// each block of 256 threads scans 512 elements in shared memory (an up-sweep building partial
// sums in a tree, then a down-sweep distributing them) and writes its total; the block totals
// are scanned by the same kernel, and a third kernel adds each block's offset.
// The padded variant inserts one word every 32 (index + index/32), so that the tree's
// power-of-two strides stop landing in the same bank.
#define THREADS 256
#define ELEMS (2 * THREADS)

__device__ __forceinline__ unsigned plainIndex(unsigned i) { return i; }
__device__ __forceinline__ unsigned paddedIndex(unsigned i) { return i + (i >> 5); }

template <unsigned (*Index)(unsigned)>
__device__ __forceinline__ void blockScan(unsigned* t, const unsigned* __restrict__ in,
                                          unsigned* __restrict__ out,
                                          unsigned* __restrict__ blockSums, unsigned n) {
  const unsigned tid = threadIdx.x;
  const unsigned base = blockIdx.x * ELEMS;
  const unsigned a = 2 * tid, b = 2 * tid + 1;
  t[Index(a)] = base + a < n ? in[base + a] : 0u;
  t[Index(b)] = base + b < n ? in[base + b] : 0u;
  unsigned offset = 1;
  for (unsigned d = ELEMS / 2; d > 0; d >>= 1) {  // up-sweep
    __syncthreads();
    if (tid < d) {
      const unsigned ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
      t[Index(bi)] += t[Index(ai)];
    }
    offset *= 2;
  }
  if (tid == 0) {
    blockSums[blockIdx.x] = t[Index(ELEMS - 1)];
    t[Index(ELEMS - 1)] = 0;
  }
  for (unsigned d = 1; d < ELEMS; d *= 2) {  // down-sweep
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      const unsigned ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
      const unsigned x = t[Index(ai)];
      t[Index(ai)] = t[Index(bi)];
      t[Index(bi)] += x;
    }
  }
  __syncthreads();
  if (base + a < n) out[base + a] = t[Index(a)];
  if (base + b < n) out[base + b] = t[Index(b)];
}

extern "C" __global__ void scan_blelloch_block_u32(const unsigned* __restrict__ in,
                                                   unsigned* __restrict__ out,
                                                   unsigned* __restrict__ blockSums, unsigned n) {
  __shared__ unsigned t[ELEMS];
  blockScan<plainIndex>(t, in, out, blockSums, n);
}

extern "C" __global__ void scan_blelloch_padded_block_u32(const unsigned* __restrict__ in,
                                                          unsigned* __restrict__ out,
                                                          unsigned* __restrict__ blockSums,
                                                          unsigned n) {
  __shared__ unsigned t[ELEMS + ELEMS / 32];
  blockScan<paddedIndex>(t, in, out, blockSums, n);
}

// out[i] += offsets[block of i], for the blocks of ELEMS elements the scan kernels used.
extern "C" __global__ void scan_add_offsets_u32(unsigned* __restrict__ out,
                                                const unsigned* __restrict__ offsets, unsigned n) {
  const unsigned base = blockIdx.x * ELEMS;
  const unsigned add = offsets[blockIdx.x];
  for (unsigned i = base + threadIdx.x; i < base + ELEMS && i < n; i += THREADS) out[i] += add;
}
