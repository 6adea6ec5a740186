// Shared loads by width under load (sgemm_regblock's LDS.128, issue 9): how long a 16-byte shared
// load takes against a 4-byte one, alone and beside other warps, and what regblock's inner loop
// (two LDS.128 and 16 FFMA per k) costs without its global loads and barriers.

// A chain of dependent shared loads per lane, `iters` long: 4-byte (`wide` 0) or 16-byte ones
// (`wide` 1: ld.shared.v4, the address from the first word, the other three summed off the
// chain). The table holds multiples of its size (unknown to the compiler), so each lane keeps
// reading its own vector: `pattern` picks which, 0: every lane the same; 1: lane % 16 (regblock's Bs[k][tx*4]);
// 2: lane (all distinct); 3: lane / 16 (regblock's As[k][ty*4]).
extern "C" __global__ void micro_lds_chain(unsigned* out, const unsigned* words, unsigned pattern,
                                           unsigned wide, unsigned iters) {
  __shared__ __align__(16) unsigned table[2048];
  for (unsigned k = threadIdx.x; k < 2048; k += blockDim.x) table[k] = words[k];
  __syncthreads();
  const unsigned lane = threadIdx.x % 32;
  const unsigned vec = pattern == 0 ? 0 : pattern == 1 ? lane % 16 : pattern == 2 ? lane : lane / 16;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(table));
  unsigned v = 0, rest = 0;
  if (wide) {
    for (unsigned i = 0; i < iters; ++i) {
      unsigned x, y, z, w;
      asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                   : "r"(base + ((vec + v) % 512) * 16));
      v += x;
      rest += y + z + w;
    }
  } else {
    for (unsigned i = 0; i < iters; ++i) {
      unsigned x;
      asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"(base + ((vec + v) % 2048) * 4));
      v += x;
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v + rest + vec;
}

// sgemm_regblock's inner loop alone: per round, for k = 0..7, a float4 of As[k][ty*4] and one of
// Bs[k][tx*4] (volatile, so that every round loads them) and their 16 fmas into a 4x4 register
// tile; tx = tid % 16, ty = tid / 16 % 16, as in regblock's 256-thread CTA. `in` fills As then
// Bs (1024 floats); each thread writes its 16 accumulators.
extern "C" __global__ void micro_lds_fma(float* out, const float* in, unsigned iters) {
  __shared__ __align__(16) float As[8][64];
  __shared__ __align__(16) float Bs[8][64];
  for (unsigned k = threadIdx.x; k < 512; k += blockDim.x) {
    As[k / 64][k % 64] = in[k];
    Bs[k / 64][k % 64] = in[512 + k];
  }
  __syncthreads();
  const unsigned tx = threadIdx.x % 16, ty = threadIdx.x / 16 % 16;
  const unsigned a0 = static_cast<unsigned>(__cvta_generic_to_shared(&As[0][ty * 4]));
  const unsigned b0 = static_cast<unsigned>(__cvta_generic_to_shared(&Bs[0][tx * 4]));
  float acc[4][4] = {};
  for (unsigned r = 0; r < iters; ++r) {
#pragma unroll
    for (unsigned k = 0; k < 8; ++k) {
      float a[4], b[4];
      asm volatile("ld.volatile.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
                   : "=f"(a[0]), "=f"(a[1]), "=f"(a[2]), "=f"(a[3])
                   : "r"(a0 + k * 256));
      asm volatile("ld.volatile.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
                   : "=f"(b[0]), "=f"(b[1]), "=f"(b[2]), "=f"(b[3])
                   : "r"(b0 + k * 256));
#pragma unroll
      for (unsigned i = 0; i < 4; ++i)
#pragma unroll
        for (unsigned j = 0; j < 4; ++j) acc[i][j] = __fmaf_rn(a[i], b[j], acc[i][j]);
    }
  }
#pragma unroll
  for (unsigned i = 0; i < 4; ++i)
#pragma unroll
    for (unsigned j = 0; j < 4; ++j) out[(blockIdx.x * blockDim.x + threadIdx.x) * 16 + i * 4 + j] = acc[i][j];
}
