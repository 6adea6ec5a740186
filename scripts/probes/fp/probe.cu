// Differential probe: runs PTX floating-point instructions on the GPU over weighted random and
// special inputs and compares every result bit for bit with isa/fp.h. Scratch tool (build-fp).
#include <cuda_runtime.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <array>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "isa/fp.h"

using namespace warpsim::fp;
namespace W = warpsim::fp;

#define CK(x)                                                            \
  do {                                                                   \
    cudaError_t e = (x);                                                 \
    if (e != cudaSuccess) {                                              \
      printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

// ---- kernels: T1 in, T2 in, T3 in -> TD out ------------------------------------------------
#define K1(NAME, TA, CA, TD, CD, PTX)                                                    \
  __global__ void NAME(const TA* a, TD* d, int n) {                                     \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                      \
    if (i < n) {                                                                        \
      TD r;                                                                             \
      asm volatile(PTX " %0, %1;" : "=" CD(r) : CA(a[i]));                              \
      d[i] = r;                                                                         \
    }                                                                                   \
  }
#define K2(NAME, T, C, PTX)                                                              \
  __global__ void NAME(const T* a, const T* b, T* d, int n) {                           \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                      \
    if (i < n) {                                                                        \
      T r;                                                                              \
      asm volatile(PTX " %0, %1, %2;" : "=" C(r) : C(a[i]), C(b[i]));                   \
      d[i] = r;                                                                         \
    }                                                                                   \
  }
#define K3(NAME, T, C, PTX)                                                              \
  __global__ void NAME(const T* a, const T* b, const T* c, T* d, int n) {               \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                      \
    if (i < n) {                                                                        \
      T r;                                                                              \
      asm volatile(PTX " %0, %1, %2, %3;" : "=" C(r) : C(a[i]), C(b[i]), C(c[i]));      \
      d[i] = r;                                                                         \
    }                                                                                   \
  }

// f32 binary
#define F32B(op) \
  K2(k_##op##_rn, float, "f", #op ".rn.f32") K2(k_##op##_rz, float, "f", #op ".rz.f32") \
  K2(k_##op##_rm, float, "f", #op ".rm.f32") K2(k_##op##_rp, float, "f", #op ".rp.f32") \
  K2(k_##op##_rn_ftz, float, "f", #op ".rn.ftz.f32") K2(k_##op##_rz_ftz, float, "f", #op ".rz.ftz.f32") \
  K2(k_##op##_rm_ftz, float, "f", #op ".rm.ftz.f32") K2(k_##op##_rp_ftz, float, "f", #op ".rp.ftz.f32")
F32B(add) F32B(sub) F32B(mul) F32B(div)
K3(k_fma_rn, float, "f", "fma.rn.f32") K3(k_fma_rz, float, "f", "fma.rz.f32")
K3(k_fma_rm, float, "f", "fma.rm.f32") K3(k_fma_rp, float, "f", "fma.rp.f32")
K3(k_fma_rn_ftz, float, "f", "fma.rn.ftz.f32") K3(k_fma_rp_ftz, float, "f", "fma.rp.ftz.f32")
K1(k_sqrt_rn, float, "f", float, "f", "sqrt.rn.f32") K1(k_sqrt_rz, float, "f", float, "f", "sqrt.rz.f32")
K1(k_sqrt_rm, float, "f", float, "f", "sqrt.rm.f32") K1(k_sqrt_rp, float, "f", float, "f", "sqrt.rp.f32")
K1(k_sqrt_rn_ftz, float, "f", float, "f", "sqrt.rn.ftz.f32")
K1(k_rcp_rn, float, "f", float, "f", "rcp.rn.f32") K1(k_rcp_rz, float, "f", float, "f", "rcp.rz.f32")
K1(k_rcp_rm, float, "f", float, "f", "rcp.rm.f32") K1(k_rcp_rp, float, "f", float, "f", "rcp.rp.f32")
K1(k_rcp_rn_ftz, float, "f", float, "f", "rcp.rn.ftz.f32")
K2(k_add_rn_sat, float, "f", "add.rn.sat.f32") K2(k_mul_rn_sat, float, "f", "mul.rn.sat.f32")
K2(k_min, float, "f", "min.f32") K2(k_max, float, "f", "max.f32")
K2(k_min_nan, float, "f", "min.NaN.f32") K2(k_max_nan, float, "f", "max.NaN.f32")
K2(k_min_ftz, float, "f", "min.ftz.f32") K2(k_max_ftz, float, "f", "max.ftz.f32")
// f64
#define F64B(op) \
  K2(k_##op##_rn_d, double, "d", #op ".rn.f64") K2(k_##op##_rz_d, double, "d", #op ".rz.f64") \
  K2(k_##op##_rm_d, double, "d", #op ".rm.f64") K2(k_##op##_rp_d, double, "d", #op ".rp.f64")
F64B(add) F64B(sub) F64B(mul) F64B(div)
K3(k_fma_rn_d, double, "d", "fma.rn.f64") K3(k_fma_rz_d, double, "d", "fma.rz.f64")
K3(k_fma_rm_d, double, "d", "fma.rm.f64") K3(k_fma_rp_d, double, "d", "fma.rp.f64")
K1(k_sqrt_rn_d, double, "d", double, "d", "sqrt.rn.f64") K1(k_sqrt_rz_d, double, "d", double, "d", "sqrt.rz.f64")
K1(k_sqrt_rm_d, double, "d", double, "d", "sqrt.rm.f64") K1(k_sqrt_rp_d, double, "d", double, "d", "sqrt.rp.f64")
K1(k_rcp_rn_d, double, "d", double, "d", "rcp.rn.f64") K1(k_rcp_rz_d, double, "d", double, "d", "rcp.rz.f64")
K2(k_min_d, double, "d", "min.f64") K2(k_max_d, double, "d", "max.f64")
// f16 / bf16
K2(k_add_h, unsigned short, "h", "add.rn.f16") K2(k_sub_h, unsigned short, "h", "sub.rn.f16")
K2(k_mul_h, unsigned short, "h", "mul.rn.f16") K3(k_fma_h, unsigned short, "h", "fma.rn.f16")
K2(k_add_h_ftz, unsigned short, "h", "add.rn.ftz.f16") K2(k_mul_h_ftz, unsigned short, "h", "mul.rn.ftz.f16")
K3(k_fma_h_ftz, unsigned short, "h", "fma.rn.ftz.f16") K2(k_add_h_sat, unsigned short, "h", "add.rn.sat.f16")
K2(k_min_h, unsigned short, "h", "min.f16") K2(k_max_h, unsigned short, "h", "max.f16")
K2(k_min_h_nan, unsigned short, "h", "min.NaN.f16") K2(k_min_h_ftz, unsigned short, "h", "min.ftz.f16")
K2(k_add_b, unsigned short, "h", "add.rn.bf16") K2(k_sub_b, unsigned short, "h", "sub.rn.bf16")
K2(k_mul_b, unsigned short, "h", "mul.rn.bf16") K3(k_fma_b, unsigned short, "h", "fma.rn.bf16")
K2(k_min_b, unsigned short, "h", "min.bf16") K2(k_max_b_nan, unsigned short, "h", "max.NaN.bf16")
// conversions
K1(k_cvt_h_f_rn, float, "f", unsigned short, "h", "cvt.rn.f16.f32")
K1(k_cvt_h_f_rz, float, "f", unsigned short, "h", "cvt.rz.f16.f32")
K1(k_cvt_h_f_rm, float, "f", unsigned short, "h", "cvt.rm.f16.f32")
K1(k_cvt_h_f_rp, float, "f", unsigned short, "h", "cvt.rp.f16.f32")
K1(k_cvt_h_d_rn, double, "d", unsigned short, "h", "cvt.rn.f16.f64")
K1(k_cvt_h_d_rz, double, "d", unsigned short, "h", "cvt.rz.f16.f64")
K1(k_cvt_h_d_rm, double, "d", unsigned short, "h", "cvt.rm.f16.f64")
K1(k_cvt_h_d_rp, double, "d", unsigned short, "h", "cvt.rp.f16.f64")
K1(k_cvt_b_f_rn, float, "f", unsigned short, "h", "cvt.rn.bf16.f32")
K1(k_cvt_b_f_rz, float, "f", unsigned short, "h", "cvt.rz.bf16.f32")
K1(k_cvt_b_f_rm, float, "f", unsigned short, "h", "cvt.rm.bf16.f32")
K1(k_cvt_b_f_rp, float, "f", unsigned short, "h", "cvt.rp.bf16.f32")
K1(k_cvt_b_d_rn, double, "d", unsigned short, "h", "cvt.rn.bf16.f64")
K1(k_cvt_b_d_rz, double, "d", unsigned short, "h", "cvt.rz.bf16.f64")
K1(k_cvt_f_h, unsigned short, "h", float, "f", "cvt.f32.f16")
K1(k_cvt_d_h, unsigned short, "h", double, "d", "cvt.f64.f16")
K1(k_cvt_f_b, unsigned short, "h", float, "f", "cvt.f32.bf16")
K1(k_cvt_d_b, unsigned short, "h", double, "d", "cvt.f64.bf16")
K2(k_sub_h_ftz, unsigned short, "h", "sub.rn.ftz.f16")
K1(k_cvt_f_d_rn, double, "d", float, "f", "cvt.rn.f32.f64")
K1(k_cvt_f_d_rz, double, "d", float, "f", "cvt.rz.f32.f64")
K1(k_cvt_f_d_rm, double, "d", float, "f", "cvt.rm.f32.f64")
K1(k_cvt_f_d_rp, double, "d", float, "f", "cvt.rp.f32.f64")
K1(k_cvt_f_d_rn_ftz, double, "d", float, "f", "cvt.rn.ftz.f32.f64")
K1(k_cvt_d_f, float, "f", double, "d", "cvt.f64.f32")
K1(k_cvt_t_rna, float, "f", unsigned, "r", "cvt.rna.tf32.f32")
K1(k_cvt_t_rn, float, "f", unsigned, "r", "cvt.rn.tf32.f32")
K1(k_cvt_t_rz, float, "f", unsigned, "r", "cvt.rz.tf32.f32")
K1(k_rni_f, float, "f", float, "f", "cvt.rni.f32.f32") K1(k_rzi_f, float, "f", float, "f", "cvt.rzi.f32.f32")
K1(k_rmi_f, float, "f", float, "f", "cvt.rmi.f32.f32") K1(k_rpi_f, float, "f", float, "f", "cvt.rpi.f32.f32")
K1(k_rpi_f_ftz, float, "f", float, "f", "cvt.rpi.ftz.f32.f32")
K1(k_rni_d, double, "d", double, "d", "cvt.rni.f64.f64") K1(k_rmi_d, double, "d", double, "d", "cvt.rmi.f64.f64")
// float -> int
#define F2I(SRC, TS, CS, DST, TD, CD) \
  K1(k_##DST##_##SRC##_rni, TS, CS, TD, CD, "cvt.rni." #DST "." #SRC) \
  K1(k_##DST##_##SRC##_rzi, TS, CS, TD, CD, "cvt.rzi." #DST "." #SRC) \
  K1(k_##DST##_##SRC##_rmi, TS, CS, TD, CD, "cvt.rmi." #DST "." #SRC) \
  K1(k_##DST##_##SRC##_rpi, TS, CS, TD, CD, "cvt.rpi." #DST "." #SRC)
F2I(f32, float, "f", s32, unsigned, "r") F2I(f32, float, "f", u32, unsigned, "r")
F2I(f32, float, "f", s64, unsigned long long, "l") F2I(f32, float, "f", u64, unsigned long long, "l")
F2I(f64, double, "d", s32, unsigned, "r") F2I(f64, double, "d", u32, unsigned, "r")
F2I(f64, double, "d", s64, unsigned long long, "l") F2I(f64, double, "d", u64, unsigned long long, "l")
F2I(f32, float, "f", s8, unsigned, "r") F2I(f32, float, "f", u8, unsigned, "r")
F2I(f32, float, "f", s16, unsigned, "r") F2I(f32, float, "f", u16, unsigned, "r")
F2I(f64, double, "d", s16, unsigned, "r") F2I(f64, double, "d", u8, unsigned, "r")
F2I(f16, unsigned short, "h", s32, unsigned, "r") F2I(f16, unsigned short, "h", u64, unsigned long long, "l")
F2I(f16, unsigned short, "h", s8, unsigned, "r")
K1(k_s32_f32_rpi_ftz, float, "f", unsigned, "r", "cvt.rpi.ftz.s32.f32")
// int -> float
#define I2F(DST, TD, CD, SRC, TS, CS) \
  K1(k_##DST##_##SRC##_rn, TS, CS, TD, CD, "cvt.rn." #DST "." #SRC) \
  K1(k_##DST##_##SRC##_rz, TS, CS, TD, CD, "cvt.rz." #DST "." #SRC) \
  K1(k_##DST##_##SRC##_rm, TS, CS, TD, CD, "cvt.rm." #DST "." #SRC) \
  K1(k_##DST##_##SRC##_rp, TS, CS, TD, CD, "cvt.rp." #DST "." #SRC)
I2F(f32, float, "f", s32, unsigned, "r") I2F(f32, float, "f", u32, unsigned, "r")
I2F(f32, float, "f", s64, unsigned long long, "l") I2F(f32, float, "f", u64, unsigned long long, "l")
I2F(f64, double, "d", s64, unsigned long long, "l") I2F(f64, double, "d", u64, unsigned long long, "l")
I2F(f16, unsigned short, "h", s32, unsigned, "r") I2F(f16, unsigned short, "h", u32, unsigned, "r")
I2F(f16, unsigned short, "h", s64, unsigned long long, "l") I2F(f16, unsigned short, "h", u64, unsigned long long, "l")
I2F(bf16, unsigned short, "h", s32, unsigned, "r") I2F(bf16, unsigned short, "h", u64, unsigned long long, "l")

// ---- host side ----------------------------------------------------------------------------
static std::mt19937_64 rng(12345);

static uint32_t gen32() {
  static const uint32_t sp[] = {0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FFFFFFF, 0x7FC00000,
                                0xFFC00000, 0x7FC00123, 0xFFD00001, 0x7F800001, 0xFFA00055,
                                0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000,
                                0xBF800000, 0x3F000000, 0x40000000, 0x00000001, 0x80000001,
                                0x007FFFFF, 0x807FFFFF, 0x477FE000, 0x477FF000, 0x4B800000,
                                0x4B800001, 0x3F7FFFFF, 0x3FC00000, 0xBFC00000, 0x3F200000,
                                0xBF200000, 0x4F000000, 0xCF000000, 0x5F800000, 0xDF000000,
                                0x4F800000, 0x3E800000, 0x00400000, 0x3F400000};
  uint64_t r = rng();
  uint32_t x = uint32_t(r >> 32);
  switch (r % 16) {
    case 0:
    case 1:
      return sp[x % (sizeof sp / sizeof sp[0])];
    case 2:
      return (x & 0x807FFFFF);  // subnormal
    case 3:
      return (x & 0x81FFFFFF);  // near the bottom of the range
    case 4:
      return (x & 0x80FFFFFF) | 0x7E000000;  // near the top
    case 5: {                                // small integers and halves
      int v = int(x % 4001) - 2000;
      return bits(float(v) / float(1 << (x >> 28)));
    }
    case 6:
      return (x & 0x807FFFFF) | 0x3F000000;  // [0.5, 1)
    default:
      return x;
  }
}
static uint64_t gen64() {
  static const uint64_t sp[] = {0, 0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000,
                                0x7FFFFFFFFFFFFFFF, 0x7FF8000000000000, 0xFFF8000000000000,
                                0x7FF8000000000123, 0xFFF4000000000001, 0x7FF0000000000001,
                                0x0010000000000000, 0x7FEFFFFFFFFFFFFF, 0x3FF0000000000000,
                                0xBFF0000000000000, 0x0000000000000001, 0x000FFFFFFFFFFFFF,
                                0x3FE0000000000000, 0x4000000000000000, 0x43E0000000000000,
                                0xC3E0000000000000, 0x41E0000000000000, 0xC1E0000000000000,
                                0x43F0000000000000, 0x3810000000000000, 0x380FFFFFE0000000,
                                0x47EFFFFFE0000000, 0x47EFFFFFF0000000, 0x40EFFC0000000000,
                                0x40EFFE0000000000, 0x3FF8000000000000, 0xBFF8000000000000,
                                0x3FE8000000000000, 0x41F0000000000000, 0x4330000000000001};
  uint64_t r = rng();
  uint64_t x = rng();
  switch (r % 16) {
    case 0:
    case 1:
      return sp[x % (sizeof sp / sizeof sp[0])];
    case 2:
      return x & 0x800FFFFFFFFFFFFF;
    case 3:
      return x & 0x803FFFFFFFFFFFFF;
    case 4:
      return (x & 0x801FFFFFFFFFFFFF) | 0x7FC0000000000000;
    case 5: {
      int v = int(x % 4001) - 2000;
      return bits(double(v) / double(1 << ((x >> 40) % 16)));
    }
    case 6:  // f32-range values, where f64 -> f32/f16/bf16 are interesting
      return (x & 0x80FFFFFFFFFFFFFF) | (uint64_t(0x368 + (r >> 40) % 0x130) << 52);
    case 7:  // values close to an f32 (midpoints and near-misses)
      return bits(double(f32(uint32_t(x)))) + ((r >> 8) % 3 == 0 ? (uint64_t(1) << 28) : (r >> 20) % 5) - 2;
    default:
      return x;
  }
}
static uint16_t gen16() {
  uint64_t r = rng();
  static const uint16_t sp[] = {0, 0x8000, 0x7C00, 0xFC00, 0x7FFF, 0x7E00, 0xFE00, 0x7D01,
                                0x0001, 0x8001, 0x03FF, 0x0400, 0x7BFF, 0x3C00, 0xBC00, 0x3800,
                                0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0x0080, 0x007F, 0x3F80};
  if (r % 8 == 0) return sp[(r >> 8) % (sizeof sp / sizeof sp[0])];
  return uint16_t(r >> 16);
}

template <class T>
struct Dev {
  T* p = nullptr;
  size_t n;
  explicit Dev(const std::vector<T>& v) : n(v.size()) {
    CK(cudaMalloc(&p, n * sizeof(T)));
    CK(cudaMemcpy(p, v.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  explicit Dev(size_t n_) : n(n_) { CK(cudaMalloc(&p, n * sizeof(T))); }
  ~Dev() { cudaFree(p); }
  std::vector<T> get() {
    std::vector<T> v(n);
    CK(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }
};

static uint64_t asBits(float x) { return bits(x); }
static uint64_t asBits(double x) { return bits(x); }
static uint64_t asBits(uint16_t x) { return x; }
static uint64_t asBits(unsigned x) { return x; }
static uint64_t asBits(unsigned long long x) { return x; }

static int totalBad = 0;
template <class TA, class TD>
void report(const char* name, const std::vector<TA>& a, const std::vector<TA>* b,
            const std::vector<TA>* c, const std::vector<TD>& gpu, const std::vector<TD>& cpu) {
  int bad = 0;
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (asBits(gpu[i]) != asBits(cpu[i])) {
      if (bad < 12) {
        printf("  %-22s a=%016" PRIx64, name, asBits(a[i]));
        if (b) printf(" b=%016" PRIx64, asBits((*b)[i]));
        if (c) printf(" c=%016" PRIx64, asBits((*c)[i]));
        printf("  gpu=%016" PRIx64 " cpu=%016" PRIx64 "\n", asBits(gpu[i]), asBits(cpu[i]));
      }
      ++bad;
    }
  }
  printf("%-24s %8zu cases %8d mismatches\n", name, gpu.size(), bad);
  totalBad += bad;
}

template <class TA, class TD>
void run1(const char* name, void (*k)(const TA*, TD*, int), const std::vector<TA>& a,
          std::function<TD(TA)> f) {
  int n = int(a.size());
  Dev<TA> da(a);
  Dev<TD> dd(a.size());
  k<<<(n + 255) / 256, 256>>>(da.p, dd.p, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  auto g = dd.get();
  std::vector<TD> cpu(n);
  for (int i = 0; i < n; ++i) cpu[i] = f(a[i]);
  report<TA, TD>(name, a, nullptr, nullptr, g, cpu);
}
template <class T>
void run2(const char* name, void (*k)(const T*, const T*, T*, int), const std::vector<T>& a,
          const std::vector<T>& b, std::function<T(T, T)> f) {
  int n = int(a.size());
  Dev<T> da(a), db(b);
  Dev<T> dd(a.size());
  k<<<(n + 255) / 256, 256>>>(da.p, db.p, dd.p, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  auto g = dd.get();
  std::vector<T> cpu(n);
  for (int i = 0; i < n; ++i) cpu[i] = f(a[i], b[i]);
  report<T, T>(name, a, &b, nullptr, g, cpu);
}
template <class T>
void run3(const char* name, void (*k)(const T*, const T*, const T*, T*, int),
          const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& c,
          std::function<T(T, T, T)> f) {
  int n = int(a.size());
  Dev<T> da(a), db(b), dc(c);
  Dev<T> dd(a.size());
  k<<<(n + 255) / 256, 256>>>(da.p, db.p, dc.p, dd.p, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  auto g = dd.get();
  std::vector<T> cpu(n);
  for (int i = 0; i < n; ++i) cpu[i] = f(a[i], b[i], c[i]);
  report<T, T>(name, a, &b, &c, g, cpu);
}


template <class TA, class TD>
void show1(const char* name, void (*k)(const TA*, TD*, int), std::vector<TA> a, std::function<TD(TA)> f) {
  Dev<TA> da(a);
  Dev<TD> dd(a.size());
  k<<<1, 256>>>(da.p, dd.p, int(a.size()));
  CK(cudaDeviceSynchronize());
  auto g = dd.get();
  for (size_t i = 0; i < a.size(); ++i)
    printf("T %-22s a=%016" PRIx64 "  gpu=%016" PRIx64 " cpu=%016" PRIx64 "%s\n", name, asBits(a[i]),
           asBits(g[i]), asBits(f(a[i])), asBits(g[i]) == asBits(f(a[i])) ? "" : "   <<<<");
}
template <class T>
void show2(const char* name, void (*k)(const T*, const T*, T*, int), std::vector<std::pair<T, T>> v, std::function<T(T, T)> f) {
  std::vector<T> a, b;
  for (auto& p : v) a.push_back(p.first), b.push_back(p.second);
  Dev<T> da(a), db(b);
  Dev<T> dd(a.size());
  k<<<1, 256>>>(da.p, db.p, dd.p, int(a.size()));
  CK(cudaDeviceSynchronize());
  auto g = dd.get();
  for (size_t i = 0; i < a.size(); ++i)
    printf("T %-22s a=%016" PRIx64 " b=%016" PRIx64 "  gpu=%016" PRIx64 " cpu=%016" PRIx64 "%s\n", name,
           asBits(a[i]), asBits(b[i]), asBits(g[i]), asBits(f(a[i], b[i])), asBits(g[i]) == asBits(f(a[i], b[i])) ? "" : "   <<<<");
}
template <class T>
void show3(const char* name, void (*k)(const T*, const T*, const T*, T*, int), std::vector<std::array<T, 3>> v, std::function<T(T, T, T)> f) {
  std::vector<T> a, b, c;
  for (auto& p : v) a.push_back(p[0]), b.push_back(p[1]), c.push_back(p[2]);
  Dev<T> da(a), db(b), dc(c);
  Dev<T> dd(a.size());
  k<<<1, 256>>>(da.p, db.p, dc.p, dd.p, int(a.size()));
  CK(cudaDeviceSynchronize());
  auto g = dd.get();
  for (size_t i = 0; i < a.size(); ++i) {
    T cpu = f(a[i], b[i], c[i]);
    printf("T %-22s a=%016" PRIx64 " b=%016" PRIx64 " c=%016" PRIx64 "  gpu=%016" PRIx64 " cpu=%016" PRIx64 "%s\n", name,
           asBits(a[i]), asBits(b[i]), asBits(c[i]), asBits(g[i]), asBits(cpu), asBits(g[i]) == asBits(cpu) ? "" : "   <<<<");
  }
}
static float FF(uint32_t b) { return f32(b); }
static double DD(uint64_t b) { return f64(b); }

void targeted() {
  using F = float;
  using D = double;
  using H = unsigned short;
  show3<F>("fma.rn.ftz", k_fma_rn_ftz, {{FF(0x3F800001), FF(0x00FFFFFE), FF(0x80800000)}, {FF(0xBF800001), FF(0x00FFFFFE), FF(0x00800000)}}, [](F a, F b, F c) { return W::fma(a, b, c, Round::RN, true); });
  show3<F>("fma.rn", k_fma_rn, {{FF(0x3F800001), FF(0x00FFFFFE), FF(0x80800000)}}, [](F a, F b, F c) { return W::fma(a, b, c, Round::RN); });
  show3<F>("fma.rp.ftz", k_fma_rp_ftz, {{FF(0x3F800001), FF(0x00FFFFFE), FF(0x80800000)}, {FF(0x3F7FFFFF), FF(0x00800000), FF(0)}}, [](F a, F b, F c) { return W::fma(a, b, c, Round::RP, true); });
  show2<F>("mul.rn.ftz", k_mul_rn_ftz, {{FF(0x00800000), FF(0x3F7FFFFF)}, {FF(0x00800000), FF(0x3F800000)}}, [](F a, F b) { return W::mul(a, b, Round::RN, true); });
  show2<F>("mul.rp.ftz", k_mul_rp_ftz, {{FF(0x00800000), FF(0x3F7FFFFF)}, {FF(0x00800001), FF(0x3F7FFFFF)}}, [](F a, F b) { return W::mul(a, b, Round::RP, true); });
  show2<F>("mul.rz.ftz", k_mul_rz_ftz, {{FF(0x80800000), FF(0x3F7FFFFF)}}, [](F a, F b) { return W::mul(a, b, Round::RZ, true); });
  show2<F>("div.rp.ftz", k_div_rp_ftz, {{FF(0x00800000), FF(0x3F800001)}}, [](F a, F b) { return W::div(a, b, Round::RP, true); });
  show2<F>("add.rn.sat", k_add_rn_sat, {{FF(0x80000000), FF(0x80000000)}, {FF(0xBF800000), FF(0x3F000000)}, {FF(0x80000001), FF(0)}, {FF(0x7FC00000), FF(0)}}, [](F a, F b) { return W::saturate(W::add(a, b, Round::RN)); });
  show2<F>("mul.rn.sat", k_mul_rn_sat, {{FF(0xBF800000), FF(0)}, {FF(0x40000000), FF(0x3F000001)}}, [](F a, F b) { return W::saturate(W::mul(a, b, Round::RN)); });
  show2<F>("min.f32", k_min, {{FF(0), FF(0x80000000)}, {FF(0x80000000), FF(0)}, {FF(0x7FC00001), FF(0xFFC00002)}}, [](F a, F b) { return W::fmin(a, b); });
  show2<F>("max.f32", k_max, {{FF(0), FF(0x80000000)}, {FF(0x80000000), FF(0)}}, [](F a, F b) { return W::fmax(a, b); });
  show2<H>("mul.rn.ftz.f16", k_mul_h_ftz, {{0x3BFF, 0x0400}, {0xBBFF, 0x0400}}, [](H a, H b) -> H { return mulF16(a, b, Round::RN, true); });
  show2<H>("mul.rn.f16", k_mul_h, {{0x3BFF, 0x0400}}, [](H a, H b) -> H { return mulF16(a, b, Round::RN); });
  show3<H>("fma.rn.ftz.f16", k_fma_h_ftz, {{0x3C01, 0x07FE, 0x8400}}, [](H a, H b, H c) -> H { return fmaF16(a, b, c, Round::RN, true); });
  show3<H>("fma.rn.f16", k_fma_h, {{0x3C01, 0x07FE, 0x8400}}, [](H a, H b, H c) -> H { return fmaF16(a, b, c, Round::RN); });
  show2<H>("sub.rn.ftz.f16", k_sub_h_ftz, {{0x0401, 0x0002}, {0x0800, 0x0401}}, [](H a, H b) -> H { return subF16(a, b, Round::RN, true); });
  show2<H>("add.rn.sat.f16", k_add_h_sat, {{0x8000, 0x8000}, {0xBC00, 0x3800}}, [](H a, H b) -> H { return saturateF16(addF16(a, b, Round::RN)); });
  const D qn = DD(0x7FF8000000000123), qn2 = DD(0xFFF8000000000456), sn = DD(0x7FF0000000000789), sn2 = DD(0xFFF4000000000abc);
  const D inf = DD(0x7FF0000000000000);
  show2<D>("add.rn.f64", k_add_rn_d, {{1.0, qn}, {qn, 1.0}, {inf, -inf}, {sn, qn}, {qn, sn}, {qn2, qn}, {sn2, 1.0}, {1.0, sn2}}, [](D a, D b) { return W::add(a, b, Round::RN); });
  show2<D>("add.rz.f64", k_add_rz_d, {{sn, qn}, {qn, sn}, {inf, -inf}}, [](D a, D b) { return W::add(a, b, Round::RZ); });
  show2<D>("sub.rn.f64", k_sub_rn_d, {{1.0, qn}, {1.0, qn2}, {qn2, 1.0}, {inf, inf}, {qn, qn2}}, [](D a, D b) { return W::sub(a, b, Round::RN); });
  show2<D>("mul.rn.f64", k_mul_rn_d, {{0.0, inf}, {qn, qn2}, {qn2, qn}, {sn, 0.0}}, [](D a, D b) { return W::mul(a, b, Round::RN); });
  show2<D>("div.rn.f64", k_div_rn_d, {{qn, qn2}, {qn2, sn}, {1.0, 0.0}, {qn, 0.0}, {0.0, qn}}, [](D a, D b) { return W::div(a, b, Round::RN); });
  show3<D>("fma.rn.f64", k_fma_rn_d, {{1.0, qn, qn2}, {qn, 1.0, qn2}, {qn, 1.0, 1.0}, {1.0, 1.0, qn}, {inf, 0.0, qn}, {inf, 0.0, 1.0}, {sn, qn, qn2}, {qn, qn2, sn}, {qn2, sn, qn}, {inf, 1.0, -inf}}, [](D a, D b, D c) { return W::fma(a, b, c, Round::RN); });
  show1<D, D>("sqrt.rn.f64", k_sqrt_rn_d, {sn, qn2, -inf, DD(0x8000000000000000), -1.0}, [](D a) { return W::sqrt(a, Round::RN); });
  show1<D, D>("rcp.rn.f64", k_rcp_rn_d, {sn, qn2}, [](D a) { return W::rcp(a, Round::RN); });
  show2<D>("min.f64", k_min_d, {{sn, qn}, {qn, sn}, {qn, qn2}, {qn2, qn}, {1.0, sn}}, [](D a, D b) { return W::fmin(a, b); });
  show2<D>("max.f64", k_max_d, {{sn, qn}, {qn, sn}, {qn, qn2}}, [](D a, D b) { return W::fmax(a, b); });
  show1<D, D>("cvt.rni.f64.f64", k_rni_d, {sn, qn2}, [](D a) { return roundIntegral(a, Round::RN); });
  show1<F, unsigned>("cvt.rna.tf32.f32", k_cvt_t_rna, {FF(0x7F800001), FF(0xFFC00123), FF(0xFF800001), FF(0x7FBFE000), FF(0x7F802000), FF(0x7F801FFF)}, [](F a) -> unsigned { return bits(f32ToTF32(a, Round::RNA)); });
  show1<F, unsigned>("cvt.rn.tf32.f32", k_cvt_t_rn, {FF(0x7F800001), FF(0xFFC00123)}, [](F a) -> unsigned { return bits(f32ToTF32(a, Round::RN)); });
  show1<F, unsigned>("cvt.rz.tf32.f32", k_cvt_t_rz, {FF(0x7F800001), FF(0xFFC00123)}, [](F a) -> unsigned { return bits(f32ToTF32(a, Round::RZ)); });
  show1<H, F>("cvt.f32.bf16", k_cvt_f_b, {0xFF81, 0xFFC0, 0x7F80}, [](H a) { return bf16ToF32(a); });
  show1<H, D>("cvt.f64.f16", k_cvt_d_h, {0xFC01, 0xFE00, 0x7C01}, [](H a) { return f16ToF64(a); });
  show1<H, D>("cvt.f64.bf16", k_cvt_d_b, {0x7F81, 0xFFC1, 0x3F80, 0x0001}, [](H a) { return bf16ToF64(a); });
  show1<F, D>("cvt.f64.f32", k_cvt_d_f, {FF(0xFF800001), FF(0x7F800001)}, [](F a) { return f32ToF64(a); });
  show1<D, F>("cvt.rn.f32.f64", k_cvt_f_d_rn, {DD(0xFFF0000000000001), DD(0x7FF0000000000001)}, [](D a) { return f64ToF32(a, Round::RN); });
  show1<D, F>("cvt.rn.ftz.f32.f64", k_cvt_f_d_rn_ftz, {DD(0x380FFFFFF0000000), DD(0x380FFFFFF8000000), DD(0x3810000000000000), DD(0x380FFFFFE0000000)}, [](D a) { return f64ToF32(a, Round::RN, true); });
  show1<D, H>("cvt.rn.f16.f64", k_cvt_h_d_rn, {DD(0x7FF0000000000001), DD(0xFFF0000000000001)}, [](D a) -> H { return f64ToF16(a, Round::RN); });
}

int main(int argc, char** argv) {
  targeted();
  const int N = argc > 1 ? atoi(argv[1]) : (1 << 18);
  // inputs
  std::vector<float> fa(N), fb(N), fc(N);
  for (int i = 0; i < N; ++i) {
    fa[i] = f32(gen32());
    uint64_t r = rng();
    if (r % 4 == 0) {  // cancellation / nearby operands
      fb[i] = f32((bits(fa[i]) ^ ((r >> 8) & 1 ? 0x80000000u : 0)) + uint32_t((r >> 16) % 7) - 3);
    } else if (r % 4 == 1) {
      fb[i] = f32((bits(fa[i]) & 0x807FFFFF) | (gen32() & 0x7F800000));
    } else {
      fb[i] = f32(gen32());
    }
    r = rng();
    if (r % 3 == 0) {
      float p = fa[i] * fb[i];
      fc[i] = f32((bits(p) ^ 0x80000000u) + uint32_t((r >> 16) % 5) - 2);
    } else {
      fc[i] = f32(gen32());
    }
  }
  std::vector<double> da(N), db(N), dc(N);
  for (int i = 0; i < N; ++i) {
    da[i] = f64(gen64());
    uint64_t r = rng();
    if (r % 4 == 0) {
      db[i] = f64((bits(da[i]) ^ ((r >> 8) & 1 ? (uint64_t(1) << 63) : 0)) + (r >> 16) % 7 - 3);
    } else {
      db[i] = f64(gen64());
    }
    r = rng();
    if (r % 3 == 0) {
      double p = da[i] * db[i];
      dc[i] = f64((bits(p) ^ (uint64_t(1) << 63)) + (r >> 16) % 5 - 2);
    } else {
      dc[i] = f64(gen64());
    }
  }
  std::vector<unsigned short> ha(N), hb(N), hc(N);
  for (int i = 0; i < N; ++i) ha[i] = gen16(), hb[i] = gen16(), hc[i] = gen16();
  std::vector<unsigned short> hall(65536);
  for (int i = 0; i < 65536; ++i) hall[i] = uint16_t(i);
  std::vector<unsigned> ia(N);
  std::vector<unsigned long long> la(N);
  for (int i = 0; i < N; ++i) {
    uint64_t r = rng();
    int sh = int(rng() % 64);
    la[i] = (r % 4 == 0) ? (r >> sh) : (r % 4 == 1) ? uint64_t(-int64_t(r >> sh)) : r;
    ia[i] = uint32_t(la[i] >> ((r >> 3) % 2 ? 0 : 32));
  }

  using F = float;
  using D = double;
  using H = unsigned short;
#define R4(op, kbase, fn)                                                                    \
  run2<F>(#op ".rn", k_##kbase##_rn, fa, fb, [](F a, F b) { return fn(a, b, Round::RN); }); \
  run2<F>(#op ".rz", k_##kbase##_rz, fa, fb, [](F a, F b) { return fn(a, b, Round::RZ); }); \
  run2<F>(#op ".rm", k_##kbase##_rm, fa, fb, [](F a, F b) { return fn(a, b, Round::RM); }); \
  run2<F>(#op ".rp", k_##kbase##_rp, fa, fb, [](F a, F b) { return fn(a, b, Round::RP); }); \
  run2<F>(#op ".rn.ftz", k_##kbase##_rn_ftz, fa, fb, [](F a, F b) { return fn(a, b, Round::RN, true); }); \
  run2<F>(#op ".rz.ftz", k_##kbase##_rz_ftz, fa, fb, [](F a, F b) { return fn(a, b, Round::RZ, true); }); \
  run2<F>(#op ".rm.ftz", k_##kbase##_rm_ftz, fa, fb, [](F a, F b) { return fn(a, b, Round::RM, true); }); \
  run2<F>(#op ".rp.ftz", k_##kbase##_rp_ftz, fa, fb, [](F a, F b) { return fn(a, b, Round::RP, true); });
  R4(add, add, W::add) R4(sub, sub, W::sub) R4(mul, mul, W::mul) R4(div, div, W::div)
  run3<F>("fma.rn", k_fma_rn, fa, fb, fc, [](F a, F b, F c) { return W::fma(a, b, c, Round::RN); });
  run3<F>("fma.rz", k_fma_rz, fa, fb, fc, [](F a, F b, F c) { return W::fma(a, b, c, Round::RZ); });
  run3<F>("fma.rm", k_fma_rm, fa, fb, fc, [](F a, F b, F c) { return W::fma(a, b, c, Round::RM); });
  run3<F>("fma.rp", k_fma_rp, fa, fb, fc, [](F a, F b, F c) { return W::fma(a, b, c, Round::RP); });
  run3<F>("fma.rn.ftz", k_fma_rn_ftz, fa, fb, fc, [](F a, F b, F c) { return W::fma(a, b, c, Round::RN, true); });
  run3<F>("fma.rp.ftz", k_fma_rp_ftz, fa, fb, fc, [](F a, F b, F c) { return W::fma(a, b, c, Round::RP, true); });
  run1<F, F>("sqrt.rn", k_sqrt_rn, fa, [](F a) { return W::sqrt(a, Round::RN); });
  run1<F, F>("sqrt.rz", k_sqrt_rz, fa, [](F a) { return W::sqrt(a, Round::RZ); });
  run1<F, F>("sqrt.rm", k_sqrt_rm, fa, [](F a) { return W::sqrt(a, Round::RM); });
  run1<F, F>("sqrt.rp", k_sqrt_rp, fa, [](F a) { return W::sqrt(a, Round::RP); });
  run1<F, F>("sqrt.rn.ftz", k_sqrt_rn_ftz, fa, [](F a) { return W::sqrt(a, Round::RN, true); });
  run1<F, F>("rcp.rn", k_rcp_rn, fa, [](F a) { return W::rcp(a, Round::RN); });
  run1<F, F>("rcp.rz", k_rcp_rz, fa, [](F a) { return W::rcp(a, Round::RZ); });
  run1<F, F>("rcp.rm", k_rcp_rm, fa, [](F a) { return W::rcp(a, Round::RM); });
  run1<F, F>("rcp.rp", k_rcp_rp, fa, [](F a) { return W::rcp(a, Round::RP); });
  run1<F, F>("rcp.rn.ftz", k_rcp_rn_ftz, fa, [](F a) { return W::rcp(a, Round::RN, true); });
  run2<F>("add.rn.sat", k_add_rn_sat, fa, fb, [](F a, F b) { return W::saturate(W::add(a, b, Round::RN)); });
  run2<F>("mul.rn.sat", k_mul_rn_sat, fa, fb, [](F a, F b) { return W::saturate(W::mul(a, b, Round::RN)); });
  run2<F>("min.f32", k_min, fa, fb, [](F a, F b) { return W::fmin(a, b); });
  run2<F>("max.f32", k_max, fa, fb, [](F a, F b) { return W::fmax(a, b); });
  run2<F>("min.NaN.f32", k_min_nan, fa, fb, [](F a, F b) { return W::fmin(a, b, true); });
  run2<F>("max.NaN.f32", k_max_nan, fa, fb, [](F a, F b) { return W::fmax(a, b, true); });
  run2<F>("min.ftz.f32", k_min_ftz, fa, fb, [](F a, F b) { return W::fmin(a, b, false, true); });
  run2<F>("max.ftz.f32", k_max_ftz, fa, fb, [](F a, F b) { return W::fmax(a, b, false, true); });
#define D4(op, fn)                                                                           \
  run2<D>(#op ".rn.f64", k_##op##_rn_d, da, db, [](D a, D b) { return fn(a, b, Round::RN); }); \
  run2<D>(#op ".rz.f64", k_##op##_rz_d, da, db, [](D a, D b) { return fn(a, b, Round::RZ); }); \
  run2<D>(#op ".rm.f64", k_##op##_rm_d, da, db, [](D a, D b) { return fn(a, b, Round::RM); }); \
  run2<D>(#op ".rp.f64", k_##op##_rp_d, da, db, [](D a, D b) { return fn(a, b, Round::RP); });
  D4(add, W::add) D4(sub, W::sub) D4(mul, W::mul) D4(div, W::div)
  run3<D>("fma.rn.f64", k_fma_rn_d, da, db, dc, [](D a, D b, D c) { return W::fma(a, b, c, Round::RN); });
  run3<D>("fma.rz.f64", k_fma_rz_d, da, db, dc, [](D a, D b, D c) { return W::fma(a, b, c, Round::RZ); });
  run3<D>("fma.rm.f64", k_fma_rm_d, da, db, dc, [](D a, D b, D c) { return W::fma(a, b, c, Round::RM); });
  run3<D>("fma.rp.f64", k_fma_rp_d, da, db, dc, [](D a, D b, D c) { return W::fma(a, b, c, Round::RP); });
  run1<D, D>("sqrt.rn.f64", k_sqrt_rn_d, da, [](D a) { return W::sqrt(a, Round::RN); });
  run1<D, D>("sqrt.rz.f64", k_sqrt_rz_d, da, [](D a) { return W::sqrt(a, Round::RZ); });
  run1<D, D>("sqrt.rm.f64", k_sqrt_rm_d, da, [](D a) { return W::sqrt(a, Round::RM); });
  run1<D, D>("sqrt.rp.f64", k_sqrt_rp_d, da, [](D a) { return W::sqrt(a, Round::RP); });
  run1<D, D>("rcp.rn.f64", k_rcp_rn_d, da, [](D a) { return W::rcp(a, Round::RN); });
  run1<D, D>("rcp.rz.f64", k_rcp_rz_d, da, [](D a) { return W::rcp(a, Round::RZ); });
  run2<D>("min.f64", k_min_d, da, db, [](D a, D b) { return W::fmin(a, b); });
  run2<D>("max.f64", k_max_d, da, db, [](D a, D b) { return W::fmax(a, b); });

  run2<H>("add.rn.f16", k_add_h, ha, hb, [](H a, H b) -> H { return addF16(a, b, Round::RN); });
  run2<H>("sub.rn.f16", k_sub_h, ha, hb, [](H a, H b) -> H { return subF16(a, b, Round::RN); });
  run2<H>("mul.rn.f16", k_mul_h, ha, hb, [](H a, H b) -> H { return mulF16(a, b, Round::RN); });
  run3<H>("fma.rn.f16", k_fma_h, ha, hb, hc, [](H a, H b, H c) -> H { return fmaF16(a, b, c, Round::RN); });
  run2<H>("sub.rn.ftz.f16", k_sub_h_ftz, ha, hb, [](H a, H b) -> H { return subF16(a, b, Round::RN, true); });
  run2<H>("add.rn.ftz.f16", k_add_h_ftz, ha, hb, [](H a, H b) -> H { return addF16(a, b, Round::RN, true); });
  run2<H>("mul.rn.ftz.f16", k_mul_h_ftz, ha, hb, [](H a, H b) -> H { return mulF16(a, b, Round::RN, true); });
  run3<H>("fma.rn.ftz.f16", k_fma_h_ftz, ha, hb, hc, [](H a, H b, H c) -> H { return fmaF16(a, b, c, Round::RN, true); });
  run2<H>("add.rn.sat.f16", k_add_h_sat, ha, hb, [](H a, H b) -> H { return saturateF16(addF16(a, b, Round::RN)); });
  run2<H>("min.f16", k_min_h, ha, hb, [](H a, H b) -> H { return fminF16(a, b); });
  run2<H>("max.f16", k_max_h, ha, hb, [](H a, H b) -> H { return fmaxF16(a, b); });
  run2<H>("min.NaN.f16", k_min_h_nan, ha, hb, [](H a, H b) -> H { return fminF16(a, b, true); });
  run2<H>("min.ftz.f16", k_min_h_ftz, ha, hb, [](H a, H b) -> H { return fminF16(a, b, false, true); });
  run2<H>("add.rn.bf16", k_add_b, ha, hb, [](H a, H b) -> H { return addBF16(a, b, Round::RN); });
  run2<H>("sub.rn.bf16", k_sub_b, ha, hb, [](H a, H b) -> H { return subBF16(a, b, Round::RN); });
  run2<H>("mul.rn.bf16", k_mul_b, ha, hb, [](H a, H b) -> H { return mulBF16(a, b, Round::RN); });
  run3<H>("fma.rn.bf16", k_fma_b, ha, hb, hc, [](H a, H b, H c) -> H { return fmaBF16(a, b, c, Round::RN); });
  run2<H>("min.bf16", k_min_b, ha, hb, [](H a, H b) -> H { return fminBF16(a, b); });
  run2<H>("max.NaN.bf16", k_max_b_nan, ha, hb, [](H a, H b) -> H { return fmaxBF16(a, b, true); });

  run1<F, H>("cvt.rn.f16.f32", k_cvt_h_f_rn, fa, [](F a) -> H { return f32ToF16(a, Round::RN); });
  run1<F, H>("cvt.rz.f16.f32", k_cvt_h_f_rz, fa, [](F a) -> H { return f32ToF16(a, Round::RZ); });
  run1<F, H>("cvt.rm.f16.f32", k_cvt_h_f_rm, fa, [](F a) -> H { return f32ToF16(a, Round::RM); });
  run1<F, H>("cvt.rp.f16.f32", k_cvt_h_f_rp, fa, [](F a) -> H { return f32ToF16(a, Round::RP); });
  run1<D, H>("cvt.rn.f16.f64", k_cvt_h_d_rn, da, [](D a) -> H { return f64ToF16(a, Round::RN); });
  run1<D, H>("cvt.rz.f16.f64", k_cvt_h_d_rz, da, [](D a) -> H { return f64ToF16(a, Round::RZ); });
  run1<D, H>("cvt.rm.f16.f64", k_cvt_h_d_rm, da, [](D a) -> H { return f64ToF16(a, Round::RM); });
  run1<D, H>("cvt.rp.f16.f64", k_cvt_h_d_rp, da, [](D a) -> H { return f64ToF16(a, Round::RP); });
  run1<F, H>("cvt.rn.bf16.f32", k_cvt_b_f_rn, fa, [](F a) -> H { return f32ToBF16(a, Round::RN); });
  run1<F, H>("cvt.rz.bf16.f32", k_cvt_b_f_rz, fa, [](F a) -> H { return f32ToBF16(a, Round::RZ); });
  run1<F, H>("cvt.rm.bf16.f32", k_cvt_b_f_rm, fa, [](F a) -> H { return f32ToBF16(a, Round::RM); });
  run1<F, H>("cvt.rp.bf16.f32", k_cvt_b_f_rp, fa, [](F a) -> H { return f32ToBF16(a, Round::RP); });
  run1<D, H>("cvt.rn.bf16.f64", k_cvt_b_d_rn, da, [](D a) -> H { return f64ToBF16(a, Round::RN); });
  run1<D, H>("cvt.rz.bf16.f64", k_cvt_b_d_rz, da, [](D a) -> H { return f64ToBF16(a, Round::RZ); });
  run1<H, F>("cvt.f32.f16", k_cvt_f_h, hall, [](H a) { return f16ToF32(a); });
  run1<H, D>("cvt.f64.f16", k_cvt_d_h, hall, [](H a) { return f16ToF64(a); });
  run1<H, D>("cvt.f64.bf16", k_cvt_d_b, hall, [](H a) { return bf16ToF64(a); });
  run1<H, F>("cvt.f32.bf16", k_cvt_f_b, hall, [](H a) { return bf16ToF32(a); });
  run1<D, F>("cvt.rn.f32.f64", k_cvt_f_d_rn, da, [](D a) { return f64ToF32(a, Round::RN); });
  run1<D, F>("cvt.rz.f32.f64", k_cvt_f_d_rz, da, [](D a) { return f64ToF32(a, Round::RZ); });
  run1<D, F>("cvt.rm.f32.f64", k_cvt_f_d_rm, da, [](D a) { return f64ToF32(a, Round::RM); });
  run1<D, F>("cvt.rp.f32.f64", k_cvt_f_d_rp, da, [](D a) { return f64ToF32(a, Round::RP); });
  run1<D, F>("cvt.rn.ftz.f32.f64", k_cvt_f_d_rn_ftz, da, [](D a) { return f64ToF32(a, Round::RN, true); });
  run1<F, D>("cvt.f64.f32", k_cvt_d_f, fa, [](F a) { return f32ToF64(a); });
  run1<F, unsigned>("cvt.rna.tf32.f32", k_cvt_t_rna, fa, [](F a) -> unsigned { return bits(f32ToTF32(a, Round::RNA)); });
  run1<F, unsigned>("cvt.rn.tf32.f32", k_cvt_t_rn, fa, [](F a) -> unsigned { return bits(f32ToTF32(a, Round::RN)); });
  run1<F, unsigned>("cvt.rz.tf32.f32", k_cvt_t_rz, fa, [](F a) -> unsigned { return bits(f32ToTF32(a, Round::RZ)); });
  run1<F, F>("cvt.rni.f32.f32", k_rni_f, fa, [](F a) { return roundIntegral(a, Round::RN); });
  run1<F, F>("cvt.rzi.f32.f32", k_rzi_f, fa, [](F a) { return roundIntegral(a, Round::RZ); });
  run1<F, F>("cvt.rmi.f32.f32", k_rmi_f, fa, [](F a) { return roundIntegral(a, Round::RM); });
  run1<F, F>("cvt.rpi.f32.f32", k_rpi_f, fa, [](F a) { return roundIntegral(a, Round::RP); });
  run1<F, F>("cvt.rpi.ftz.f32.f32", k_rpi_f_ftz, fa, [](F a) { return roundIntegral(a, Round::RP, true); });
  run1<D, D>("cvt.rni.f64.f64", k_rni_d, da, [](D a) { return roundIntegral(a, Round::RN); });
  run1<D, D>("cvt.rmi.f64.f64", k_rmi_d, da, [](D a) { return roundIntegral(a, Round::RM); });

  using U = unsigned;
  using L = unsigned long long;
#define RF2I(SRC, VEC, TS, DST, TD, W, SG, CONV)                                              \
  run1<TS, TD>("cvt.rni." #DST "." #SRC, k_##DST##_##SRC##_rni, VEC, [](TS a) -> TD { return TD(floatToInt(CONV(a), Round::RN, W, SG)); }); \
  run1<TS, TD>("cvt.rzi." #DST "." #SRC, k_##DST##_##SRC##_rzi, VEC, [](TS a) -> TD { return TD(floatToInt(CONV(a), Round::RZ, W, SG)); }); \
  run1<TS, TD>("cvt.rmi." #DST "." #SRC, k_##DST##_##SRC##_rmi, VEC, [](TS a) -> TD { return TD(floatToInt(CONV(a), Round::RM, W, SG)); }); \
  run1<TS, TD>("cvt.rpi." #DST "." #SRC, k_##DST##_##SRC##_rpi, VEC, [](TS a) -> TD { return TD(floatToInt(CONV(a), Round::RP, W, SG)); });
#define ID(x) (x)
  RF2I(f32, fa, F, s32, U, 32, true, ID) RF2I(f32, fa, F, u32, U, 32, false, ID)
  RF2I(f32, fa, F, s64, L, 64, true, ID) RF2I(f32, fa, F, u64, L, 64, false, ID)
  RF2I(f64, da, D, s32, U, 32, true, ID) RF2I(f64, da, D, u32, U, 32, false, ID)
  RF2I(f64, da, D, s64, L, 64, true, ID) RF2I(f64, da, D, u64, L, 64, false, ID)
  RF2I(f32, fa, F, s8, U, 8, true, ID) RF2I(f32, fa, F, u8, U, 8, false, ID)
  RF2I(f32, fa, F, s16, U, 16, true, ID) RF2I(f32, fa, F, u16, U, 16, false, ID)
  RF2I(f64, da, D, s16, U, 16, true, ID) RF2I(f64, da, D, u8, U, 8, false, ID)
  RF2I(f16, hall, H, s32, U, 32, true, f16ToF32) RF2I(f16, hall, H, u64, L, 64, false, f16ToF32)
  RF2I(f16, hall, H, s8, U, 8, true, f16ToF32)
  run1<F, U>("cvt.rpi.ftz.s32.f32", k_s32_f32_rpi_ftz, fa, [](F a) -> U { return U(floatToInt(a, Round::RP, 32, true, true)); });

#define RI2F(DST, TD, FN, SRC, VEC, TS, SG, EXT)                                              \
  run1<TS, TD>("cvt.rn." #DST "." #SRC, k_##DST##_##SRC##_rn, VEC, [](TS a) -> TD { return FN(EXT(a), SG, Round::RN); }); \
  run1<TS, TD>("cvt.rz." #DST "." #SRC, k_##DST##_##SRC##_rz, VEC, [](TS a) -> TD { return FN(EXT(a), SG, Round::RZ); }); \
  run1<TS, TD>("cvt.rm." #DST "." #SRC, k_##DST##_##SRC##_rm, VEC, [](TS a) -> TD { return FN(EXT(a), SG, Round::RM); }); \
  run1<TS, TD>("cvt.rp." #DST "." #SRC, k_##DST##_##SRC##_rp, VEC, [](TS a) -> TD { return FN(EXT(a), SG, Round::RP); });
#define SX32(a) uint64_t(int64_t(int32_t(a)))
#define ZX(a) uint64_t(a)
  RI2F(f32, F, intToF32, s32, ia, U, true, SX32) RI2F(f32, F, intToF32, u32, ia, U, false, ZX)
  RI2F(f32, F, intToF32, s64, la, L, true, ZX) RI2F(f32, F, intToF32, u64, la, L, false, ZX)
  RI2F(f64, D, intToF64, s64, la, L, true, ZX) RI2F(f64, D, intToF64, u64, la, L, false, ZX)
  RI2F(f16, H, intToF16, s32, ia, U, true, SX32) RI2F(f16, H, intToF16, u32, ia, U, false, ZX)
  RI2F(f16, H, intToF16, s64, la, L, true, ZX) RI2F(f16, H, intToF16, u64, la, L, false, ZX)
  RI2F(bf16, H, intToBF16, s32, ia, U, true, SX32) RI2F(bf16, H, intToBF16, u64, la, L, false, ZX)

  printf("TOTAL mismatches: %d\n", totalBad);
  return 0;
}
