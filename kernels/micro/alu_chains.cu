// Dependent-issue latency of one instruction class: one warp runs `iters` rounds of 32
// unrolled dependent operations, each reading the previous one's result (inline PTX, so that
// nvcc keeps every operation). ncu's cycles over 32 x iters operations give the latency
// (TIMING.md section 6, #1 and #3).

#define CHAIN32(op) \
  op op op op op op op op op op op op op op op op op op op op op op op op op op op op op op op op

extern "C" __global__ void micro_ffma_chain(float* out, const float* in, float a, float b,
                                            unsigned iters) {
  float x = in[threadIdx.x];
  for (unsigned i = 0; i < iters; ++i) {
    CHAIN32(asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b));)
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void micro_iadd_chain(unsigned* out, const unsigned* in, unsigned k,
                                            unsigned iters) {
  unsigned x = in[threadIdx.x];
  for (unsigned i = 0; i < iters; ++i) {
    CHAIN32(asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(k));)
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void micro_dfma_chain(double* out, const double* in, double a, double b,
                                            unsigned iters) {
  double x = in[threadIdx.x];
  for (unsigned i = 0; i < iters; ++i) {
    CHAIN32(asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x) : "d"(a), "d"(b));)
  }
  out[threadIdx.x] = x;
}

// MUFU: x = 2^-x stays in (0.5, 1] and contracts errors, so the chain stays comparable.
extern "C" __global__ void micro_mufu_chain(float* out, const float* in, unsigned iters) {
  float x = in[threadIdx.x];
  for (unsigned i = 0; i < iters; ++i) {
    CHAIN32(asm volatile("{\n\t.reg .f32 t;\n\tneg.f32 t, %0;\n\tex2.approx.ftz.f32 %0, t;\n\t}"
                         : "+f"(x));)
  }
  out[threadIdx.x] = x;
}
