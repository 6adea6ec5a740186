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
