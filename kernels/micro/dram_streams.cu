// HBM's rate against how many streams are read at once (issue 9: the DRAM-bound cards; docs/
// FIDELITY.md "The DRAM-bound cards: not the peak bandwidth"). src is `lines` lines of 128
// bytes, split into `streams` contiguous regions; the grid's warps are dealt round-robin among
// the regions, and a region's warps read its lines interleaved (its warp k reads lines k,
// k + warps a region, ...), each read one 128-byte line by the warp's 32 lanes. One stream: the
// whole grid reads neighbouring lines at once (daxpy's pattern); one stream a warp: each warp
// walks a contiguous region of its own (gemv_warp's, a row a warp). Each lane sums what it read
// into out.
extern "C" __global__ void micro_dram_streams(float* __restrict__ out,
                                              const float* __restrict__ src, unsigned lines,
                                              unsigned streams) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned warps = (gridDim.x * blockDim.x) >> 5;
  const unsigned perRegion = warps / streams, regionLines = lines / streams;
  const float* region = src + size_t(warp % streams) * regionLines * 32;
  float sum = 0.0f;
  for (unsigned l = warp / streams; l < regionLines; l += perRegion)
    sum += region[size_t(l) * 32 + lane];
  out[size_t(warp) * 32 + lane] = sum;
}

// HBM's latency against the bytes in flight (TIMING.md section 6, #8: a Little's-law sweep;
// docs/FIDELITY.md "HBM's latency under load"): each warp reads its own contiguous run of
// `perWarp` 128-byte lines, K lines at a time (K independent loads issued before any is used:
// `#pragma unroll` on the K, `#pragma unroll 1` on the trips, so ptxas keeps exactly K in
// flight), each lane summing its words. The launch's warps per SM and K set the bytes in
// flight; the cycles give the rate, and the rate the latency under that load.
template <int K>
__device__ void readInflight(float* __restrict__ out, const float* __restrict__ src,
                             unsigned perWarp) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const float* run = src + size_t(warp) * perWarp * 32 + lane;
  float sum[K];
#pragma unroll
  for (int k = 0; k < K; ++k) sum[k] = 0.0f;
#pragma unroll 1
  for (unsigned l = 0; l < perWarp; l += K) {
    float v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = __ldg(run + size_t(l + k) * 32);
#pragma unroll
    for (int k = 0; k < K; ++k) sum[k] += v[k];
  }
  float total = 0.0f;
#pragma unroll
  for (int k = 0; k < K; ++k) total += sum[k];
  out[size_t(warp) * 32 + lane] = total;
}

extern "C" __global__ void micro_dram_inflight1(float* __restrict__ out,
                                                const float* __restrict__ src, unsigned perWarp) {
  readInflight<1>(out, src, perWarp);
}
extern "C" __global__ void micro_dram_inflight2(float* __restrict__ out,
                                                const float* __restrict__ src, unsigned perWarp) {
  readInflight<2>(out, src, perWarp);
}
extern "C" __global__ void micro_dram_inflight4(float* __restrict__ out,
                                                const float* __restrict__ src, unsigned perWarp) {
  readInflight<4>(out, src, perWarp);
}
extern "C" __global__ void micro_dram_inflight8(float* __restrict__ out,
                                                const float* __restrict__ src, unsigned perWarp) {
  readInflight<8>(out, src, perWarp);
}
