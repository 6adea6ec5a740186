// Stores down the columns of a region that stays in the L2 (issue 9: what the L2's time is in
// transpose_naive and calls_recursive). The region's first rows x pitch words are a matrix of
// rows of `pitch` words; consecutive threads write consecutive rows of one column, so a warp's
// store writes one word in each of 32 rows `pitch` words apart: at pitch 1 consecutive words
// (whole sectors), at 8 one word in each of 32 consecutive sectors, at 512, 2048 and 4096 the
// output rows of transpose_naive at 512, 2048 and 4096. Every word is written once a round, and
// `rounds` rounds write the region again, so that after the first the L2 holds it (no DRAM) and
// its own rate is the limit.
extern "C" __global__ void micro_store_pitch(unsigned* dst, unsigned words, unsigned pitch,
                                             unsigned rounds, unsigned base) {
  const unsigned rows = words / pitch, total = rows * pitch;
  for (unsigned r = 0; r < rounds; ++r)
    for (unsigned t = blockIdx.x * blockDim.x + threadIdx.x; t < total; t += gridDim.x * blockDim.x)
      dst[size_t(t % rows) * pitch + t / rows] = base + t + r;
}
