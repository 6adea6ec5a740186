// Tensor-core chains (TIMING.md section 6, #13): each warp runs `iters` rounds of 32 mma per
// chain, each reading the accumulator the chain's previous mma wrote; `_x1` kernels keep one
// chain per warp (the instruction's latency), `_x4` kernels four independent chains interleaved
// (by 1, 4 and 16 warps: the tensor pipe's throughput). Every A element is a = 1, 1/2, 1/4 or 1/8
// (the seed picks) and every B element 1/K (K: the shape's depth), so each mma adds exactly a to
// every element of D (32 for the integer kind: A and B are 1), whatever the chip's order of
// additions: the reference knows the result bit for bit. Each lane writes its D registers as
// 32-bit words.
#include <cstdint>

#define CHAIN32(op) \
  op op op op op op op op op op op op op op op op op op op op op op op op op op op op op op op op

namespace {

// m16n8k16, f16 inputs, f32 accumulator (hgemm_mma's mma): D 4 x f32, A 4 x f16x2, B 2 x f16x2.
struct F16F32 {
  static constexpr int kWords = 4;
  using Word = float;
  __device__ static void op(float (&d)[4], uint64_t a, uint64_t b) {
    const unsigned x = unsigned(a), y = unsigned(b);
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(x), "r"(x), "r"(x), "r"(x), "r"(y), "r"(y));
  }
};

// m16n8k16, f16 inputs and accumulator: D 2 x f16x2.
struct F16F16 {
  static constexpr int kWords = 2;
  using Word = unsigned;
  __device__ static void op(unsigned (&d)[2], uint64_t a, uint64_t b) {
    const unsigned x = unsigned(a), y = unsigned(b);
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, "
        "{%0, %1};"
        : "+r"(d[0]), "+r"(d[1])
        : "r"(x), "r"(x), "r"(x), "r"(x), "r"(y), "r"(y));
  }
};

// m16n8k16, bf16 inputs, f32 accumulator.
struct Bf16F32 {
  static constexpr int kWords = 4;
  using Word = float;
  __device__ static void op(float (&d)[4], uint64_t a, uint64_t b) {
    const unsigned x = unsigned(a), y = unsigned(b);
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(x), "r"(x), "r"(x), "r"(x), "r"(y), "r"(y));
  }
};

// m16n8k8, tf32 inputs (f32 bit patterns), f32 accumulator.
struct Tf32F32 {
  static constexpr int kWords = 4;
  using Word = float;
  __device__ static void op(float (&d)[4], uint64_t a, uint64_t b) {
    const unsigned x = unsigned(a), y = unsigned(b);
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(x), "r"(x), "r"(x), "r"(x), "r"(y), "r"(y));
  }
};

// m8n8k4, f64 (DMMA): D 2 x f64, A and B one f64 each.
struct F64 {
  static constexpr int kWords = 2;
  using Word = double;
  __device__ static void op(double (&d)[2], uint64_t a, uint64_t b) {
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+d"(d[0]), "+d"(d[1])
                 : "d"(__longlong_as_double(a)), "d"(__longlong_as_double(b)));
  }
};

// m16n8k32, s8 inputs, s32 accumulator (IMMA).
struct S8S32 {
  static constexpr int kWords = 4;
  using Word = unsigned;
  __device__ static void op(unsigned (&d)[4], uint64_t a, uint64_t b) {
    const unsigned x = unsigned(a), y = unsigned(b);
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(x), "r"(x), "r"(x), "r"(x), "r"(y), "r"(y));
  }
};

// wmma m16n16k16, f16 inputs, f32 accumulator (hgemm_wmma's): D 8 x f32, A and B 8 x f16x2.
struct WmmaF16F32 {
  static constexpr int kWords = 8;
  using Word = float;
  __device__ static void op(float (&d)[8], uint64_t a, uint64_t b) {
    const unsigned x = unsigned(a), y = unsigned(b);
    asm volatile(
        "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, "
        "{%8, %8, %8, %8, %8, %8, %8, %8}, {%9, %9, %9, %9, %9, %9, %9, %9}, "
        "{%0, %1, %2, %3, %4, %5, %6, %7};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7])
        : "r"(x), "r"(y));
  }
};

template <class Kind, int kChains>
__device__ void mmaChains(unsigned* out, uint64_t a, uint64_t b, unsigned iters) {
  typename Kind::Word d[kChains][Kind::kWords] = {};
  for (unsigned i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 32; ++k) {
#pragma unroll
      for (int c = 0; c < kChains; ++c) Kind::op(d[c], a, b);
    }
  }
  // The words as they are in the registers, lane-major.
  constexpr int kU32 = kChains * Kind::kWords * int(sizeof(typename Kind::Word) / 4);
  unsigned* o = out + (blockIdx.x * blockDim.x + threadIdx.x) * kU32;
#pragma unroll
  for (int c = 0; c < kChains; ++c)
#pragma unroll
    for (int w = 0; w < Kind::kWords; ++w) {
      const typename Kind::Word v = d[c][w];
      unsigned words[sizeof(v) / 4];
      memcpy(words, &v, sizeof(v));
#pragma unroll
      for (int k = 0; k < int(sizeof(v) / 4); ++k)
        o[(c * Kind::kWords + w) * int(sizeof(v) / 4) + k] = words[k];
    }
}

}  // namespace

#define MMA_CHAIN_KERNELS(name, Kind)                                                       \
  extern "C" __global__ void micro_mma_##name##_x1(unsigned* out, uint64_t a, uint64_t b, \
                                                   unsigned iters) {                       \
    mmaChains<Kind, 1>(out, a, b, iters);                                                  \
  }                                                                                        \
  extern "C" __global__ void micro_mma_##name##_x4(unsigned* out, uint64_t a, uint64_t b, \
                                                   unsigned iters) {                       \
    mmaChains<Kind, 4>(out, a, b, iters);                                                  \
  }

MMA_CHAIN_KERNELS(f16f32, F16F32)
MMA_CHAIN_KERNELS(f16f16, F16F16)
MMA_CHAIN_KERNELS(bf16f32, Bf16F32)
MMA_CHAIN_KERNELS(tf32f32, Tf32F32)
MMA_CHAIN_KERNELS(f64, F64)
MMA_CHAIN_KERNELS(s8s32, S8S32)
MMA_CHAIN_KERNELS(wmma_f16f32, WmmaF16F32)
