// The wmma probe: one warp runs load / mma / store of every sm_90 wmma form warpsim executes
// (nvcuda::wmma: A row-major, B column-major, C and D row-major, from global memory) on inputs
// drawn to expose the tensor core's summation (random values of spread exponents, a large C
// with small products, products that cancel, tf32 values with their low 13 bits set), and
// writes each case as text: the form, A, B and C (row-major element bits) and D. The replay,
// tests/sim/wmma_test.cpp (WmmaReplay), runs the same form through the simulator, whose wmma
// shares the mma.sync summation model fitted on the H200: agreement is the check that ptxas
// lowers wmma to the same units.
//
//   nvcc -arch=sm_90 -o wmma_probe scripts/probes/wmma/wmma_probe.cu
//   ./wmma_probe CASES FIRST_SEED OUT.txt          (on the H200: scripts/device_wmma.sh)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

using namespace nvcuda;

#define CHECK(call)                                                                         \
  do {                                                                                      \
    const cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                                \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

// Tin: the memory element of A and B; Tf: the fragment's element type; Tc: C's and D's.
template <int M, int N, int K, class Tin, class Tf, class Tc>
__global__ void form(const Tin* a, const Tin* b, const Tc* c, Tc* d) {
  wmma::fragment<wmma::matrix_a, M, N, K, Tf, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, Tf, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Tc> fc;
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, K);
  wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
}

struct Form {
  const char* name;  // as the replay reads it: TYPE.SHAPE.ACC
  int m, n, k, abBytes, cBytes;
  void (*run)(const void*, const void*, const void*, void*);
};

template <int M, int N, int K, class Tin, class Tf, class Tc>
void runForm(const void* a, const void* b, const void* c, void* d) {
  form<M, N, K, Tin, Tf, Tc><<<1, 32>>>(static_cast<const Tin*>(a), static_cast<const Tin*>(b),
                                        static_cast<const Tc*>(c), static_cast<Tc*>(d));
}

const Form kForms[] = {
    {"f16.m16n16k16.f32", 16, 16, 16, 2, 4, runForm<16, 16, 16, __half, __half, float>},
    {"f16.m32n8k16.f32", 32, 8, 16, 2, 4, runForm<32, 8, 16, __half, __half, float>},
    {"f16.m8n32k16.f32", 8, 32, 16, 2, 4, runForm<8, 32, 16, __half, __half, float>},
    {"f16.m16n16k16.f16", 16, 16, 16, 2, 2, runForm<16, 16, 16, __half, __half, __half>},
    {"bf16.m16n16k16.f32", 16, 16, 16, 2, 4,
     runForm<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float>},
    {"bf16.m32n8k16.f32", 32, 8, 16, 2, 4, runForm<32, 8, 16, __nv_bfloat16, __nv_bfloat16, float>},
    {"bf16.m8n32k16.f32", 8, 32, 16, 2, 4, runForm<8, 32, 16, __nv_bfloat16, __nv_bfloat16, float>},
    {"tf32.m16n16k8.f32", 16, 16, 8, 4, 4, runForm<16, 16, 8, float, wmma::precision::tf32, float>},
    {"s8.m16n16k16.s32", 16, 16, 16, 1, 4, runForm<16, 16, 16, signed char, signed char, int>},
    {"u8.m32n8k16.s32", 32, 8, 16, 1, 4, runForm<32, 8, 16, unsigned char, unsigned char, int>},
    {"s8.m8n32k16.s32", 8, 32, 16, 1, 4, runForm<8, 32, 16, signed char, signed char, int>},
    {"f64.m8n8k4.f64", 8, 8, 4, 8, 8, runForm<8, 8, 4, double, double, double>},
};
constexpr int kFormCount = sizeof(kForms) / sizeof(kForms[0]);

// An element of A or B (or C) as bits, for the form's type, in the probe's input mode.
uint64_t draw(std::mt19937_64& g, const char* type, int mode, bool isC) {
  const double sign = (g() & 1) ? -1.0 : 1.0;
  const double frac = 1.0 + double(g() % 1024) / 1024.0;
  const int spread = mode == 0 ? int(g() % 16) - 8 : mode == 1 ? int(g() % 4) - 6 : int(g() % 3);
  double v = sign * std::ldexp(frac, spread);
  if (isC && mode == 1) v = sign * std::ldexp(frac, 12 + int(g() % 8));  // a large C
  if (type[0] == 'f' && type[1] == '1') {
    const __half h = __double2half(v);
    uint16_t u;
    std::memcpy(&u, &h, 2);
    return u;
  }
  if (type[0] == 'b') {
    const __nv_bfloat16 h = __double2bfloat16(v);
    uint16_t u;
    std::memcpy(&u, &h, 2);
    return u;
  }
  if (type[0] == 't' || (type[0] == 'f' && type[1] == '3')) {
    float f = float(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if (type[0] == 't') u |= uint32_t(g()) & 0x1FFFu;  // low bits the tensor core must ignore
    return u;
  }
  if (type[0] == 'f') {  // f64
    const double d = sign * std::ldexp(1.0 + double(g() % (1ull << 52)) / 4503599627370496.0,
                                       int(g() % 40) - 20);
    uint64_t u;
    std::memcpy(&u, &d, 8);
    return u;
  }
  if (type[0] == 's' && isC) return uint32_t(int32_t(g() % 200001) - 100000);
  return uint8_t(g());
}

void put(std::vector<uint8_t>& mem, size_t i, uint64_t bits, int bytes) {
  std::memcpy(mem.data() + i * size_t(bytes), &bits, size_t(bytes));
}

void dump(FILE* out, const char* key, const std::vector<uint8_t>& mem, int bytes) {
  std::fprintf(out, "%s", key);
  for (size_t i = 0; i < mem.size(); i += size_t(bytes)) {
    uint64_t v = 0;
    std::memcpy(&v, mem.data() + i, size_t(bytes));
    std::fprintf(out, " %llx", (unsigned long long)v);
  }
  std::fprintf(out, "\n");
}

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: wmma_probe CASES FIRST_SEED OUT.txt\n");
    return 2;
  }
  const int cases = std::atoi(argv[1]);
  const unsigned first = unsigned(std::strtoul(argv[2], nullptr, 10));
  FILE* out = std::fopen(argv[3], "w");
  if (!out) {
    std::perror(argv[3]);
    return 2;
  }
  void *da, *db, *dc, *dd;
  CHECK(cudaMalloc(&da, 4096));
  CHECK(cudaMalloc(&db, 4096));
  CHECK(cudaMalloc(&dc, 4096));
  CHECK(cudaMalloc(&dd, 4096));
  for (int i = 0; i < cases; ++i) {
    const unsigned seed = first + unsigned(i);
    const Form& f = kForms[seed % kFormCount];
    const int mode = int((seed / kFormCount) % 3);
    std::mt19937_64 g(seed);
    const char* type = f.name;
    const char* acc = std::strrchr(f.name, '.') + 1;
    std::vector<uint8_t> A(size_t(f.m) * f.k * f.abBytes), B(size_t(f.k) * f.n * f.abBytes);
    std::vector<uint8_t> Bcol(B.size()), C(size_t(f.m) * f.n * f.cBytes), D(C.size());
    for (int r = 0; r < f.m; ++r)
      for (int k = 0; k < f.k; ++k) put(A, size_t(r) * f.k + k, draw(g, type, mode, false), f.abBytes);
    for (int k = 0; k < f.k; ++k)
      for (int c = 0; c < f.n; ++c) {
        uint64_t v = draw(g, type, mode, false);
        if (mode == 2 && k % 2 == 1) {  // cancel the previous product's B (A's pairs differ)
          std::memcpy(&v, B.data() + (size_t(k - 1) * f.n + c) * f.abBytes, size_t(f.abBytes));
          v ^= uint64_t(1) << (f.abBytes * 8 - 1);
        }
        put(B, size_t(k) * f.n + c, v, f.abBytes);
        put(Bcol, size_t(c) * f.k + k, v, f.abBytes);
      }
    for (int j = 0; j < f.m * f.n; ++j) put(C, size_t(j), draw(g, acc, mode, true), f.cBytes);
    CHECK(cudaMemcpy(da, A.data(), A.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, Bcol.data(), Bcol.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, C.data(), C.size(), cudaMemcpyHostToDevice));
    f.run(da, db, dc, dd);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(D.data(), dd, D.size(), cudaMemcpyDeviceToHost));
    std::fprintf(out, "case %u form=%s mode=%d\n", seed, f.name, mode);
    dump(out, "a", A, f.abBytes);
    dump(out, "b", B, f.abBytes);
    dump(out, "c", C, f.cBytes);
    dump(out, "d", D, f.cBytes);
  }
  std::fclose(out);
  std::printf("wmma_probe: %d cases from seed %u written to %s\n", cases, first, argv[3]);
  return 0;
}
