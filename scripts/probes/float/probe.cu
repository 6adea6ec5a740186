// Probe of the H200's behaviour for the semantic choices the float families could not take
// from the manual, and bulk samples of the SFU approximations. Not part of the project.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <string>
#include <cmath>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

// ---------- generic kernels: one asm per kernel ----------
#define U32_1(name, asmstr) __global__ void name(const uint32_t* a, uint32_t* d, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) { uint32_t r; asm volatile(asmstr " %0, %1;" : "=r"(r) : "r"(a[i])); d[i]=r; } }
#define U32_2(name, asmstr) __global__ void name(const uint32_t* a, const uint32_t* b, uint32_t* d, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) { uint32_t r; asm volatile(asmstr " %0, %1, %2;" : "=r"(r) : "r"(a[i]), "r"(b[i])); d[i]=r; } }
#define U32_3(name, asmstr) __global__ void name(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) { uint32_t r; asm volatile(asmstr " %0, %1, %2, %3;" : "=r"(r) : "r"(a[i]), "r"(b[i]), "r"(c[i])); d[i]=r; } }
#define U64_1(name, asmstr) __global__ void name(const uint64_t* a, uint64_t* d, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) { uint64_t r; asm volatile(asmstr " %0, %1;" : "=l"(r) : "l"(a[i])); d[i]=r; } }
#define H_1(name, asmstr) __global__ void name(const uint32_t* a, uint32_t* d, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) { unsigned short r; unsigned short x = (unsigned short)a[i]; asm volatile(asmstr " %0, %1;" : "=h"(r) : "h"(x)); d[i]=r; } }
#define H_3(name, asmstr) __global__ void name(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) { unsigned short r; unsigned short x=(unsigned short)a[i], y=(unsigned short)b[i], z=(unsigned short)c[i]; asm volatile(asmstr " %0, %1, %2, %3;" : "=h"(r) : "h"(x), "h"(y), "h"(z)); d[i]=r; } }
#define H_2(name, asmstr) __global__ void name(const uint32_t* a, const uint32_t* b, uint32_t* d, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) { unsigned short r; unsigned short x=(unsigned short)a[i], y=(unsigned short)b[i]; asm volatile(asmstr " %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y)); d[i]=r; } }
// f32 -> 16-bit result
#define F2H_1(name, asmstr) __global__ void name(const uint32_t* a, uint32_t* d, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) { unsigned short r; asm volatile(asmstr " %0, %1;" : "=h"(r) : "r"(a[i])); d[i]=r; } }
#define F2H_2(name, asmstr) __global__ void name(const uint32_t* a, const uint32_t* b, uint32_t* d, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) { unsigned short r; asm volatile(asmstr " %0, %1, %2;" : "=h"(r) : "r"(a[i]), "r"(b[i])); d[i]=r; } }
// 16-bit -> 32-bit result
#define H2U_1(name, asmstr) __global__ void name(const uint32_t* a, uint32_t* d, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) { uint32_t r; unsigned short x=(unsigned short)a[i]; asm volatile(asmstr " %0, %1;" : "=r"(r) : "h"(x)); d[i]=r; } }

U32_1(k_abs, "abs.f32") U32_1(k_absftz, "abs.ftz.f32") U32_1(k_neg, "neg.f32") U32_1(k_negftz, "neg.ftz.f32")
U64_1(k_abs64, "abs.f64") U64_1(k_neg64, "neg.f64")
H_1(k_negf16, "neg.f16") H_1(k_absf16, "abs.f16") H_1(k_negftzf16, "neg.ftz.f16") H_1(k_negbf16, "neg.bf16") H_1(k_absbf16, "abs.bf16")
U32_2(k_copysign, "copysign.f32")
U32_2(k_addsat, "add.sat.f32") U32_2(k_mulsat, "mul.sat.f32")
H_3(k_fmarelu16, "fma.rn.relu.f16") H_3(k_fmarelubf, "fma.rn.relu.bf16") H_3(k_fmaoob16, "fma.rn.oob.f16") H_3(k_fmaoobbf, "fma.rn.oob.bf16")
F2H_1(k_cvtrelu16, "cvt.rn.relu.f16.f32") F2H_1(k_cvtsf16, "cvt.rn.satfinite.f16.f32") F2H_1(k_cvtrelubf, "cvt.rn.relu.bf16.f32") F2H_1(k_cvtsfbf, "cvt.rn.satfinite.bf16.f32")
U32_1(k_tf32rna_sf, "cvt.rna.satfinite.tf32.f32") U32_1(k_tf32rn_relu, "cvt.rn.relu.tf32.f32") U32_1(k_tf32rna, "cvt.rna.tf32.f32")
F2H_2(k_e4m3, "cvt.rn.satfinite.e4m3x2.f32") F2H_2(k_e4m3relu, "cvt.rn.satfinite.relu.e4m3x2.f32") F2H_2(k_e5m2, "cvt.rn.satfinite.e5m2x2.f32") F2H_2(k_e5m2relu, "cvt.rn.satfinite.relu.e5m2x2.f32")
H2U_1(k_e4m3to16, "cvt.rn.f16x2.e4m3x2") H2U_1(k_e5m2to16, "cvt.rn.f16x2.e5m2x2") H2U_1(k_e4m3to16relu, "cvt.rn.relu.f16x2.e4m3x2")
U32_2(k_minxor, "min.xorsign.abs.f32") U32_2(k_maxxor, "max.xorsign.abs.f32") H_2(k_minxor16, "min.xorsign.abs.f16")
U32_1(k_cvtff, "cvt.f32.f32") U32_1(k_cvtffftz, "cvt.ftz.f32.f32") U32_1(k_cvtffsat, "cvt.sat.f32.f32")
U64_1(k_rcp64, "rcp.approx.ftz.f64") U64_1(k_rsq64ftz, "rsqrt.approx.ftz.f64") U64_1(k_rsq64, "rsqrt.approx.f64")
U32_2(k_divapprox, "div.approx.f32") U32_2(k_divfull, "div.full.f32") U32_2(k_divapproxftz, "div.approx.ftz.f32") U32_2(k_divfullftz, "div.full.ftz.f32")
U32_1(k_ex2, "ex2.approx.f32") U32_1(k_ex2ftz, "ex2.approx.ftz.f32") U32_1(k_lg2, "lg2.approx.f32") U32_1(k_lg2ftz, "lg2.approx.ftz.f32")
U32_1(k_sin, "sin.approx.f32") U32_1(k_cos, "cos.approx.f32") U32_1(k_tanh, "tanh.approx.f32")
U32_1(k_rcp, "rcp.approx.f32") U32_1(k_rcpftz, "rcp.approx.ftz.f32") U32_1(k_rsqrt, "rsqrt.approx.f32") U32_1(k_rsqrtftz, "rsqrt.approx.ftz.f32")
U32_1(k_sqrta, "sqrt.approx.f32") U32_1(k_sqrtaftz, "sqrt.approx.ftz.f32")
H_1(k_ex2f16, "ex2.approx.f16") H_1(k_tanhf16, "tanh.approx.f16") H_1(k_tanhbf16, "tanh.approx.bf16") H_1(k_ex2bf16, "ex2.approx.ftz.bf16")
U32_1(k_sinftz, "sin.approx.ftz.f32")
U32_1(k_cvts8s32, "cvt.s8.s32") U32_1(k_cvtu8s32, "cvt.u8.s32") U32_1(k_cvtsats8s32, "cvt.sat.s8.s32") U32_1(k_cvtrnis8f32, "cvt.rni.s8.f32") U32_1(k_cvts32s8, "cvt.s32.s8") U32_1(k_cvts16s8, "cvt.s16.s8")
H_3(k_fmasat16, "fma.rn.sat.f16") H_2(k_addsat16, "add.sat.f16")

template <class T> T* dev(const std::vector<T>& v) { T* p; CK(cudaMalloc(&p, v.size()*sizeof(T)+8)); CK(cudaMemcpy(p, v.data(), v.size()*sizeof(T), cudaMemcpyHostToDevice)); return p; }
template <class T> std::vector<T> host(T* p, size_t n) { std::vector<T> v(n); CK(cudaMemcpy(v.data(), p, n*sizeof(T), cudaMemcpyDeviceToHost)); cudaFree(p); return v; }

typedef void (*K1)(const uint32_t*, uint32_t*, int);
typedef void (*K2)(const uint32_t*, const uint32_t*, uint32_t*, int);
typedef void (*K3)(const uint32_t*, const uint32_t*, const uint32_t*, uint32_t*, int);
typedef void (*K1L)(const uint64_t*, uint64_t*, int);

std::vector<uint32_t> run1(K1 k, const std::vector<uint32_t>& a) { int n=a.size(); auto pa=dev(a); uint32_t* pd; CK(cudaMalloc(&pd, n*4+8)); k<<<(n+255)/256,256>>>(pa,pd,n); CK(cudaDeviceSynchronize()); cudaFree(pa); return host(pd,n); }
std::vector<uint32_t> run2(K2 k, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) { int n=a.size(); auto pa=dev(a), pb=dev(b); uint32_t* pd; CK(cudaMalloc(&pd, n*4+8)); k<<<(n+255)/256,256>>>(pa,pb,pd,n); CK(cudaDeviceSynchronize()); cudaFree(pa); cudaFree(pb); return host(pd,n); }
std::vector<uint32_t> run3(K3 k, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, const std::vector<uint32_t>& c) { int n=a.size(); auto pa=dev(a), pb=dev(b), pc=dev(c); uint32_t* pd; CK(cudaMalloc(&pd, n*4+8)); k<<<(n+255)/256,256>>>(pa,pb,pc,pd,n); CK(cudaDeviceSynchronize()); cudaFree(pa); cudaFree(pb); cudaFree(pc); return host(pd,n); }
std::vector<uint64_t> run1l(K1L k, const std::vector<uint64_t>& a) { int n=a.size(); auto pa=dev(a); uint64_t* pd; CK(cudaMalloc(&pd, n*8+8)); k<<<(n+255)/256,256>>>(pa,pd,n); CK(cudaDeviceSynchronize()); cudaFree(pa); return host(pd,n); }

FILE* txt;
void show1(const char* name, K1 k, std::vector<uint32_t> a) { auto d = run1(k, a); for (size_t i=0;i<a.size();++i) fprintf(txt, "%s %08x -> %08x\n", name, a[i], d[i]); }
void show2(const char* name, K2 k, std::vector<uint32_t> a, std::vector<uint32_t> b) { auto d = run2(k, a, b); for (size_t i=0;i<a.size();++i) fprintf(txt, "%s %08x %08x -> %08x\n", name, a[i], b[i], d[i]); }
void show3(const char* name, K3 k, std::vector<uint32_t> a, std::vector<uint32_t> b, std::vector<uint32_t> c) { auto d = run3(k, a, b, c); for (size_t i=0;i<a.size();++i) fprintf(txt, "%s %08x %08x %08x -> %08x\n", name, a[i], b[i], c[i], d[i]); }
void show1l(const char* name, K1L k, std::vector<uint64_t> a) { auto d = run1l(k, a); for (size_t i=0;i<a.size();++i) fprintf(txt, "%s %016llx -> %016llx\n", name, (unsigned long long)a[i], (unsigned long long)d[i]); }

FILE* bin;
void dump(const char* name, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, const std::vector<uint32_t>& d) {
  char nm[32] = {0}; strncpy(nm, name, 31); fwrite(nm, 1, 32, bin);
  uint32_t n = a.size(), nin = b.empty() ? 1 : 2; fwrite(&n, 4, 1, bin); fwrite(&nin, 4, 1, bin);
  fwrite(a.data(), 4, n, bin); if (nin == 2) fwrite(b.data(), 4, n, bin); fwrite(d.data(), 4, n, bin);
}
uint64_t lcg = 0x12345678abcdefull;
uint32_t rnd() { lcg = lcg * 6364136223846793005ull + 1442695040888963407ull; return uint32_t(lcg >> 32); }
uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
float bf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

int main(int argc, char** argv) {
  std::string out = argc > 1 ? argv[1] : ".";
  txt = fopen((out + "/edge.txt").c_str(), "w");
  bin = fopen((out + "/sfu.bin").c_str(), "wb");
  std::vector<uint32_t> nanish = {0x7FC01234, 0xFFC01234, 0x7F800001, 0xFF800001, 0x00000001, 0x80000001, 0x80000000, 0x3F800000, 0xBF800000};
  show1("abs.f32", k_abs, nanish); show1("abs.ftz.f32", k_absftz, nanish); show1("neg.f32", k_neg, nanish); show1("neg.ftz.f32", k_negftz, nanish);
  std::vector<uint64_t> n64 = {0x7FF0000000000001ull, 0xFFF8000000001234ull, 0x7FF8000000000000ull, 0x8000000000000001ull, 0x3FF0000000000000ull};
  show1l("abs.f64", k_abs64, n64); show1l("neg.f64", k_neg64, n64);
  std::vector<uint32_t> h = {0x7E01, 0xFE01, 0x7C01, 0x0001, 0x8001, 0x8000, 0x7FC1, 0xFF81, 0x3C00, 0x7F81};
  show1("neg.f16", k_negf16, h); show1("abs.f16", k_absf16, h); show1("neg.ftz.f16", k_negftzf16, h); show1("neg.bf16", k_negbf16, h); show1("abs.bf16", k_absbf16, h);
  show2("copysign.f32", k_copysign, {0x80000000, 0x00000000, 0x80000000}, {0x7FC01234, 0xFF800001, 0x3F800000});
  show2("add.sat.f32", k_addsat, {0x80000000, 0x80000001, 0xBF800000, 0x7FC00000, 0x3F800001}, {0x80000000, 0x00000000, 0x3F800000, 0, 0});
  show2("mul.sat.f32", k_mulsat, {0xBF800000, 0x80000001}, {0x00000000, 0x3F800000});
  show3("fma.rn.relu.f16", k_fmarelu16, {0x8000, 0x8001, 0x7E01, 0xBC00, 0x0001, 0x8400}, {0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x0001}, {0x8000, 0x0000, 0, 0x3C00, 0x8000, 0x8000});
  show3("fma.rn.relu.bf16", k_fmarelubf, {0x8000, 0x8001, 0x7FC1, 0xBF80}, {0x3F80, 0x3F80, 0x3F80, 0x3F80}, {0x8000, 0x0000, 0, 0x3F80});
  show3("fma.rn.oob.f16", k_fmaoob16, {0x7FFF, 0x7E00, 0xFFFF, 0x7C01, 0x7FFE, 0x3C00, 0x3C00}, {0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x7FFF, 0x3C00}, {0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x3C00, 0x7FFF});
  show3("fma.rn.oob.bf16", k_fmaoobbf, {0x7FFF, 0x7FC0, 0xFFFF, 0x7F81}, {0x3F80, 0x3F80, 0x3F80, 0x3F80}, {0x3F80, 0x3F80, 0x3F80, 0x3F80});
  std::vector<uint32_t> nf = {0x80000000, 0xAEDBE6FF, 0xFFC00001, 0x7FC01234, 0x7F800000, 0xFF800000, 0x4788B800 /*70000*/, 0xC7800000, 0x477FF000 /*65520*/, 0x477FEFFF, 0x7F7FFFFF};
  show1("cvt.rn.relu.f16.f32", (K1)k_cvtrelu16, nf); show1("cvt.rn.satfinite.f16.f32", (K1)k_cvtsf16, nf); show1("cvt.rn.relu.bf16.f32", (K1)k_cvtrelubf, nf); show1("cvt.rn.satfinite.bf16.f32", (K1)k_cvtsfbf, nf);
  show1("cvt.rna.satfinite.tf32.f32", k_tf32rna_sf, nf); show1("cvt.rn.relu.tf32.f32", k_tf32rn_relu, nf); show1("cvt.rna.tf32.f32", k_tf32rna, nf);
  std::vector<float> e8 = {448.f, 464.f, 465.f, 480.f, 500.f, 1e30f, INFINITY, -INFINITY, NAN, -NAN, 1e-10f, -0.f, 0.f, 0.001953125f, 0.0009765625f, 0.00146484375f, 0.0068359375f, -5.f, 1.0625f, 1.1875f, 57344.f, 61440.f, 61441.f, 1.52587890625e-05f, 7.62939453125e-06f, 1.1444091796875e-05f, -1e-10f, 240.f, 232.f};
  std::vector<uint32_t> e8a, e8b; for (float f : e8) { e8a.push_back(fb(f)); e8b.push_back(fb(1.0f)); }
  show2("cvt.rn.satfinite.e4m3x2.f32", (K2)k_e4m3, e8a, e8b); show2("cvt.rn.satfinite.relu.e4m3x2.f32", (K2)k_e4m3relu, e8a, e8b);
  show2("cvt.rn.satfinite.e5m2x2.f32", (K2)k_e5m2, e8a, e8b); show2("cvt.rn.satfinite.relu.e5m2x2.f32", (K2)k_e5m2relu, e8a, e8b);
  { std::vector<uint32_t> all; for (uint32_t i = 0; i < 256; ++i) all.push_back(i | (((i + 1) & 0xFF) << 8));
    auto d1 = run1((K1)k_e4m3to16, all); auto d2 = run1((K1)k_e5m2to16, all); auto d3 = run1((K1)k_e4m3to16relu, all);
    for (size_t i = 0; i < all.size(); ++i) fprintf(txt, "f8tof16 %04x -> e4m3 %08x e5m2 %08x e4m3relu %08x\n", all[i], d1[i], d2[i], d3[i]); }
  show2("min.xorsign.abs.f32", k_minxor, {0xFFC00000, 0x40400000, 0xC0000000, 0x7FC00000, 0xFFC00000}, {0x40400000, 0xFFC00000, 0x40400000, 0xC0400000, 0x7FC00000});
  show2("max.xorsign.abs.f32", k_maxxor, {0xFFC00000, 0x40400000, 0xC0000000, 0x7FC00000}, {0x40400000, 0xFFC00000, 0x40400000, 0xC0400000});
  show2("min.xorsign.abs.f16", (K2)k_minxor16, {0xFE00, 0x4200, 0xC000}, {0x4200, 0xFE00, 0x4200});
  std::vector<uint32_t> ff = {0x7F800001, 0xFFC01234, 0x00000001, 0x80000001, 0x80000000, 0x3F800001};
  show1("cvt.f32.f32", k_cvtff, ff); show1("cvt.ftz.f32.f32", k_cvtffftz, ff); show1("cvt.sat.f32.f32", k_cvtffsat, ff);
  std::vector<uint64_t> d64 = {0x4008000000000000ull, 0x4008000012345678ull, 0x0000100000000000ull, 0x7FF0000000000001ull, 0x7FF8000000000000ull, 0xFFF0000000000000ull, 0x8000000000000000ull, 0x7FE0000000000000ull, 0x0010000000000000ull, 0x3FF0000000000000ull, 0x3FF5555500000000ull, 0xBFF0000000000000ull, 0x4000000000000000ull};
  show1l("rcp.approx.ftz.f64", k_rcp64, d64); show1l("rsqrt.approx.ftz.f64", k_rsq64ftz, d64); show1l("rsqrt.approx.f64", k_rsq64, d64);
  std::vector<uint32_t> da = {0x3F800000, 0x7F800000, 0x3F800000, 0x3F800000, 0x7F000000, 0x3F800000, 0x00000001, 0x3F800000, 0x00800000, 0x7F7FFFFF, 0x40400000, 0x00000000, 0x7F800000};
  std::vector<uint32_t> db = {0x7F000000, 0x7F000000, 0x7F7FFFFF, 0x40400000, 0x00800000, 0x00000001, 0x3F800000, 0x7E800001, 0x7F000000, 0x7F7FFFFF, 0x40400000, 0x00000000, 0x7F800000};
  show2("div.approx.f32", k_divapprox, da, db); show2("div.full.f32", k_divfull, da, db); show2("div.approx.ftz.f32", k_divapproxftz, da, db); show2("div.full.ftz.f32", k_divfullftz, da, db);
  std::vector<uint32_t> sp = {0xC3020000 /*-130*/, 0xC3100000 /*-144*/, 0x80000001, 0x00000001, 0xFF800000, 0x7F800000, 0x80000000, 0xBF800000, 0x7FC01234};
  show1("ex2.approx.f32", k_ex2, sp); show1("ex2.approx.ftz.f32", k_ex2ftz, sp); show1("lg2.approx.f32", k_lg2, sp); show1("lg2.approx.ftz.f32", k_lg2ftz, sp);
  show1("sin.approx.f32", k_sin, sp); show1("sin.approx.ftz.f32", k_sinftz, sp); show1("cos.approx.f32", k_cos, sp); show1("tanh.approx.f32", k_tanh, sp);
  show1("rcp.approx.f32", k_rcp, sp); show1("rcp.approx.ftz.f32", k_rcpftz, sp); show1("rsqrt.approx.f32", k_rsqrt, sp); show1("rsqrt.approx.ftz.f32", k_rsqrtftz, sp); show1("sqrt.approx.f32", k_sqrta, sp); show1("sqrt.approx.ftz.f32", k_sqrtaftz, sp);

  show1("cvt.s8.s32", k_cvts8s32, {0xFF, 0x80, 0x7F, 0x1234}); show1("cvt.u8.s32", k_cvtu8s32, {0xFF, 0xFFFFFF80}); show1("cvt.sat.s8.s32", k_cvtsats8s32, {0xFFFFFF00, 0x100, 0x80});
  show1("cvt.rni.s8.f32", k_cvtrnis8f32, {0xC0000000, 0x43480000}); show1("cvt.s32.s8", k_cvts32s8, {0x80, 0x17F}); show1("cvt.s16.s8", k_cvts16s8, {0x80, 0x17F});
  show3("fma.rn.sat.f16", k_fmasat16, {0x8000, 0xBC00, 0x7E01}, {0x3C00, 0x3C00, 0x3C00}, {0x8000, 0, 0}); show2("add.sat.f16", (K2)k_addsat16, {0x8000, 0x8001}, {0x8000, 0});
  // ---- bulk samples ----
  const int N = 1 << 16;
  auto gen = [&](float lo, float hi) { std::vector<uint32_t> v(N); for (int i = 0; i < N; ++i) v[i] = fb(lo + (hi - lo) * (rnd() / 4294967296.0f)); return v; };
  auto genbits = [&](uint32_t mask, uint32_t orr) { std::vector<uint32_t> v(N); for (int i = 0; i < N; ++i) v[i] = (rnd() & mask) | orr; return v; };
  std::vector<uint32_t> all16(N); for (int i = 0; i < N; ++i) all16[i] = i;
  { auto a = gen(-150.f, 130.f); dump("ex2.approx.f32", a, {}, run1(k_ex2, a)); dump("ex2.approx.ftz.f32", a, {}, run1(k_ex2ftz, a)); }
  { auto a = gen(-1.f, 1.f); dump("ex2.approx.f32.small", a, {}, run1(k_ex2, a)); }
  { auto a = genbits(0x7FFFFFFF, 0); dump("lg2.approx.f32", a, {}, run1(k_lg2, a)); }
  { auto a = gen(0.5f, 2.0f); dump("lg2.approx.f32.near1", a, {}, run1(k_lg2, a)); }
  { auto a = gen(-7.f, 7.f); dump("sin.approx.f32", a, {}, run1(k_sin, a)); dump("cos.approx.f32", a, {}, run1(k_cos, a)); }
  { auto a = gen(-10.f, 10.f); dump("tanh.approx.f32", a, {}, run1(k_tanh, a)); }
  { auto a = genbits(0xFFFFFFFF, 0); dump("rcp.approx.f32", a, {}, run1(k_rcp, a)); dump("rsqrt.approx.f32", a, {}, run1(k_rsqrt, a)); dump("sqrt.approx.f32", a, {}, run1(k_sqrta, a)); }
  { auto a = genbits(0xFFFFFFFF, 0), b = genbits(0xFFFFFFFF, 0); dump("div.approx.f32", a, b, run2(k_divapprox, a, b)); dump("div.full.f32", a, b, run2(k_divfull, a, b)); }
  dump("ex2.approx.f16", all16, {}, run1(k_ex2f16, all16)); dump("tanh.approx.f16", all16, {}, run1(k_tanhf16, all16));
  dump("tanh.approx.bf16", all16, {}, run1(k_tanhbf16, all16)); dump("ex2.approx.ftz.bf16", all16, {}, run1(k_ex2bf16, all16));
  fclose(txt); fclose(bin);
  printf("done\n");
  return 0;
}
