// Exclusive prefix sums of unsigned ints with warp shuffles: each warp scans its 32 values with
// __shfl_up_sync (Hillis-Steele, log2(32) steps, no shared memory), the first warp scans the
// eight warp totals the same way, and every thread adds its warp's offset. Block totals are
// scanned by the same kernel and added back by a second kernel, as in scan_blelloch.
#define BLOCK 256
#define WARPS (BLOCK / 32)

__device__ __forceinline__ unsigned warpInclusiveScan(unsigned v, unsigned lane) {
  for (unsigned d = 1; d < 32; d *= 2) {
    const unsigned up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;  // lanes below d have no partner d lanes up
  }
  return v;
}

extern "C" __global__ void scan_shfl_up_block_u32(const unsigned* __restrict__ in,
                                                  unsigned* __restrict__ out,
                                                  unsigned* __restrict__ blockSums, unsigned n) {
  __shared__ unsigned warpTotals[WARPS];
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const unsigned i = blockIdx.x * BLOCK + tid;
  const unsigned x = i < n ? in[i] : 0u;
  const unsigned inclusive = warpInclusiveScan(x, lane);
  if (lane == 31) warpTotals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    const unsigned total = lane < WARPS ? warpTotals[lane] : 0u;
    const unsigned scanned = warpInclusiveScan(total, lane);
    if (lane < WARPS) warpTotals[lane] = scanned - total;  // exclusive offsets of the warps
    if (lane == WARPS - 1) blockSums[blockIdx.x] = scanned;
  }
  __syncthreads();
  if (i < n) out[i] = warpTotals[warp] + inclusive - x;
}

extern "C" __global__ void scan_shfl_up_add_offsets_u32(unsigned* __restrict__ out,
                                                        const unsigned* __restrict__ offsets,
                                                        unsigned n) {
  const unsigned i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] += offsets[blockIdx.x];
}
