#include <cstdio>
#include <cstdint>
#include <vector>
#include <string>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); return 1;} } while (0)
__global__ void oob(uint32_t* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= 65536) return;
  unsigned short x = i, one16 = 0x3C00, oneb = 0x3F80, r1, r2, r3, r4;
  asm volatile("fma.rn.oob.f16 %0, %1, %2, %3;" : "=h"(r1) : "h"(x), "h"(one16), "h"(one16));
  asm volatile("fma.rn.oob.f16 %0, %1, %2, %3;" : "=h"(r2) : "h"(one16), "h"(one16), "h"(x));
  asm volatile("fma.rn.oob.bf16 %0, %1, %2, %3;" : "=h"(r3) : "h"(x), "h"(oneb), "h"(oneb));
  asm volatile("fma.rn.oob.bf16 %0, %1, %2, %3;" : "=h"(r4) : "h"(oneb), "h"(oneb), "h"(x));
  out[4*i] = r1; out[4*i+1] = r2; out[4*i+2] = r3; out[4*i+3] = r4;
}
__global__ void misc(const uint32_t* a, uint32_t* out, int n) {
  int i = threadIdx.x; if (i >= n) return; uint32_t x = a[i], r;
  asm volatile("sin.approx.f32 %0, %1;" : "=r"(r) : "r"(x)); out[8*i] = r;
  asm volatile("cos.approx.f32 %0, %1;" : "=r"(r) : "r"(x)); out[8*i+1] = r;
  asm volatile("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "r"(x)); out[8*i+2] = r;
  asm volatile("cvt.rz.tf32.f32 %0, %1;" : "=r"(r) : "r"(x)); out[8*i+3] = r;
  asm volatile("cvt.rz.relu.tf32.f32 %0, %1;" : "=r"(r) : "r"(x)); out[8*i+4] = r;
  asm volatile("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(r) : "r"(x)); out[8*i+5] = r;
  asm volatile("cvt.ftz.sat.f32.f32 %0, %1;" : "=r"(r) : "r"(x)); out[8*i+6] = r;
  asm volatile("cvt.rni.ftz.f32.f32 %0, %1;" : "=r"(r) : "r"(x)); out[8*i+7] = r;
}
__global__ void misc2(const uint64_t* a, uint64_t* out, int n) {
  int i = threadIdx.x; if (i >= n) return; uint64_t x = a[i], r;
  asm volatile("rcp.rn.ftz.f64 %0, %1;" : "=l"(r) : "l"(x)); out[4*i] = r;
  asm volatile("rcp.rn.f64 %0, %1;" : "=l"(r) : "l"(x)); out[4*i+1] = r;
  unsigned short h = (unsigned short)x, g;
  asm volatile("cvt.f16.bf16 %0, %1;" : "=h"(g) : "h"(h)); out[4*i+2] = g;
  asm volatile("cvt.bf16.f16 %0, %1;" : "=h"(g) : "h"(h)); out[4*i+3] = g;
}
int main(int argc, char** argv) {
  std::string out = argc > 1 ? argv[1] : ".";
  uint32_t* d; CK(cudaMalloc(&d, 65536 * 16));
  oob<<<256, 256>>>(d); CK(cudaDeviceSynchronize());
  std::vector<uint32_t> h(65536 * 4); CK(cudaMemcpy(h.data(), d, 65536 * 16, cudaMemcpyDeviceToHost));
  FILE* f = fopen((out + "/probe2.txt").c_str(), "w");
  for (int i = 0; i < 65536; ++i) {
    bool z1 = h[4*i] == 0 && (i & 0x7C00) == 0x7C00 && (i & 0x3FF), z2 = h[4*i+1] == 0 && (i & 0x7C00) == 0x7C00 && (i & 0x3FF);
    bool z3 = h[4*i+2] == 0 && (i & 0x7F80) == 0x7F80 && (i & 0x7F), z4 = h[4*i+3] == 0 && (i & 0x7F80) == 0x7F80 && (i & 0x7F);
    if (z1 || z2 || z3 || z4) fprintf(f, "oob-zero %04x f16a %d f16c %d bf16a %d bf16c %d\n", i, z1, z2, z3, z4);
  }
  std::vector<uint32_t> in = {0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x7FC01234, 0xFFC00001, 0x7F800001, 0x7F800000, 0xFF800000, 0x7F7FFFFF, 0x7F7FF000, 0xFF7FFFFF, 0x3F801000, 0xBF800000, 0x80000000};
  uint32_t* da; CK(cudaMalloc(&da, in.size() * 4)); CK(cudaMemcpy(da, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
  misc<<<1, 32>>>(da, d, in.size()); CK(cudaDeviceSynchronize());
  std::vector<uint32_t> m(in.size() * 8); CK(cudaMemcpy(m.data(), d, m.size() * 4, cudaMemcpyDeviceToHost));
  const char* names[] = {"sin.approx.f32", "cos.approx.f32", "cvt.rna.tf32.f32", "cvt.rz.tf32.f32", "cvt.rz.relu.tf32.f32", "cvt.rna.satfinite.tf32.f32", "cvt.ftz.sat.f32.f32", "cvt.rni.ftz.f32.f32"};
  for (size_t i = 0; i < in.size(); ++i) for (int k = 0; k < 8; ++k) fprintf(f, "%s %08x -> %08x\n", names[k], in[i], m[8*i+k]);
  std::vector<uint64_t> in2 = {0x0000000000000001ull, 0x8000000000000001ull, 0x000FFFFFFFFFFFFFull, 0x7FE0000000000000ull, 0xFFE0000000000000ull, 0x7FD0000000000000ull, 0x3FF0000000000000ull, 0x3586ull, 0x3581ull, 0x0001ull, 0x3C01ull, 0x3C03ull, 0x7E01ull, 0xFFC1ull, 0x4780ull, 0x0FFFull};
  uint64_t *db, *dc; CK(cudaMalloc(&db, in2.size() * 8)); CK(cudaMalloc(&dc, in2.size() * 32)); CK(cudaMemcpy(db, in2.data(), in2.size() * 8, cudaMemcpyHostToDevice));
  misc2<<<1, 32>>>(db, dc, in2.size()); CK(cudaDeviceSynchronize());
  std::vector<uint64_t> m2(in2.size() * 4); CK(cudaMemcpy(m2.data(), dc, m2.size() * 8, cudaMemcpyDeviceToHost));
  const char* n2[] = {"rcp.rn.ftz.f64", "rcp.rn.f64", "cvt.f16.bf16", "cvt.bf16.f16"};
  for (size_t i = 0; i < in2.size(); ++i) for (int k = 0; k < 4; ++k) fprintf(f, "%s %016llx -> %016llx\n", n2[k], (unsigned long long)in2[i], (unsigned long long)m2[4*i+k]);
  fclose(f); printf("done\n"); return 0;
}
