// Stream compaction, order preserving: keep the values below a threshold, packed to the front.
// Three launches: compact_count_u32 counts each block's survivors (__ballot_sync + __popc per
// warp), compact_scan_counts_u32 turns the counts into block offsets (one block, warp
// __shfl_up_sync scans), and compact_scatter_u32 writes each survivor at its block's offset plus
// its warp's offset plus its rank in the warp, __popc(ballot & %lanemask_lt).
#define BLOCK 256
#define WARPS (BLOCK / 32)
#define SCAN_BLOCK 1024

__device__ __forceinline__ unsigned lanemaskLt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

// Every lane takes part (no early exit) so the full-mask ballot is legal in the last block too.
__device__ __forceinline__ unsigned survivors(const unsigned* __restrict__ in, unsigned i,
                                              unsigned n, unsigned threshold, bool* keep) {
  *keep = i < n && in[i] < threshold;
  return __ballot_sync(0xffffffffu, *keep);
}

extern "C" __global__ void compact_count_u32(const unsigned* __restrict__ in,
                                             unsigned* __restrict__ blockCounts, unsigned n,
                                             unsigned threshold) {
  __shared__ unsigned warpCounts[WARPS];
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  bool keep;
  const unsigned ballot = survivors(in, blockIdx.x * BLOCK + tid, n, threshold, &keep);
  if (lane == 0) warpCounts[warp] = __popc(ballot);
  __syncthreads();
  if (tid == 0) {
    unsigned sum = 0;
    for (unsigned w = 0; w < WARPS; ++w) sum += warpCounts[w];
    blockCounts[blockIdx.x] = sum;
  }
}

__device__ __forceinline__ unsigned warpInclusiveScan(unsigned v, unsigned lane) {
  for (unsigned d = 1; d < 32; d *= 2) {
    const unsigned up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
  return v;
}

// Exclusive scan of up to 1024 block counts in one block of 1024 threads; total = the sum.
extern "C" __global__ void compact_scan_counts_u32(const unsigned* __restrict__ counts,
                                                   unsigned* __restrict__ offsets,
                                                   unsigned* __restrict__ total, unsigned blocks) {
  __shared__ unsigned warpTotals[SCAN_BLOCK / 32];
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const unsigned c = tid < blocks ? counts[tid] : 0u;
  const unsigned inclusive = warpInclusiveScan(c, lane);
  if (lane == 31) warpTotals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    const unsigned t = warpTotals[lane];
    const unsigned scanned = warpInclusiveScan(t, lane);
    warpTotals[lane] = scanned - t;
    if (lane == 31) total[0] = scanned;
  }
  __syncthreads();
  if (tid < blocks) offsets[tid] = warpTotals[warp] + inclusive - c;
}

extern "C" __global__ void compact_scatter_u32(const unsigned* __restrict__ in,
                                               const unsigned* __restrict__ offsets,
                                               unsigned* __restrict__ out, unsigned n,
                                               unsigned threshold) {
  __shared__ unsigned warpOffsets[WARPS];
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const unsigned i = blockIdx.x * BLOCK + tid;
  bool keep;
  const unsigned ballot = survivors(in, i, n, threshold, &keep);
  if (lane == 0) warpOffsets[warp] = __popc(ballot);
  __syncthreads();
  if (tid == 0) {  // exclusive scan of the eight warp counts
    unsigned sum = offsets[blockIdx.x];
    for (unsigned w = 0; w < WARPS; ++w) {
      const unsigned c = warpOffsets[w];
      warpOffsets[w] = sum;
      sum += c;
    }
  }
  __syncthreads();
  if (keep) out[warpOffsets[warp] + __popc(ballot & lanemaskLt())] = in[i];
}
