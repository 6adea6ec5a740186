// The fast-math probe for the H200 (scripts/device_fastmath.sh builds and runs it): every .approx
// form that maps 32 bits to 32 bits is evaluated on EVERY input (2^32), in 4096 chunks of 2^20
// consecutive inputs; each chunk is reduced on the GPU to one 64-bit hash, the sum over its
// inputs of mix64(input << 32 | output) (a sum, so the order the GPU adds in does not matter;
// isa/sfu/chunk_hash.h computes the same on the CPU). The two-operand div forms are hashed the
// same way over 2^32 pseudo-random pairs (pair k = the two halves of mix64(k)). Beside the
// hashes it writes dense raw outputs (whole binades, every input of the 16-bit forms) for
// fitting models.
//
// Output files (in the directory given as argv[1]):
//   hashes.bin      per form: 4096 little-endian u64 chunk hashes, forms in kForms order
//   forms.txt       the form names in order, one per line
//   dense/<name>.u32 or .u16  raw outputs of a dense input range (little-endian), and
//   dense/index.txt           one line per file: name form first_input count element_bytes
#include <cuda_fp16.h>
#include <cstdint>
#include <utility>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,              \
                   cudaGetErrorString(e_));                                          \
      std::exit(2);                                                                  \
    }                                                                                \
  } while (0)

__host__ __device__ inline uint64_t mix64(uint64_t z) {  // splitmix64's finalizer
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

enum Form {
  RCP, RCP_FTZ, RSQRT, RSQRT_FTZ, SQRT, SQRT_FTZ, EX2, EX2_FTZ, LG2, LG2_FTZ, SIN, SIN_FTZ,
  COS, COS_FTZ, TANH, EX2_F16X2, EX2_BF16X2, TANH_F16X2, TANH_BF16X2, RCP64H, RSQ64H,
  DIV_APPROX, DIV_APPROX_FTZ, DIV_FULL, DIV_FULL_FTZ, EX2_F16, EX2_BF16, TANH_F16, TANH_BF16,
  NUM_FORMS
};
const char* kNames[] = {
    "rcp.approx.f32", "rcp.approx.ftz.f32", "rsqrt.approx.f32", "rsqrt.approx.ftz.f32",
    "sqrt.approx.f32", "sqrt.approx.ftz.f32", "ex2.approx.f32", "ex2.approx.ftz.f32",
    "lg2.approx.f32", "lg2.approx.ftz.f32", "sin.approx.f32", "sin.approx.ftz.f32",
    "cos.approx.f32", "cos.approx.ftz.f32", "tanh.approx.f32", "ex2.approx.f16x2",
    "ex2.approx.ftz.bf16x2", "tanh.approx.f16x2", "tanh.approx.bf16x2",
    // The f64 forms read only the upper word: input = a[63:32] (low word 0), output = d[63:32].
    "rcp.approx.ftz.f64.hi", "rsqrt.approx.ftz.f64.hi",
    // Binary forms: input index k, (a, b) = (low, high) halves of mix64(k).
    "div.approx.f32", "div.approx.ftz.f32", "div.full.f32", "div.full.ftz.f32",
    // 16-bit scalar forms (dense only).
    "ex2.approx.f16", "ex2.approx.ftz.bf16", "tanh.approx.f16", "tanh.approx.bf16"};
constexpr int kHashedForms = DIV_FULL_FTZ + 1;

__device__ __forceinline__ float F(uint32_t u) { return __uint_as_float(u); }
__device__ __forceinline__ uint32_t U(float f) { return __float_as_uint(f); }

#define UN32(op)                                             \
  {                                                          \
    float y;                                                 \
    asm volatile(op " %0, %1;" : "=f"(y) : "f"(F(x)));       \
    return U(y);                                             \
  }
#define BIN32(op)                                                        \
  {                                                                      \
    float y;                                                             \
    asm volatile(op " %0, %1, %2;" : "=f"(y) : "f"(F(a)), "f"(F(b)));    \
    return U(y);                                                         \
  }
#define UNX2(op)                                      \
  {                                                   \
    uint32_t y;                                       \
    asm volatile(op " %0, %1;" : "=r"(y) : "r"(x));   \
    return y;                                         \
  }
#define UN16(op)                                                  \
  {                                                               \
    unsigned short y, h = (unsigned short)x;                      \
    asm volatile(op " %0, %1;" : "=h"(y) : "h"(h));               \
    return y;                                                     \
  }

template <int Fm>
__device__ __forceinline__ uint32_t apply(uint32_t x) {
  if constexpr (Fm == RCP) UN32("rcp.approx.f32")
  if constexpr (Fm == RCP_FTZ) UN32("rcp.approx.ftz.f32")
  if constexpr (Fm == RSQRT) UN32("rsqrt.approx.f32")
  if constexpr (Fm == RSQRT_FTZ) UN32("rsqrt.approx.ftz.f32")
  if constexpr (Fm == SQRT) UN32("sqrt.approx.f32")
  if constexpr (Fm == SQRT_FTZ) UN32("sqrt.approx.ftz.f32")
  if constexpr (Fm == EX2) UN32("ex2.approx.f32")
  if constexpr (Fm == EX2_FTZ) UN32("ex2.approx.ftz.f32")
  if constexpr (Fm == LG2) UN32("lg2.approx.f32")
  if constexpr (Fm == LG2_FTZ) UN32("lg2.approx.ftz.f32")
  if constexpr (Fm == SIN) UN32("sin.approx.f32")
  if constexpr (Fm == SIN_FTZ) UN32("sin.approx.ftz.f32")
  if constexpr (Fm == COS) UN32("cos.approx.f32")
  if constexpr (Fm == COS_FTZ) UN32("cos.approx.ftz.f32")
  if constexpr (Fm == TANH) UN32("tanh.approx.f32")
  if constexpr (Fm == EX2_F16X2) UNX2("ex2.approx.f16x2")
  if constexpr (Fm == EX2_BF16X2) UNX2("ex2.approx.ftz.bf16x2")
  if constexpr (Fm == TANH_F16X2) UNX2("tanh.approx.f16x2")
  if constexpr (Fm == TANH_BF16X2) UNX2("tanh.approx.bf16x2")
  if constexpr (Fm == RCP64H || Fm == RSQ64H) {
    double d = __longlong_as_double((long long)((uint64_t)x << 32)), y;
    if constexpr (Fm == RCP64H)
      asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(d));
    else
      asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(d));
    const uint64_t r = (uint64_t)__double_as_longlong(y);
    // The low word must be zero (PTX: d[31:0] = 0); fold a violation into the hash.
    return uint32_t(r >> 32) ^ uint32_t(r);
  }
  if constexpr (Fm >= DIV_APPROX && Fm <= DIV_FULL_FTZ) {
    const uint64_t k = mix64(x);
    const uint32_t a = uint32_t(k), b = uint32_t(k >> 32);
    if constexpr (Fm == DIV_APPROX) BIN32("div.approx.f32")
    if constexpr (Fm == DIV_APPROX_FTZ) BIN32("div.approx.ftz.f32")
    if constexpr (Fm == DIV_FULL) BIN32("div.full.f32")
    if constexpr (Fm == DIV_FULL_FTZ) BIN32("div.full.ftz.f32")
  }
  if constexpr (Fm == EX2_F16) UN16("ex2.approx.f16")
  if constexpr (Fm == EX2_BF16) UN16("ex2.approx.ftz.bf16")
  if constexpr (Fm == TANH_F16) UN16("tanh.approx.f16")
  if constexpr (Fm == TANH_BF16) UN16("tanh.approx.bf16")
  return 0;
}

// One block hashes 2^16 consecutive inputs; 16 blocks make a chunk of 2^20.
template <int Fm>
__global__ void hashAll(unsigned long long* chunks) {
  const uint32_t base = uint32_t(blockIdx.x) << 16;
  uint64_t sum = 0;
#pragma unroll 4
  for (uint32_t j = 0; j < 65536u; j += 256u) {
    const uint32_t in = base + j + threadIdx.x;
    const uint32_t out = apply<Fm>(in);
    sum += mix64((uint64_t(in) << 32) | out);
  }
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xFFFFFFFFu, sum, o);
  __shared__ uint64_t warpSums[8];
  if ((threadIdx.x & 31) == 0) warpSums[threadIdx.x >> 5] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    uint64_t s = 0;
    for (int w = 0; w < 8; ++w) s += warpSums[w];
    atomicAdd(&chunks[blockIdx.x >> 4], (unsigned long long)s);
  }
}

template <int Fm>
__global__ void dense(uint32_t first, uint32_t count, uint32_t* out) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    out[i] = apply<Fm>(first + i);
}

template <int Fm>
void runHash(unsigned long long* d, std::vector<uint64_t>& all) {
  CHECK(cudaMemset(d, 0, 4096 * 8));
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  CHECK(cudaEventRecord(t0));
  hashAll<Fm><<<65536, 256>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(t1));
  CHECK(cudaDeviceSynchronize());
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, t0, t1));
  std::vector<uint64_t> h(4096);
  CHECK(cudaMemcpy(h.data(), d, 4096 * 8, cudaMemcpyDeviceToHost));
  all.insert(all.end(), h.begin(), h.end());
  std::printf("hash %-24s %.1f ms  chunk0 %016llx\n", kNames[Fm], ms, (unsigned long long)h[0]);
  std::fflush(stdout);
}

template <int... Fs>
void runHashes(unsigned long long* d, std::vector<uint64_t>& all,
               std::integer_sequence<int, Fs...>) {
  (runHash<Fs>(d, all), ...);
}

struct DenseSet {
  const char* file;
  int form;
  uint32_t first, count, bytes;
};

template <int Fm>
void runDenseOne(const DenseSet& s, uint32_t* d, const std::string& dir, FILE* index) {
  dense<Fm><<<4096, 256>>>(s.first, s.count, d);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<uint32_t> h(s.count);
  CHECK(cudaMemcpy(h.data(), d, size_t(s.count) * 4, cudaMemcpyDeviceToHost));
  const std::string path = dir + "/dense/" + s.file + (s.bytes == 2 ? ".u16" : ".u32");
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) { std::perror(path.c_str()); std::exit(3); }
  if (s.bytes == 2) {
    std::vector<uint16_t> h16(h.begin(), h.end());
    if (std::fwrite(h16.data(), 2, h16.size(), f) != h16.size()) std::exit(3);
  } else if (std::fwrite(h.data(), 4, h.size(), f) != h.size()) {
    std::exit(3);
  }
  std::fclose(f);
  std::fprintf(index, "%s %s %08x %u %u\n", s.file, kNames[Fm], s.first, s.count, s.bytes);
  std::printf("dense %s done\n", s.file);
}

template <int... Fs>
void runDense(const DenseSet& s, uint32_t* d, const std::string& dir, FILE* index,
              std::integer_sequence<int, Fs...>) {
  ((s.form == Fs ? runDenseOne<Fs>(s, d, dir, index) : void()), ...);
}

int main(int argc, char** argv) {
  if (argc < 2) { std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]); return 1; }
  const std::string dir = argv[1];
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("device %s sm_%d%d\n", p.name, p.major, p.minor);
  unsigned long long* dHash;
  CHECK(cudaMalloc(&dHash, 4096 * 8));
  std::vector<uint64_t> all;
  runHashes(dHash, all, std::make_integer_sequence<int, kHashedForms>{});
  {
    FILE* f = std::fopen((dir + "/hashes.bin").c_str(), "wb");
    if (!f || std::fwrite(all.data(), 8, all.size(), f) != all.size()) return 3;
    std::fclose(f);
    FILE* n = std::fopen((dir + "/forms.txt").c_str(), "w");
    for (int i = 0; i < kHashedForms; ++i) std::fprintf(n, "%s\n", kNames[i]);
    std::fclose(n);
  }
  const DenseSet sets[] = {
      {"ex2_f16", EX2_F16, 0, 65536, 2},
      {"ex2_ftz_bf16", EX2_BF16, 0, 65536, 2},
      {"tanh_f16", TANH_F16, 0, 65536, 2},
      {"tanh_bf16", TANH_BF16, 0, 65536, 2},
      {"rcp_ftz_1_2", RCP_FTZ, 0x3F800000u, 1u << 23, 4},
      {"rsqrt_ftz_1_4", RSQRT_FTZ, 0x3F800000u, 1u << 24, 4},
      {"sqrt_ftz_1_4", SQRT_FTZ, 0x3F800000u, 1u << 24, 4},
      {"ex2_ftz_1_2", EX2_FTZ, 0x3F800000u, 1u << 23, 4},
      {"ex2_ftz_m2_m1", EX2_FTZ, 0xBF800000u, 1u << 23, 4},
      {"lg2_ftz_1_2", LG2_FTZ, 0x3F800000u, 1u << 23, 4},
      {"lg2_ftz_h_1", LG2_FTZ, 0x3F000000u, 1u << 23, 4},
      {"sin_ftz_1_2", SIN_FTZ, 0x3F800000u, 1u << 23, 4},
      {"cos_ftz_1_2", COS_FTZ, 0x3F800000u, 1u << 23, 4},
      {"tanh_h_1", TANH, 0x3F000000u, 1u << 23, 4},
      {"tanh_1_2", TANH, 0x3F800000u, 1u << 23, 4},
      // Added 2026-12-05: the rest of tanh's [2^-8, 8) (the binades MUFU.TANH's table must
      // cover), sin/cos either side of [1, 2) and lg2 [2, 4) for the SFU fits (fit_mufu.py).
      {"tanh_2_4", TANH, 0x40000000u, 1u << 23, 4},
      {"tanh_4_8", TANH, 0x40800000u, 1u << 23, 4},
      {"tanh_e8", TANH, 0x3B800000u, 1u << 23, 4},
      {"tanh_e7", TANH, 0x3C000000u, 1u << 23, 4},
      {"tanh_e6", TANH, 0x3C800000u, 1u << 23, 4},
      {"tanh_e5", TANH, 0x3D000000u, 1u << 23, 4},
      {"tanh_e4", TANH, 0x3D800000u, 1u << 23, 4},
      {"tanh_e3", TANH, 0x3E000000u, 1u << 23, 4},
      {"tanh_e2", TANH, 0x3E800000u, 1u << 23, 4},
      {"sin_ftz_h_1", SIN_FTZ, 0x3F000000u, 1u << 23, 4},
      {"cos_ftz_h_1", COS_FTZ, 0x3F000000u, 1u << 23, 4},
      {"sin_ftz_2_4", SIN_FTZ, 0x40000000u, 1u << 23, 4},
      {"cos_ftz_2_4", COS_FTZ, 0x40000000u, 1u << 23, 4},
      {"lg2_ftz_2_4", LG2_FTZ, 0x40000000u, 1u << 23, 4},
      {"rcp64h_1_2", RCP64H, 0x3FF00000u, 1u << 20, 4},
      {"rsq64h_1_4", RSQ64H, 0x3FF00000u, 1u << 21, 4},
      {"div_approx_k", DIV_APPROX, 0, 1u << 20, 4},
      {"div_full_k", DIV_FULL, 0, 1u << 20, 4},
  };
  uint32_t* dOut;
  CHECK(cudaMalloc(&dOut, size_t(1u << 24) * 4));
  FILE* index = std::fopen((dir + "/dense/index.txt").c_str(), "w");
  if (!index) { std::perror("index"); return 3; }
  for (const DenseSet& s : sets)
    runDense(s, dOut, dir, index, std::make_integer_sequence<int, NUM_FORMS>{});
  std::fclose(index);
  CHECK(cudaFree(dOut));
  CHECK(cudaFree(dHash));
  std::printf("ok\n");
  return 0;
}
