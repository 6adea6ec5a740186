// Fused single-head attention forward in fp32, O = softmax(Q K^T * scale) V, one warp per query
// row (head dimension 64, up to MAX_KEYS keys): lanes take keys j = lane, lane+32, ... and
// compute whole dot products q . k_j into the warp's score row in shared memory; the row max
// and the sum of exponentials are xor butterflies; then each lane accumulates two output
// columns over all keys, reading the probabilities back from shared memory (broadcasts).
// The scores never leave the SM: nothing of size seq x seq touches global memory.
#define D 64
#define WARPS_PER_BLOCK 4
#define MAX_KEYS 256

extern "C" __global__ void attention_fwd_f32(const float* __restrict__ Q,
                                             const float* __restrict__ K,
                                             const float* __restrict__ V, float* __restrict__ O,
                                             unsigned seq, float scale) {
  __shared__ float qs[WARPS_PER_BLOCK][D];
  __shared__ float ps[WARPS_PER_BLOCK][MAX_KEYS];
  const unsigned lane = threadIdx.x % 32, w = threadIdx.x / 32;
  const unsigned row = blockIdx.x * WARPS_PER_BLOCK + w;
  if (row >= seq) return;  // whole warps: every sync below is warp-local
  qs[w][lane] = Q[row * D + lane];
  qs[w][lane + 32] = Q[row * D + lane + 32];
  __syncwarp();
  float m = -INFINITY;
  for (unsigned j = lane; j < seq; j += 32) {
    float s = 0.0f;
#pragma unroll 8
    for (unsigned d = 0; d < D; ++d) s += qs[w][d] * K[j * D + d];
    s *= scale;
    ps[w][j] = s;
    m = fmaxf(m, s);
  }
  for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  float l = 0.0f;
  for (unsigned j = lane; j < seq; j += 32) {
    const float pj = expf(ps[w][j] - m);
    ps[w][j] = pj;
    l += pj;
  }
  for (int off = 16; off > 0; off >>= 1) l += __shfl_xor_sync(0xffffffffu, l, off);
  __syncwarp();  // every lane's probabilities are visible to the whole warp
  float acc0 = 0.0f, acc1 = 0.0f;
  for (unsigned j = 0; j < seq; ++j) {
    const float pj = ps[w][j];
    acc0 += pj * V[j * D + lane];
    acc1 += pj * V[j * D + lane + 32];
  }
  O[row * D + lane] = acc0 / l;
  O[row * D + lane + 32] = acc1 / l;
}
